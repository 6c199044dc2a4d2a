"""One function run in a forked child while this process does something else.

Why: parts of an audit that used to be serial can use a second core this way: the corpora are
generated while the audit process loads and warms the scorers (engine.audit.pipeline), and the
statistics of the last corpora, whose scores all arrive at the end, run side by side
(engine.audit.analysis). The values come back pickled.

The child's work is an optimisation only: if it fails in any way (an exception, a value that
cannot be pickled, a crash), `result()` says so and the caller does the work itself — so the user
sees exactly the error the serial path raises, never one from the child. No thread is started in
this process (a pipe and a forked process), so forking the scoring workers afterwards stays safe.
"""
from __future__ import annotations

import os
from typing import Any, Callable


class ForkedCall:
    """`fn(*args)` running in a forked child; `result()` → (True, value) or (False, None)."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        from .parallel import sigint_held

        self._conn, child_end = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_run_child, args=(child_end, os.getpid(), fn, args), daemon=True)
        with sigint_held():  # the child ignores Ctrl+C (worker_start): this process answers it
            self._proc.start()
        child_end.close()

    def wait(self, timeout: float) -> bool:
        """True once `result()` will not block (the value is in, or the child is gone)."""
        try:
            return self._conn.poll(timeout)
        except (OSError, EOFError):
            return True

    def result(self) -> tuple[bool, Any]:
        try:
            ok, value = self._conn.recv()
        except Exception:  # noqa: BLE001 - the child died (EOFError) or sent garbage: redo the work here
            ok, value = False, None
        finally:
            self._conn.close()
            self._proc.join(timeout=5)
            if self._proc.is_alive():
                self._proc.kill()
                self._proc.join()
        return ok, value

    def abandon(self) -> None:
        """Stop the child (the caller failed or was cancelled before it needed the value)."""
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join()
        self._conn.close()


def _run_child(conn: Any, parent: int, fn: Callable[..., Any], args: tuple) -> None:
    from .parallel import worker_start

    worker_start(parent)
    try:
        value = (True, fn(*args))
    except BaseException:  # noqa: BLE001 - the parent redoes the work and raises the error itself
        value = (False, None)
    try:
        conn.send(value)
    except Exception:  # noqa: BLE001 - e.g. an unpicklable value: the parent redoes the work
        try:
            conn.send((False, None))
        except Exception:  # noqa: BLE001
            pass
    finally:
        conn.close()
        os._exit(0)  # no atexit handlers, no flushing of the parent's inherited buffers
