"""The executor's backends on this machine: ``InProcess`` (everything here, in order) and
``LocalPool`` (worker processes beside this one), with the process details they need.

How workers start: on Linux, when this process runs a single thread (the CLI, a script, the GUI's
audit process; not a Jupyter kernel, which runs threads of its own), they are forked when the pool
is made: they inherit the imported packages and whatever this process hands them (``inherit``: the
audit's warmed scorers), so they start in milliseconds (a spawned worker spent a second or more
importing pandas and loading TextBlob, which on two busy cores ate most of the gain). Elsewhere
(macOS, Windows, or a process with other threads, where forking is unsafe) joblib's loky executor
is used: it does not re-run the caller's ``__main__`` in its workers (a script without a
``__main__`` guard works) and is reused between calls, so its start-up is paid once.

Every worker ignores Ctrl+C (the calling process answers it and stops the workers), and a forked
one ends with its parent, even when the parent is killed (the GUI kills an audit that does not stop
in time).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from engine.common.progress import Cancelled, ProgressFn, ProgressTracker, is_cancelled

from . import gc_hold

POLL_S = 0.1  # how often a waiting map looks at `cancel`
LOKY_IDLE_S = 120  # a reusable loky worker exits after this long without work
POOL_THREADS = ("ExecutorManagerThread", "QueueFeederThread")  # the threads a pool runs in this process

_inherited: dict[Any, Any] = {}  # what a forked pool's workers were handed (see `inherited`)


def default_jobs() -> int:
    """The number of cores this process may use (the default of `jobs`)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs: int | None) -> int:
    """None or 0 -> every usable core; otherwise at least 1."""
    if not jobs:
        return default_jobs()
    return max(1, int(jobs))


def can_fork() -> bool:
    """Forking is safe here: Linux, and no other Python thread that could hold a lock."""
    import multiprocessing

    return (sys.platform.startswith("linux") and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods())


def inherited(key: Any, default: Any = None) -> Any:
    """In a forked worker: the object the pool was handed under `key` (``LocalPool(inherit=…)``),
    else `default` (a loky worker, or this process): the task then loads its own."""
    return _inherited.get(key, default)


@contextmanager
def sigint_held() -> Iterator[None]:
    """Block Ctrl+C (SIGINT) in this thread while it forks; a signal held here arrives when the block ends.

    Why: a Ctrl+C that lands during ``fork`` raised KeyboardInterrupt inside the new child before it
    could ignore the signal (a worker's traceback). Forked children inherit the blocked mask;
    ``_forked_start`` ignores SIGINT there, then lets go. In this process the mask holds the signal
    back only where no other thread runs (the kernel hands it to one that does not block it); a
    KeyboardInterrupt the interpreter then swallows in its after-fork hooks is raised again by
    ``engine.common.interrupts`` in a command line run."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Start processes (not forks) with SIGINT ignored, a disposition they inherit; only the main
    thread may change signal handlers, elsewhere nothing changes (the Dask backend's local cluster)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ignore_sigint() -> None:
    """In a worker: Ctrl+C is for the calling process, which stops the workers itself (a worker's
    KeyboardInterrupt printed its own traceback between the progress lines and "cancelled")."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a SIGINT held since the fork is discarded here
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _forked_start(parent: int) -> None:
    """First thing in a forked worker: ignore Ctrl+C, end with the parent."""
    _ignore_sigint()
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """In a forked worker: end when the calling process ends, even by SIGKILL, instead of waiting
    forever for tasks nobody will send."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def wait_until_idle(timeout: float = 10.0) -> bool:
    """True once no pool thread runs in this process (False if some still do after `timeout`).
    An idle reusable loky executor is shut down (the next pool that needs one starts another).

    Why: a pool shut down without waiting (a cancelled run) keeps its threads while its workers
    finish their current task, and loky's keeps them until idle for two minutes; while any runs,
    `can_fork()` is False and the next pool would be loky's (tests wait here between runs)."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:
        reusable_executor = None
    if reusable_executor is not None and reusable_executor._executor is not None:
        reusable_executor._executor.shutdown(wait=True)
    deadline = time.time() + timeout
    while time.time() < deadline:
        if not any(t.name.startswith(POOL_THREADS) for t in threading.enumerate()):
            return True
        time.sleep(0.05)
    return False


