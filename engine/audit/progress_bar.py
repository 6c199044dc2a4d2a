"""Terminal progress for headless runs (stderr, redrawn in place; plain lines when not a TTY): a bar,
and ``AuditProgress``, an audit's bars phase by phase with the statistic being computed."""
from __future__ import annotations

import sys
import time


def format_eta(seconds: float) -> str:
    """12s, 3m05s, 1h02m, 3d04h."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    if s < 2 * 86400:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 86400}d{s % 86400 // 3600:02d}h"


def stderr_line(text: str) -> None:
    """One log line on stderr in a single write: ``print(text, file=sys.stderr)`` writes the text and
    its newline apart, and a Ctrl+C between the two left "… 2 processescancelled" on one line."""
    sys.stderr.write(f"{text}\n")
    sys.stderr.flush()


class ProgressBar:
    def __init__(self, label: str = "", stream=None, width: int = 30, min_interval: float = 0.1) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.min_interval = min_interval
        self._last = 0.0
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last_pct = -10
        self.detail = ""  # what runs now (the statistics: "Beta regression on en-kiritchenko2018")
        self._state: tuple[int, int, float | None] | None = None

    def step(self, detail: str) -> None:
        """Show what runs now: redrawn beside the bar on a terminal, a line of its own in a log."""
        self.detail = detail
        if self._tty:
            if self._state is not None:
                self._last = 0.0
                self(*self._state)
        else:
            done, total = self._state[:2] if self._state is not None else (0, 0)
            self.stream.write(f"{self.label} {done:,}/{total:,}: {detail}\n")
            self.stream.flush()

    def __call__(self, done: int, total: int, eta: float | None) -> None:
        self._state = (done, total, eta)
        now = time.monotonic()
        final = done >= total
        if not final and now - self._last < self.min_interval:
            return
        self._last = now
        frac = done / total if total else 1.0
        eta_txt = f" ETA {format_eta(eta)}" if eta is not None and not final else ""
        if self._tty:
            filled = int(frac * self.width)
            bar = "█" * filled + "·" * (self.width - filled)
            detail = f"  {self.detail}" if self.detail and not final else ""
            self.stream.write(f"\r{self.label} [{bar}] {done:,}/{total:,} {frac:6.1%}{eta_txt}{detail}\x1b[K")
            if final:
                self.stream.write("\n")
        else:  # logs: one line per 10 %
            pct = int(frac * 100) // 10 * 10
            if pct >= self._last_pct + 10 or final:
                self._last_pct = pct
                self.stream.write(f"{self.label} {done:,}/{total:,} ({frac:.0%}){eta_txt}\n")
        self.stream.flush()


class AuditProgress:
    """The progress of a whole audit on the terminal: a bar per phase — scoring, then the statistics
    (a step per statistic and corpus, the one running named beside the bar), then association tests.

    Pass it as ``progress``, its ``phase`` as ``on_phase`` and its ``step`` as ``on_step`` of
    ``engine.audit.run_audit``. A step told while another phase owns the bar (with one process a
    corpus's statistics run as soon as its scores are in) is left to the log."""

    LABELS = {"scoring": "scoring", "statistics": "statistics", "assoc": "association tests"}

    def __init__(self, stream=None) -> None:
        self.stream = stream
        self.name = "scoring"
        self.bar: ProgressBar | None = ProgressBar(self.LABELS["scoring"], stream)

    def phase(self, name: str, _total: int) -> None:
        self.name = name
        label = self.LABELS.get(name)
        self.bar = ProgressBar(label, self.stream) if label else None

    def step(self, what: str, on: str) -> None:
        if self.bar is not None and self.name == "statistics":
            self.bar.step(f"{what} on {on}")

    def __call__(self, done: int, total: int, eta: float | None) -> None:
        if self.bar is not None:
            self.bar(done, total, eta)
