"""The one executor: every process pool, fork and Dask client of EEC Studio is made here.

One interface — ``map(fn, tasks, *, progress, cancel, on_result, here) -> results in task order``
(and ``submit(fn, *args) -> future`` for work that runs while the caller does something else) —
with three backends:

* ``InProcess``: every task here, in order (``jobs=1``);
* ``LocalPool(workers, inherit=…)``: worker processes beside this one; the caller computes tasks
  too. Forked on Linux when this process runs one thread (workers start in milliseconds and are
  handed the caller's warmed objects), joblib's loky elsewhere (engine/common/executor/local.py);
* ``DaskBackend``: a Dask cluster, local (``DaskBackend.local``) or remote (``DaskBackend.connect``).

Used by the audit (scoring chunks, corpora generated while the scorers load, the statistics of
several corpora side by side: engine.audit), the sweep (engine.sweep) and the calibration bench.
Training runs in one process (torch's threads use the cores) and asks for no executor.
What a task does stays with its caller (engine.audit.parallel scores a chunk; engine.sweep's
worker_tasks load a model on a cluster worker); how tasks reach processes, Ctrl+C in workers,
workers that end with their parent, and pools' threads are this package's.

Also here: ``ForkedCall`` (engine/common/executor/forked_call.py), one call in a forked child while
the caller goes on — a large corpus's statistics while the audit scores the next corpus — and
``start_child``, the GUI's audit process — a separate program with two pipes, not a
pool (engine/common/executor/child.py says why it is no multiprocessing child).
tests/test_executor.py fails when a pool, fork or Dask client is made anywhere else.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol

from engine.common.progress import ProgressFn

from .child import Connection, child_pipes, start_child
from .dask_backend import DaskBackend
from .local import InProcess, LocalPool, can_fork, default_jobs, inherited, resolve_jobs, wait_until_idle

__all__ = ["Executor", "InProcess", "LocalPool", "DaskBackend", "local_executor", "can_fork", "default_jobs",
           "resolve_jobs", "inherited", "wait_until_idle", "start_child", "child_pipes", "Connection"]


class Executor(Protocol):
    """What every backend offers."""

    processes: int  # how many processes compute at once, the caller's included where it takes part

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any], *, progress: ProgressFn | None = None,
            cancel: Any = None, on_result: Callable[[int, Any], None] | None = None,
            here: Callable[[Any], Any] | None = None, on_start: Callable[[int], None] | None = None) -> list[Any]:
        """`[fn(t) for t in tasks]`, in task order. `progress(done, total, eta)` and
        `on_result(index, value)` run in the calling process as results come in; `cancel` (a callable
        or an Event) raises `engine.common.progress.Cancelled`; a task's exception is raised as its own
        class. `here`: how the calling process computes a task it takes itself (default `fn`).
        `on_start(index)`: told in the calling process as a task starts (local backends; a cluster's
        scheduler decides when its tasks start, and Dask is not asked)."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A future of `fn(*args)` (``result()``, ``cancel()``, ``done()``)."""

    def stop(self) -> None:
        """End the workers now (the caller was interrupted); the executor is done after this."""

    def shutdown(self, *, wait: bool = True) -> None:
        """Cancel what has not started; with `wait`, let the workers end."""


def local_executor(processes: int | None) -> InProcess | LocalPool:
    """`processes` at once on this machine, this one included (None or 0: one per core):
    ``InProcess()`` for one, else ``LocalPool(processes - 1)``."""
    n = resolve_jobs(processes)
    return InProcess() if n <= 1 else LocalPool(n - 1)
