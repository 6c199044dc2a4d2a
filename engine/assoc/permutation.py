"""The WEAT permutation test over equal-size re-partitions of the target words.

Why it is fast and exact:

* Associations s(w, A, B) are computed once per word; a partition's statistic is then
  a subset sum. Sum-difference and mean-difference statistics are both increasing
  functions of the sum over X_i, so testing that sum is the same test for any |X|, |Y|.
* **Exact**: all C(n, m) subset sums (m = the smaller side) are built level by level
  with ``np.repeat`` — no Python loop over partitions, no index matrices. Above
  ``_EXACT_CHUNK`` subsets the enumeration is split by the first chosen elements
  (include / exclude), so memory stays bounded (≈ 100 MB) whatever ``exact_limit`` is.
* **Monte-Carlo**: subsets drawn as the first m of a random ordering (``argpartition``
  of uniform keys), de-duplicated through a bit-mask key so the draws are **without
  replacement** and never the observed partition; p = (k + 1)/(N + 1) (Phipson &
  Smyth 2010) with its Monte-Carlo standard error.

p counts partitions whose statistic is at least the observed one (the observed
partition included), with a tolerance of 1e-12 relative so that floating-point noise
cannot drop a tie. Caliskan et al. write a strict ">"; the difference is the observed
partition's own 1/C(n, m), which keeps p > 0.
"""
from __future__ import annotations

import math
from typing import Literal

import numpy as np

from engine.common.errors import UsageError
from engine.common.permutation import EXACT, MONTE_CARLO, PermutationResult

Alternative = Literal["greater", "less", "two-sided"]
ALTERNATIVES = ("greater", "less", "two-sided")
DEFAULT_EXACT_LIMIT = 1_000_000
_BATCH = 1 << 15
_MC_CELLS = 1 << 22  # random keys per Monte-Carlo batch (batch × n), bounds memory for SEAT-size n
_EXACT_CHUNK = 1 << 21  # subset sums held at once during exact enumeration


def n_partitions(n: int, n_x: int) -> int:
    return math.comb(n, n_x)


def _tolerance(s: np.ndarray, m: int) -> float:
    return 1e-12 * max(1.0, float(np.abs(s).max(initial=0.0)) * m)


def _count(u: np.ndarray, u_obs: float, centre: float, alt: str, tol: float) -> int:
    if alt == "greater":
        return int(np.count_nonzero(u >= u_obs - tol))
    if alt == "less":
        return int(np.count_nonzero(u <= u_obs + tol))
    return int(np.count_nonzero(np.abs(u - centre) >= abs(u_obs - centre) - tol))


def subset_sums(s: np.ndarray, m: int, offset: float = 0.0) -> np.ndarray:
    """Sums of all m-subsets of s (lexicographic index order, summed left to right after ``offset``)."""
    n = len(s)
    if m == 0:
        return np.full(1, offset)
    last = np.arange(n - m + 1)
    sums = s[: n - m + 1].astype(np.float64) + offset  # offset 0.0 leaves every value bit-identical
    for j in range(1, m):
        hi = n - m + j  # largest index allowed at this level
        counts = hi - last
        total = int(counts.sum())
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        nxt = np.repeat(last, counts) + 1 + (np.arange(total) - starts)
        sums = np.repeat(sums, counts) + s[nxt]
        last = nxt
    return sums


def _ordered_sum(s: np.ndarray, idx: np.ndarray) -> float:
    """The subset sum in the same order of additions as :func:`subset_sums`."""
    acc = 0.0
    for k, i in enumerate(np.sort(idx)):
        acc = float(s[i]) if k == 0 else acc + float(s[i])
    return acc


