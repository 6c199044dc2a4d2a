"""Import a package into a workspace folder, all or nothing.

Why this order: the package is verified completely in memory first (verify.py); only then
is anything written, and only inside ``dest``: the members go to a fresh staging folder
next to the target, are fsynced, and the staging folder is renamed into place
(engine.common.staged_folder). An existing
corpus folder is replaced only with ``overwrite=True`` or a yes from ``confirm``, and is
moved aside until the new one is in place, so a failure at any point leaves either the old
corpus or the new one, never a mix. Member names were checked against the fixed layout,
and each write is checked again to resolve inside the staging folder.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.common.staged_folder import staged_folder
from engine.common.user_dirs import user_corpus_dir
from engine.corpus.definition.registry import builtin_names

from .errors import PackageError
from .layout import Layout
from .limits import DEFAULT_LIMITS, Limits
from engine.common.overwrite import Confirm, exists, may_replace
from .verify import VerifiedPackage, verify_package


@dataclass
class ImportResult:
    folder: Path  # dest/<corpus id>
    definition: Path  # the definition file inside it (what `corpus check PATH` takes)
    package: VerifiedPackage
    replaced: bool = False
    notes: list[str] = field(default_factory=list)


def _other_definitions(dest: Path, corpus_id: str, target: Path) -> list[Path]:
    """Definition files of the same id elsewhere in the workspace (never ours to replace)."""
    found = []
    if not dest.is_dir():
        return found
    for root, dirs, files in os.walk(dest, followlinks=False):
        rootp = Path(root)
        if rootp == target:
            dirs[:] = []
            continue
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [rootp / f for f in files if f == f"{corpus_id}.toml"]
    return found


def _write_member(staging: Path, name: str, data: bytes) -> None:
    path = (staging / name).resolve()
    if staging.resolve() not in path.parents:  # defence in depth: names were validated already
        raise PackageError(str(staging), f"refusing to write {name!r} outside the import folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "xb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def import_package(path: str | os.PathLike, dest: str | os.PathLike | None = None, *, overwrite: bool = False,
                   confirm: Confirm = None, allow_errors: bool = False, accept_modified: bool = False,
                   limits: Limits = DEFAULT_LIMITS) -> ImportResult:
    """Verify ``path`` and unpack it into ``dest/<corpus id>/`` (dest defaults to the user's corpus folder).
    ``accept_modified``: import a package whose content differs from what its definition and datasheet
    state (engine.package.verify), listing the differences as notes."""
    pkg = verify_package(path, limits=limits, allow_errors=allow_errors, accept_modified=accept_modified)
    dest = Path(dest) if dest is not None else user_corpus_dir()
    cid = pkg.manifest.corpus_id
    layout = Layout(cid)
    target = dest / cid
    others = _other_definitions(dest, cid, target)
    if others:
        raise PackageError(str(path), f"your workspace already has another definition of corpus {cid!r} ({others[0]})",
                           fix="rename or move that file first; import never replaces files it did not create")
    replaced = exists(target)
    may_replace(target, overwrite=overwrite, confirm=confirm, what="corpus folder")
    if dest.exists() and not dest.is_dir():
        raise PackageError(str(dest), "the import destination is not a folder", fix="give --dest a folder")
    dest.mkdir(parents=True, exist_ok=True)
    with staged_folder(target, tag="import") as staging:  # the whole corpus folder, or nothing
        for name, data in sorted(pkg.members.items()):
            _write_member(staging, name, data)
    notes = list(pkg.warnings)
    if cid in builtin_names():
        notes.append(f"a built-in corpus is also called {cid!r} and is found first by name; "
                     f"use the path {target / layout.definition}")
    return ImportResult(target, target / layout.definition, pkg, replaced, notes)
