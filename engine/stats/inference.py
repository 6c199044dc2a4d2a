"""Which inference a statistic reports: person-robust (default) or the seed papers' own.

Why a setting: the papers' tests (Beta regression with model-based errors, paired t-tests
over sentence pairs) treat sentences as independent although every person repeats in ~144
of them; under realistic per-person quirks they flag bias in up to half of the runs of a
scorer that has none (docs/stats.md, "Calibration"). ``inference="person"`` (default) makes
``std_err``/``p_value``/CI the person-robust ones (CR2 cluster-robust errors with
Welch–Satterthwaite df for regressions and Welch t on person means for paired tests — one df rule) and adds a
person-level permutation test; ``inference="paper"`` reports the papers' tests in those
columns, so published numbers can be reproduced. ``inference="crossed"`` treats persons,
templates and emotion words as crossed random factors, so a verdict generalises to templates and
words like these, not only to these ones (docs/stats.md, "Crossed inference"). All are in the
table under fixed names (``person_p_value``, ``crossed_p_value``, ``paper_p_value``), an
``inference`` column says which one the main columns hold and ``generalises_to`` to which
population their p-values speak.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from engine.stats.errors import StatisticError
from engine.stats.settings import (INFERENCE, INFERENCE_CHOICES, INFERENCE_NAMES, N_PERMUTATIONS,  # noqa: F401
                                   RACE_POOLING, RACE_POOLING_CHOICES)

#: To which population each inference's p-values generalise (a column of every results table).
GENERALISES_TO = {"person": "persons like these; these templates and words",
                  "crossed": "persons, templates and words like these",
                  "paper": "these sentences (persons, templates and words fixed)"}
#: ``generalises_to`` of a crossed row whose template or word part cannot be estimated (no crossed test).
NOT_ESTIMABLE_GENERALISES = ("no crossed test: the template/word part is not estimable from this design "
                             "(person_p_value generalises to persons like these; these templates and words)")
#: How a results summary names each inference (one wording for every statistic's text summary).
SUMMARY_LINES = {
    "person": "person-robust (one unit per person or person pair: generalises to persons like these, these "
              "templates and words); p (perm.) = person-level permutation test",
    "crossed": "crossed (persons, templates and emotion words as random factors: generalises to persons, templates "
               "and words like these)",
    "paper": "paper (sentence pairs treated as independent: these sentences only)",
}


def summary_line(values) -> str:
    """'inference: …' for a summary from the ``inference`` values of its rows (several: each named)."""
    vals = sorted({str(v) for v in values if str(v) in SUMMARY_LINES})
    if not vals:
        return "inference: " + SUMMARY_LINES["person"]
    return "inference: " + "; ".join(SUMMARY_LINES[v] if len(vals) == 1 else f"{v}: {SUMMARY_LINES[v]}"
                                     for v in vals)


#: The note of a crossed request on data without template/word labels (every statistic says the same).
NO_FACTORS_NOTE = ("no template or emotion-word columns (template_id; emotion_word_id or emotion_word): templates and "
                   "words cannot be random factors; the p-values are person-robust only (they generalise to these "
                   "templates and words)")
SMALL_SAMPLE_CHOICES = ("CR2", "CR1")


@dataclass(frozen=True)
class InferenceOptions:
    inference: str = "person"
    small_sample: str = "CR2"  # CR2 + Welch–Satterthwaite df (default) | CR1 + t(G − 1)
    n_permutations: int = 2000
    seed: int | None = 0
    person_col: str = "person_id"

    def __post_init__(self):
        INFERENCE.check(self.inference, "inference")  # the setting's one check and wording
        if self.small_sample not in SMALL_SAMPLE_CHOICES:
            raise StatisticError(f"small_sample must be 'CR2' or 'CR1', got {self.small_sample!r}")
        N_PERMUTATIONS.check(self.n_permutations, "n_permutations")

    @property
    def person(self) -> bool:
        """Person-robust p-values in the main columns ("crossed" is person-robust too)."""
        return self.inference in ("person", "crossed")

    @property
    def crossed(self) -> bool:
        """Templates and emotion words are random factors as well (engine.stats.models.cluster_robust.crossed_cov)."""
        return self.inference == "crossed"

    @property
    def generalises_to(self) -> str:
        return GENERALISES_TO[self.inference]

    def describe(self) -> dict:
        d = asdict(self)
        d["generalises_to"] = self.generalises_to
        d["person_test"] = ("cluster-robust by person, " + ("CR2 with Welch-Satterthwaite df over the design cells (Bell-McCaffrey where persons span cells)" if self.small_sample == "CR2"
                                                            else "CR1 with t(G-1)") + "; Welch t on person means for "
                            "paired tests; person-level permutation test as reference")
        return d


def race_by_gender_from(race_pooling: str | None, race_by_gender: bool | None) -> bool:
    """Resolve the race pairing of K&M: ``race_pooling`` ("paper": both genders pooled, 144 pairs;
    "within_gender": per gender, 288 pairs) or the older boolean ``race_by_gender``."""
    if race_pooling is not None:
        RACE_POOLING.check(race_pooling, "race_pooling")
        by_gender = race_pooling == "within_gender"
        if race_by_gender is not None and bool(race_by_gender) != by_gender:
            raise StatisticError(f"race_pooling={race_pooling!r} contradicts race_by_gender={race_by_gender!r}")
        return by_gender
    if race_by_gender is not None:
        return bool(race_by_gender)
    return False  # the paper's pooling (both genders, one pair per template × emotion word)
