"""Where each file of an audit's results folder lives, and which of them belong to the run.

The folder (written by engine.results.writer when an audit completes, read by engine.results.reader)::

    manifest.json                      run manifest (corpora hashes, scorer fingerprints, settings, versions)
    scores/<corpus>.csv                the generated corpus + one column per scorer × dimension ("scorer:dim")
    pairs/<corpus>.csv                 counterfactual pairs with ":privileged"/":minoritised" score columns
    stats/<statistic>.csv              tidy tables, one per registry entry (+ its extra tables, e.g. paired_pairs)
    stats/*.parquet, scores/*.parquet  the same tidy tables as parquet (typed columns, for pandas/R/Arrow);
                                       only with the 'parquet' extra (pyarrow): else manifest.json's `parquet` says so
    tables/<stat>.tex, -wide.tex, .md, .csv   rendered in the papers' layouts (the report writes the same set)
    assoc/tests.csv, assoc/word_scores.csv, assoc/fise_*.csv, tables/assoc.md|.tex|-wide.tex   association tests
    plots/<stat>.svg, plots/assoc.svg  forest plots (estimate and CI per row)
    summary.txt                        the results objects' own summaries
    report/index.html                  the HTML report (written after the folder, by engine.report)

``manifest.json`` is written last and lists every file of the run under ``files``; readers take
only those (``run_files``). Nothing is written unless the run completes, and then the folder is
replaced as a whole (engine.common.staged_folder; an earlier audit folder only with the user's
consent, engine.audit.out_folder).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import AuditError

MANIFEST = "manifest.json"
SUMMARY = "summary.txt"
SCORES, PAIRS, STATS, TABLES, ASSOC, PLOTS = "scores", "pairs", "stats", "tables", "assoc", "plots"


def is_audit_folder(folder: str | Path) -> bool:
    p = Path(folder)
    return p.is_dir() and ((p / MANIFEST).is_file() or (p / STATS).is_dir() or (p / ASSOC).is_dir())


def audit_folder_path(folder: str | Path) -> Path:
    """The folder itself (or the folder of a manifest.json given instead), checked to be an audit's."""
    out = Path(folder).expanduser()
    if not out.exists():
        raise AuditError(str(out), "folder not found", "choose the folder an audit wrote its results to")
    if not out.is_dir():
        if out.name == MANIFEST:
            out = out.parent
        else:
            raise AuditError(str(out), "is a file, not an audit folder",
                             "choose the folder that holds manifest.json and stats/")
    if not is_audit_folder(out):
        raise AuditError(str(out), "no audit results here (no manifest.json, stats/ or assoc/)",
                         "choose the folder an audit wrote (it holds manifest.json, scores/, stats/ …)")
    return out


def run_files(root: Path, manifest: dict[str, Any], sub: str, suffix: str = ".csv") -> list[Path]:
    """The files of ``root/sub`` ending in ``suffix`` that this run wrote, in name order.

    Why: a folder may hold files the run did not write (copied in, or left by an older version
    that wrote into an existing folder); a table of a statistic the run did not compute must not be
    read as its result. The manifest lists every file the run wrote (``files``, relative paths);
    a listed file that is not there is skipped (a folder shared without its score tables is still
    read). A manifest without the list (written before it existed) means every file found."""
    listed = manifest.get("files")
    if listed is None:
        return sorted(p for p in (root / sub).glob(f"*{suffix}") if p.is_file()) if (root / sub).is_dir() else []
    if not isinstance(listed, list) or not all(isinstance(f, str) for f in listed):
        raise AuditError(str(root / MANIFEST), "field 'files' should be a list of paths", "run the audit again")
    return [root / rel for rel in sorted(listed) if rel.startswith(f"{sub}/") and rel.endswith(suffix)
            and rel.count("/") == 1 and (root / rel).is_file()]


def run_file(root: Path, manifest: dict[str, Any], rel: str) -> Path | None:
    """``root/rel`` when the run wrote it (listed in the manifest, or no list) and it is there."""
    listed = manifest.get("files")
    path = root / rel
    return path if path.is_file() and (listed is None or rel in listed) else None
