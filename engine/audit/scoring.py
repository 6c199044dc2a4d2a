"""The scoring core the audit runner builds on: `score_texts(scorer, texts, cache=…)`.

What it adds on top of `scorer.score`:
* de-duplication: each distinct text is scored once per call;
* the persistent cache: texts already scored by a scorer with the same fingerprint are
  read back, never recomputed; fresh results are written after every chunk (the cache
  commits them in batches of about a second, and everything when the call ends), so a
  cancelled or killed run resumes where it stopped;
* `jobs`: CPU-bound scorers that offer a `worker_spec()` (lexicons, scikit-learn systems)
  score their chunks in this process and `jobs - 1` worker processes (engine.audit.parallel);
  the scores are the same as with jobs=1, progress and cancel work the same way;
* length-sorted chunks (the scorer's `lengths()` when it has one, else characters), so
  dynamic padding inside the scorer wastes little;
* progress (done, total, eta) counting cache hits as done, and cooperative
  cancellation checked between chunks and, inside the scorer, between batches.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

from engine.models.base import Cancelled, ProgressFn, ProgressTracker, check_cancel, is_cancelled
from engine.models.errors import ModelError

DEFAULT_CHUNK = 256
POLL_S = 0.1  # how often a parallel run looks at `cancel` while its workers are busy


@dataclass(frozen=True)
class ScoringStats:
    """What one `score_texts` call did (also put in the returned frame's `attrs`)."""

    texts: int
    unique: int
    cache_hits: int
    scored: int
    seconds: float
    fingerprint: str
    jobs: int = 1
    by_workers: int = 0  # texts scored in worker processes (the rest here)


def _chunk_size(scorer: Any, chunk_size: int | None) -> int:
    if chunk_size:
        return int(chunk_size)
    return int(getattr(scorer, "batch_size", None) or DEFAULT_CHUNK)


def score_texts(scorer: Any, texts: Sequence[str], *, cache: Any = None, progress: ProgressFn | None = None,
                cancel: Any = None, chunk_size: int | None = None, jobs: int | None = 1) -> Any:
    """Scores for `texts` (rows aligned, one float column per `scorer.dimensions`).

    Raises `Cancelled` when `cancel` asks to stop; everything finished before that is
    already in `cache`. The frame's `attrs["scoring"]` holds a `ScoringStats`.
    `jobs`: processes scoring at once (this one included) for a scorer that offers a
    `worker_spec()` (None or 0: one per core); other scorers, and runs with fewer than two
    chunks to score, stay in this process.
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
    used_jobs, remote = 1, [0]  # remote: texts scored by worker processes
    if todo:
        lengths_fn = getattr(scorer, "lengths", None)
        todo_texts = [unique[i] for i in todo]
        lengths = lengths_fn(todo_texts) if callable(lengths_fn) else [len(t) for t in todo_texts]
        order = [todo[j] for j in sorted(range(len(todo)), key=lambda j: -lengths[j])]
        size = _chunk_size(scorer, chunk_size)

        def store(idx: list[int], frame: Any, by_worker: bool = False) -> None:
            remote[0] += len(idx) if by_worker else 0
            block = _as_block(frame, dims, len(idx), scorer)
            values[idx] = block
            if cache is not None:
                cache.put_many(fingerprint, [unique[i] for i in idx], block)
            tracker.advance(len(idx))

        from .parallel import parallel_chunk, resolve_jobs, worker_spec_of

        want = resolve_jobs(jobs)
        spec = worker_spec_of(scorer) if want > 1 and len(order) > size else None
        try:
            if spec is not None:
                used_jobs = want
                step = parallel_chunk(size, len(order), want)
                chunks = [order[p:p + step] for p in range(0, len(order), step)]
                _score_parallel(scorer, spec, fingerprint, chunks, unique, want, store, tracker, cancel)
            else:
                _score_serial(scorer, order, size, unique, store, tracker, progress, cancel)
        finally:
            if cache is not None and hasattr(cache, "flush"):
                cache.flush()  # what was scored is kept, also when cancelled or failed

    row_of = {t: i for i, t in enumerate(unique)}
    out = pd.DataFrame(values[[row_of[t] for t in texts]] if texts else values[:0], columns=dims)
    out.attrs["scoring"] = ScoringStats(len(texts), len(unique), len(hits), len(todo),
                                        time.perf_counter() - started, fingerprint, used_jobs, remote[0])
    return out


def _score_serial(scorer: Any, order: list[int], size: int, unique: list[str], store: Any,
                  tracker: ProgressTracker, progress: ProgressFn | None, cancel: Any) -> None:
    pos = 0
    while pos < len(order):
        check_cancel(cancel, tracker.done, len(unique))
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
        store(idx, frame)
        pos += len(idx)


def _score_parallel(scorer: Any, spec: Any, fingerprint: str, chunks: list[list[int]], unique: list[str],
                    jobs: int, store: Any, tracker: ProgressTracker, cancel: Any) -> None:
    """This process and `jobs - 1` workers score the chunks; results are stored as they arrive.

    Why this process takes part: while the workers start (a second or more: they import pandas
    and load the scorer) it is already scoring, so a run never waits for them. Each worker has
    two chunks queued. When this process has nothing left, it takes back the chunks no worker
    has started, and scores a worker's chunk itself (ignoring the worker's copy; the scores are
    the same) once it has waited longer than it would take to score it — so a worker that is
    slow to start or starved of CPU never holds the run up. On cancel or error, queued chunks
    are cancelled and running ones are not waited for (their texts are scored again on resume)."""
    from collections import deque
    from concurrent.futures import FIRST_COMPLETED, wait

    from .parallel import executor, score_chunk

    workers = jobs - 1
    todo = deque(chunks)
    in_flight: dict[Any, list[int]] = {}
    rate = [0.0, 0]  # seconds and texts scored here: this process's own speed

    def harvest(timeout: float) -> None:
        if timeout > 0:
            wait(list(in_flight), timeout=timeout, return_when=FIRST_COMPLETED)
        for fut in [f for f in in_flight if f.done()]:
            idx = in_flight.pop(fut)
            if not fut.cancelled():
                store(idx, fut.result(), True)

    def score_here(idx: list[int]) -> None:
        t = time.perf_counter()
        try:
            frame = scorer.score([unique[i] for i in idx], cancel=cancel)
        except Cancelled:
            raise Cancelled(tracker.done, len(unique)) from None
        rate[0] += time.perf_counter() - t
        rate[1] += len(idx)
        store(idx, frame)

    # the first chunk here warms the scorer (lexicons load their tables on first use), so that
    # forked workers inherit it ready (engine.audit.parallel.executor)
    score_here(todo.pop())
    pool, owned = executor(workers, (spec, fingerprint, scorer))
    try:
        waited = 0.0
        submitting = True
        while todo or in_flight:
            harvest(0)
            if is_cancelled(cancel):
                raise Cancelled(tracker.done, len(unique))
            while submitting and todo and len(in_flight) < 2 * workers:
                idx = todo.popleft()
                in_flight[pool.submit(score_chunk, spec, fingerprint, [unique[i] for i in idx])] = idx
            if todo:  # this process scores the last (shortest) chunk itself
                score_here(todo.pop())
                continue
            for fut in list(in_flight):  # nothing left here: take back what no worker has started
                if fut.cancel():
                    todo.append(in_flight.pop(fut))
            if todo:
                # taken back: scored here from now on. Submitting them again would let a worker that
                # has not started yet be handed and robbed of the same chunks over and over (a
                # busy loop that grew the pool's queues by gigabytes).
                submitting = False
                continue
            if not in_flight:
                continue
            newest = next(reversed(in_flight))
            own_time = rate[0] / rate[1] * len(in_flight[newest]) if rate[1] else float("inf")
            if waited >= own_time:  # the worker is slower than doing it here: do it here
                score_here(in_flight.pop(newest))
                waited = 0.0
                continue
            t = time.perf_counter()
            before = len(in_flight)
            harvest(POLL_S)
            waited = 0.0 if len(in_flight) < before else waited + time.perf_counter() - t
    except BaseException:
        for fut in in_flight:
            fut.cancel()
        raise
    finally:
        if owned:  # a forked pool: its workers exit once their current chunk (if any) is done
            pool.shutdown(wait=False, cancel_futures=True)


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
