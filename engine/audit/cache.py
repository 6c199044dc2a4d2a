"""Persistent cache of per-text vectors keyed by (scorer fingerprint, text).

Why: an audit scores tens of thousands of sentences per model; a cancelled, crashed or
killed run must resume without recomputing anything, and a second audit of the same
corpus with the same model must be instant. SQLite gives atomic commits, needs no server
and is in the standard library. The same store holds score rows and frozen-encoder embeddings.

Writes are batched: `put_many` buffers rows and commits them (WAL mode, one transaction)
once `flush_seconds` (about 1 s) have passed since the last commit or `flush_rows` rows are
waiting; `flush()`, `count()`, `close()` and the end of `score_texts` commit the rest. Why:
committing every 256 texts cost ~2 s of an 18 s audit (552 commits). The price is bounded:
a SIGKILL loses at most the rows buffered since the last commit (about a second of work).
`committed` counts the rows written by commits so far (the crash test reads it).

Keys are sha256(text) so the file holds no corpus text. Values are the raw bytes of a
1-D float array (float64 for scores, float32 for embeddings), dtype stored alongside.
`hits`/`misses` count lookups since this object was opened (the resume proof reads them).
"""
from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from engine.common.user_dirs import default_cache_dir
from engine.models.errors import ModelError

__all__ = ["CacheStats", "ScoreCache", "default_cache_dir", "text_key"]

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
FLUSH_SECONDS = 1.0  # commit buffered rows at least this often
FLUSH_ROWS = 20_000  # ... or as soon as this many are waiting (bounds memory and loss)


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
    `default_cache_dir()/scores.sqlite`. `flush_seconds`/`flush_rows`: when buffered
    writes are committed (0 rows: every `put_many` commits at once).
    """

    def __init__(self, path: str | Path | None = None, *, flush_seconds: float = FLUSH_SECONDS,
                 flush_rows: int = FLUSH_ROWS):
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
            # a 64 MiB page cache (taken as used; SQLite's default is 2 MiB): the keys are hashes, so a
            # million new scores land all over the B-tree, and with the default cache each commit read
            # and wrote back pages from disk — 600,000 inserts: 10.5 -> 8.0 s CPU, 65 -> 35 s wall (issue 42)
            self._db.execute("PRAGMA cache_size=-65536")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ModelError(str(path), f"cannot open the score cache ({exc})",
                             fix="delete the file (it only holds cached scores) or pass another --cache-dir") from None
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self.committed = 0
        self.flush_seconds = float(flush_seconds)
        self.flush_rows = int(flush_rows)
        # (fingerprint, key) -> (dtype, bytes): rows written but not committed yet
        self._pending: dict[tuple[str, bytes], tuple[str, bytes]] = {}
        self._last_commit = time.monotonic()

    # -- lookups --------------------------------------------------------------------------------
    def get_many(self, fingerprint: str, texts: Sequence[str]) -> dict[int, Any]:
        """{index in `texts`: vector} for the texts already cached; counts hits and misses."""
        import numpy as np

        keys = [text_key(t) for t in texts]
        found: dict[bytes, Any] = {}
        with self._lock:
            if self._pending:
                for k in keys:
                    row = self._pending.get((fingerprint, k))
                    if row is not None:
                        found[k] = np.frombuffer(row[1], dtype=row[0]).copy()
            ask = [k for k in keys if k not in found] if found else keys
            if len(ask) > _BATCH and self._all_rows_into(fingerprint, ask, found):
                ask = []
            for start in range(0, len(ask), _BATCH):
                part = ask[start:start + _BATCH]
                q = f"SELECT text_sha256, dtype, value FROM vectors WHERE fingerprint=? AND text_sha256 IN ({','.join('?' * len(part))})"
                for k, dt, blob in self._db.execute(q, [fingerprint, *part]):
                    found[bytes(k)] = np.frombuffer(blob, dtype=dt).copy()
        out = {i: found[k] for i, k in enumerate(keys) if k in found}
        self.hits += len(out)
        self.misses += len(keys) - len(out)
        return out

    def _all_rows_into(self, fingerprint: str, ask: list[bytes], found: dict[bytes, Any]) -> bool:
        """Where the fingerprint has no more committed rows than texts asked for (a first run: none, or
        the speed probe's few), read them all in one range scan and keep those asked for; False, having
        added nothing, where it has more (then each text is looked up). Why: a scan reads a row about 8
        times faster than a lookup by key (200,000 rows: 0.13 s against 1.07 s), so a first audit's
        lookups, which find next to nothing, cost a scan of next to nothing. The scan stops one row past
        the texts asked for, so a large cache costs at most a count of that many rows more. Caller holds the lock."""
        import numpy as np

        held = self._db.execute("SELECT COUNT(*) FROM (SELECT 1 FROM vectors WHERE fingerprint=? LIMIT ?)",
                                (fingerprint, len(ask) + 1)).fetchone()[0]
        if held > len(ask):
            return False
        wanted = set(ask)
        for k, dt, blob in self._db.execute("SELECT text_sha256, dtype, value FROM vectors WHERE fingerprint=?",
                                            (fingerprint,)):
            k = bytes(k)
            if k in wanted:
                found[k] = np.frombuffer(blob, dtype=dt).copy()
        return True

    def put_many(self, fingerprint: str, texts: Sequence[str], values: Any) -> None:
        """Store one vector per text (rows of `values`); committed with the next batch (see the module doc)."""
        import numpy as np

        arr = np.asarray(values)
        if arr.ndim == 1:
            arr = arr.reshape(-1, 1)
        if len(arr) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(arr)} value rows")
        dt = arr.dtype.str
        with self._lock:
            for i, t in enumerate(texts):
                self._pending[(fingerprint, text_key(t))] = (dt, np.ascontiguousarray(arr[i]).tobytes())
            self.writes += len(texts)
            if (len(self._pending) >= self.flush_rows
                    or time.monotonic() - self._last_commit >= self.flush_seconds):
                self._commit()

    def flush(self) -> None:
        """Commit every buffered row now (one transaction)."""
        with self._lock:
            self._commit()

    def _commit(self) -> None:  # caller holds the lock
        if self._pending:
            rows = [(fp, k, dt, blob) for (fp, k), (dt, blob) in self._pending.items()]
            try:
                with self._db:
                    self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)
            except sqlite3.OperationalError as exc:  # a full disk, a read-only folder: name the cache
                self._pending.clear()
                full = "full" in str(exc).lower()
                raise ModelError(str(self.path), "the disk holding the score cache is full" if full
                                 else f"cannot write the score cache ({exc})",
                                 fix="free some space or pass another --cache-dir (scores cached before are kept)") from None
            self.committed += len(rows)
            self._pending.clear()
        self._last_commit = time.monotonic()

    @property
    def pending(self) -> int:
        """Rows written but not committed yet."""
        return len(self._pending)

    def count(self, fingerprint: str | None = None) -> int:
        with self._lock:
            self._commit()
            if fingerprint is None:
                return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM vectors WHERE fingerprint=?", (fingerprint,)).fetchone()[0])

    def clear(self, fingerprint: str | None = None) -> None:
        with self._lock, self._db:
            self._pending = {k: v for k, v in self._pending.items() if fingerprint is not None and k[0] != fingerprint}
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
            try:
                self._commit()
            finally:
                self._db.close()

    def __enter__(self) -> "ScoreCache":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
