"""Write an audit's results folder (layout: engine.results.layout).

Why files: results outlive the process, a colleague opens them in pandas or R, and the report
and the GUI's *Open audit folder…* read them back (engine.results.reader). Every file is written
atomically, into a staging folder that replaces the destination as a whole when the run completes
(engine.common.staged_folder, driven by the pipeline); the manifest comes last and lists them all.
"""
from __future__ import annotations

import io
import os
import json
from pathlib import Path
from typing import Any

import pandas as pd

from engine.common import extras
from engine.common.csv_cells import csv_text
from engine.common.io import atomic_write_bytes
from engine.stats import registry

from .layout import MANIFEST, PAIRS, PLOTS, SCORES, STATS, SUMMARY, TABLES
from .plots import write_plots
from .result import AuditResult

#: why an audit folder has no parquet copies (manifest.json's ``parquet``; the demo's closing lines)
PARQUET_MISSING = (f"the 'parquet' extra is not installed ({extras.install_command('parquet')}); "
                   "the CSV tables are complete")


def write_results(result: AuditResult, out: Path, *, processes: int = 1) -> None:
    """The whole folder: every table, plot and summary of ``result``, the association tests' tables,
    then the manifest that lists them. ``processes`` above 1: the paper tables are laid out in a
    second process meanwhile (``write_outputs``)."""
    write_outputs(result, out, processes=processes)
    write_assoc_tables(out, result.tables)
    overview = result.assoc_overview
    if overview is not None and len(overview):
        for rel, data in assoc_files(overview).items():
            atomic_write_bytes(out / rel, data)
    write_manifest(result, out)


def write_outputs(result: AuditResult, out: Path, *, processes: int = 1) -> None:
    """Every table, plot and summary of ``result`` into ``out`` (the manifest comes last: write_manifest).

    With ``processes`` above 1, where a child can be forked, the statistics' paper tables are laid
    out and the results' summaries made in a child (the executor's ``ForkedCall``) while this process
    writes the corpora's files and the tidy tables: laying them out was about half of the serial writing at the end of an audit in
    two processes (0.26 of 0.57 s for the four English corpora, issue 42). Same files, same order of
    problems."""
    out.mkdir(parents=True, exist_ok=True)
    names = list(result.results)
    laid_out = _layouts_beside(names, result) if processes > 1 else None
    try:
        _write_corpora_and_tables(result, out)
        beside = _collect(laid_out) if laid_out is not None else None
    except BaseException:  # a full disk, Ctrl+C: the child is not left waiting to hand its tables over
        if laid_out is not None:
            laid_out.kill()
        raise
    # one process, no child could be forked, or it ended without its result: made here
    layouts, summaries = beside or ([_layout_files(n, result.tables.get(n)) for n in names], None)
    for files in layouts:
        _write_layouts(files, result, out)
    write_plots(result.tables, out / PLOTS)
    atomic_write_bytes(out / SUMMARY, result.summary(summaries).encode("utf-8"))


def _write_corpora_and_tables(result: AuditResult, out: Path) -> None:
    """Each corpus's files and each statistic's tidy table (CSV, and parquet with the extra)."""
    for cid in result.scores:
        files = result.rendered.pop(cid, None) or corpus_files(result, cid)
        for rel, data in files.items():
            if isinstance(data, Path):  # written as the audit went (spill_corpus): moved in, not read
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
                os.replace(data, out / rel)
            else:
                atomic_write_bytes(out / rel, data)
    assoc_ids = {t.id for t in registry.ASSOC_TABLES}
    for name, df in result.tables.items():
        if name in assoc_ids:
            continue  # association tests live under assoc/ (write_assoc_tables)
        atomic_write_bytes(out / STATS / f"{name}.csv", csv_text(df).encode("utf-8"))
        _write_parquet(df, out / STATS / f"{name}.parquet", result)


