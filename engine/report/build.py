"""Build the audit report folder: one self-contained HTML file plus the tables as files.

    build_report("runs/audit1", "runs/audit1/report")   # -> runs/audit1/report/index.html

Output folder:
    index.html               tables with significance stars, charts as inline SVG, the run
                             manifest and the datasheet of every corpus — no network needed
    tables/<stat>.tex|-wide.tex|.md|.csv   the statistics in the papers' layouts (LaTeX
                             booktabs for one column of a two-column paper and across the
                             page, Markdown, CSV with stars as text) — the audit folder's set
    data/<name>.csv          the tidy statistics tables of the audit (stats/*.csv, assoc/*.csv as assoc_*.csv)
    datasheets/<corpus>.md   the corpus datasheets (the README.md of a corpus package)
    manifest.json            the audit's run manifest, unchanged
    .eec-report              marks the folder as ours, so building again may replace it

Why a staging folder: the report is written next to its destination and renamed into
place, so a failure leaves the previous report or none, never half of one. A destination
that exists and is not an earlier report is replaced only with ``overwrite=True`` or a yes
from ``confirm`` (the CLI's prompt, the GUI's dialog).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Optional

from engine.common.staged_folder import staged_folder
from engine.results.reader import read_folder

from .errors import ReportError, reading_audit
from .key_results import key_results
from .render import datasheets, layout_tables, render_html

Confirm = Optional[Callable[[str], bool]]
MARKER = ".eec-report"
REPORT = "index.html"


# ----------------------------------------------------------------------------- output folder
def _check_destination(out: Path, audit: Path, overwrite: bool, confirm: Confirm) -> None:
    """Return when ``out`` is new or may be replaced; raise when that is not allowed."""
    a, o = audit.resolve(), out.resolve()
    if o == a or o in a.parents:
        raise ReportError(str(out), "the report folder would replace the audit folder it is built from",
                          fix="choose a new folder, e.g. AUDIT_DIR/report")
    if not (out.exists() or out.is_symlink()):
        return
    if out.is_symlink() or not out.is_dir():
        raise ReportError(str(out), "exists and is not a folder", fix="choose another --out folder")
    if (out / MARKER).is_file() or not any(out.iterdir()):
        return
    if overwrite or (confirm is not None and confirm(f"{out} exists and is not an EEC Studio report. Replace it?")):
        return
    raise ReportError(str(out), "folder exists and is not an earlier report; nothing was changed",
                      fix="pass --overwrite to replace it, or choose another --out folder")


def _write(root: Path, rel: str, data: bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:  # plain open: the staging folder is renamed into place as a whole
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def build_report(audit_dir: str | os.PathLike, out_dir: str | os.PathLike, *, overwrite: bool = False,
                 confirm: Confirm = None) -> Path:
    """Write the report of the audit in ``audit_dir`` into ``out_dir``; returns the path of index.html."""
    from engine.package.version import app_version
    from engine.stats.present.render import statistic_files

    with reading_audit():  # the one reader (engine.results): every check, only the files of the run
        folder = read_folder(audit_dir, load_scores=False, need_manifest=True)
    out = Path(out_dir)
    _check_destination(out, Path(audit_dir), overwrite, confirm)  # staged_folder then replaces it as a whole
    layouts = {name: layout_tables(name, frame) for name, frame in folder.stats.items()}
    results = key_results(folder)
    sheets = datasheets(folder)
    html = render_html(folder, sheets, layouts, results)

    files: dict[str, bytes] = {REPORT: html.encode("utf-8")}
    for name, (main, extra, _problem) in layouts.items():
        if main or extra:  # the same set of table files as the audit folder's (statistic_files)
            files.update(statistic_files(name, folder.stats[name]))
        elif name in folder.latex:  # our layout failed: keep what the audit rendered
            files[f"tables/{name}.tex"] = folder.latex[name].encode("utf-8")
    for p in folder.data_files:
        files[f"data/{'assoc_' if p.parent.name == 'assoc' else ''}{p.name}"] = p.read_bytes()
    for cid, doc, _warning in sheets:
        if doc is not None:
            files[f"datasheets/{cid}.md"] = doc.to_markdown().encode("utf-8")
    files["manifest.json"] = (json.dumps(folder.manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    files[MARKER] = (json.dumps({"kind": "eec-studio audit report", "app_version": app_version(),
                                 "audit": str(Path(audit_dir).resolve())}) + "\n").encode("utf-8")

    with staged_folder(out, tag="building") as staging:
        for rel, data in files.items():
            _write(staging, rel, data)
    return out / REPORT