def permutation_test(s: np.ndarray, n_x: int, *, alternative: Alternative = "greater",
                     exact_limit: int = DEFAULT_EXACT_LIMIT, n_permutations: int = 10_000,
                     seed: int | None = 0) -> PermutationResult:
    """Test whether the first ``n_x`` entries of ``s`` (the X words) sum unusually high.

    ``s`` holds s(w, A, B) for X then Y. Exact when C(n, n_x) ≤ ``exact_limit`` (or when
    ``n_permutations`` would cover every partition), else Monte-Carlo.
    """
    if alternative not in ALTERNATIVES:
        raise UsageError(f"alternative must be one of {ALTERNATIVES}, not {alternative!r}", field="alternative")
    s = np.asarray(s, dtype=np.float64)
    n = len(s)
    n_y = n - n_x
    if n_x < 1 or n_y < 1:
        raise UsageError("both target sets need at least one word", field="targets",
                         fix="give each target set at least one word the vectors know")
    total = n_partitions(n, n_x)
    # work on the smaller side; the X sum is total - (Y sum), so "greater" flips to "less"
    if n_x <= n_y:
        side = np.arange(n_x)
        alt = alternative
        m = n_x
    else:
        side = np.arange(n_x, n)
        alt = {"greater": "less", "less": "greater"}.get(alternative, alternative)
        m = n_y
    tol = _tolerance(s, m)
    centre = m * float(s.mean())
    if total <= exact_limit or n_permutations >= total - 1:
        u_obs = _ordered_sum(s, side)
        k = _exact_count(s, m, u_obs, centre, alt, tol)
        return PermutationResult(k / total, 0.0, total, EXACT, n_partitions=total, alternative=alternative)
    u_obs = float(s[side].sum())
    rng = np.random.default_rng(seed)
    k, drawn = _monte_carlo(s, m, side, u_obs, centre, alt, tol, n_permutations, rng)
    p = (k + 1) / (drawn + 1)
    fpc = math.sqrt(max(0.0, (total - 1 - drawn) / max(1, total - 2)))  # finite population: draws without replacement
    se = math.sqrt(p * (1.0 - p) / drawn) * fpc
    return PermutationResult(p, se, drawn, MONTE_CARLO, n_partitions=total, alternative=alternative, seed=seed)


def _exact_count(s: np.ndarray, m: int, u_obs: float, centre: float, alt: str, tol: float,
                 chunk: int = _EXACT_CHUNK) -> int:
    """Count the m-subsets as extreme as ``u_obs`` over all C(n, m), at most ``chunk`` sums at a time.

    Larger enumerations are split on the lowest free index (subsets that contain it /
    subsets that do not); the partial sum of the elements already chosen is carried as
    the offset, so every sum is accumulated left to right exactly as ``_ordered_sum``.
    """
    n = len(s)
    k = 0
    stack = [(0, m, 0.0)]  # (first free index, elements still to choose, sum of the chosen ones)
    while stack:
        i, r, base = stack.pop()
        if r == 0 or math.comb(n - i, r) <= chunk:
            k += _count(subset_sums(s[i:], r, base), u_obs, centre, alt, tol)
            continue
        stack.append((i + 1, r, base))  # s[i] not chosen
        stack.append((i + 1, r - 1, base + float(s[i])))  # s[i] chosen
    return k


def _keys(idx: np.ndarray, n: int) -> np.ndarray:
    """One hashable key per subset (row of indices): a bit mask, packed to bytes."""
    member = np.zeros((idx.shape[0], n), dtype=bool)
    np.put_along_axis(member, idx, True, axis=1)
    packed = np.packbits(member, axis=1)
    return np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1]))).ravel()


def _monte_carlo(s: np.ndarray, m: int, side: np.ndarray, u_obs: float, centre: float, alt: str, tol: float,
                 n_perm: int, rng: np.random.Generator) -> tuple[int, int]:
    n = len(s)
    seen = _keys(side[None, :], n)  # the observed partition is never drawn (it is the "+1")
    k = 0
    drawn = 0
    batch = max(256, min(_BATCH, _MC_CELLS // max(1, n)))
    while drawn < n_perm:
        b = min(batch, n_perm - drawn)
        idx = np.argpartition(rng.random((b, n)), m - 1, axis=1)[:, :m]
        keys = _keys(idx, n)
        _, first = np.unique(keys, return_index=True)
        first.sort()
        fresh = first[~np.isin(keys[first], seen)]
        if len(fresh) == 0:
            continue
        idx, keys = idx[fresh], keys[fresh]
        seen = np.concatenate([seen, keys])
        u = s[idx].sum(axis=1)
        k += _count(u, u_obs, centre, alt, tol)
        drawn += len(fresh)
    return k, drawn
