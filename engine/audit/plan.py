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
    into ``out_dir/report`` (needs ``out_dir``). `overwrite`: an earlier audit folder at ``out_dir`` is
    replaced (always as a whole, when the run completes: a notebook cell run again replaces its folder);
    False refuses before any work (the CLI without --overwrite). A folder of other files is never replaced.

    `settings` are the statistics' settings only, go to them unchanged and are recorded in the
    manifest: the keys the statistics declare (``engine.stats.registry.settings()``: alpha, correction,
    n_resamples, seed, inference, n_permutations, noun_phrases, race_pooling, band_share, score_range;
    a missing one takes its declared default; another key is refused by ``validate`` with the nearest
    known one, as a sweep file refuses it). Each value is checked by its ``Setting`` alone.
    Run options are fields of their own: `jobs`, processes scoring a CPU-bound scorer at once (None or 0:
    one per core; 1: this process only; see engine.common.executor — the scores are the same for any
    value). ``settings={"jobs": N}``, the older spelling, is moved to `jobs`.
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
    overwrite: bool = True  # replace an earlier audit folder at out_dir (engine.audit.out_folder); the CLI asks
    jobs: int | None = None  # a run option, not a statistic setting (see above)

    def __post_init__(self) -> None:
        self.settings = dict(self.settings)
        if "jobs" in self.settings:  # the older spelling: a run option kept among the statistics' settings
            jobs = self.settings.pop("jobs")
            self.jobs = jobs if self.jobs is None else self.jobs
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
        from engine.common import validate

        known = statistic_ids()
        for sid in self.stats or []:
            validate.one_of("--stats", sid, known, "statistic")
        # every statistic setting as its declaration says (engine.stats.settings; the CLI's types and
        # choices are generated from the same one), also for a plan built in a notebook, a sweep file or
        # the GUI: a value out of range is refused before any work, naming the command-line flag
        from engine.stats.registry import settings as declared

        known = {s.key: s for s in declared()}
        for key, value in self.settings.items():
            validate.known_key("settings", key, known, "setting")
            known[key].check(value)
        if self.has_assoc:
            validate.at_least("--permutations", self.assoc.permutations, 0, fix="0 for none, or e.g. 10000")
        if self.jobs is not None:
            validate.at_least("--jobs", self.jobs, 0,
                              fix="a number of processes: 0 for one per core, 1 to score in this process only")
        if self.report and self.out_dir is None:
            raise UsageError("a report needs an output folder", field="--out")
        if self.out_dir is not None:  # a file, a path under a file, or a folder we cannot write in (/proc/x)
            validate.output_folder(self.out_dir, "--out")

    def setting(self, key: str, default: Any) -> Any:
        return self.settings.get(key, default)
