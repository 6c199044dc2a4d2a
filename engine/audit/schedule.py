"""One scheduler for all the scoring of an audit: every (corpus × scorer) job through one pool of
worker processes, and each corpus handed on (to the statistics) as soon as its scores are in.

Why one scheduler for the whole plan rather than one pool per job: on two cores an audit of
VADER + TextBlob over the four English corpora ran 1.03× faster with two processes than with one,
because each job forked its own pool and the statistics waited for the last score. Here the pool is
forked once, its workers always have chunks queued, and while they score the later corpora this
process runs the statistics of the finished ones (`on_group_done`) — the parts that used to be serial
now overlap the scoring. With `processes=1` the same code scores everything here, in job order.

What a job gets (`score_texts` is the one-job case):
* de-duplication: each distinct text is scored once per scorer over the whole plan (later jobs of
  the same scorer count texts an earlier job scores as cache hits);
* the persistent cache: texts already scored by a scorer with the same fingerprint are read back;
  fresh scores are written as each chunk arrives (the cache commits them about once a second and
  whenever the call ends, is cancelled or fails), so a cancelled or killed run resumes where it stopped;
* worker processes for scorers that offer a `worker_spec()` (the executor's `LocalPool`, with
  engine.audit.parallel's task); scores are the same for any number of processes; other scorers
  (torch, whose threads already use every core) are scored in this process only;
* length-sorted chunks (the scorer's `lengths()` when it has one), so dynamic padding wastes little;
* progress (done, total, eta) with cache hits counted as done, and cancellation between chunks and,
  inside the scorer, between its batches.
"""
from __future__ import annotations

import sys
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine.common.executor import resolve_jobs
from engine.common.progress import Cancelled, ProgressFn, is_cancelled
from engine.models.errors import ModelError

from .eta import WorkEta

DEFAULT_CHUNK = 256
POLL_S = 0.1  # how often a waiting run looks at `cancel` while its workers are busy
WARM_TEXTS = 4  # scored here before the pool starts, so that forked workers are handed a warmed scorer
# (lexicons load lazily)


@dataclass(frozen=True)
class ScoringStats:
    """What one job did (also in its frame's `attrs["scoring"]`). `cache_hits` counts the texts it
    did not score itself: read from the cache, or scored by an earlier job of the same scorer."""

    texts: int
    unique: int
    cache_hits: int
    scored: int
    seconds: float
    fingerprint: str
    jobs: int = 1
    by_workers: int = 0  # texts scored in worker processes (the rest here)


@dataclass
class ScoringJob:
    """One scorer over a list of texts. Jobs with the same `group` (a corpus) are handed on together;
    `cached=False` for a lookup (a prediction file) that must see all its texts in one call."""

    scorer: Any
    texts: Sequence[str]
    group: int = 0
    cached: bool = True


@dataclass
class _Store:
    """Scores of one scorer, by text; shared by its cached jobs (one per uncached job)."""

    scorer: Any
    fingerprint: str
    dims: list[str]
    values: dict[str, Any] = field(default_factory=dict)
    assigned: set[str] = field(default_factory=set)  # texts some chunk will score


@dataclass
class _JobRun:
    job: ScoringJob
    store: _Store
    unique: list[str]
    hits: int
    scored: int = 0
    by_workers: int = 0
    processes: int = 1
    outstanding: int = 0
    started: float | None = None
    finished: float | None = None


@dataclass
class _Chunk:
    job: int
    texts: list[str]
    shared: bool  # workers may score it


def chunk_size_of(scorer: Any, chunk_size: int | None = None) -> int:
    if chunk_size:
        return int(chunk_size)
    return int(getattr(scorer, "batch_size", None) or DEFAULT_CHUNK)


