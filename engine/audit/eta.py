"""ETA over a whole audit plan (several corpus × scorer jobs)."""
from __future__ import annotations

import time


class PlanEta:
    """ETA over a whole plan: the current job's own ETA plus the later jobs at observed rates.

    Why not just the job's ETA: an audit is several (corpus × scorer) jobs, and a bar that
    says "0 s left" at the end of each job is useless. Later jobs are costed at the seconds
    per text their scorer took before (cache hits included), else the current job's rate.
    """

    def __init__(self, jobs: list[tuple[str, int]]):
        self.jobs = jobs
        self.rate: dict[str, float] = {}  # scorer name -> seconds per text, from finished jobs
        self._t0 = 0.0

    def seed(self, name: str, seconds_per_text: float) -> None:
        """A scorer's rate measured before its first job (the pipeline's speed probe)."""
        self.rate.setdefault(name, seconds_per_text)

    def start_job(self, j: int) -> None:
        self._t0 = time.perf_counter()

    def end_job(self, j: int, scored: int | None = None) -> None:
        """Learn the scorer's rate from a finished job: seconds per text scored (cache hits cost
        next to nothing, so a job served from the cache must not make the scorer look fast)."""
        name, n = self.jobs[j]
        work = n if scored is None else scored
        if work:
            self.rate[name] = (time.perf_counter() - self._t0) / work

    def estimate(self, j: int, done: int, job_eta: float | None) -> float | None:
        name, n = self.jobs[j]
        elapsed = time.perf_counter() - self._t0
        rate_now = None  # seconds per text of the current scorer, as seen in this job
        if job_eta is not None and n > done:
            rate_now = job_eta / (n - done)
        elif done and elapsed > 0:
            rate_now = elapsed / done
        current = self.rate.get(name, rate_now)
        if job_eta is None:
            if current is None:
                return None
            job_eta = max(n - done, 0) * current
        rest = 0.0
        for later, m in self.jobs[j + 1:]:
            r = self.rate.get(later, current if later == name else None)
            if r is None:
                r = rate_now if rate_now is not None else (current or 0.0)
            rest += m * r
        return job_eta + rest
