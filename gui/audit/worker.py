"""The audit off the UI thread: a QThread that runs it in its own process (or in itself).

Why a process behind the thread: an audit imports torch, transformers, statsmodels and scipy
and runs long C calls; in a thread all of that competes with the UI for Python's GIL, and on a
loaded two-core machine the window then freezes for a few hundred milliseconds at a time
(bench/bench_gui_stall.py measures both ways). With ``isolate=True`` (the default) the QThread
starts a child Python process (``start_audit_process``, at a lower CPU priority) and only
relays its small messages, so the UI thread never waits for the GIL; a run that exhausts
memory ends the child, not the app; and Cancel also stops a run that is inside a long step
that cannot check for it (after ``KILL_GRACE_S`` the child is killed; scores computed so far
are in the cache). ``isolate=False`` runs the same code in the QThread itself (no start-up
cost; for scripts and for comparison).

Everything reaches the UI thread as queued signals: progress(phase, done, total, eta),
log(line), step(statistic, corpus) (the statistic starting, in the statistics phase), then one of succeeded(result), failed(exception), cancelled(exception).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

from engine.common.executor import Connection, start_child

from PySide6.QtCore import QThread, Signal

from .job import NICE, AuditJob, RemoteError, execute

KILL_GRACE_S = 8.0


class ProcessGone(Exception):
    """The audit process ended without a result (killed by the system, usually out of memory)."""


class AuditThread(QThread):
    progress = Signal(str, int, int, object)
    log = Signal(str)
    step = Signal(str, str)
    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal(object)

    def __init__(self, job: AuditJob, parent: Any = None, *, isolate: bool = True) -> None:
        super().__init__(parent)
        self.job = job
        self.isolate = isolate
        self.cancel_event = threading.Event()
        self.kill_event = threading.Event()
        self.pid: int | None = None

    def request_cancel(self) -> None:
        self.cancel_event.set()

    def kill_child(self) -> None:
        """Stop the audit process now (window closing and it did not stop in time)."""
        self.cancel_event.set()
        self.kill_event.set()

    def run(self) -> None:  # worker thread: engine calls or message relaying only, no widgets
        from engine.common.progress import Cancelled

        try:
            if self.isolate:
                self._run_process()
            else:
                result = execute(self.job, progress=self.progress.emit, log=self.log.emit, cancel=self.cancel_event,
                                 step=self.step.emit)
                self.succeeded.emit(result)
        except Cancelled as exc:
            self.cancelled.emit(exc)
        except BaseException as exc:  # every failure reaches the UI as a readable message
            self.failed.emit(exc)

    def _run_process(self) -> None:
        from engine.common.progress import Cancelled

        try:  # this relay thread, and the process it starts (Linux: niceness is per thread and
            os.nice(NICE)  # inherited), yield the CPU to the UI thread on a busy machine
        except (AttributeError, OSError):
            pass
        proc, outbox, inbox = start_audit_process(self.job)
        self.pid = proc.pid
        final: tuple | None = None
        cancel_at: float | None = None
        try:
            while final is None:
                if self.cancel_event.is_set() and cancel_at is None:
                    cancel_at = time.monotonic()
                    try:
                        outbox.send("cancel")
                    except OSError:
                        pass
                overdue = cancel_at is not None and time.monotonic() - cancel_at > KILL_GRACE_S
                if (overdue or self.kill_event.is_set()) and proc.poll() is None:
                    proc.kill()  # the run is inside a step that cannot stop itself; the cache keeps its work
                    proc.wait(5)
                    final = ("cancelled", 0, 0)
                    break
                try:
                    ready = inbox.poll(0.05)
                except (EOFError, OSError):
                    ready = False
                if ready:
                    try:
                        msg = inbox.recv()
                    except (EOFError, OSError):  # the child closed its end: it has ended
                        break
                    kind = msg[0]
                    if kind == "progress":
                        self.progress.emit(*msg[1:])
                    elif kind == "log":
                        self.log.emit(msg[1])
                    elif kind == "step":
                        self.step.emit(*msg[1:])
                    else:
                        final = msg
                elif proc.poll() is not None:
                    break
        finally:
            inbox.close()
            outbox.close()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if final is None:
            code = proc.returncode
            if self.cancel_event.is_set():
                raise Cancelled(0, 0)
            if code == -9:
                raise MemoryError("the audit process was stopped by the system (SIGKILL), which usually "
                                  "means the computer ran out of memory")
            raise ProcessGone(f"the audit process ended unexpectedly (exit code {code})")
        kind = final[0]
        if kind == "done":
            self.succeeded.emit(final[1])
        elif kind == "cancelled":
            raise Cancelled(*final[1:])
        else:
            exc = final[1]
            raise exc.restore() if isinstance(exc, RemoteError) else exc


# Ctrl+C in the terminal that started the app reaches the whole process group: the audit process
# ignores it from its first line (so do its forked workers) — the app cancels it through the pipe, or
# the pipe's end does when the app goes away — instead of dying with a KeyboardInterrupt traceback
_BOOT = ("import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); "
         "import json, os, sys; sys.path[:0] = json.loads(os.environ.pop('EEC_AUDIT_SYS_PATH')); "
         "from gui.audit.job import subprocess_main; subprocess_main(int(sys.argv[1]), int(sys.argv[2]))")


def start_audit_process(job: AuditJob) -> tuple[subprocess.Popen, Connection, Connection]:
    """Start ``python -c …subprocess_main`` with two pipes (the executor's ``start_child``: a plain
    subprocess that imports only gui.audit.job and the engine); send it ``job``."""
    env = dict(os.environ)
    env["EEC_AUDIT_SYS_PATH"] = json.dumps([p for p in sys.path if p])
    proc, outbox, inbox = start_child(_BOOT, env)
    try:
        outbox.send(job)
    except OSError:
        inbox.close()
        outbox.close()
        proc.kill()
        raise
    return proc, outbox, inbox
