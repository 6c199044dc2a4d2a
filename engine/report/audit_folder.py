"""Read an audit output folder (engine.audit.run's contract) without trusting it.

Why a reader of its own: the report is often built later, on another machine, from a
folder someone copied or edited. Every file it uses is checked (present, size, UTF-8, JSON
or CSV that parses, the columns the report needs) and each problem is one ReportError
naming the file. Optional parts (a statistic that was not run, scores, LaTeX tables) are
simply absent from the result.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import ReportError

MANIFEST = "manifest.json"
STATS = ("beta", "paired", "counterfactual")
MAX_MANIFEST = 16 * 1024 * 1024
MAX_TABLE = 256 * 1024 * 1024
NEEDED = {"beta": ["corpus", "model", "emotion", "test", "subset", "term", "p_value"],
          "paired": ["corpus", "model", "emotion", "test", "axis", "subset", "mean_delta", "p_value"],
          "counterfactual": ["corpus", "model", "emotion", "test", "mean_diff", "t_p_value"]}


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


def _read_text(path: Path, limit: int) -> str:
    try:
        size = path.stat().st_size
        if size > limit:
            raise ReportError(str(path), f"file is {size:,} bytes, over the {limit:,}-byte limit",
                              fix="is this really an audit output folder?")
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReportError(str(path), f"not UTF-8 text (byte {exc.start})", fix="run the audit again") from None
    except OSError as exc:
        raise ReportError(str(path), f"cannot read file ({exc.strerror or exc})") from None


def read_audit(audit_dir: str | Path) -> AuditFolder:
    root = Path(audit_dir)
    if not root.exists():
        raise ReportError(str(root), "folder not found", fix="give the --out folder of `main.py audit`")
    if not root.is_dir():
        raise ReportError(str(root), "is not a folder", fix="give the --out folder of `main.py audit`")
    mpath = root / MANIFEST
    if not mpath.is_file():
        raise ReportError(str(root), "no manifest.json: this is not an audit output folder",
                          fix="give the --out folder of `main.py audit` (or `main.py demo`'s audit/ folder)")
    try:
        manifest = json.loads(_read_text(mpath, MAX_MANIFEST))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ReportError(str(mpath), f"not valid JSON ({getattr(exc, 'msg', exc)})",
                          fix="run the audit again; do not edit manifest.json by hand") from None
    if not isinstance(manifest, dict):
        raise ReportError(str(mpath), "expected a JSON object", fix="run the audit again")
    for key, kind in (("corpora", dict), ("scorers", dict)):
        if key in manifest and not isinstance(manifest[key], kind):
            raise ReportError(str(mpath), f"field {key!r} should be an object", fix="run the audit again")
    folder = AuditFolder(root, manifest)
    stats_dir = root / "stats"
    if stats_dir.is_dir():
        for p in sorted(stats_dir.glob("*.csv")):
            if p.is_file():
                folder.data_files.append(p)
        for name in STATS:
            p = stats_dir / f"{name}.csv"
            if p.is_file():
                folder.stats[name] = read_table(p, NEEDED[name])
    tables_dir = root / "tables"
    for name in STATS:
        for suffix, store in ((".tex", folder.latex), (".md", folder.markdown)):
            p = tables_dir / f"{name}{suffix}"
            if p.is_file():
                store[name] = _read_text(p, MAX_TABLE)
    assoc_dir = root / "assoc"
    if assoc_dir.is_dir():
        for p in sorted(assoc_dir.glob("*.csv")):
            if p.is_file():
                folder.data_files.append(p)
        if (assoc_dir / "tests.csv").is_file():
            folder.assoc = read_table(assoc_dir / "tests.csv", ["test", "effect_size", "p_value"])
    scores_dir = root / "scores"
    if scores_dir.is_dir():
        for p in sorted(scores_dir.glob("*.csv")):
            if p.is_file():
                folder.scores[p.stem] = p
    if (root / "summary.txt").is_file():
        folder.summary = _read_text(root / "summary.txt", MAX_TABLE)
    return folder


def read_table(path: Path, needed: list[str] | None = None, usecols=None) -> pd.DataFrame:
    try:
        if path.stat().st_size > MAX_TABLE:
            raise ReportError(str(path), "table is too large for a report", fix="is this an audit output folder?")
        frame = pd.read_csv(path, usecols=usecols, keep_default_na=True)
    except ReportError:
        raise
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError, OSError) as exc:
        raise ReportError(str(path), f"not a readable CSV table ({type(exc).__name__}: {str(exc)[:160]})",
                          fix="run the audit again") from None
    missing = [c for c in needed or [] if c not in frame.columns]
    if missing:
        raise ReportError(str(path), f"the table lacks column {missing[0]!r}",
                          fix="it was not written by this version's audit; run the audit again")
    return frame