def score_jobs(jobs: Sequence[ScoringJob], *, cache: Any = None, progress: ProgressFn | None = None,
               cancel: Any = None, processes: int | None = 1, chunk_size: int | None = None,
               rates: dict[str, float] | None = None,
               on_group_done: Callable[[int, list[Any]], None] | None = None,
               on_job_done: Callable[[int, ScoringStats], None] | None = None,
               on_plan: Callable[[int, int, int], None] | None = None,
               on_workers_busy: Callable[[], None] | None = None, commit_at_end: bool = True) -> list[Any]:
    """Score every job; returns one frame per job (rows aligned with its texts, one float column per
    scorer dimension, `attrs["scoring"]` a `ScoringStats`).

    `processes`: how many score at once, this one included (None or 0: one per core).
    `rates`: seconds per text by scorer name (the audit's speed probe), for the ETA.
    `on_group_done(group, frames)` runs in this process, in group order, as soon as every job of
    that group and of the groups before it is scored (the pipeline computes a corpus's statistics
    there while workers go on scoring). `on_plan(texts, to_score, processes)` runs once the cache was
    read, before any scoring: how many texts there are, how many are not cached and in how many
    processes they will be scored (1 when none or too few for the workers), so a log line can say
    what will actually happen. `on_workers_busy()` runs once, when worker processes have every chunk
    they may take queued and before this process scores its own: slow preparation done there (the
    audit imports its statistics' modules) overlaps the workers' scoring instead of leaving them idle
    later. `commit_at_end=False`: the cache's last rows are left for the caller to commit (``flush``)
    when the call returns normally (a cancelled or failed call still commits them); the audit does it
    while its statistics' workers compute, instead of before forking them (0.06 s of 37,000 rows).
    Raises `Cancelled` when `cancel` asks to stop."""
    sched = _Schedule(list(jobs), cache, progress, cancel, processes, chunk_size, rates, on_group_done,
                      on_job_done)
    sched.on_plan, sched.on_workers_busy, sched.commit_at_end = on_plan, on_workers_busy, commit_at_end
    return sched.run()


