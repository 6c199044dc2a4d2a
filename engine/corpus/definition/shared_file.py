"""Corpus definition files shared by processes: one writer at a time, and no change lost.

Why: a definition is read, changed and written back by several programs — `corpus spelling-add`,
`corpus mark-reviewed`, `exchange import`, the workbench's Save — and by the translator's own
editor. Without a lock, six concurrent `spelling-add` runs all printed "added" and the file kept
one or two of the six words; a run beside a program that wrote the file non-atomically saved
the half-written file (every emotion word gone). Here:

* every writer holds the file's lock (the ``filelock`` package; :func:`lock_path`) from the
  moment it reads the file until its new version is in place (:func:`update_definition`), so
  cooperating writers take turns;
* just before writing, the file is read again: if it changed since it was read (a writer that does
  not take the lock, or the workbench's document opened an hour ago), the two versions are merged
  three ways at the level of the definition (item by item, by id; word lists as sets) when the
  changes touch different things, and refused — nothing written — when they touch the same thing;
* a file that does not parse is never overwritten, and a file modified within the last moment is
  read again until it stops changing (a writer may be half-way through it).
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from engine.common.errors import UserError
from engine.corpus.definition.model import CorpusDefinition

T = TypeVar("T")

#: how long a writer waits for another one to finish with the file
LOCK_TIMEOUT_S = 60.0
#: a file modified less than this long ago may be half written: read it again until it settles
SETTLE_S = 0.3
_SETTLE_MAX_S = 10.0


class CorpusFileChanged(UserError):
    """The file changed since it was read, in a way that cannot be merged (or no longer parses)."""


def lock_path(path: str | os.PathLike) -> Path:
    """The lock file of the definition at ``path``: in this user's lock folder under the system's temp
    folder, named by the file's resolved path (so the corpora folder holds corpora only, and every
    EEC Studio process of the user, whatever its settings, finds the same lock)."""
    import getpass
    import tempfile

    try:
        owner = str(os.getuid())
    except AttributeError:  # Windows
        owner = getpass.getuser()
    folder = Path(tempfile.gettempdir()) / f"eec-studio-locks-{owner}"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = hashlib.sha256(str(Path(path).resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return folder / f"{Path(path).name}.{key}.lock"


@contextmanager
def corpus_file_lock(path: str | os.PathLike, timeout: float | None = None) -> Iterator[None]:
    """Hold the lock of the definition file ``path`` (other EEC Studio writers wait for it)."""
    from filelock import FileLock, Timeout

    wait = LOCK_TIMEOUT_S if timeout is None else timeout
    lock = FileLock(str(lock_path(path)), timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise CorpusFileChanged(f"another program has been writing this file for over {wait:g} s",
                                file=str(path), fix="wait for it to finish (or close the program that has it open)"
                                ) from None
    try:
        yield
    finally:
        lock.release()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_settled(path: str | os.PathLike) -> bytes:
    """The file's bytes, read again while it is still being written (modified under SETTLE_S ago,
    or changed during the read), for at most a few seconds."""
    p = Path(path)
    deadline = time.monotonic() + _SETTLE_MAX_S
    while True:
        before = p.stat()
        data = p.read_bytes()
        after = p.stat()
        stable = (before.st_mtime_ns, before.st_size) == (after.st_mtime_ns, after.st_size) == (after.st_mtime_ns, len(data))
        if (stable and time.time() - after.st_mtime_ns / 1e9 >= SETTLE_S) or time.monotonic() > deadline:
            return data
        time.sleep(SETTLE_S / 3)


def update_definition(path: str | os.PathLike, change: Callable[[CorpusDefinition], tuple[T, bool]]) -> T:
    """Read the definition at ``path`` under its lock, apply ``change`` (which returns its result
    and whether the corpus changed), and write the result back — merged with, or refused over, any
    change another program made meanwhile. A file that does not parse raises its DefinitionError
    and is left as it is."""
    from engine.corpus.definition.loader import parse_definition

    path = Path(path)
    with corpus_file_lock(path):
        raw = read_settled(path)
        corpus = parse_definition(raw, str(path))
        corpus.path = str(path)
        result, changed = change(corpus)
        if changed:
            write_unless_changed(corpus, path, base=raw, locked=True)
    return result


def write_unless_changed(corpus: CorpusDefinition, path: str | os.PathLike, *, base: bytes | None,
                        comments_from: str | os.PathLike | None = None, locked: bool = False) -> CorpusDefinition:
    """Save ``corpus`` to ``path`` atomically if the file still holds ``base`` (the bytes it was read
    from; None: a new file, or the caller chose to replace whatever is there). If it changed, the
    result is the three-way merge of base, ``corpus`` and the file — or CorpusFileChanged, nothing
    written. Returns what was written (``corpus`` itself, or the merge)."""
    path = Path(path)
    if not locked:
        with corpus_file_lock(path):
            return write_unless_changed(corpus, path, base=base, comments_from=comments_from, locked=True)
    from engine.corpus.definition.writer import save_definition

    out = corpus
    if base is not None:
        try:
            now = read_settled(path)
        except FileNotFoundError:
            now = None  # deleted meanwhile: writing it again loses nothing
        if now is not None and digest(now) != digest(base):
            out = _merged_with_disk(corpus, path, base, now)
    save_definition(out, path, comments_from=path if comments_from is None else comments_from)
    return out


def _merged_with_disk(ours: CorpusDefinition, path: Path, base: bytes, now: bytes) -> CorpusDefinition:
    from engine.corpus.definition.errors import DefinitionError
    from engine.corpus.definition.loader import parse_definition

    try:
        theirs = parse_definition(now, str(path))
    except DefinitionError as exc:
        raise CorpusFileChanged(f"changed on disk since it was read and no longer reads as a definition "
                                f"({exc.message}); nothing was saved", file=str(path),
                                fix="another program may still be writing it: try again when it is done, "
                                    "or repair the file") from None
    try:
        before = parse_definition(base, str(path))
    except DefinitionError:  # the version read was itself broken: nothing to merge from
        before = None
    merged, conflicts = merge_definitions(before, ours, theirs) if before is not None else (None, ["the whole file"])
    if conflicts:
        shown = ", ".join(conflicts[:5]) + (f" and {len(conflicts) - 5} more" if len(conflicts) > 5 else "")
        raise CorpusFileChanged(f"changed on disk since it was read, and both versions change {shown}; "
                                f"nothing was saved", file=str(path),
                                fix="reload the file and make the change again (the workbench: Reload), "
                                    "or save under another name")
    merged.path = str(path)
    return merged


# --------------------------------------------------------------------------- three-way merge
_MISSING = object()


class _Conflict(Exception):
    pass


def merge_definitions(base: CorpusDefinition, ours: CorpusDefinition,
                      theirs: CorpusDefinition) -> tuple[CorpusDefinition, list[str]]:
    """(merged, conflicts): ``theirs`` with every change ``ours`` made to ``base`` that ``theirs``
    did not also make differently. Lists of items merge by id; lists of strings as sets (an added
    word kept, a removed one removed); tables key by key."""
    merged = copy.deepcopy(theirs)
    conflicts: list[str] = []
    for f in dataclasses.fields(CorpusDefinition):
        if f.name == "path":
            continue
        try:
            value = _merge(getattr(base, f.name), getattr(ours, f.name), getattr(theirs, f.name), f.name, conflicts)
        except _Conflict:
            conflicts.append(f.name)
            continue
        setattr(merged, f.name, copy.deepcopy(value))
    return merged, conflicts


def _merge(b: Any, o: Any, t: Any, where: str, conflicts: list[str]) -> Any:
    if o == b or o == t:
        return t
    if t == b:
        return o
    if isinstance(o, dict) and isinstance(t, dict) and isinstance(b, dict):
        return _merge_tables(b, o, t, where, conflicts)
    if isinstance(o, list) and isinstance(t, list) and isinstance(b, list):
        if all(isinstance(x, str) for x in [*b, *o, *t]):
            return _merge_words(b, o, t)
        if all(hasattr(x, "id") for x in [*b, *o, *t]):
            return _merge_items(b, o, t, where, conflicts)
    raise _Conflict


def _merge_tables(b: dict, o: dict, t: dict, where: str, conflicts: list[str]) -> dict:
    out = dict(t)
    for key in dict.fromkeys([*b, *o, *t]):
        bv, ov, tv = b.get(key, _MISSING), o.get(key, _MISSING), t.get(key, _MISSING)
        if ov == bv or ov == tv:
            continue
        if tv == bv:
            if ov is _MISSING:
                out.pop(key, None)
            else:
                out[key] = ov
            continue
        if _MISSING in (bv, ov, tv):
            conflicts.append(f"{where}.{key}")
            continue
        try:
            out[key] = _merge(bv, ov, tv, f"{where}.{key}", conflicts)
        except _Conflict:
            conflicts.append(f"{where}.{key}")
    return out


def _merge_words(b: list[str], o: list[str], t: list[str]) -> list[str]:
    removed = set(b) - set(o)  # taken out here (a word both added and removed there stays out)
    return [w for w in dict.fromkeys([*t, *o]) if w not in removed]


def _merge_items(b: list, o: list, t: list, where: str, conflicts: list[str]) -> list:
    bi, oi, ti = ({x.id: x for x in seq} for seq in (b, o, t))
    out = list(t)
    for pos, item in enumerate(o):
        if item.id in bi:
            if item == bi[item.id] or ti.get(item.id) == item:
                continue
            if ti.get(item.id, _MISSING) == bi[item.id]:
                out[[x.id for x in out].index(item.id)] = item
            else:  # changed here, and changed or deleted there
                conflicts.append(f"{where}[{item.id}]")
        elif item.id in ti:
            if ti[item.id] != item:
                conflicts.append(f"{where}[{item.id}]")
        else:  # added here: after the item it follows here
            prev = o[pos - 1].id if pos else None
            ids = [x.id for x in out]
            out.insert(ids.index(prev) + 1 if prev in ids else len(out), item)
    for gone in set(bi) - set(oi):
        if gone in ti:
            if ti[gone] == bi[gone]:
                out = [x for x in out if x.id != gone]
            else:
                conflicts.append(f"{where}[{gone}]")
    return out
