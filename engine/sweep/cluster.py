"""Connecting to the Dask cluster a sweep runs on: a local cluster of worker processes on this
machine, or a running ``dask scheduler`` somewhere else. Both end as the executor's
``DaskBackend`` (engine.common.executor), which makes the client and the cluster; this module says
what the user is told when a cluster cannot be had."""
from __future__ import annotations

import os
import socket
import struct
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

from .errors import SweepError

WORKER_WAIT_S = 60  # how long a remote scheduler may sit without workers before we give up
#: how long a scheduler may take to connect AND say its Dask handshake (a listener that accepts and
#: never answers — another program on the port, `python -m http.server` — is named within this)
HANDSHAKE_S = 15.0
#: local worker processes per core at most (each holds its own copy of the models)
JOBS_PER_CORE = 4
_FIX = "start it with `dask scheduler` and check the address, port and firewall"


def max_jobs() -> int:
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def check_jobs(jobs: int | None) -> None:
    """--jobs: at least 1, at most JOBS_PER_CORE per core of this machine."""
    if jobs is None:
        return
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, not {jobs}", field="--jobs")
    if jobs > max_jobs():
        raise SweepError(f"--jobs {jobs:,} is more than {JOBS_PER_CORE} worker processes per core of this machine "
                         f"({os.cpu_count() or 1} core(s)): each worker holds its own copy of the models",
                         field="--jobs", fix=f"use at most --jobs {max_jobs()}, or a cluster (--scheduler)")


def check_address(address: str) -> tuple[str, str, int]:
    """``tcp://HOST:PORT`` (or ``HOST:PORT``) → (the address Dask is given, host, port); anything
    else is a SweepError naming --scheduler."""
    text = address.strip()
    fix = "give tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786 (8786 is Dask's default port)"
    if not text or any(c.isspace() or not c.isprintable() for c in text):
        raise SweepError(f"{address!r} is not a scheduler address", field="--scheduler", fix=fix)
    parts = urlsplit(text if "://" in text else f"tcp://{text}")
    if parts.scheme not in ("tcp", "tls"):
        raise SweepError(f"{address!r}: the scheduler is reached over tcp:// (or tls://), not {parts.scheme}://",
                         field="--scheduler", fix=fix)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is None or not 0 < port < 65536:
        raise SweepError(f"{address!r} has no port between 1 and 65535", field="--scheduler", fix=fix)
    host = parts.hostname or ""
    if not host or parts.path not in ("", "/") or parts.query or parts.username:
        raise SweepError(f"{address!r} is not tcp://HOST:PORT", field="--scheduler", fix=fix)
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}:{port}", host, port


def handshake(address: str, host: str, port: int, deadline: float) -> None:
    """Connect and wait for the first message a Dask scheduler sends on every new connection (its
    handshake), all within ``deadline`` seconds; a SweepError says what answered instead."""
    end = time.monotonic() + deadline
    try:
        sock = socket.create_connection((host, port), timeout=deadline)
    except socket.timeout:
        raise SweepError(f"no Dask scheduler answered at {address} within {deadline:g} s (the connection was "
                         "not accepted)", field="--scheduler", fix=_FIX) from None
    except OSError as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address} ({(exc.strerror or str(exc)).lower()})",
                         field="--scheduler", fix=_FIX) from None
    with sock:
        head = b""
        try:
            while len(head) < 8:
                sock.settimeout(max(0.01, end - time.monotonic()))
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    break
                head += chunk
        except socket.timeout:
            pass
        except OSError as exc:
            raise SweepError(f"the connection to {address} failed ({(exc.strerror or str(exc)).lower()})",
                             field="--scheduler", fix=_FIX) from None
    if not head:
        raise SweepError(f"no Dask scheduler answered at {address} within {deadline:g} s (something accepted "
                         "the connection but said nothing)", field="--scheduler",
                         fix="check the port: another program listens there; " + _FIX)
    size = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
    if not 0 < size < (64 << 20):
        raise SweepError(f"the program at {address} is not a Dask scheduler (it answered {head[:8]!r})",
                         field="--scheduler", fix="check the port; " + _FIX)


def connect(address: str, deadline: float):
    """A DaskBackend on the scheduler at ``address`` (validated), or a SweepError within ``deadline``
    seconds — the handshake first, then the client, each bounded (Ctrl+C is answered throughout)."""
    from engine.common.executor import DaskBackend

    address, host, port = check_address(address)
    start = time.monotonic()
    if address.startswith("tcp://"):  # over tls:// the first bytes are the TLS handshake: the client's deadline only
        handshake(address, host, port, deadline)
    left = max(1.0, deadline - (time.monotonic() - start))
    box: dict[str, Any] = {}

    def make() -> None:
        try:
            box["backend"] = DaskBackend.connect(address, timeout=f"{left:.0f}s")
        except BaseException as exc:  # handed to the waiting thread
            box["error"] = exc

    t = threading.Thread(target=make, name="dask-connect", daemon=True)
    t.start()
    t.join(left + 2.0)
    if t.is_alive():
        raise SweepError(f"no Dask scheduler answered at {address} within {deadline:g} s (the client did not "
                         "finish connecting)", field="--scheduler", fix=_FIX)
    exc = box.get("error")
    if isinstance(exc, (OSError, TimeoutError, ValueError)):
        raise SweepError(f"cannot reach the Dask scheduler at {address} ({exc})", field="--scheduler", fix=_FIX) from None
    if exc is not None:
        raise exc
    return box["backend"]


@contextmanager
def open_cluster(scheduler: str | None, jobs: int | None, say: Callable[[str], None],
                 handshake_s: float = HANDSHAKE_S) -> Iterator[Any]:
    """A ``DaskBackend`` on a connected client (closed, and a local cluster shut down, on the way out)."""
    from engine.common.executor import DaskBackend

    if scheduler:
        if jobs:
            say(f"--jobs {jobs} is ignored with --scheduler: the cluster's workers do the work")
        backend = connect(scheduler, handshake_s)
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
    check_jobs(jobs)
    n = int(jobs or os.cpu_count() or 1)
    say(f"starting a local Dask cluster of {n} worker process{'es' if n > 1 else ''}")
    with DaskBackend.local(n) as backend:
        yield backend