class InProcess:
    """Every task here, in order: the one-process case of the same interface (``jobs=1``)."""

    workers = 0
    processes = 1

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """Runs `fn(*args)` now; the future holds its value or its exception."""
        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except Exception as exc:  # noqa: BLE001 - the future carries it, as a pool's would
            fut.set_exception(exc)
        return fut

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any], *, progress: ProgressFn | None = None,
            cancel: Any = None, on_result: Callable[[int, Any], None] | None = None,
            here: Callable[[Any], Any] | None = None, on_start: Callable[[int], None] | None = None,
            order: list[int] | None = None) -> list[Any]:
        """One process: the tasks in task order (`order` is how a pool hands them out; here nothing
        changes with it)."""
        tasks = list(tasks)
        run = here or fn
        out, tracker = [], ProgressTracker(len(tasks), progress)
        for i, task in enumerate(tasks):
            if is_cancelled(cancel):
                raise Cancelled(i, len(tasks))
            if on_start is not None:
                on_start(i)
            value = run(task)
            out.append(value)
            if on_result is not None:
                on_result(i, value)
            tracker.advance(1)
        return out

    def stop(self) -> None:
        pass

    def shutdown(self, *, wait: bool = True) -> None:
        pass

    def __enter__(self) -> "InProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


class LocalPool:
    """`workers` processes beside this one (forked where `can_fork()`, else loky's); ``map`` also
    computes tasks in this process, so ``LocalPool(n - 1)`` keeps n cores busy.

    `inherit`: {key: object} a forked pool's workers are handed at the fork (``inherited(key)``
    there), instead of loading or unpickling their own (the audit's warmed scorers). A forked pool
    lives for one use (a ``with`` block); loky's is shared and reused, so shutting it down only
    cancels this pool's tasks that have not started."""

    def __init__(self, workers: int, *, inherit: dict[Any, Any] | None = None) -> None:
        self.workers = max(1, int(workers))
        self.processes = self.workers + 1
        self.forked = can_fork()
        self._mine: list[Future] = []  # loky: this pool's futures, cancelled at shutdown
        self._held = False  # forked: the garbage collector is held off the shared memory (gc_hold)
        if self.forked:
            self._pool, self._owned = self._fork(inherit or {}), True
        else:
            from joblib.externals.loky import get_reusable_executor

            self._pool = get_reusable_executor(max_workers=self.workers, timeout=LOKY_IDLE_S,
                                               initializer=_ignore_sigint)
            self._owned = False

    def _fork(self, inherit: dict[Any, Any]) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _inherited.update(inherit)
        gc_hold.hold()  # released when the pool has shut down (shutdown)
        self._held = True
        try:
            pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_forked_start, initargs=(os.getpid(),))
            # a fork pool starts all its workers at the first submit: do it now, while `_inherited`
            # holds what they are handed (started later, each worker would load its own copy)
            try:
                with sigint_held():  # a Ctrl+C held back during the fork arrives when this block ends
                    pool.submit(os.getpid)
            except BaseException:  # ... before the caller holds the pool: stop it here, or its thread
                _terminate(pool)  # outlives the run and fails at exit
                pool.shutdown(wait=True, cancel_futures=True)
                self._release()
                raise
            return pool
        finally:
            for key in inherit:  # only the children keep them: this process has its own references
                _inherited.pop(key, None)

    def _release(self) -> None:
        if self._held:
            self._held = False
            gc_hold.release()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """`fn(*args)` in a worker (the function and arguments are pickled, so module-level)."""
        fut = self._pool.submit(fn, *args)
        if not self._owned:
            self._mine = [f for f in self._mine if not f.done()] + [fut]
        return fut

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any], *, progress: ProgressFn | None = None,
            cancel: Any = None, on_result: Callable[[int, Any], None] | None = None,
            here: Callable[[Any], Any] | None = None, on_start: Callable[[int], None] | None = None,
            order: list[int] | None = None) -> list[Any]:
        """`[fn(t) for t in tasks]`, the workers taking tasks from the front and this process from
        the back (with `here`, when given: e.g. one that also checks for cancel, which only this
        process can). `order`: the task indices in the order they are handed out (the longest
        first, say); results, `on_result`, progress and errors stay those of task order.
        `on_result(i, value)` and `progress(done, total, eta)` run here as results come in;
        `on_start(i)` runs here when task i starts (here) or is handed to a free worker (told at
        this process's next look at the workers: it is busy with a task of its own). A task that
        fails in a worker (its error, a crash, a value that cannot be pickled) is run again here,
        so the error raised is the one the serial path raises, in task order; a worker's failure
        never reaches the caller. `cancel` is looked at between tasks and while
        waiting: then `Cancelled(done, total)`, and the workers are stopped."""
        return _PoolMap(self, fn, list(tasks), here or fn, progress, cancel, on_result, on_start, order).run()

    def stop(self) -> None:
        """End a forked pool's worker processes now (the run was interrupted or failed), instead of
        leaving them to finish tasks nobody will read; loky's shared workers finish theirs."""
        if self._owned:
            _terminate(self._pool)

    def shutdown(self, *, wait: bool = True) -> None:
        """Cancel the tasks not started; with `wait`, wait for the workers (and the pool's threads)
        to end, so that the next pool in this process can fork again."""
        if self._owned:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            if wait:  # (without waiting, workers may still run: the collector stays off their pages)
                self._release()
        else:
            for fut in self._mine:
                fut.cancel()
            self._mine = []

    def __enter__(self) -> "LocalPool":
        return self

    def __exit__(self, exc_type: Any, *_exc: Any) -> None:
        if exc_type is not None:  # interrupted or failed: nobody will read what the workers compute
            self.stop()
        self.shutdown(wait=True)


