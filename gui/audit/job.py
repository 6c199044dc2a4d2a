"""What an audit run does, without Qt: shared by the worker thread and the audit's own process.

Why Qt-free: with ``isolate`` (the default) the audit runs in a child Python process
(``subprocess_main``); the child imports only this module and the engine, never Qt. Running it in a
separate process keeps the UI responsive even while the audit imports torch, statsmodels or
scipy (imports and long C calls hold Python's GIL), and an audit that runs out of memory
ends its own process, never the app.
"""
from __future__ import annotations

import pickle
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.common.progress import LogFn  # stdlib only: the audit child starts light

PROGRESS_HZ = 20
#: niceness of the audit process and its relay thread: the UI keeps priority on a busy machine.
#: Measured with two CPU burners (bench/bench_gui_stall.py): nice 0 -> stalls up to 106 ms, audit 12 s;
#: nice 4 -> 37-71 ms, 22 s; nice 10 -> 61 ms, 80 s. 4 keeps the UI smooth without starving the audit.
NICE = 4

#: the GUI's progress: (phase, done, total, eta) — the engine's ProgressFn with the phase it belongs to
PhasedProgressFn = Callable[[str, int, int, "float | None"], None]


@dataclass
class AuditJob:
    """Everything a run needs, as plain picklable data built by the page from its widgets."""

    plan: Any = None  # engine.audit.AuditPlan (corpora × scorers × statistics, association tests)
    out_dir: Path | None = None
    scheduler: str | None = None  # tcp://HOST:PORT: score on that Dask cluster (engine.sweep.run_sweep)
    extra: dict[str, Any] = field(default_factory=dict)


def throttled(progress: PhasedProgressFn, phase: list[str], hz: float = PROGRESS_HZ) -> Callable[[int, int, Any], None]:
    """An engine progress callback that forwards at most ``hz`` updates a second (and the last
    one), labelled with the pipeline's current phase (``phase[0]``)."""
    last = [0.0]

    def relay(done: int, total: int, eta: float | None) -> None:
        now = time.monotonic()
        if done >= total or now - last[0] >= 1.0 / hz:
            last[0] = now
            progress(phase[0], int(done), int(total), eta)

    return relay


def execute(job: AuditJob, *, progress: PhasedProgressFn, log: LogFn, cancel: Any,
            step: Callable[[str, str], None] | None = None) -> Any:
    """Run the job's plan through the one audit pipeline (engine.audit.run_audit); ``step(what, on)``: the
    statistic (its registry label, untranslated) that starts on corpus ``on``, in the statistics phase."""
    from engine.audit import run_audit

    phase = ["scoring"]

    def on_phase(name: str, total: int) -> None:
        phase[0] = name
        if name in ("assoc", "statistics"):
            progress(name, 0, total, None)

    def on_step(what: str, on: str) -> None:
        if step is not None and phase[0] == "statistics":
            step(what, on)

    if job.scheduler:
        from engine.sweep import run_sweep

        result = run_sweep(job.plan, scheduler=job.scheduler, progress=throttled(progress, phase), cancel=cancel,
                           log=log, on_phase=on_phase, on_step=on_step).audit
    else:
        result = run_audit(job.plan, progress=throttled(progress, phase), cancel=cancel, log=log, on_phase=on_phase,
                           on_step=on_step)
    if result.out_dir is None and job.out_dir is not None:
        result.out_dir = Path(job.out_dir)
    return result


class RemoteError(Exception):
    """An exception from the audit process that could not be sent as itself.

    ``restore()`` rebuilds it as an instance of a class with the original's name, so
    ``gui.errors.friendly`` recognises engine errors (ModelError, DefinitionError, …) by name
    and reads their ``fix``; ``remote_traceback`` keeps the child's traceback for the log."""

    def __init__(self, name: str, text: str, mro: list[str], attrs: dict[str, Any], tb: str) -> None:
        super().__init__(text)
        self.name, self.text, self.mro, self.attrs, self.remote_traceback = name, text, mro, attrs, tb

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> Any:
        return (RemoteError, (self.name, self.text, self.mro, self.attrs, self.remote_traceback))

    def restore(self) -> BaseException:
        base: type = RemoteError
        if "MemoryError" in self.mro:
            base = type("RemoteMemoryError", (RemoteError, MemoryError), {})
        cls = type(self.name, (base,), {"__module__": "remote"})
        exc = cls(self.name, self.text, self.mro, self.attrs, self.remote_traceback)
        for k, v in self.attrs.items():
            try:
                setattr(exc, k, v)
            except AttributeError:
                pass
        return exc


def portable(exc: BaseException) -> BaseException:
    """``exc`` itself when it survives pickling unchanged, else a RemoteError describing it."""
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        clone = pickle.loads(pickle.dumps(exc))
        if type(clone) is type(exc) and str(clone) == str(exc):
            clone.remote_traceback = tb  # type: ignore[attr-defined]
            return clone
    except Exception:
        pass
    attrs = {k: v for k, v in vars(exc).items() if isinstance(v, (str, int, float, type(None)))} \
        if hasattr(exc, "__dict__") else {}
    return RemoteError(type(exc).__name__, str(exc), [c.__name__ for c in type(exc).__mro__], attrs, tb)


class PipeFlag:
    """A cancel flag (``is_set()``, as the engine accepts) that turns on when the app sends
    anything through ``conn``; checked between batches, so polling the pipe is cheap enough."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.flag = False

    def is_set(self) -> bool:
        if not self.flag:
            try:
                self.flag = bool(self.conn.poll(0))
            except (EOFError, OSError):  # the app closed its end: stop
                self.flag = True
        return self.flag


def child_main(job: AuditJob, conn: Any, stop: Any) -> None:
    """Entry point of the audit process: run ``job`` and send messages through ``conn``;
    anything arriving on ``stop`` cancels the run at the next batch.

    Messages: ("progress", phase, done, total, eta), ("log", line), ("step", statistic, corpus), then exactly one of
    ("done", AuditResult), ("cancelled", done, total, stage), ("failed", exception)."""
    from engine.common.progress import Cancelled

    cancel = PipeFlag(stop)

    def send(*msg: Any) -> None:
        try:
            conn.send(msg)
        except (BrokenPipeError, EOFError, OSError):  # the app went away: stop quietly
            raise SystemExit(0) from None

    try:
        result = execute(job, progress=lambda *a: send("progress", *a), log=lambda m: send("log", m), cancel=cancel,
                         step=lambda what, on: send("step", what, on))
        result.results = {}  # result objects may hold fitted models; the tables and files carry everything
        send("done", result)
    except Cancelled as exc:
        send("cancelled", exc.done, exc.total, getattr(exc, "stage", "scoring"))
    except SystemExit:
        raise
    except BaseException as exc:  # reported to the app as a readable message
        send("failed", portable(exc))
    finally:
        try:
            conn.close()
        except OSError:
            pass


def subprocess_main(read_fd: int, write_fd: int) -> None:
    """``python -c`` entry of the audit process (see gui/audit/worker.py): the job arrives on
    ``read_fd``; messages go out on ``write_fd``; a later message or EOF on ``read_fd`` cancels."""
    from engine.common.executor import child_pipes

    inbox, outbox = child_pipes(read_fd, write_fd)
    job = inbox.recv()
    child_main(job, outbox, inbox)
