"""``ForkedCall``: one call computed in a forked child while this process goes on, its result read
back through a pipe.

Why not a ``LocalPool`` of one worker: a pool runs threads in this process (its manager and feeder),
and while any thread runs here no further pool may be forked (``can_fork``). The audit computes one
large corpus's statistics this way while it generates the next corpus and forks that corpus's
scoring workers (engine.audit.pipeline): the call leaves no thread behind, so the scoring pool is
still forked, and the corpus's frames are handed to the child at the fork instead of being pickled.

The child ignores Ctrl+C and ends with this process (as a pool's workers do); its result, or the
exception it raised, comes back pickled. Linux only, where ``can_fork()``: the caller checks.
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import traceback
from typing import Any, Callable

from engine.common.progress import is_cancelled

from . import gc_hold
from .local import _forked_start, sigint_held

POLL_S = 0.1  # how often `result` looks at `cancel` while the child computes


class ForkedCallFailed(RuntimeError):
    """The child ended without a result (killed, or its result could not be pickled)."""


class ForkedCall:
    """``fn(*args)`` in a child forked now; ``result()`` waits for it (and returns it, or raises the
    exception the call raised, as its own class where it pickles), ``kill()`` stops it."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        parent = os.getpid()
        read, write = os.pipe()
        gc_hold.hold()  # released when the child has ended (_close)
        with sigint_held():  # a Ctrl+C during the fork arrives once it is done, here (local.sigint_held)
            try:
                pid = os.fork()
            except BaseException:  # no child (out of memory): nothing shares this process's pages
                gc_hold.release()
                os.close(read)
                os.close(write)
                raise
            if pid == 0:  # the child: never returns
                os.close(read)
                _child(parent, write, fn, args)
        os.close(write)
        self.pid, self._read = pid, read
        self._finished = False

    def done(self) -> bool:
        """True once the child has written its result or ended (``result`` will not wait long)."""
        if self._finished:
            return True
        ready, _w, _x = select.select([self._read], [], [], 0)
        return bool(ready)

    def result(self, cancel: Any = None) -> Any:
        """The call's value. Raises the call's exception; ``Cancelled`` via ``cancel`` (checked while
        waiting: the child is killed); ``ForkedCallFailed`` when the child ended without a result."""
        from engine.common.progress import Cancelled

        chunks = []
        try:
            while True:
                ready, _w, _x = select.select([self._read], [], [], POLL_S)
                if not ready:
                    if is_cancelled(cancel):
                        self.kill()
                        raise Cancelled(0, 0)
                    continue
                data = os.read(self._read, 1 << 20)
                if not data:
                    break
                chunks.append(data)
        finally:
            self._close()
        _pid, status = os.waitpid(self.pid, 0)
        if not chunks:
            how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                   else f"exit status {os.WEXITSTATUS(status)}")
            raise ForkedCallFailed(f"the child process ended without a result ({how})")
        ok, value = pickle.loads(b"".join(chunks))
        if ok:
            return value
        if isinstance(value, BaseException):
            raise value
        raise ForkedCallFailed(value)

    def kill(self) -> None:
        """Stop the child now (an interrupted run); nothing is read back."""
        if self._finished:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        self._close()

    def _close(self) -> None:
        if not self._finished:
            self._finished = True
            os.close(self._read)
            gc_hold.release()


def _child(parent: int, write: int, fn: Callable[..., Any], args: tuple) -> None:
    """In the child: compute, write (ok, value) pickled, and leave without running this process's
    exit handlers (they belong to the parent: its open files, its pools, pytest's)."""
    code = 0
    try:
        _forked_start(parent)
        try:
            payload = pickle.dumps((True, fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
            try:
                payload = pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
                pickle.loads(payload)  # an exception that pickles but cannot be rebuilt: its text instead
            except Exception:  # noqa: BLE001
                payload = pickle.dumps((False, "".join(traceback.format_exception(exc)).strip()))
        view = memoryview(payload)
        while view:
            view = view[os.write(write, view):]
    except BaseException:  # noqa: BLE001 - nothing can be told: the parent sees no result
        code = 1
    finally:
        os._exit(code)
