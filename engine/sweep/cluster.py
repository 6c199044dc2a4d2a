"""Connecting to the Dask cluster a sweep runs on: a local cluster of worker processes on this
machine, or a running ``dask scheduler`` somewhere else. Both end as the executor's
``DaskBackend`` (engine.common.executor), which makes the client and the cluster; this module says
what the user is told when a cluster cannot be had."""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from .errors import SweepError

WORKER_WAIT_S = 60  # how long a remote scheduler may sit without workers before we give up


@contextmanager
def open_cluster(scheduler: str | None, jobs: int | None, say: Callable[[str], None]) -> Iterator[Any]:
    """A ``DaskBackend`` on a connected client (closed, and a local cluster shut down, on the way out)."""
    from engine.common.executor import DaskBackend

    if scheduler:
        if jobs:
            say(f"--jobs {jobs} is ignored with --scheduler: the cluster's workers do the work")
        try:
            backend = DaskBackend.connect(scheduler, timeout="15s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise SweepError(f"cannot reach the Dask scheduler at {scheduler} ({exc})", field="--scheduler",
                             fix="start it with `dask scheduler` and check the address, port and firewall") from None
        with backend:
            if not backend.workers():
                say(f"waiting up to {WORKER_WAIT_S} s for a worker to connect to {scheduler}")
                try:
                    backend.wait_for_workers(1, timeout=WORKER_WAIT_S)
                except TimeoutError:
                    raise SweepError(f"no worker connected to the scheduler at {scheduler} within {WORKER_WAIT_S} s",
                                     field="--scheduler", fix=f"start `dask worker {scheduler}` on each machine") from None
            yield backend
        return
    n = int(jobs or os.cpu_count() or 1)
    if n < 1:
        raise SweepError(f"--jobs must be at least 1, not {n}", field="--jobs")
    say(f"starting a local Dask cluster of {n} worker process{'es' if n > 1 else ''}")
    with DaskBackend.local(n) as backend:
        yield backend

