"""A separate Python program started with two message pipes: the GUI's audit process.

Why here: it is not a pool (one program of its own, started with ``python -c``, at its own CPU
priority, killed by the app when Cancel does not stop it in time), but it is a process this program
starts and talks to, and the executor is the one place that starts processes. Why not
multiprocessing's ``spawn``: it re-imports the caller's ``__main__`` in the child, which re-runs any
script that embeds the GUI without a ``__main__`` guard; a plain subprocess imports only what its
boot code names.
"""
from __future__ import annotations

import os
import subprocess
import sys
from multiprocessing.connection import Connection

__all__ = ["Connection", "start_child", "child_pipes"]


def start_child(boot: str, env: dict[str, str]) -> tuple[subprocess.Popen, Connection, Connection]:
    """``python -c boot READ_FD WRITE_FD`` with two pipes: (the process, the pipe to it, the pipe
    from it). `boot` calls ``child_pipes(int(sys.argv[1]), int(sys.argv[2]))`` to get its ends."""
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    try:
        proc = subprocess.Popen([sys.executable, "-c", boot, str(to_child_r), str(from_child_w)],
                                pass_fds=(to_child_r, from_child_w), env=env, stdin=subprocess.DEVNULL)
    except BaseException:
        for fd in (to_child_w, from_child_r):
            os.close(fd)
        raise
    finally:
        os.close(to_child_r)
        os.close(from_child_w)
    return proc, Connection(to_child_w, readable=False), Connection(from_child_r, writable=False)


def child_pipes(read_fd: int, write_fd: int) -> tuple[Connection, Connection]:
    """In the child: (its inbox, its outbox) from the descriptors ``start_child`` passed."""
    return Connection(read_fd, writable=False), Connection(write_fd, readable=False)
