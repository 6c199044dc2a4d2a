"""Read a finished audit folder back into an ``AuditResult`` (tables, scores, pairs, manifest).

Why: results outlive the process (engine/audit/run.py writes them); the GUI's "Open audit
folder", the HTML report and a notebook all need them back as the same tidy tables that
``run_audit`` returned, without re-running anything. Result *objects* (``results``) are not
stored, only their tables and ``summary.txt``.

Layout read (see engine/audit/run.py): ``manifest.json``, ``scores/<corpus>.csv``,
``pairs/<corpus>.csv``, ``stats/<table>.csv`` and the association tests' ``assoc/*.csv``
(engine/audit/assoc_step.py). A folder without a manifest or any table is refused with a
message that says what a results folder looks like.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from engine.problem_line import problem_line

from .run import AuditResult

#: assoc/<file>.csv -> the table name it is read into
ASSOC_FILES = {"tests": "assoc", "word_scores": "assoc_words", "fise_quadrants": "fise_quadrants",
               "fise_words": "fise_words"}


@dataclass
class AuditError(Exception):
    """An audit folder that cannot be read; one line with the fix, like ModelError."""

    file: str
    message: str
    fix: str = ""

    def __str__(self) -> str:
        return problem_line(self.message, self.file, fix=self.fix)


def _csv(path: Path) -> pd.DataFrame:
    try:
        return pd.read_csv(path, keep_default_na=True, low_memory=False)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise AuditError(str(path), f"not a readable CSV table ({exc})".replace("\n", " "),
                         "re-run the audit, or restore the file from a backup") from None


def is_audit_folder(folder: str | Path) -> bool:
    p = Path(folder)
    return p.is_dir() and ((p / "manifest.json").is_file() or (p / "stats").is_dir() or (p / "assoc").is_dir())


def read_audit(folder: str | Path) -> AuditResult:
    """The tables of an audit folder (``stats/*.csv`` and ``assoc/*.csv``), scores, pairs and manifest."""
    out = Path(folder).expanduser()
    if not out.exists():
        raise AuditError(str(out), "folder not found", "choose the folder an audit wrote its results to")
    if not out.is_dir():
        if out.name == "manifest.json":
            out = out.parent
        else:
            raise AuditError(str(out), "is a file, not an audit folder",
                             "choose the folder that holds manifest.json and stats/")
    if not is_audit_folder(out):
        raise AuditError(str(out), "no audit results here (no manifest.json, stats/ or assoc/)",
                         "choose the folder an audit wrote (it holds manifest.json, scores/, stats/ …)")
    result = AuditResult(out)
    man = out / "manifest.json"
    if man.is_file():
        try:
            result.manifest = json.loads(man.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AuditError(str(man), f"cannot be read ({exc})", "re-run the audit to write it again") from None
    result.problems = list(result.manifest.get("problems", []) or [])
    for sub, target in (("scores", result.scores), ("pairs", result.pairs)):
        for path in sorted((out / sub).glob("*.csv")):
            target[path.stem] = _csv(path)
    for path in sorted((out / "stats").glob("*.csv")):
        result.tables[path.stem] = _csv(path)
    for path in sorted((out / "assoc").glob("*.csv")):
        result.tables[ASSOC_FILES.get(path.stem, f"assoc_{path.stem}")] = _csv(path)
    if not (result.tables or result.scores):
        raise AuditError(str(out), "the audit folder holds no result tables",
                         "the audit may have been cancelled before it finished; run it again")
    return result
