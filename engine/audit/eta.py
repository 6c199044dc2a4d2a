"""ETA over a whole audit: the work still queued at each scorer's speed."""
from __future__ import annotations

import time
from typing import Any


class WorkEta:
    """Seconds left for the texts still to score, each at its scorer's seconds per text.

    Why per scorer: an audit interleaves scorers of very different speeds (a lexicon at 20,000
    texts/s, a transformer at 200), so "texts left / texts per second so far" promises "1 s left"
    while the slow one is still to come. Rates are seeded by the audit's speed probe (by scorer name)
    and replaced by what this process measures; texts that workers may share are divided by the
    number of processes. A scorer with no rate yet is costed at the run's mean speed so far.
    """

    def __init__(self, rates: dict[str, float] | None = None):
        self.seeded = dict(rates or {})
        self.measured: dict[int, list[float]] = {}  # id(scorer) -> [seconds, texts] scored here
        self.started = time.perf_counter()

    def observe(self, scorer: Any, texts: int, seconds: float) -> None:
        entry = self.measured.setdefault(id(scorer), [0.0, 0])
        entry[0] += seconds
        entry[1] += texts

    def rate(self, scorer: Any) -> float | None:
        """Seconds per text of `scorer`: measured here, else the probe's, else None."""
        seconds, texts = self.measured.get(id(scorer), (0.0, 0))
        if texts:
            return seconds / texts
        return self.seeded.get(getattr(scorer, "name", None))

    def seconds_here(self, scorer: Any, texts: int) -> float | None:
        rate = self.rate(scorer)
        return None if rate is None else rate * texts

    def estimate(self, left: list[tuple[Any, int, int]], processes: int, done: int) -> float | None:
        """`left`: (scorer, texts workers may share, texts only this process scores) per scorer;
        `done`: texts done so far (for a scorer with no rate yet)."""
        if not left:
            return 0.0
        elapsed = time.perf_counter() - self.started
        fallback = elapsed / done if done and elapsed > 0 else None  # seconds per text so far
        seconds = 0.0
        for scorer, shared, local in left:
            rate = self.rate(scorer)
            rate = fallback if rate is None else rate
            if rate is None:
                return None
            seconds += rate * (shared / max(processes, 1) + local)
        return seconds