def _terminate(pool: Any) -> None:
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            if proc.is_alive():
                proc.terminate()
        except (OSError, ValueError, AttributeError):
            pass


class _PoolMap:
    """One ``LocalPool.map``: each worker holds one task at a time (a finished one is replaced from
    its future's callback, also while this process is busy with a task of its own), so the tasks
    not handed out stay here for this process to take from the back."""

    def __init__(self, pool: LocalPool, fn: Callable, tasks: list, here: Callable, progress: ProgressFn | None,
                 cancel: Any, on_result: Callable[[int, Any], None] | None,
                 on_start: Callable[[int], None] | None = None, order: list[int] | None = None) -> None:
        self.pool, self.fn, self.tasks, self.here = pool, fn, tasks, here
        self.cancel, self.on_result, self.on_start = cancel, on_result, on_start
        self.handed: deque[int] = deque()  # handed to a worker, not yet told to `on_start` (this thread tells)
        self.lock = threading.Lock()
        if order is not None and sorted(order) != list(range(len(tasks))):
            raise ValueError(f"order must list each of the {len(tasks)} task indices once")
        self.queue: deque[int] = deque(range(len(tasks)) if order is None else order)
        self.in_flight: dict[Future, int] = {}
        self.values: dict[int, Any] = {}
        self.redo: set[int] = set()  # failed in a worker: run again here
        self.failed: dict[int, Exception] = {}  # failed here
        self.limit = len(tasks)  # tasks after a failure here are not needed
        self.closed = False
        self.tracker = ProgressTracker(len(tasks), progress)

    def run(self) -> list[Any]:
        n = len(self.tasks)
        try:
            for _ in range(self.pool.workers):
                self._feed()
            while True:
                self._tell_started()
                self._harvest()
                if is_cancelled(self.cancel):
                    raise Cancelled(len(self.values), n)
                with self.lock:
                    mine = self.queue.pop() if self.queue else None
                if mine is not None:
                    self._here(mine)
                    continue
                with self.lock:
                    pending = list(self.in_flight)
                if not pending:
                    break
                wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for i in range(n):  # in task order: the serial path's first error
                if i in self.failed:
                    raise self.failed[i]
                if i in self.redo:
                    self._accept(i, self.here(self.tasks[i]))
            return [self.values[i] for i in range(n)]
        except BaseException:
            self._close()
            raise

    def _feed(self, _done: Any = None) -> None:
        """Hand the next task to the worker that is free (also from a future's callback thread)."""
        with self.lock:
            if self.closed or not self.queue:
                return
            i = self.queue.popleft()
            try:
                fut = self.pool.submit(self.fn, self.tasks[i])
            except Exception:  # noqa: BLE001 - a broken or shut pool: this process does the task
                self.redo.add(i)
                return
            self.in_flight[fut] = i
            self.handed.append(i)
        fut.add_done_callback(self._feed)

    def _tell_started(self) -> None:
        """`on_start` for the tasks handed to workers since the last look (in the calling thread)."""
        while self.on_start is not None:
            with self.lock:
                if not self.handed:
                    return
                i = self.handed.popleft()
            self.on_start(i)

    def _harvest(self) -> None:
        with self.lock:
            done = [(f, i) for f, i in self.in_flight.items() if f.done()]
            for fut, _i in done:
                del self.in_flight[fut]
        for fut, i in done:
            if i >= self.limit:
                continue
            if fut.cancelled() or fut.exception() is not None:
                self.redo.add(i)
            else:
                self._accept(i, fut.result())

    def _here(self, i: int) -> None:
        if i >= self.limit:
            return
        self._tell_started()
        if self.on_start is not None:
            self.on_start(i)
        try:
            value = self.here(self.tasks[i])
        except Cancelled:
            raise
        except Exception as exc:  # raised once the earlier tasks are resolved: the serial order
            self.failed[i] = exc
            with self.lock:
                self.limit = min(self.limit, i)
                self.queue = deque(j for j in self.queue if j < self.limit)
            return
        self._accept(i, value)

    def _accept(self, i: int, value: Any) -> None:
        self.values[i] = value
        if self.on_result is not None:
            self.on_result(i, value)
        self.tracker.advance(1)

    def _close(self) -> None:
        with self.lock:
            self.closed = True
            futures = list(self.in_flight)
        for fut in futures:
            fut.cancel()
        self.pool.stop()
