"""What an audit does, as plain data (so the CLI, the GUI and a notebook build the same thing)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STATISTICS = ("beta", "paired", "counterfactual")


@dataclass
class AuditPlan:
    """Corpora (names or paths) × scorers × statistics.

    `scorers`: spec strings (see engine.models.specs: `vader`, `predictions:FILE`, a trained
    folder …) or ready scorer objects (anything with name, dimensions, fingerprint(), score()).

    `settings` go to the statistics unchanged and are recorded in the manifest:
    alpha, correction (None/"holm"/"bh"), n_resamples, seed, band_share, noun_phrases;
    and `jobs`: processes scoring a CPU-bound scorer at once (None or 0: one per core; 1: this
    process only; see engine.audit.parallel — the scores are the same for any value).
    """

    corpora: list[str]
    scorers: list[Any]
    stats: list[str] = field(default_factory=lambda: list(STATISTICS))
    out_dir: Path | None = None
    cache_dir: Path | None = None
    allow_pickle: bool = False
    settings: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        if not self.corpora:
            raise ValueError("audit: name at least one corpus (--corpus NAME)")
        if not self.scorers:
            raise ValueError("audit: name at least one model (--model SPEC, e.g. vader)")
        jobs = self.settings.get("jobs")
        if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0):
            raise ValueError(f"audit: jobs must be a whole number of processes (0: every core), not {jobs!r}")
        bad = [s for s in self.stats if s not in STATISTICS]
        if bad:
            raise ValueError(f"audit: unknown statistic {bad[0]!r}; choose from {', '.join(STATISTICS)}")

    def setting(self, key: str, default: Any) -> Any:
        return self.settings.get(key, default)
