"""Progress and cancel, shared by every long call of the engine: scorers, the audit, the sweep,
training and the executor that runs their tasks (engine.common.executor).

Why here and not in engine.models: progress and cancel are not about models; the executor, the
statistics and the sweep report and stop the same way, and engine.common imports nothing heavy.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

#: progress(done, total, eta_seconds_or_None) — called after every batch.
ProgressFn = Callable[[int, int, "float | None"], None]
#: cancel() -> True to stop; a `threading.Event` is accepted too (its `is_set`).
CancelFn = Callable[[], bool]
#: log(line) — one line of text for the user (the CLI's stderr, the GUI's log view).
LogFn = Callable[[str], None]
#: phase(name, total) — a long call entered a new phase ("scoring", "statistics") of ``total`` steps.
PhaseFn = Callable[[str, int], None]
#: step(what, on) — a phase made of named steps began one: the statistics phase has a step per
#: statistic and corpus (``what`` the statistic's registry label, "Beta regression", ``on`` the corpus
#: id); its progress counts the steps done.
StepFn = Callable[[str, str], None]


class Cancelled(Exception):
    """Raised when a cancel callback asked to stop; work finished before it is kept (cached).

    `stage` says where the run stopped ("scoring", or "statistics" once every score was in),
    so a user is told the right thing: a run cancelled in its statistics has all its scores cached.
    """

    def __init__(self, done: int = 0, total: int = 0, stage: str = "scoring"):
        super().__init__(f"cancelled after {done} of {total}" if stage == "scoring"
                         else f"cancelled during the {stage} (all {total} scored)")
        self.done = done
        self.total = total
        self.stage = stage

    def __reduce__(self) -> Any:  # keeps `stage` across the audit process's pipe
        return (Cancelled, (self.done, self.total, self.stage))


def is_cancelled(cancel: CancelFn | Any | None) -> bool:
    """True when `cancel` (a callable or an object with `is_set`) asks to stop."""
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    if callable(is_set):
        return bool(is_set())
    return bool(cancel())


def check_cancel(cancel: CancelFn | Any | None, done: int = 0, total: int = 0) -> None:
    """Raise `Cancelled` if asked to; called between batches (cooperative cancellation)."""
    if is_cancelled(cancel):
        raise Cancelled(done, total)


@dataclass
class ProgressTracker:
    """Turns batch completions into (done, total, eta) calls.

    Why: every scorer and the runner report progress the same way; ETA is the mean rate
    over the items actually computed so far (cache hits counted as done but not timed,
    so a mostly-cached resume does not promise an absurdly short remainder).
    """

    total: int
    callback: ProgressFn | None = None
    done: int = 0
    _computed: int = 0
    _started: float = 0.0

    def __post_init__(self) -> None:
        self._started = time.perf_counter()

    def skip(self, n: int) -> None:
        """Count `n` items as done without computing them (cache hits)."""
        self.done += n
        self._emit()

    def advance(self, n: int) -> None:
        """Count `n` freshly computed items."""
        self.done += n
        self._computed += n
        self._emit()

    def eta(self) -> float | None:
        if self._computed == 0:
            return None
        elapsed = time.perf_counter() - self._started
        rate = self._computed / max(elapsed, 1e-9)
        return max(self.total - self.done, 0) / rate

    def _emit(self) -> None:
        if self.callback is not None:
            self.callback(self.done, self.total, self.eta())


class StepTracker(ProgressTracker):
    """A phase of named steps (the statistics: one per statistic and corpus): ``start(what, on)`` tells
    ``on_step`` what runs now, ``finish()`` counts a computed step, ``skip()`` one that did not apply;
    progress is (steps done, steps, ETA from the mean time of the steps computed).

    Why quiet until ``begin()``: with one process a corpus's statistics run as soon as its scores are
    in, while the scoring phase still owns the progress bar; they are counted, and reported from the
    moment the phase begins (the clock of the ETA starts then too)."""

    def __init__(self, total: int, callback: ProgressFn | None = None, on_step: StepFn | None = None) -> None:
        super().__init__(total, callback)
        self.on_step = on_step
        self.active = False

    def start(self, what: str, on: str) -> None:
        if self.on_step is not None:
            self.on_step(what, on)

    def finish(self, n: int = 1) -> None:
        self.advance(n)

    def begin(self) -> None:
        """The phase has begun: report from now on."""
        self.active = True
        self._started, self._computed = time.perf_counter(), 0
        self._emit()

    def _emit(self) -> None:
        if self.active:
            super()._emit()
