"""Autosave to a recovery file every few seconds, and find recovery files after a crash.

Why a separate file and not the user's own: autosave must never overwrite what the user
chose to save. Each open document writes ``<home>/recovery/<key>.toml`` (the whole definition,
atomically) plus a small ``.json`` with where it belongs and when it was written. A normal
save or close removes both; whatever is left at the next start came from a crash (or kill -9),
and the app offers to restore it. At most one autosave interval of typing is lost.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from engine.corpus import parse_definition
from engine.common.io import atomic_write_bytes
from engine.common.user_dirs import recovery_dir
from engine.corpus.definition.writer import to_toml


@dataclass
class RecoveryEntry:
    key: str
    definition: Path
    original: str  # the file the document belongs to ('' for a new, never-saved corpus)
    corpus_id: str
    saved_at: float
    pid: int

    def load(self):
        """The autosaved definition (raises DefinitionError if the file is damaged)."""
        return parse_definition(self.definition.read_bytes(), str(self.definition))

    def discard(self) -> None:
        for p in (self.definition, self.definition.with_suffix(".json")):
            try:
                p.unlink()
            except FileNotFoundError:
                pass


def write_recovery(key: str, corpus, original: str | os.PathLike | None) -> Path:
    """Autosave one document (definition first, then the metadata that makes it visible)."""
    folder = recovery_dir()
    target = folder / f"{key}.toml"
    atomic_write_bytes(target, to_toml(corpus).encode("utf-8"))
    meta = {"original": str(original or ""), "corpus_id": corpus.id, "saved_at": time.time(), "pid": os.getpid()}
    atomic_write_bytes(folder / f"{key}.json", json.dumps(meta, ensure_ascii=False).encode("utf-8"))
    return target


def remove_recovery(key: str) -> None:
    for suffix in (".toml", ".json"):
        try:
            (recovery_dir() / f"{key}{suffix}").unlink()
        except FileNotFoundError:
            pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def pending_recoveries(include_running: bool = False) -> list[RecoveryEntry]:
    """Recovery files left by a process that is no longer running (newest first)."""
    out = []
    folder = recovery_dir()
    if not folder.is_dir():
        return out
    for meta_path in folder.glob("*.json"):
        definition = meta_path.with_suffix(".toml")
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if not definition.exists():
            continue
        pid = int(meta.get("pid", 0) or 0)
        if not include_running and pid and _alive(pid):
            continue  # another EEC Studio window is still working on it
        out.append(RecoveryEntry(meta_path.stem, definition, meta.get("original", ""), meta.get("corpus_id", ""),
                                 float(meta.get("saved_at", 0.0)), pid))
    return sorted(out, key=lambda e: -e.saved_at)
