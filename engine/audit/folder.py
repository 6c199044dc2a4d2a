"""Read a finished audit folder back into an ``AuditResult`` (tables, scores, pairs, manifest).

Why: results outlive the process (engine/audit/pipeline.py writes them); the GUI's "Open audit
folder", the HTML report (engine/report/audit_folder.py) and a notebook all need them back as
the same tidy tables that ``run_audit`` returned, without re-running anything. Result *objects*
(``results``) are not stored, only their tables and ``summary.txt``.

Why strict: the folder is often read later, on another machine, after someone copied or edited
it. Every file is checked (size, UTF-8, JSON or CSV that parses, the columns readers rely on),
and each problem is one AuditError naming the file and the fix — never a pandas traceback.

Layout read (see engine/audit/pipeline.py): ``manifest.json``, ``scores/<corpus>.csv``,
``pairs/<corpus>.csv``, ``stats/<table>.csv`` and the association tests' ``assoc/*.csv``
(engine/audit/assoc_step.py). A folder without a manifest or any table is refused with a
message that says what a results folder looks like.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from engine.common.errors import UserError
from engine.stats import registry

from .result import AuditResult

MAX_MANIFEST = 16 * 1024 * 1024
MAX_TABLE = 256 * 1024 * 1024


@dataclass
class AuditError(UserError):
    """An audit folder that cannot be read; one line with the fix, like ModelError."""

    file: str
    message: str
    fix: str = ""


def read_text_file(path: Path, limit: int = MAX_TABLE) -> str:
    """A UTF-8 file of at most `limit` bytes, or an AuditError that says what is wrong with it."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise AuditError(str(path), f"file is {size:,} bytes, over the {limit:,}-byte limit",
                             "is this really an audit output folder?")
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AuditError(str(path), f"not UTF-8 text (byte {exc.start})", "run the audit again") from None
    except OSError as exc:
        raise AuditError(str(path), f"cannot read file ({exc.strerror or exc})") from None


def read_table(path: Path, needed: list[str] | None = None, usecols: Any = None) -> pd.DataFrame:
    """A CSV table of an audit folder; an empty file is an empty table, a broken one an AuditError."""
    try:
        if path.stat().st_size > MAX_TABLE:
            raise AuditError(str(path), "table is too large to read", "is this an audit output folder?")
        frame = pd.read_csv(path, usecols=usecols, keep_default_na=True, low_memory=False)
    except AuditError:
        raise
    except pd.errors.EmptyDataError:
        frame = pd.DataFrame()
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError, OSError) as exc:
        raise AuditError(str(path), f"not a readable CSV table ({type(exc).__name__}: {str(exc)[:160]})"
                         .replace("\n", " "), "run the audit again, or restore the file from a backup") from None
    missing = [c for c in needed or [] if c not in frame.columns]
    if missing and len(frame.columns):
        raise AuditError(str(path), f"the table lacks column {missing[0]!r}",
                         "it was not written by this version's audit; run the audit again")
    return frame


def read_manifest(path: Path) -> dict[str, Any]:
    """manifest.json as a dict, checked for the fields readers index into."""
    try:
        manifest = json.loads(read_text_file(path, MAX_MANIFEST))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise AuditError(str(path), f"not valid JSON ({getattr(exc, 'msg', exc)})",
                         "run the audit again; do not edit manifest.json by hand") from None
    if not isinstance(manifest, dict):
        raise AuditError(str(path), "expected a JSON object", "run the audit again")
    for key in ("corpora", "scorers", "plan"):
        if key in manifest and not isinstance(manifest[key], dict):
            raise AuditError(str(path), f"field {key!r} should be an object", "run the audit again")
    if "problems" in manifest and not isinstance(manifest["problems"], list):
        raise AuditError(str(path), "field 'problems' should be a list", "run the audit again")
    return manifest


def is_audit_folder(folder: str | Path) -> bool:
    p = Path(folder)
    return p.is_dir() and ((p / "manifest.json").is_file() or (p / "stats").is_dir() or (p / "assoc").is_dir())


def audit_folder_path(folder: str | Path) -> Path:
    """The folder itself (or the folder of a manifest.json given instead), checked to be an audit's."""
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
    return out


def csv_files(folder: Path) -> list[Path]:
    """The CSV tables directly in `folder` (none when it does not exist), in name order."""
    return sorted(p for p in folder.glob("*.csv") if p.is_file()) if folder.is_dir() else []


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
        raise AuditError(str(root / "manifest.json"), "field 'files' should be a list of paths", "run the audit again")
    return [root / rel for rel in sorted(listed) if rel.startswith(f"{sub}/") and rel.endswith(suffix)
            and rel.count("/") == 1 and (root / rel).is_file()]


def read_audit(folder: str | Path, *, load_scores: bool = True) -> AuditResult:
    """The tables of an audit folder (``stats/*.csv`` and ``assoc/*.csv``), scores, pairs and manifest.

    ``load_scores=False`` skips the per-sentence score and pair tables (the largest files) for
    readers that need only the statistics."""
    out = audit_folder_path(folder)
    result = AuditResult(out)
    man = out / "manifest.json"
    if man.is_file():
        result.manifest = read_manifest(man)
    result.problems = [str(p) for p in result.manifest.get("problems", []) or []]
    if load_scores:
        for sub, target in (("scores", result.scores), ("pairs", result.pairs)):
            for path in run_files(out, result.manifest, sub):
                target[path.stem] = read_table(path)
    for path in run_files(out, result.manifest, "stats"):
        result.tables[path.stem] = read_table(path, registry.needed_columns(path.stem))
    assoc_files = registry.assoc_file_tables()
    for path in run_files(out, result.manifest, "assoc"):
        name = assoc_files.get(path.stem, f"assoc_{path.stem}")
        result.tables[name] = read_table(path, registry.needed_columns(name))
    if not (result.tables or result.scores or run_files(out, result.manifest, "scores")):
        raise AuditError(str(out), "the audit folder holds no result tables",
                         "the audit may have been cancelled before it finished; run it again")
    return result
