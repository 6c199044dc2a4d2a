"""Run a long piece of UI-thread work in short steps, a few per turn of the event loop.

Why: adding a few hundred plot items or sizing forty table columns must happen on the UI thread
(Qt widgets and graphics items live there), and done in one go it froze the window for 50–120 ms
on a loaded two-core machine (bench/bench_gui_stall.py). The work is written as a generator that
yields between small steps; ``Steps`` runs steps until ``budget_s`` has passed, then lets the
event loop repaint and answer clicks before the next batch. A newer ``start`` (or ``cancel``)
drops what is left of an older run; ``finish`` runs the rest at once (scripts, tests, export).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from PySide6.QtCore import QObject, QTimer

#: Work per event-loop turn: well under the 100 ms a user notices, even when other programs
#: take half the CPU, yet long enough that the steps do not spread over many frames.
BUDGET_S = 0.008


class Steps(QObject):
    def __init__(self, parent: QObject | None = None, *, budget_s: float = BUDGET_S) -> None:
        super().__init__(parent)
        self.budget_s = budget_s
        self._run = 0
        self._steps: Iterator[Any] | None = None
        self._on_done: Callable[[], None] | None = None
        self.turns = 0  # event-loop turns the latest run took (tests check the work was spread)

    @property
    def running(self) -> bool:
        return self._steps is not None

    def start(self, steps: Iterator[Any], on_done: Callable[[], None] | None = None) -> None:
        """Run ``steps`` from the next turn of the event loop on; drops an unfinished older run."""
        self._run += 1
        self._steps, self._on_done = steps, on_done
        self.turns = 0
        run = self._run
        QTimer.singleShot(0, self, lambda: self._turn(run))

    def cancel(self) -> None:
        self._run += 1
        self._steps = self._on_done = None

    def finish(self) -> None:
        """Run every remaining step now."""
        if self._steps is None:
            return
        self._run += 1  # the scheduled turn of this run finds nothing left to do
        for _ in self._steps:
            pass
        self._done()

    def _turn(self, run: int) -> None:
        if run != self._run or self._steps is None:
            return
        self.turns += 1
        t0 = time.perf_counter()
        for _ in self._steps:
            if run != self._run:  # a step started a newer run (or cancelled this one)
                return
            if time.perf_counter() - t0 >= self.budget_s:
                QTimer.singleShot(0, self, lambda: self._turn(run))
                return
        if run == self._run:
            self._done()

    def _done(self) -> None:
        on_done = self._on_done
        self._steps = self._on_done = None
        if on_done is not None:
            on_done()
