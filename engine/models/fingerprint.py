"""Content fingerprints of model files and folders.

Why content (not path or mtime): the score cache and run manifests must recognise the
same model copied elsewhere and must notice a changed file under the same name. Large
files (multi-GB fastText .bin) get a "quick" digest of size + first and last 16 MiB —
stated in the digest prefix so nobody mistakes it for a full hash.

Hashing a model folder costs seconds (a 440 MB BERT: about 1 s per load, more on a slow
disk), so digests are remembered in the user cache folder (`fingerprints.sqlite`, never
beside the model) keyed by the file's resolved path and stamped with its size, mtime,
ctime and inode: a second load reads them back, and any change to the file (rewritten,
replaced, touched) makes it hashed again. A cache that cannot be opened is skipped.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from pathlib import Path

from engine.common.user_dirs import default_cache_dir

QUICK_LIMIT = 512 * 1024 * 1024  # above this, hash head+tail+size instead of everything
_EDGE = 16 * 1024 * 1024
_memo: dict[tuple[str, int, int, int, int], str] = {}

# Files in a Hugging Face folder that can change a model's outputs.
_HF_SKIP = {"README.md", ".gitattributes"}


class DigestStore:
    """{resolved path: (size, mtime_ns, ctime_ns, inode, digest)} in SQLite (see the module doc)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_cache_dir() / "fingerprints.sqlite"
        self._db: sqlite3.Connection | None = None
        self._failed = False
        self._lock = threading.Lock()

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None and not self._failed:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=5)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("CREATE TABLE IF NOT EXISTS digests (path TEXT PRIMARY KEY, size INTEGER, "
                           "mtime_ns INTEGER, ctime_ns INTEGER, inode INTEGER, digest TEXT)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._failed = True  # read-only or broken cache: hash every time, as before
        return self._db

    def get(self, key: str, stamp: tuple[int, int, int, int]) -> str | None:
        with self._lock:
            db = self._open()
            if db is None:
                return None
            try:
                row = db.execute("SELECT size, mtime_ns, ctime_ns, inode, digest FROM digests WHERE path=?",
                                 (key,)).fetchone()
            except sqlite3.Error:
                return None
        return row[4] if row is not None and tuple(row[:4]) == stamp else None

    def put(self, key: str, stamp: tuple[int, int, int, int], digest: str) -> None:
        with self._lock:
            db = self._open()
            if db is None:
                return
            try:
                with db:
                    db.execute("INSERT OR REPLACE INTO digests VALUES (?, ?, ?, ?, ?, ?)", (key, *stamp, digest))
            except sqlite3.Error:
                pass


_store: DigestStore | None = None


def digest_store() -> DigestStore:
    """The store in the current user cache folder (re-opened when $EEC_STUDIO_CACHE changes)."""
    global _store
    where = default_cache_dir() / "fingerprints.sqlite"
    if _store is None or _store.path != where:
        _store = DigestStore(where)
    return _store


def file_sha256(path: str | Path) -> str:
    """Full sha256 (or `quick:` digest above QUICK_LIMIT), remembered by (path, size, mtime, ctime, inode)."""
    path = Path(path)
    st = path.stat()
    resolved = str(path.resolve())
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    key = (resolved, *stamp)
    if key in _memo:
        return _memo[key]
    store = digest_store()
    known = store.get(resolved, stamp)
    if known is not None:
        _memo[key] = known
        return known
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        if st.st_size <= QUICK_LIMIT:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
            digest = h.hexdigest()
        else:
            h.update(str(st.st_size).encode())
            h.update(fh.read(_EDGE))
            fh.seek(st.st_size - _EDGE)
            h.update(fh.read(_EDGE))
            digest = "quick:" + h.hexdigest()
    _memo[key] = digest
    store.put(resolved, stamp, digest)
    return digest


def folder_fingerprint(folder: str | Path) -> str:
    """sha256 over (relative path, file digest) of every file in a model folder."""
    folder = Path(folder)
    h = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name in _HF_SKIP or name.startswith("."):
                continue
            full = Path(root) / name
            rel = full.relative_to(folder).as_posix()
            h.update(rel.encode("utf-8"))
            h.update(file_sha256(full).encode())
    return h.hexdigest()
