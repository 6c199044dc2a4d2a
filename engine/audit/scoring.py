"""The scoring core the audit runner builds on: `score_texts(scorer, texts, cache=…)`.

One scorer over one list of texts: the one-job case of the audit's scheduler
(`engine.audit.schedule.score_jobs`), with everything it gives a job — de-duplication, the
persistent cache written as chunks arrive, worker processes for CPU-bound scorers (`jobs`),
length-sorted chunks, progress counting cache hits as done, and cancellation between chunks.
"""
from __future__ import annotations

from typing import Any, Sequence

from engine.common.progress import ProgressFn

from .schedule import ScoringJob, ScoringStats, score_jobs

__all__ = ["score_texts", "ScoringStats"]


def score_texts(scorer: Any, texts: Sequence[str], *, cache: Any = None, progress: ProgressFn | None = None,
                cancel: Any = None, chunk_size: int | None = None, jobs: int | None = 1) -> Any:
    """Scores for `texts` (rows aligned, one float column per `scorer.dimensions`).

    Raises `Cancelled` when `cancel` asks to stop; everything finished before that is
    already in `cache`. The frame's `attrs["scoring"]` holds a `ScoringStats`.
    `jobs`: processes scoring at once (this one included) for a scorer that offers a
    `worker_spec()` (None or 0: one per core); other scorers, and runs with fewer than two
    chunks to score, stay in this process.
    """
    return score_jobs([ScoringJob(scorer, texts)], cache=cache, progress=progress, cancel=cancel, processes=jobs,
                      chunk_size=chunk_size)[0]
