"""Connecting to the Dask cluster a sweep runs on: a LocalCluster of worker processes on this
machine, or a running ``dask scheduler`` somewhere else. Both end as a ``distributed.Client``."""
from __future__ import annotations

import logging
import os
import signal
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from .errors import SweepError

WORKER_WAIT_S = 60  # how long a remote scheduler may sit without workers before we give up


@contextmanager
def open_client(scheduler: str | None, jobs: int | None, say: Callable[[str], None]) -> Iterator[Any]:
    """A connected client (closed, and a local cluster shut down, on the way out)."""
    from distributed import Client, LocalCluster

    if scheduler:
        if jobs:
            say(f"--jobs {jobs} is ignored with --scheduler: the cluster's workers do the work")
        try:
            client = Client(scheduler, timeout="15s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise SweepError(f"cannot reach the Dask scheduler at {scheduler} ({exc})", field="--scheduler",
                             fix="start it with `dask scheduler` and check the address, port and firewall") from None
        try:
            if not client.scheduler_info()["workers"]:
                say(f"waiting up to {WORKER_WAIT_S} s for a worker to connect to {scheduler}")
                try:
                    client.wait_for_workers(1, timeout=WORKER_WAIT_S)
                except TimeoutError:
                    raise SweepError(f"no worker connected to the scheduler at {scheduler} within {WORKER_WAIT_S} s",
                                     field="--scheduler", fix=f"start `dask worker {scheduler}` on each machine") from None
            yield client
        finally:
            client.close()
        return
    n = int(jobs or os.cpu_count() or 1)
    if n < 1:
        raise SweepError(f"--jobs must be at least 1, not {n}", field="--jobs")
    say(f"starting a local Dask cluster of {n} worker process{'es' if n > 1 else ''}")
    with _workers_ignore_ctrl_c():
        # our own messages report failed tasks and lost workers; Dask's log lines would repeat them
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.CRITICAL)
    try:
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Start local worker processes with SIGINT ignored (a disposition they inherit): Ctrl+C in a
    terminal reaches the whole process group, and the client alone should answer it — cancel
    the tasks, shut the cluster down, say "cancelled" — instead of every worker printing a
    traceback. Only the main thread may change signal handlers; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_table(client: Any) -> dict[str, dict[str, Any]]:
    """{address: host, name, threads, memory limit} of the workers connected now."""
    try:
        info = client.scheduler_info(n_workers=-1)["workers"]
    except TypeError:  # distributed before 2025 lists every worker without being asked
        info = client.scheduler_info()["workers"]
    return {addr: {"host": w.get("host"), "name": str(w.get("name")), "nthreads": w.get("nthreads"),
                   "memory_limit": w.get("memory_limit")} for addr, w in info.items()}