def corpus_files(result: AuditResult, cid: str) -> dict[str, bytes]:
    """{relative path: bytes} of one corpus's files (scores/<id>.csv|.parquet, pairs/<id>.csv).

    Why separate from writing: an audit in several processes renders them ahead of writing, in
    the process that computes the corpus's statistics (engine.audit.analysis) or while its workers
    still score the next corpora (`AuditResult.rendered`); the files are still written only when the
    whole run completes."""
    files = {}
    df = result.scores[cid]
    files[f"{SCORES}/{cid}.csv"] = csv_text(df).encode("utf-8")  # formula-safe (engine.common.csv_cells)
    parquet = _parquet_bytes(df, f"{cid}.parquet", result)
    if parquet is not None:
        files[f"{SCORES}/{cid}.parquet"] = parquet
    if cid in result.pairs:
        files[f"{PAIRS}/{cid}.csv"] = csv_text(result.pairs[cid]).encode("utf-8")
    return files


def spill_corpus(result: AuditResult, cid: str, folder: Path) -> None:
    """Write one corpus's files (those of ``corpus_files``, byte for byte) into ``folder`` now, and let
    the result hold their places instead of the frames (``Spilled``; read back on access).

    Why: a corpus of a million sentences held until the whole run is written kept every earlier
    corpus's frames in memory beside the next one's; written as the audit goes, the memory a run
    needs stays that of its largest corpus. The files are moved into the results folder when it is
    written (same file system: ``folder`` sits beside it)."""
    from .result import Spilled

    files: dict[str, Path] = {}
    df = result.scores[cid]
    rel = f"{SCORES}/{cid}.csv"
    (folder / SCORES).mkdir(parents=True, exist_ok=True)
    csv_text(df, path_or_buf=folder / rel)  # formula-safe, as corpus_files writes it (straight to the file)
    files[rel] = folder / rel
    parquet = _parquet_bytes(df, f"{cid}.parquet", result)
    if parquet is not None:
        files[f"{SCORES}/{cid}.parquet"] = folder / SCORES / f"{cid}.parquet"
        atomic_write_bytes(files[f"{SCORES}/{cid}.parquet"], parquet)
    del df, parquet
    result.scores[cid] = Spilled(folder, rel)
    if cid in result.pairs:
        prel = f"{PAIRS}/{cid}.csv"
        (folder / PAIRS).mkdir(parents=True, exist_ok=True)
        csv_text(result.pairs[cid], path_or_buf=folder / prel)
        files[prel] = folder / prel
        result.pairs[cid] = Spilled(folder, prel)
    result.rendered[cid] = files


def write_assoc_tables(out: str | Path, tables: dict[str, pd.DataFrame]) -> None:
    """The association tables under ``out/assoc/`` (file names from the statistics registry)."""
    for t in registry.ASSOC_TABLES:
        frame = tables.get(t.id)
        if frame is not None:
            atomic_write_bytes(Path(out) / t.folder / f"{t.file}.csv", csv_text(frame).encode("utf-8"))


def assoc_files(df: pd.DataFrame) -> dict[str, bytes]:
    """tables/assoc.md, assoc.tex (one column of a two-column paper) and assoc-wide.tex (table* across
    the page) of the association tests' overview, as every statistic's paper tables are written."""
    from engine.stats.present import latex, markdown
    from engine.stats.present.tables import association_tables

    page, column = association_tables(df, width="page"), association_tables(df, width="column")
    return {f"{TABLES}/assoc.md": markdown.render_all(page).encode("utf-8"),
            f"{TABLES}/assoc.tex": latex.render_all(column, label="tab:assoc").encode("utf-8"),
            f"{TABLES}/assoc-wide.tex": latex.render_all(page, label="tab:assoc-wide", wide=True).encode("utf-8")}


def assoc_markdown(df: pd.DataFrame) -> str:
    """The association tests' overview as a Markdown table (tables/assoc.md; the CLI prints it)."""
    from engine.stats.present import markdown
    from engine.stats.present.tables import association_tables

    return markdown.render_all(association_tables(df, width="page"))