class _Schedule:
    def __init__(self, jobs, cache, progress, cancel, processes, chunk_size, rates, on_group_done, on_job_done):
        self.jobs: list[ScoringJob] = jobs
        self.cache, self.progress, self.cancel = cache, progress, cancel
        self.want = resolve_jobs(processes)
        self.chunk_size = chunk_size
        self.on_group_done, self.on_job_done = on_group_done, on_job_done
        self.runs: list[_JobRun] = []
        self.shared: deque[_Chunk] = deque()  # chunks workers may take, in job order
        self.local: deque[_Chunk] = deque()  # chunks only this process scores, in job order
        self.in_flight: dict[Any, _Chunk] = {}
        self.groups: list[int] = list(dict.fromkeys(j.group for j in jobs))
        self.last_job = {j.group: i for i, j in enumerate(jobs)}  # a group is complete with its last job
        self.next_group = 0
        self.next_frame = 0  # jobs before it have their frames (a job reads texts earlier jobs scored)
        self.total = 0  # distinct texts per job, summed (set by _plan)
        self.done = 0
        self.frames: dict[int, Any] = {}
        self.eta = WorkEta(rates or {})
        self.specs: dict[int, Any] = {}  # id(store) -> WorkerSpec
        self.pool: Any = None  # the executor's LocalPool, once there are chunks for workers
        self.left: dict[int, list[Any]] = {}  # id(scorer) -> [scorer, shared texts, local texts] not stored yet
        self.stolen: list[Any] = []  # futures of chunks this process scored in a worker's place
        self.on_plan: Callable[[int, int, int], None] | None = None
        self.on_workers_busy: Callable[[], None] | None = None
        self.commit_at_end = True

    # -- planning ---------------------------------------------------------------------------------
    def _plan(self) -> None:
        from .parallel import worker_spec_of

        stores: dict[int, _Store] = {}
        news: list[list[str]] = []
        for job in self.jobs:
            scorer = job.scorer
            if job.cached:
                store = stores.get(id(scorer))
                if store is None:
                    store = stores[id(scorer)] = _Store(scorer, scorer.fingerprint(), list(scorer.dimensions))
            else:
                store = _Store(scorer, scorer.fingerprint(), list(scorer.dimensions))
            unique = list(dict.fromkeys(str(t) for t in job.texts))
            unknown = [t for t in unique if t not in store.values and t not in store.assigned]
            found = self.cache.get_many(store.fingerprint, unknown) if self.cache is not None and job.cached else {}
            for i, vec in found.items():
                if vec.shape != (len(store.dims),):
                    raise ModelError(str(getattr(self.cache, "path", "cache")), "cached vector has the wrong length",
                                     fix="clear the cache; the scorer's fingerprint should have changed with its "
                                         "dimensions")
                store.values[unknown[i]] = vec
            new = [t for i, t in enumerate(unknown) if i not in found]
            store.assigned.update(new)
            self.runs.append(_JobRun(job, store, unique, hits=len(unique) - len(new)))
            news.append(new)
        per_store: dict[int, int] = {}
        for run, new in zip(self.runs, news):
            per_store[id(run.store)] = per_store.get(id(run.store), 0) + len(new)
        for j, (run, new) in enumerate(zip(self.runs, news)):
            if not new:
                continue
            scorer = run.job.scorer
            spec = worker_spec_of(scorer) if self.want > 1 and run.job.cached else None
            size = chunk_size_of(scorer, self.chunk_size)
            step = size
            if spec is not None:
                from .parallel import parallel_chunk

                if per_store[id(run.store)] > size:  # more than one chunk: worth the workers
                    self.specs[id(run.store)] = spec
                    run.processes = self.want
                    step = parallel_chunk(size, per_store[id(run.store)], self.want)
            lengths_fn = getattr(scorer, "lengths", None)
            lengths = lengths_fn(new) if callable(lengths_fn) else [len(t) for t in new]
            order = [new[i] for i in sorted(range(len(new)), key=lambda i: -lengths[i])]
            shared = id(run.store) in self.specs
            entry = self.left.setdefault(id(scorer), [scorer, 0, 0])  # texts not stored yet, for the ETA
            entry[1 if shared else 2] += len(order)
            for p in range(0, len(order), step):
                (self.shared if shared else self.local).append(_Chunk(j, order[p:p + step], shared))
                run.outstanding += 1
        self.total = sum(len(r.unique) for r in self.runs)
        self.done = self.total - sum(len(n) for n in news)
        if self.on_plan is not None:
            self.on_plan(self.total, self.total - self.done, self.want if self.specs and len(self.shared) > 1 else 1)
        self._emit()

    # -- running ----------------------------------------------------------------------------------
    def run(self) -> list[Any]:
        try:
            self._plan()
            self._frames_ready()
            if self.specs and len(self.shared) > 1:
                self._start_pool()
            self._loop()
        except BaseException:
            for fut in self.in_flight:
                fut.cancel()
            raise
        finally:
            if self.pool is not None:
                # Idle (the run completed): wait for the workers and the pool's threads to end, so that
                # the next audit in this process (a script's) can fork again. Otherwise (cancel, error, a
                # chunk scored here in a worker's place): do not wait for running chunks; the workers
                # exit once their current one is done
                busy = bool(self.in_flight) or any(not f.done() for f in self.stolen)
                if busy and sys.exc_info()[0] is not None:  # interrupted or failed: stop the workers now, and
                    self.pool.stop()  # wait for the pool's thread (left running, it wrote to a closed pipe
                    busy = False  # at exit: "Exception ignored … Bad file descriptor")
                self.pool.shutdown(wait=not busy)
            # what was scored is kept, also when cancelled or failed; a caller that commits the last
            # rows itself (the audit, once its statistics' workers are at work) says so
            if self.cache is not None and hasattr(self.cache, "flush") and (
                    self.commit_at_end or sys.exc_info()[0] is not None):
                self.cache.flush()
        return [self.frames[j] for j in range(len(self.runs))]

    def _start_pool(self) -> None:
        """Warm each shared scorer here (a few texts), then start the workers: forked ones are handed them."""
        from engine.common import executor

        from .parallel import scorer_key

        warm = {}
        for store_id, spec in self.specs.items():
            chunk = next(c for c in self.shared if id(self.runs[c.job].store) == store_id)
            if len(chunk.texts) <= WARM_TEXTS:  # a small chunk: score it whole
                self.shared.remove(chunk)
                self._score_here(chunk)
            else:
                head, chunk.texts = chunk.texts[:WARM_TEXTS], chunk.texts[WARM_TEXTS:]
                self._score_here(_Chunk(chunk.job, head, True), whole=False)
            store = self.runs[chunk.job].store
            warm[scorer_key(spec, store.fingerprint)] = store.scorer
        self.pool = executor.LocalPool(self.want - 1, inherit=warm)

    def _loop(self) -> None:
        """Every shared chunk is queued for the workers at once, in job order, so a worker never waits
        for this process to hand it more (it may be busy with a chunk or a corpus's statistics).
        This process hands on ready corpora first, then scores its own chunks and takes back, from
        the front of the queue, chunks no worker has started — so both work through the corpora in
        order — and once nothing is left to take it scores a running chunk itself when the worker
        has had it longer than scoring it here would take (a worker starved of CPU never holds the
        run up; its copy of the result is ignored, the scores are the same)."""
        while self.pool is not None and self.shared:
            self._submit(self.shared.popleft())
        if self.pool is not None and self.in_flight and self.on_workers_busy is not None:
            self.on_workers_busy()
        waited = 0.0
        while self.shared or self.local or self.in_flight or self.next_group < len(self.groups):
            self._harvest(0)
            if is_cancelled(self.cancel):
                raise Cancelled(self.done, self.total)
            if self._hand_on_ready_group():
                continue
            chunk = self._next_here()
            if chunk is not None:
                self._score_here(chunk)
                waited = 0.0
                continue
            if not self.in_flight:
                continue  # every chunk stored: the loop hands on the remaining groups
            newest = next(reversed(self.in_flight))
            chunk = self.in_flight[newest]
            own = self.eta.seconds_here(self.runs[chunk.job].store.scorer, len(chunk.texts))
            if own is not None and waited >= own:  # the worker is slower than doing it here: do it here
                del self.in_flight[newest]
                self.stolen.append(newest)
                self._score_here(chunk)
                waited = 0.0
                continue
            t = time.perf_counter()
            before = len(self.in_flight)
            self._harvest(POLL_S)
            waited = 0.0 if len(self.in_flight) < before else waited + time.perf_counter() - t

    def _next_here(self) -> _Chunk | None:
        """This process's next chunk, in job order (so that corpora complete one after another): one
        only it can score, or a shared one taken back from the workers' queue (a chunk taken back is
        never queued again: a worker that has not started could otherwise be handed and robbed of
        the same chunks over and over — a busy loop that once grew the queues by gigabytes)."""
        if self.shared:  # no pool (a single shared chunk), or chunks taken back
            if not self.local or self.shared[0].job <= self.local[0].job:
                return self.shared.popleft()
        first_queued = next(iter(self.in_flight.values())).job if self.in_flight else None
        if self.local and (first_queued is None or self.local[0].job <= first_queued):
            return self.local.popleft()
        for fut in list(self.in_flight):
            if fut.cancel():  # not started by a worker: take it back
                return self.in_flight.pop(fut)
        return self.local.popleft() if self.local else None

    def _submit(self, chunk: _Chunk) -> None:
        from .parallel import score_chunk

        run = self.runs[chunk.job]
        run.started = run.started or time.perf_counter()
        fut = self.pool.submit(score_chunk, self.specs[id(run.store)], run.store.fingerprint, chunk.texts)
        self.in_flight[fut] = chunk

    def _harvest(self, timeout: float) -> None:
        from concurrent.futures import FIRST_COMPLETED, wait

        if not self.in_flight:
            return
        if timeout > 0:
            wait(list(self.in_flight), timeout=timeout, return_when=FIRST_COMPLETED)
        for fut in [f for f in self.in_flight if f.done()]:
            chunk = self.in_flight.pop(fut)
            if not fut.cancelled():
                self._store(chunk, fut.result(), by_worker=True)

    def _score_here(self, chunk: _Chunk, whole: bool = True) -> None:
        run = self.runs[chunk.job]
        scorer = run.store.scorer
        run.started = run.started or time.perf_counter()
        base = self.done

        def inner(done: int, total: int, _eta: float | None) -> None:
            if self.progress is not None and done < total:
                self.progress(base + done, self.total, self._estimate(chunk, done))

        t = time.perf_counter()
        try:
            frame = scorer.score(list(chunk.texts), progress=inner, cancel=self.cancel)
        except Cancelled:
            raise Cancelled(self.done, self.total) from None
        self.eta.observe(scorer, len(chunk.texts), time.perf_counter() - t)
        self._store(chunk, frame, by_worker=False, whole=whole)

    def _store(self, chunk: _Chunk, frame: Any, by_worker: bool, whole: bool = True) -> None:
        run = self.runs[chunk.job]
        store = run.store
        block = as_block(frame, store.dims, len(chunk.texts), store.scorer, chunk.texts)
        for text, row in zip(chunk.texts, block):
            store.values[text] = row
        if self.cache is not None and run.job.cached:
            self.cache.put_many(store.fingerprint, chunk.texts, block)
        run.scored += len(chunk.texts)
        run.by_workers += len(chunk.texts) if by_worker else 0
        self.left[id(store.scorer)][1 if chunk.shared else 2] -= len(chunk.texts)
        self.done += len(chunk.texts)
        if whole:  # (the warm-up texts split off a chunk leave the rest of it outstanding)
            run.outstanding -= 1
            if run.outstanding == 0:
                run.finished = time.perf_counter()
                self._frames_ready()
        self._emit()

    def _emit(self) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total, self._estimate())

    def _estimate(self, chunk: _Chunk | None = None, done_in_chunk: int = 0) -> float | None:
        """ETA of the texts not stored yet (less what the chunk being scored here has done)."""
        left = {key: list(entry) for key, entry in self.left.items()}
        if chunk is not None:
            left[id(self.runs[chunk.job].store.scorer)][1 if chunk.shared else 2] -= done_in_chunk
        return self.eta.estimate([tuple(e) for e in left.values() if e[1] > 0 or e[2] > 0],
                                 self.want if self.pool is not None else 1, self.done)

    def _frames_ready(self) -> None:
        """Build the frames of the jobs whose texts are all scored, in job order."""
        while self.next_frame < len(self.runs) and self.runs[self.next_frame].outstanding == 0:
            self._job_done(self.next_frame)
            self.next_frame += 1

    def _job_done(self, j: int) -> None:
        import numpy as np
        import pandas as pd

        run = self.runs[j]
        store = run.store
        texts = [str(t) for t in run.job.texts]
        values = np.array([store.values[t] for t in texts], dtype=np.float64).reshape(len(texts), len(store.dims))
        frame = pd.DataFrame(values, columns=store.dims)
        seconds = (run.finished - run.started) if run.started and run.finished else 0.0
        stats = ScoringStats(len(texts), len(run.unique), run.hits, run.scored, seconds, store.fingerprint,
                             run.processes, run.by_workers)
        frame.attrs["scoring"] = stats
        self.frames[j] = frame
        if self.on_job_done is not None:
            self.on_job_done(j, stats)

    def _hand_on_ready_group(self) -> bool:
        """Hand on the next group if it and every group before it are scored; True if it did."""
        if self.next_group >= len(self.groups):
            return False
        g = self.groups[self.next_group]
        if self.next_frame <= self.last_job[g]:
            return False
        self.next_group += 1
        if self.on_group_done is not None:
            self.on_group_done(g, [self.frames[j] for j, r in enumerate(self.runs) if r.job.group == g])
        return True


