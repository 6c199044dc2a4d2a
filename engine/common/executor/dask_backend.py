"""The executor's Dask backend: tasks on a Dask cluster through a ``distributed.Client`` — a
LocalCluster of worker processes on this machine, or a running ``dask scheduler`` elsewhere.

Why a backend of its own: a cluster's workers may be other machines (a GPU node); tasks load their
own models there, a lost worker's tasks are retried by Dask, and nothing is forked. ``distributed``
is imported only when a cluster is used (the ``sweep`` extra).
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from engine.common.progress import Cancelled, ProgressFn, ProgressTracker, is_cancelled

POLL_S = 0.05  # how often a waiting map looks at `cancel`


class DaskBackend:
    """``map``/``submit`` on a connected ``distributed.Client`` (``local()`` or ``connect()``).
    Cluster chores a sweep needs beside its tasks (a function run once on every worker, the worker
    table) are here too, so that no other module holds a client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    @classmethod
    @contextmanager
    def local(cls, workers: int, *, processes: bool = True, threads_per_worker: int = 1) -> Iterator["DaskBackend"]:
        """A LocalCluster of `workers` workers on this machine, shut down on the way out. Its worker
        processes start with Ctrl+C ignored: a terminal sends it to the whole process group, and this
        process alone answers it (cancels the tasks, shuts the cluster down) instead of every worker
        printing a traceback. Dask's own log lines are silenced: the caller reports failed tasks."""
        from distributed import Client, LocalCluster

        from .local import sigint_ignored

        with sigint_ignored():
            cluster = LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker, processes=processes,
                                   dashboard_address=None, silence_logs=logging.CRITICAL)
        try:
            client = Client(cluster)
            try:
                yield cls(client)
            finally:
                client.close()
        finally:
            cluster.close()

    @classmethod
    def connect(cls, address: str, *, timeout: str = "15s") -> "DaskBackend":
        """The cluster of a running scheduler at `address` (``tcp://HOST:PORT``), until ``close()``
        (or the end of a ``with`` block). Raises OSError, TimeoutError or ValueError when it cannot
        be reached (the caller names the fix)."""
        from distributed import Client

        return cls(Client(address, timeout=timeout))

    def close(self) -> None:
        """Disconnect this process's client (the cluster itself stays: it is not ours)."""
        self.client.close()

    def __enter__(self) -> "DaskBackend":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    @property
    def address(self) -> str:
        return self.client.scheduler.address

    def workers(self) -> dict[str, dict[str, Any]]:
        """{address: host, name, threads, memory limit} of the workers connected now."""
        try:
            info = self.client.scheduler_info(n_workers=-1)["workers"]
        except TypeError:  # distributed before 2025 lists every worker without being asked
            info = self.client.scheduler_info()["workers"]
        return {addr: {"host": w.get("host"), "name": str(w.get("name")), "nthreads": w.get("nthreads"),
                       "memory_limit": w.get("memory_limit")} for addr, w in info.items()}

    @property
    def processes(self) -> int:
        return max(1, len(self.workers()))

    def wait_for_workers(self, n: int, timeout: float) -> None:
        """Raises TimeoutError when fewer than `n` workers connected within `timeout` seconds."""
        self.client.wait_for_workers(n, timeout=timeout)

    def run_everywhere(self, fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
        """`fn(*args)` once on every worker: {worker address: its value, or the exception it raised}."""
        return self.client.run(fn, *args, on_error="return")

    def submit(self, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
        """A Dask future of `fn(*args)` (arguments may be other futures); `options` are Dask's
        (key, retries, pure, priority)."""
        return self.client.submit(fn, *args, **options)

    def map(self, fn: Callable[[Any], Any], tasks: Iterable[Any], *, progress: ProgressFn | None = None,
            cancel: Any = None, on_result: Callable[[int, Any], None] | None = None,
            here: Callable[[Any], Any] | None = None, retries: int = 0, key: str | None = None,
            on_abandon: Callable[[int], None] | None = None) -> list[Any]:
        """`[fn(t) for t in tasks]` on the workers (none here: `here` is not used), submitted in task
        order as priorities. `on_result(i, value)` and `progress(done, total, eta)` run here as
        results come in (in completion order); each result is released on the cluster once fetched.
        A task that fails (after `retries` retries: a lost worker's tasks are rerun) raises its own
        exception here, with ``failed_task`` set to its index. `cancel`, checked while waiting,
        raises `Cancelled(done, total)`. Whatever stops the map early cancels the tasks still queued
        or running (`on_abandon(n)` is told how many). `key`: the tasks' key prefix."""
        from distributed import as_completed

        tasks = list(tasks)
        run = key or f"executor-{time.monotonic_ns()}"
        futures = {self.client.submit(fn, task, retries=retries, key=f"{run}-{i}", priority=-i, pure=False): i
                   for i, task in enumerate(tasks)}
        values: dict[int, Any] = {}
        tracker = ProgressTracker(len(tasks), progress)
        pending = as_completed(list(futures))
        try:
            while not pending.is_empty():
                if is_cancelled(cancel):
                    raise Cancelled(len(values), len(tasks))
                if not pending.has_ready():
                    time.sleep(POLL_S)
                    continue
                for fut in pending.next_batch(block=False):
                    i = futures.pop(fut)
                    if fut.status == "error":
                        exc = fut.exception()
                        try:
                            exc.failed_task = i
                        except AttributeError:
                            pass
                        raise exc
                    value = values[i] = fut.result()
                    fut.release()
                    if on_result is not None:
                        on_result(i, value)
                    tracker.advance(1)
        except BaseException:  # Ctrl+C, cancel or a failed task: stop everything still queued
            if futures:
                self.client.cancel(list(futures))
                if on_abandon is not None:
                    on_abandon(len(futures))
            raise
        return [values[i] for i in range(len(tasks))]

    def stop(self) -> None:
        pass

    def shutdown(self, *, wait: bool = True) -> None:
        pass  # the cluster's lifetime is local()'s or connect()'s block
