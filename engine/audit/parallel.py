"""Chunks of CPU-bound scorers scored by worker processes too (`score_texts(..., jobs=N)`).

Why processes: VADER, TextBlob and the scikit-learn systems are Python code that holds the GIL,
so one audit used one core. A scorer takes part by offering a `WorkerSpec` (its spec string):
each worker loads its own copy once and checks that its fingerprint matches, so no model is
pickled per chunk. Torch scorers offer none and stay in the calling process (they already use
every core through their own threads).

How workers start: on Linux, when this process runs a single thread (the CLI, a script, the GUI's
audit process; not a Jupyter kernel, which runs threads of its own), they are forked for the call:
they inherit the imported packages and the scorer this process has already warmed, so they start in
milliseconds (a spawned worker spends a second or more importing pandas and loading TextBlob, which
on two busy cores ate most of the gain). Elsewhere (macOS, Windows, or a process with other threads,
where forking is unsafe) joblib's loky executor is used: a `concurrent.futures` executor that does
not re-run the caller's `__main__` in its workers (a script without a `__main__` guard works) and is
reused between calls, so its start-up is paid once.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from engine.models.base import WorkerSpec
from engine.models.errors import ModelError

# in a worker: (spec, allow_pickle, fingerprint) -> the scorer loaded from it
_loaded: dict[tuple[str, bool, str], Any] = {}


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


def worker_spec_of(scorer: Any) -> WorkerSpec | None:
    """The scorer's recipe for worker processes, or None when it must score in this process."""
    fn = getattr(scorer, "worker_spec", None)
    if not callable(fn):
        return None
    spec = fn()
    return spec if isinstance(spec, WorkerSpec) else None


def can_fork() -> bool:
    """Forking is safe here: Linux, and no other Python thread that could hold a lock."""
    import multiprocessing

    return (sys.platform.startswith("linux") and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods())


def executor(workers: int, warm: list[tuple[WorkerSpec, str, Any]] | None = None) -> tuple[Any, bool]:
    """(a pool of `workers` processes, whether the caller must shut it down).

    `warm`: (spec, fingerprint, scorer) for each scorer the workers will be asked for: a forked
    pool's workers inherit these scorers as the ones the specs name, so they load nothing. A loky
    pool is shared and reused (idle workers exit after two minutes); a forked one lives for one call."""
    if can_fork():
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        inherited = {(spec.spec, spec.allow_pickle, fingerprint): scorer for spec, fingerprint, scorer in warm or []}
        _loaded.update(inherited)
        try:
            pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                       initializer=worker_start, initargs=(os.getpid(),))
            # a fork pool starts all its workers at the first submit: do it now, while `_loaded`
            # holds the warmed scorers (started later, each worker would load its own copy)
            try:
                with sigint_held():  # a Ctrl+C held back during the fork arrives when this block ends
                    pool.submit(os.getpid)
            except BaseException:  # ... before the caller holds the pool: stop it here, or its thread
                stop_workers(pool)  # outlives the run and fails at exit
                pool.shutdown(wait=True, cancel_futures=True)
                raise
            return pool, True
        finally:
            for key in inherited:  # only the children keep them: this process has its own references
                _loaded.pop(key, None)
    from joblib.externals.loky import get_reusable_executor

    return get_reusable_executor(max_workers=workers, timeout=120, initializer=_ignore_sigint), False


@contextmanager
def sigint_held() -> Iterator[None]:
    """Hold Ctrl+C (SIGINT) back while this process forks; it is delivered when the block ends.

    Why: a Ctrl+C that lands during ``fork`` raised KeyboardInterrupt inside the interpreter's
    after-fork hooks, where it is printed as "Exception ignored …" and lost (the run went on to the
    end), or inside the new child before it could ignore the signal (a worker's traceback). Forked
    children inherit the held signal mask; ``worker_start`` ignores SIGINT there, then lets go."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _ignore_sigint() -> None:
    """In a worker: Ctrl+C is for the audit process, which stops the workers itself (a worker's
    KeyboardInterrupt printed its own traceback between the progress lines and "cancelled")."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a SIGINT held since the fork is discarded here
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def worker_start(parent: int) -> None:
    """First thing in a forked worker or child: ignore Ctrl+C, end with the parent."""
    _ignore_sigint()
    _die_with_parent(parent)


def stop_workers(pool: Any) -> None:
    """End a forked pool's worker processes now (the run was interrupted or failed): the parent
    stops its workers, instead of leaving them to finish chunks nobody will read."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            if proc.is_alive():
                proc.terminate()
        except (OSError, ValueError, AttributeError):
            pass


def _die_with_parent(parent: int) -> None:
    """In a forked worker: end when the audit process ends, even by SIGKILL (the GUI kills a
    run that does not stop in time), instead of waiting forever for chunks nobody will send."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def score_chunk(spec: WorkerSpec, fingerprint: str, texts: list[str]) -> Any:
    """Run in a worker: score `texts` with the scorer `spec` names (loaded once per worker)."""
    key = (spec.spec, spec.allow_pickle, fingerprint)
    scorer = _loaded.get(key)
    if scorer is None:
        from engine.models.specs import load_scorer

        scorer = load_scorer(spec.spec, allow_pickle=spec.allow_pickle)
        if scorer.fingerprint() != fingerprint:
            raise ModelError(spec.spec, "a worker process loaded a different model than the audit's",
                             fix="run with jobs=1 (--jobs 1); the model files may have changed during the run")
        _loaded[key] = scorer
    return scorer.score(list(texts))


PARALLEL_CHUNK_MAX = 512  # texts: small enough that the two processes finish together, large enough that
# pickling a chunk (about a millisecond) stays a small share of scoring it (25-100 ms for a lexicon)


def parallel_chunk(size: int, n: int, jobs: int) -> int:
    """Chunk size for a pool: at least the scorer's, large enough that the per-chunk overhead
    (pickling texts and scores) stays small, small enough for progress and cancel (~4 per worker)."""
    return max(size, min(PARALLEL_CHUNK_MAX, -(-n // (4 * jobs))))
