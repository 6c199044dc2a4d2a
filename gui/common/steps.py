"""Run a long piece of UI-thread work in short steps, a few per turn of the event loop.

Why: adding a few hundred plot items or sizing forty table columns must happen on the UI thread
(Qt widgets and graphics items live there), and done in one go it froze the window for 50–120 ms
on a loaded two-core machine (bench/bench_gui_stall.py). The work is written as a generator that
yields between small steps. Every ``Steps`` of the process shares one scheduler: each turn of the
event loop runs steps, taking the running works in turn, until ``BUDGET_S`` has passed, then lets
the event loop repaint and answer clicks before the next turn — so three views drawing at once
cost no more per turn than one. A newer ``start`` (or ``cancel``) drops what is left of an older
run of the same ``Steps``; ``finish`` runs the rest at once (scripts, tests, export).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from PySide6.QtCore import QObject, QTimer

#: Work per event-loop turn: a step may overrun it, and Qt may let two turns pass before a timer
#: (or a repaint) gets its go, so it is kept well under the 100 ms a user notices even when other
#: programs take half of the CPU.
BUDGET_S = 0.005


class Steps(QObject):
    def __init__(self, parent: QObject | None = None, *, budget_s: float | None = None) -> None:
        super().__init__(parent)
        self.budget_s = budget_s  # None: the shared BUDGET_S; tests set 0 for one step per turn
        self._steps: Iterator[Any] | None = None
        self._on_done: Callable[[], None] | None = None
        self._closing: list[Any] = []  # dropped runs to close once the step running them returns
        self.turns = 0  # event-loop turns the latest run took (tests check the work was spread)
        self.destroyed.connect(lambda *_a: _scheduler.forget(self))

    @property
    def running(self) -> bool:
        return self._steps is not None

    def start(self, steps: Iterator[Any], on_done: Callable[[], None] | None = None) -> None:
        """Run ``steps`` from the next turn of the event loop on; drops an unfinished older run."""
        old = self._steps
        self._steps, self._on_done = steps, on_done
        self.turns = 0
        _scheduler.add(self)
        self._close(old, keep=steps)

    def cancel(self) -> None:
        old = self._steps
        self._steps = self._on_done = None
        _scheduler.forget(self)
        self._close(old)

    def _close(self, old: Any, keep: Any = None) -> None:
        """Close a dropped run's generator here, on the UI thread.

        Why: dropped half-way, a drawing's generator still held its frame — the view, its plot items,
        a traceback — and, caught in a reference cycle, it was finalised by whichever thread next
        ran a full garbage collection. A thread-pool task did once: it deleted Qt objects off the UI
        thread while the UI thread waited on a Qt lock it held, and the test run hung (2026-11-28).
        Closed here, the frame lets go at once, on this thread."""
        if old is None or old is keep or not hasattr(old, "close"):
            return
        try:
            old.close()
        except ValueError:  # the run whose step called start()/cancel(): closed once that step returns
            self._closing.append(old)

    def _close_dropped(self) -> None:
        while self._closing:
            self._closing.pop().close()

    def finish(self) -> None:
        """Run every remaining step now."""
        steps = self._steps
        if steps is None:
            return
        try:
            for _ in steps:
                if self._steps is not steps:  # a step started a newer run or cancelled this one
                    return
        finally:
            self._close_dropped()
        if self._steps is steps:
            self._done()

    def _step(self) -> bool:
        """One step; False once there is nothing left to run (finished or cancelled)."""
        steps = self._steps
        if steps is None:
            return False
        try:
            next(steps)
        except StopIteration:
            if self._steps is steps:
                self._done()
        finally:
            self._close_dropped()
        return self._steps is not None

    def _done(self) -> None:
        on_done = self._on_done
        self._steps = self._on_done = None
        _scheduler.forget(self)
        if on_done is not None:
            on_done()


class _Scheduler:
    """Runs the steps of every running ``Steps``, round robin, a budget per event-loop turn."""

    def __init__(self) -> None:
        self.active: list[Steps] = []
        self.timer: QTimer | None = None

    def add(self, steps: Steps) -> None:
        if steps not in self.active:
            self.active.append(steps)
        self._schedule()

    def forget(self, steps: Steps) -> None:
        if steps in self.active:
            self.active.remove(steps)

    def _schedule(self) -> None:
        if self.timer is None:
            self.timer = QTimer()
            self.timer.setSingleShot(True)
            self.timer.setInterval(0)
            self.timer.timeout.connect(self._turn)
        if not self.timer.isActive():
            self.timer.start()

    def _turn(self) -> None:
        t0 = time.perf_counter()
        budget = min((BUDGET_S if s.budget_s is None else s.budget_s) for s in self.active) if self.active else 0
        for s in list(self.active):
            s.turns += 1
        try:
            while self.active:
                current = self.active[0]
                try:
                    more = current._step()
                except BaseException:  # a broken drawing is dropped (and reported by Qt), the others go on
                    current._steps = current._on_done = None
                    more = False
                    raise
                finally:
                    if current in self.active:
                        self.active.remove(current)
                        if more:
                            self.active.append(current)  # the next work gets the next step
                if time.perf_counter() - t0 >= budget:
                    break
        finally:
            if self.active:
                self._schedule()


_scheduler = _Scheduler()