def as_block(frame: Any, dims: list[str], n: int, scorer: Any, texts: Sequence[str] = ()) -> Any:
    """Check a scorer's output shape and return it as an (n, dims) float64 array.

    A NaN or infinite score from a model is the model's fault (damaged weights, a retyped tensor,
    a precision it overflows in) and is refused naming the model — it never reaches the
    statistics as "missing". Scorers that report missing values on purpose (prediction files with
    on_missing/on_bad=keep) say so with ``missing_allowed``."""
    import numpy as np

    name = getattr(scorer, "name", type(scorer).__name__)
    cols = list(getattr(frame, "columns", []))
    if cols != dims:
        raise ModelError(name, f"scorer returned columns {cols}, expected {dims}", field="dimensions")
    arr = np.asarray(frame.to_numpy(), dtype=np.float64)
    if arr.shape != (n, len(dims)):
        raise ModelError(name, f"scorer returned {arr.shape[0]} rows for {n} texts", field="score")
    bad = ~np.isfinite(arr)
    if bad.any() and not getattr(scorer, "missing_allowed", False):
        rows = np.flatnonzero(bad.any(axis=1))
        first = f" (first: {texts[rows[0]]!r})" if len(texts) > rows[0] else ""
        raise ModelError(name, f"the model gave NaN or infinite scores for {len(rows):,} of {n:,} texts{first}",
                         field="score", fix="the model is broken, not the corpus: check its weight files (a changed "
                                            "type or a damaged download), or run it at full precision (precision=fp32)")
    return arr