def _layout_files(name: str, frame: pd.DataFrame | None) -> dict[str, bytes] | str:
    """tables/<stat>.tex|-wide.tex|.md|.csv: the statistic's whole tidy table in its paper layouts
    (engine.stats.present.render.statistic_files, the same set the report writes), so that one logical
    table (e.g. one corpus × axis) is one LaTeX float, whatever the number of models; or the problem
    line when the table cannot be laid out."""
    from engine.stats.present.render import statistic_files

    if frame is None or not len(frame) or registry.get(name).tables is None:
        return {}  # no rows, or a statistic without a paper layout (its CSV is the table)
    try:
        return statistic_files(name, frame)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"table layout for {name}: {exc}"


def _layouts_beside(names: list[str], result: AuditResult) -> Any:
    """``_layout_files`` of each statistic and the results' summaries, computed in a forked child, or
    None where none can be forked. (With the summaries there, the child and this process, writing
    the corpora's files and the tidy tables meanwhile, take about as long: 0.2 s each, four corpora.)"""
    from engine.common.executor import can_fork

    if not can_fork() or not names:
        return None
    from engine.common.executor.forked_call import ForkedCall

    return ForkedCall(_beside, names, result)  # (the child has the result as it is now: nothing is pickled)


def _beside(names: list[str], result: AuditResult) -> tuple[list[dict[str, bytes] | str], list[str]]:
    return [_layout_files(n, result.tables.get(n)) for n in names], result.result_summaries()


def _collect(call: Any) -> tuple[list[dict[str, bytes] | str], list[str]] | None:
    from engine.common.executor.forked_call import ForkedCallFailed

    try:
        return call.result()
    except ForkedCallFailed:  # killed (memory): laid out here instead
        return None


def _write_layouts(files: dict[str, bytes] | str, result: AuditResult, out: Path) -> None:
    """A statistic's paper-table files (``_layout_files``), or its problem on record."""
    if isinstance(files, str):
        result.problems.append(files)
        return
    for rel, data in files.items():
        atomic_write_bytes(out / rel, data)


def write_manifest(result: AuditResult, out: Path) -> None:
    """manifest.json, written last: it lists every file of the folder (``files``), which is what
    the readers take as this run's results (engine.results.layout.run_files). Without the 'parquet'
    extra the tables are CSV only, and ``parquet`` says why (the readers read the CSV files)."""
    from engine.common.messages import Told

    # the English (the summary, the report, a reader of the file), and each problem as data where it
    # keeps its message (engine.audit.problems): the GUI shows it in its language
    result.manifest["problems"] = [str(p) for p in result.problems]
    result.manifest["problem_messages"] = [p.said.as_data() if isinstance(p, Told) else None
                                           for p in result.problems]
    if not extras.available("parquet"):
        result.manifest["parquet"] = f"not written: {PARQUET_MISSING}"
    result.manifest["files"] = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                                      if p.is_file() and p.name != MANIFEST)
    atomic_write_bytes(out / MANIFEST, json.dumps(result.manifest, indent=2, ensure_ascii=False,
                                                  default=str).encode("utf-8"))


def _write_parquet(df: pd.DataFrame, path: Path, result: AuditResult) -> None:
    data = _parquet_bytes(df, path.name, result)
    if data is not None:
        atomic_write_bytes(path, data)


def _parquet_bytes(df: pd.DataFrame, name: str, result: AuditResult) -> bytes | None:
    """Parquet copy of a tidy table; mixed-type object columns are written as text. None without
    pyarrow: the CSV copy is the table, and the manifest says once why there is no parquet."""
    if not extras.available("parquet"):
        return None
    frame = df.copy()
    for col in frame.columns:
        if frame[col].dtype == object:
            kinds = {type(v) for v in frame[col].dropna()}
            if len(kinds) > 1 or (kinds and not kinds <= {str}):
                frame[col] = frame[col].map(lambda v: v if v is None or (isinstance(v, float) and v != v) else str(v))
    buf = io.BytesIO()
    try:
        frame.to_parquet(buf, index=False)
    except (ImportError, ValueError, TypeError) as exc:  # pyarrow missing or an odd column: CSV still stands
        result.problems.append(f"parquet for {name}: {exc}")
        return None
    return buf.getvalue()
