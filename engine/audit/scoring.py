"""The scoring core the audit runner builds on: `score_texts(scorer, texts, cache=…)`.

What it adds on top of `scorer.score`:
* de-duplication: each distinct text is scored once per call;
* the persistent cache: texts already scored by a scorer with the same fingerprint are
  read back, never recomputed; fresh results are written after every chunk, so a
  cancelled or killed run resumes where it stopped;
* length-sorted chunks (the scorer's `lengths()` when it has one, else characters), so
  dynamic padding inside the scorer wastes little;
* progress (done, total, eta) counting cache hits as done, and cooperative
  cancellation checked between chunks and, inside the scorer, between batches.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

from engine.models.base import Cancelled, ProgressFn, ProgressTracker, check_cancel
from engine.models.errors import ModelError

DEFAULT_CHUNK = 256


@dataclass(frozen=True)
class ScoringStats:
    """What one `score_texts` call did (also put in the returned frame's `attrs`)."""

    texts: int
    unique: int
    cache_hits: int
    scored: int
    seconds: float
    fingerprint: str


def _chunk_size(scorer: Any, chunk_size: int | None) -> int:
    if chunk_size:
        return int(chunk_size)
    return int(getattr(scorer, "batch_size", None) or DEFAULT_CHUNK)


def score_texts(scorer: Any, texts: Sequence[str], *, cache: Any = None, progress: ProgressFn | None = None,
                cancel: Any = None, chunk_size: int | None = None) -> Any:
    """Scores for `texts` (rows aligned, one float column per `scorer.dimensions`).

    Raises `Cancelled` when `cancel` asks to stop; everything finished before that is
    already in `cache`. The frame's `attrs["scoring"]` holds a `ScoringStats`.
    """
    import numpy as np
    import pandas as pd

    started = time.perf_counter()
    texts = [str(t) for t in texts]
    dims = list(scorer.dimensions)
    fingerprint = scorer.fingerprint()
    unique = list(dict.fromkeys(texts))
    values = np.full((len(unique), len(dims)), np.nan, dtype=np.float64)
    tracker = ProgressTracker(len(unique), progress)

    hits: dict[int, Any] = cache.get_many(fingerprint, unique) if cache is not None else {}
    for i, vec in hits.items():
        if vec.shape != (len(dims),):
            raise ModelError(str(getattr(cache, "path", "cache")), "cached vector has the wrong length",
                             fix="clear the cache; the scorer's fingerprint should have changed with its dimensions")
        values[i] = vec
    if hits:
        tracker.skip(len(hits))

    todo = [i for i in range(len(unique)) if i not in hits]
    if todo:
        lengths_fn = getattr(scorer, "lengths", None)
        todo_texts = [unique[i] for i in todo]
        lengths = lengths_fn(todo_texts) if callable(lengths_fn) else [len(t) for t in todo_texts]
        order = [todo[j] for j in sorted(range(len(todo)), key=lambda j: -lengths[j])]
        pos = 0
        while pos < len(order):
            check_cancel(cancel, tracker.done, len(unique))
            size = _chunk_size(scorer, chunk_size)
            idx = order[pos:pos + size]
            chunk = [unique[i] for i in idx]
            base_done = tracker.done

            def inner(done: int, total: int, eta: float | None, _base: int = base_done) -> None:
                if progress is not None and done < total:
                    progress(_base + done, len(unique), tracker.eta())

            try:
                frame = scorer.score(chunk, progress=inner, cancel=cancel)
            except Cancelled:
                raise Cancelled(tracker.done, len(unique)) from None
            block = _as_block(frame, dims, len(chunk), scorer)
            values[idx] = block
            if cache is not None:
                cache.put_many(fingerprint, chunk, block)
            pos += len(idx)
            tracker.advance(len(idx))

    row_of = {t: i for i, t in enumerate(unique)}
    out = pd.DataFrame(values[[row_of[t] for t in texts]] if texts else values[:0], columns=dims)
    out.attrs["scoring"] = ScoringStats(len(texts), len(unique), len(hits), len(todo),
                                        time.perf_counter() - started, fingerprint)
    return out


def _as_block(frame: Any, dims: list[str], n: int, scorer: Any) -> Any:
    """Check a scorer's output shape and return it as an (n, dims) float64 array."""
    import numpy as np

    name = getattr(scorer, "name", type(scorer).__name__)
    cols = list(getattr(frame, "columns", []))
    if cols != dims:
        raise ModelError(name, f"scorer returned columns {cols}, expected {dims}", field="dimensions")
    arr = np.asarray(frame.to_numpy(), dtype=np.float64)
    if arr.shape != (n, len(dims)):
        raise ModelError(name, f"scorer returned {arr.shape[0]} rows for {n} texts", field="score")
    return arr
