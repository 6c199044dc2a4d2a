"""The one reader of an audit's results folder (layout: engine.results.layout).

Why one: the GUI's *Open audit folder…*, the HTML report and a notebook must agree on what a valid
folder is and on which files belong to the run. ``read_folder`` returns everything a folder holds
(``ResultsFolder``: the tidy tables, the manifest, and the files the report reuses as they are);
``read_audit`` gives the same tables as the ``AuditResult`` that ``run_audit`` returned, without
re-running anything. Result *objects* are not stored, only their tables and ``summary.txt``.

Why strict: the folder is often read later, on another machine, after someone copied or edited
it. Every file is checked (size, UTF-8, JSON or CSV that parses, the columns readers rely on),
and each problem is one AuditError naming the file and the fix — never a pandas traceback. A
folder without a manifest or any table is refused with a message that says what a results folder
looks like.
"""
from __future__ import annotations

from engine.common.command import command

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from engine.stats import registry

from .errors import AuditError
from .layout import ASSOC, MANIFEST, PAIRS, SCORES, STATS, SUMMARY, TABLES, audit_folder_path, run_file, run_files
from .result import AuditResult
from .table_file import MAX_TABLE, read_table, read_text_file  # noqa: F401 - the reader's, re-exported

MAX_MANIFEST = 16 * 1024 * 1024


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
    if "files" in manifest and (not isinstance(manifest["files"], list)
                                or not all(isinstance(f, str) for f in manifest["files"])):
        raise AuditError(str(path), "field 'files' should be a list of paths", "run the audit again")
    return manifest


@dataclass
class ResultsFolder:
    """Everything a results folder holds that belongs to its run (only files the manifest lists)."""

    path: Path
    manifest: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # table id -> tidy frame (stats/, assoc/)
    scores: dict[str, pd.DataFrame] = field(default_factory=dict)  # corpus id -> scored sentences (load_scores)
    pairs: dict[str, pd.DataFrame] = field(default_factory=dict)  # corpus id -> counterfactual pairs (load_scores)
    score_files: dict[str, Path] = field(default_factory=dict)  # corpus id -> scores/<corpus>.csv
    data_files: list[Path] = field(default_factory=list)  # every stats/*.csv and assoc/*.csv (tidy tables)
    latex: dict[str, str] = field(default_factory=dict)  # tables/<stat>.tex as the audit wrote them
    markdown: dict[str, str] = field(default_factory=dict)  # tables/<stat>.md
    summary: str = ""  # summary.txt

    @property
    def stats(self) -> dict[str, pd.DataFrame]:
        """The statistics' own tables, in the registry's order."""
        return {name: self.tables[name] for name in registry.ids() if name in self.tables}

    @property
    def assoc(self) -> pd.DataFrame | None:
        return self.tables.get("assoc")

    @property
    def corpora(self) -> dict[str, dict[str, Any]]:
        c = self.manifest.get("corpora")
        return c if isinstance(c, dict) else {}

    @property
    def scorers(self) -> dict[str, dict[str, Any]]:
        s = self.manifest.get("scorers")
        return s if isinstance(s, dict) else {}

    def as_result(self) -> AuditResult:
        """The same tables as the ``AuditResult`` that ``run_audit`` returned."""
        return AuditResult(self.path, scores=dict(self.scores), pairs=dict(self.pairs), tables=dict(self.tables),
                           manifest=self.manifest, problems=list(self.problems))


def read_folder(folder: str | Path, *, load_scores: bool = True, need_manifest: bool = False) -> ResultsFolder:
    """Read and check an audit folder (or the folder of a manifest.json given instead).

    ``load_scores=False`` leaves the per-sentence score and pair tables (the largest files) unread
    (their paths are still in ``score_files``). ``need_manifest``: refuse a folder without
    manifest.json (the report takes the corpora, models and versions from it)."""
    root = Path(folder).expanduser()
    if need_manifest and root.is_dir() and not (root / MANIFEST).is_file():
        raise AuditError(str(root), "no manifest.json: this is not an audit output folder",
                         f"give the --out folder of `{command('audit')}` (or `{command('demo')}`'s audit/ folder)")
    root = audit_folder_path(root)
    out = ResultsFolder(root)
    if (root / MANIFEST).is_file():
        out.manifest = read_manifest(root / MANIFEST)
    man = out.manifest
    out.problems = [str(p) for p in man.get("problems", []) or []]
    out.score_files = {p.stem: p for p in run_files(root, man, SCORES)}
    if load_scores:
        out.scores = {cid: read_table(p) for cid, p in out.score_files.items()}
        out.pairs = {p.stem: read_table(p) for p in run_files(root, man, PAIRS)}
    for path in run_files(root, man, STATS):
        out.tables[path.stem] = read_table(path, registry.needed_columns(path.stem))
    assoc_files = registry.assoc_file_tables()
    for path in run_files(root, man, ASSOC):
        name = assoc_files.get(path.stem, f"assoc_{path.stem}")
        out.tables[name] = read_table(path, registry.needed_columns(name))
    out.data_files = run_files(root, man, STATS) + run_files(root, man, ASSOC)
    if not (out.tables or out.score_files):
        raise AuditError(str(root), "the audit folder holds no result tables",
                         "the audit may have been cancelled before it finished; run it again")
    known = set(registry.ids())
    for suffix, store in ((".tex", out.latex), (".md", out.markdown)):
        for p in run_files(root, man, TABLES, suffix):
            if p.stem in known:
                store[p.stem] = read_text_file(p)
    summary = run_file(root, man, SUMMARY)
    if summary is not None:
        out.summary = read_text_file(summary)
    return out


def read_audit(folder: str | Path, *, load_scores: bool = True) -> AuditResult:
    """The tables of an audit folder (``stats/*.csv`` and ``assoc/*.csv``), scores, pairs and manifest,
    as an ``AuditResult`` (``read_folder`` for the files a report reuses)."""
    return read_folder(folder, load_scores=load_scores).as_result()
