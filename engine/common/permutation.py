"""What a permutation p-value is and how it was obtained — one class for every permutation test.

Why one class: the bias statistics (person-level and Freedman–Lane permutations) and the
association tests (WEAT/SEAT partitions) both report permutation p-values; with two classes they
spelled the Monte Carlo method differently ("monte carlo" / "monte-carlo") and marked an exact
test's standard error once as 0 and once as None, so tables and code reading both disagreed.
"""
from __future__ import annotations

from dataclasses import dataclass

#: the values of ``method``
EXACT, MONTE_CARLO, FREEDMAN_LANE, NONE = "exact", "monte carlo", "freedman-lane (monte carlo)", "none"


@dataclass(frozen=True)
class PermutationResult:
    p_value: float
    mc_se: float  # Monte Carlo standard error of p: 0 when exact, NaN when no test ran
    n_permutations: int  # permutations (partitions) whose statistic was computed
    method: str  # EXACT | MONTE_CARLO | FREEDMAN_LANE | NONE
    note: str = ""
    n_partitions: int | None = None  # every distinct permutation, where known (may be astronomically large)
    alternative: str = "two-sided"
    seed: int | None = None

    @property
    def exact(self) -> bool:
        return self.method == EXACT
