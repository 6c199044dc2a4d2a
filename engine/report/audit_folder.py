"""The report's view of an audit folder: engine.audit.folder's checked tables plus the files a
report reuses as they are (LaTeX and Markdown tables, summary.txt, the score files' paths).

Why no reader of its own: the report, the GUI and notebooks must agree on what a valid audit
folder is; engine.audit.folder does every check (sizes, UTF-8, JSON, needed columns). This
module only adds what a report needs on top, and turns the reader's AuditError into the
report's ReportError (same file, message and fix). A report also insists on manifest.json: it
is where the corpora, models and versions of the datasheet come from.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pandas as pd

from engine.audit import folder as core
from engine.stats import registry

from .errors import ReportError

MANIFEST = "manifest.json"


@dataclass
class AuditFolder:
    path: Path
    manifest: dict[str, Any]
    stats: dict[str, pd.DataFrame] = field(default_factory=dict)  # beta / paired / counterfactual
    data_files: list[Path] = field(default_factory=list)  # every stats/*.csv and assoc/*.csv (tidy tables)
    latex: dict[str, str] = field(default_factory=dict)  # tables/<stat>.tex as the audit wrote them
    markdown: dict[str, str] = field(default_factory=dict)
    scores: dict[str, Path] = field(default_factory=dict)  # corpus id -> scores/<corpus>.csv
    assoc: pd.DataFrame | None = None  # assoc/tests.csv: WEAT/SEAT/LPBS rows (engine/audit/assoc_step.py)
    summary: str = ""

    @property
    def corpora(self) -> dict[str, dict[str, Any]]:
        c = self.manifest.get("corpora")
        return c if isinstance(c, dict) else {}

    @property
    def scorers(self) -> dict[str, dict[str, Any]]:
        s = self.manifest.get("scorers")
        return s if isinstance(s, dict) else {}


@contextmanager
def _as_report_error() -> Iterator[None]:
    try:
        yield
    except core.AuditError as exc:
        raise ReportError(exc.file, exc.message, fix=exc.fix) from None


def read_audit(audit_dir: str | Path) -> AuditFolder:
    root = Path(audit_dir).expanduser()
    if root.is_dir() and not (root / MANIFEST).is_file():
        raise ReportError(str(root), "no manifest.json: this is not an audit output folder",
                          fix="give the --out folder of `main.py audit` (or `main.py demo`'s audit/ folder)")
    with _as_report_error():
        root = core.audit_folder_path(root)  # missing, or a file: the reader's own messages
        result = core.read_audit(root, load_scores=False)
        folder = AuditFolder(root, result.manifest)
        folder.stats = {name: result.tables[name] for name in registry.ids() if name in result.tables}
        folder.assoc = result.tables.get("assoc")
        man = result.manifest  # only the files this run wrote (core.run_files), never a stale one beside them
        folder.data_files = core.run_files(root, man, "stats") + core.run_files(root, man, "assoc")
        folder.scores = {p.stem: p for p in core.run_files(root, man, "scores")}
        for suffix, store in ((".tex", folder.latex), (".md", folder.markdown)):
            for p in core.run_files(root, man, "tables", suffix):
                if p.stem in registry.ids():
                    store[p.stem] = core.read_text_file(p)
        if (root / "summary.txt").is_file() and ("files" not in man or "summary.txt" in man["files"]):
            folder.summary = core.read_text_file(root / "summary.txt")
    return folder


def read_table(path: Path, needed: list[str] | None = None, usecols: Any = None) -> pd.DataFrame:
    """engine.audit.folder.read_table, with its errors as ReportError."""
    with _as_report_error():
        return core.read_table(path, needed, usecols)
