"""What an audit does, as plain data (so the CLI, the GUI, the demo and a notebook build the same thing)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.common.errors import UsageError

from .assoc_step import AssocStep


def statistic_ids() -> tuple[str, ...]:
    """The statistics an audit can compute, from the registry (engine.stats.registry)."""
    from engine.stats.registry import ids

    return ids()


@dataclass
class AuditPlan:
    """Corpora (names or paths) × scorers × statistics, optional association tests and report.

    `scorers`: spec strings (see engine.models.specs: `vader`, `predictions:FILE`, a trained
    folder …) or ready scorer objects (anything with name, dimensions, fingerprint(), score()).
    `stats`: registry ids (None: every statistic). `assoc`: association tests run on a
    representation into the same folder (``assoc/``). `report`: also build the HTML report
    into ``out_dir/report`` (needs ``out_dir``).

    `settings` go to the statistics unchanged and are recorded in the manifest:
    alpha, correction (None/"holm"/"bh"), n_resamples, seed, band_share, noun_phrases, inference
    ("person"/"paper"), race_pooling ("paper"/"within_gender"), score_range ((low, high) or None),
    n_permutations (person-level permutation tests); and `jobs`: processes scoring a CPU-bound scorer
    at once (None or 0: one per core; 1: this process only; see engine.audit.parallel — the scores are
    the same for any value).
    An assoc-only plan (no corpora, no scorers) runs just the association tests.
    """

    corpora: list[str] = field(default_factory=list)
    scorers: list[Any] = field(default_factory=list)
    stats: list[str] | None = None
    out_dir: Path | None = None
    cache_dir: Path | None = None
    allow_pickle: bool = False
    settings: dict[str, Any] = field(default_factory=dict)
    assoc: AssocStep | None = None
    report: bool = False

    def __post_init__(self) -> None:
        if self.stats is None:
            self.stats = list(statistic_ids())
        if self.out_dir is not None:
            self.out_dir = Path(self.out_dir)

    @property
    def has_assoc(self) -> bool:
        return self.assoc is not None and bool(self.assoc.tests)

    @property
    def assoc_only(self) -> bool:
        return not self.corpora and not self.scorers and self.has_assoc

    def validate(self) -> None:
        """Raise UsageError (one line, with the fix) before any work is done."""
        if not self.assoc_only:
            if not self.corpora:
                raise UsageError("name at least one corpus", field="--corpus", fix="e.g. --corpus en-kiritchenko2018")
            if not self.scorers:
                raise UsageError("name at least one model", field="--model", fix="e.g. --model vader")
        known = statistic_ids()
        bad = [s for s in self.stats or [] if s not in known]
        if bad:
            raise UsageError(f"unknown statistic {bad[0]!r}", field="--stats", fix=f"choose from {', '.join(known)}")
        alpha = self.settings.get("alpha", 0.05)
        if alpha is not None and not (0.0 < float(alpha) < 1.0):
            raise UsageError(f"alpha must lie between 0 and 1, not {alpha}", field="--alpha", fix="e.g. --alpha 0.05")
        resamples = self.settings.get("n_resamples", 1000)
        if resamples is not None and int(resamples) < 0:
            raise UsageError(f"the number of bootstrap resamples cannot be negative ({resamples})",
                             field="--bootstrap", fix="use 0 for none, or e.g. 1000")
        band = self.settings.get("band_share", 0.03)
        if band is not None and not (0.0 <= float(band) < 1.0):
            raise UsageError(f"the negligible band is a share of the score range in [0, 1), not {band}",
                             field="--band", fix="e.g. --band 0.03")
        inference = self.settings.get("inference", "person")
        if inference not in ("person", "paper"):
            raise UsageError(f"unknown inference {inference!r}", field="--inference", fix="use person or paper")
        pooling = self.settings.get("race_pooling", "paper")
        if pooling not in ("paper", "within_gender"):
            raise UsageError(f"unknown race pooling {pooling!r}", field="--race-pooling", fix="use paper or within_gender")
        rng = self.settings.get("score_range")
        if rng is not None and not (len(rng) == 2 and float(rng[1]) > float(rng[0])):
            raise UsageError(f"the score range must be LOW,HIGH with HIGH > LOW, not {rng!r}", field="--score-range",
                             fix="e.g. --score-range 1,5")
        if int(self.settings.get("n_permutations", 2000) or 0) < 0:
            raise UsageError("the number of permutations cannot be negative", field="--person-permutations",
                             fix="use 0 for none, or e.g. 2000")
        if self.has_assoc and int(self.assoc.permutations) < 0:
            raise UsageError("the number of permutations cannot be negative", field="--permutations")
        jobs = self.settings.get("jobs")
        if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0):
            raise UsageError(f"jobs must be a whole number of processes (0: one per core), not {jobs!r}",
                             field="--jobs", fix="e.g. --jobs 2, or --jobs 1 to score in one process")
        if self.report and self.out_dir is None:
            raise UsageError("a report needs an output folder", field="--out")
        if self.out_dir is not None:  # a file, a path under a file, or a folder we cannot write in (/proc/x)
            from engine.common.validate import output_folder

            output_folder(self.out_dir, "--out")

    def setting(self, key: str, default: Any) -> Any:
        return self.settings.get(key, default)
