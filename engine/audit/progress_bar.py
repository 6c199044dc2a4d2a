"""A terminal progress bar for headless runs (stderr, redrawn in place; plain lines when not a TTY)."""
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


class ProgressBar:
    def __init__(self, label: str = "", stream=None, width: int = 30, min_interval: float = 0.1) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.min_interval = min_interval
        self._last = 0.0
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last_pct = -10

    def __call__(self, done: int, total: int, eta: float | None) -> None:
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
            self.stream.write(f"\r{self.label} [{bar}] {done:,}/{total:,} {frac:6.1%}{eta_txt}   ")
            if final:
                self.stream.write("\n")
        else:  # logs: one line per 10 %
            pct = int(frac * 100) // 10 * 10
            if pct >= self._last_pct + 10 or final:
                self._last_pct = pct
                self.stream.write(f"{self.label} {done:,}/{total:,} ({frac:.0%}){eta_txt}\n")
        self.stream.flush()
