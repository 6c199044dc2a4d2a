"""A lexicon scorer that takes its time: tests that must act while scoring is under way (kill a
Dask worker mid-sweep) need tasks that last long enough. Same name and fingerprint as plain
VADER, so its results equal a normal run's. Lives in testkit (importable on dask workers started
with PYTHONPATH=<checkout>), not in a test module the workers cannot import."""
from __future__ import annotations

import time
from typing import Any

from engine.models.scorers.lexicon import VaderScorer


class SlowVader(VaderScorer):
    def __init__(self, delay: float = 0.5) -> None:
        super().__init__()
        self.delay = delay
        self.batch_size = 1_000_000  # one score() call (one sleep) per chunk handed to score_texts

    def score(self, texts: list[str], **kw: Any) -> Any:
        time.sleep(self.delay)
        return super().score(texts, **kw)
