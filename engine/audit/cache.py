"""Persistent cache of per-text vectors keyed by (scorer fingerprint, text).

Why: an audit scores tens of thousands of sentences per model; a cancelled, crashed or
killed run must resume without recomputing anything, and a second audit of the same
corpus with the same model must be instant. SQLite gives atomic commits (a SIGKILL
between batches loses at most the batch in flight), needs no server and is in the
standard library. The same store holds score rows and frozen-encoder embeddings.

Keys are sha256(text) so the file holds no corpus text. Values are the raw bytes of a
1-D float array (float64 for scores, float32 for embeddings), dtype stored alongside.
`hits`/`misses` count lookups since this object was opened (the resume proof reads them).
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from engine.models.errors import ModelError

SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    fingerprint TEXT NOT NULL,
    text_sha256 BLOB NOT NULL,
    dtype TEXT NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (fingerprint, text_sha256)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_BATCH = 500  # SQLite's variable limit is 999+; stay well under it


def default_cache_dir() -> Path:
    """$EEC_STUDIO_CACHE, else $XDG_CACHE_HOME/eec-studio, else ~/.cache/eec-studio."""
    env = os.environ.get("EEC_STUDIO_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "eec-studio"


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int
    writes: int
    entries: int


class ScoreCache:
    """SQLite-backed {(fingerprint, text): vector}. Thread-safe; usable as a context manager.

    path: a file, a folder (``scores.sqlite`` inside), ":memory:", or None for
    `default_cache_dir()/scores.sqlite`.
    """

    def __init__(self, path: str | Path | None = None):
        if path is None:
            path = default_cache_dir() / "scores.sqlite"
        if str(path) != ":memory:":
            path = Path(path).expanduser()
            if path.is_dir() or (not path.suffix and not path.exists()):
                path = path / "scores.sqlite"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ModelError(str(path.parent), f"cannot create the cache folder ({exc.strerror})",
                                 fix="pass another --cache-dir") from None
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
            if str(path) != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ModelError(str(path), f"cannot open the score cache ({exc})",
                             fix="delete the file (it only holds cached scores) or pass another --cache-dir") from None
        self.hits = 0
        self.misses = 0
        self.writes = 0

    # -- lookups --------------------------------------------------------------------------------
    def get_many(self, fingerprint: str, texts: Sequence[str]) -> dict[int, Any]:
        """{index in `texts`: vector} for the texts already cached; counts hits and misses."""
        import numpy as np

        keys = [text_key(t) for t in texts]
        found: dict[bytes, Any] = {}
        with self._lock:
            for start in range(0, len(keys), _BATCH):
                part = keys[start:start + _BATCH]
                q = f"SELECT text_sha256, dtype, value FROM vectors WHERE fingerprint=? AND text_sha256 IN ({','.join('?' * len(part))})"
                for k, dt, blob in self._db.execute(q, [fingerprint, *part]):
                    found[bytes(k)] = np.frombuffer(blob, dtype=dt).copy()
        out = {i: found[k] for i, k in enumerate(keys) if k in found}
        self.hits += len(out)
        self.misses += len(keys) - len(out)
        return out

    def put_many(self, fingerprint: str, texts: Sequence[str], values: Any) -> None:
        """Store one vector per text (rows of `values`) in one transaction."""
        import numpy as np

        arr = np.asarray(values)
        if arr.ndim == 1:
            arr = arr.reshape(-1, 1)
        if len(arr) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(arr)} value rows")
        dt = arr.dtype.str
        rows = [(fingerprint, text_key(t), dt, np.ascontiguousarray(arr[i]).tobytes()) for i, t in enumerate(texts)]
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)
        self.writes += len(rows)

    def count(self, fingerprint: str | None = None) -> int:
        with self._lock:
            if fingerprint is None:
                return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM vectors WHERE fingerprint=?", (fingerprint,)).fetchone()[0])

    def clear(self, fingerprint: str | None = None) -> None:
        with self._lock, self._db:
            if fingerprint is None:
                self._db.execute("DELETE FROM vectors")
            else:
                self._db.execute("DELETE FROM vectors WHERE fingerprint=?", (fingerprint,))

    def stats(self) -> CacheStats:
        return CacheStats(self.hits, self.misses, self.writes, self.count())

    def reset_counters(self) -> None:
        self.hits = self.misses = self.writes = 0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "ScoreCache":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
