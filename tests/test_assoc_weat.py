"""WEAT statistics: exactness against a plain reference, exact and Monte-Carlo p, calibration."""
from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest
from scipy import stats

from engine.assoc.errors import AssocError
from engine.assoc.permutation import permutation_test, subset_sums
from engine.assoc.similarity import differential_association, pairwise
from engine.assoc.weat import WeatOptions, effect_size, weat_from_scores


# --- a deliberately plain reference implementation (loops, scalar math) ---

def ref_cos(u, v):
    return sum(a * b for a, b in zip(u, v)) / (math.sqrt(sum(a * a for a in u)) * math.sqrt(sum(b * b for b in v)))


def ref_neg_euc(u, v):
    return -math.sqrt(sum((a - b) ** 2 for a, b in zip(u, v)))


def ref_s(w, A, B, f):
    return sum(f(w, a) for a in A) / len(A) - sum(f(w, b) for b in B) / len(B)


def ref_weat(X, Y, A, B, f, ddof):
    sx = [ref_s(x, A, B, f) for x in X]
    sy = [ref_s(y, A, B, f) for y in Y]
    allv = sx + sy
    sd = statistics.stdev(allv) if ddof == 1 else statistics.pstdev(allv)
    return sum(sx) - sum(sy), (statistics.fmean(sx) - statistics.fmean(sy)) / sd, sx, sy


def ref_p(s, n_x, alternative="greater"):
    """Brute force over all partitions, counting ties (≥) with fsum."""
    obs = math.fsum(s[:n_x])
    total = math.fsum(s)
    centre = n_x * total / len(s)
    count = n = 0
    for comb in itertools.combinations(range(len(s)), n_x):
        t = math.fsum(s[i] for i in comb)
        n += 1
        if alternative == "greater":
            count += t >= obs - 1e-9
        elif alternative == "less":
            count += t <= obs + 1e-9
        else:
            count += abs(t - centre) >= abs(obs - centre) - 1e-9
    return count / n


def _sets(rng, nx=6, ny=6, na=5, nb=7, d=12):
    return [rng.normal(size=(k, d)) for k in (nx, ny, na, nb)]


@pytest.mark.parametrize("metric,f", [("cosine", ref_cos), ("euclidean", ref_neg_euc)])
@pytest.mark.parametrize("ddof", [0, 1])
def test_effect_size_and_statistic_match_reference(metric, f, ddof):
    rng = np.random.default_rng(7)
    for _ in range(5):
        X, Y, A, B = _sets(rng, nx=7, ny=5)
        stat, d, sx, sy = ref_weat(X.tolist(), Y.tolist(), A.tolist(), B.tolist(), f, ddof)
        s_x = differential_association(X, A, B, metric)
        s_y = differential_association(Y, A, B, metric)
        np.testing.assert_allclose(s_x, sx, rtol=0, atol=1e-12)
        res = weat_from_scores(s_x, s_y, opts=WeatOptions(metric=metric, ddof=ddof))
        assert res.effect_size == pytest.approx(d, abs=1e-9)
        assert res.statistic == pytest.approx(stat, abs=1e-9)
        assert res.ddof == ddof
        assert {res.effect_size_ddof0, res.effect_size_ddof1} >= {res.effect_size}


def test_ddof_relation():
    rng = np.random.default_rng(1)
    sx, sy = rng.normal(1, 1, 8), rng.normal(0, 1, 8)
    n = 16
    assert effect_size(sx, sy, 0) == pytest.approx(effect_size(sx, sy, 1) * math.sqrt(n / (n - 1)), rel=1e-12)


def test_euclidean_handles_identical_vectors():
    v = np.array([[1e8, 1.0, 2.0]])
    assert pairwise(v, v, "euclidean")[0, 0] == 0.0


def test_constant_associations_refuse_instead_of_nan():
    with pytest.raises(AssocError, match="effect size is undefined"):
        effect_size(np.ones(4), np.ones(4))


def test_subset_sums_enumerate_every_subset():
    s = np.array([0.3, -1.2, 2.5, 0.7, 0.01, -0.4, 1.1])
    for m in range(1, 5):
        want = sorted(math.fsum(s[list(c)]) for c in itertools.combinations(range(len(s)), m))
        got = np.sort(subset_sums(s, m))
        assert len(got) == math.comb(len(s), m)
        np.testing.assert_allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("nx,ny", [(5, 5), (4, 7), (7, 4), (8, 8)])
def test_exact_p_equals_brute_force(alternative, nx, ny):
    rng = np.random.default_rng(nx * 10 + ny)
    for shift in (0.0, 0.6, -0.4):
        s = np.concatenate([rng.normal(shift, 1, nx), rng.normal(0, 1, ny)])
        res = permutation_test(s, nx, alternative=alternative)
        assert res.method == "exact"
        assert res.n_partitions == math.comb(nx + ny, nx)
        assert res.p_value == pytest.approx(ref_p(list(s), nx, alternative), abs=1e-15)


def test_ties_are_counted_as_at_least_as_extreme():
    s = np.array([1.0, 1.0, 0.0, 0.0])  # X = {1, 1}: only the observed partition reaches 2
    assert permutation_test(s, 2).p_value == pytest.approx(1 / 6)
    s = np.array([0.1, 0.2, 0.3, 0.1 + 0.2 - 0.3 + 0.3])  # float noise in a tie must not drop it
    assert permutation_test(s, 2).p_value == pytest.approx(ref_p(list(s), 2))


def test_monte_carlo_within_three_standard_errors_of_exact():
    rng = np.random.default_rng(3)
    for shift in (0.3, 0.7, 0.0):
        s = np.concatenate([rng.normal(shift, 1, 8), rng.normal(0, 1, 8)])
        exact = permutation_test(s, 8).p_value
        mc = permutation_test(s, 8, exact_limit=100, n_permutations=4000, seed=11)
        assert mc.method == "monte carlo" and mc.n_permutations == 4000
        assert abs(mc.p_value - exact) <= 3 * mc.mc_se + 1e-12, (exact, mc)


def test_monte_carlo_draws_without_replacement_and_seeded():
    from engine.assoc import permutation as perm

    s = np.arange(10, dtype=float)
    n_total = math.comb(10, 5)  # 252 partitions; ask for 200: duplicates would be certain with replacement
    seen = []
    orig = perm._count

    def spy(u, *a, **k):
        seen.append(np.array(u))
        return orig(u, *a, **k)

    perm._count = spy
    try:
        res = permutation_test(s, 5, exact_limit=10, n_permutations=200, seed=5)
    finally:
        perm._count = orig
    assert res.n_permutations == 200 and res.n_partitions == n_total
    # the statistic of X = {0..4} is the minimum (10): never drawn, so every draw has a sum > 10
    assert all((u > 10).all() for u in seen)
    again = permutation_test(s, 5, exact_limit=10, n_permutations=200, seed=5)
    assert again.p_value == res.p_value
    keys = perm._keys(np.argpartition(np.random.default_rng(0).random((50, 10)), 4, axis=1)[:, :5], 10)
    assert len(keys) == 50


def test_monte_carlo_switches_to_exact_when_asking_for_everything():
    s = np.random.default_rng(0).normal(size=10)
    res = permutation_test(s, 5, exact_limit=10, n_permutations=10_000)
    assert res.method == "exact"


def test_p_values_are_calibrated_on_random_vectors():
    """Null data (all words drawn from one distribution): p must be uniform (KS)."""
    rng = np.random.default_rng(2024)
    ps = []
    for _ in range(300):
        X, Y, A, B = _sets(rng, nx=6, ny=6, na=6, nb=6, d=10)
        s = np.concatenate([differential_association(X, A, B), differential_association(Y, A, B)])
        ps.append(permutation_test(s, 6).p_value)
    ks = stats.kstest(ps, "uniform")
    assert ks.pvalue > 0.01, ks
    assert 0.4 < np.mean(ps) < 0.6


def test_large_monte_carlo_is_fast_enough_for_the_suite():
    rng = np.random.default_rng(0)
    s = np.concatenate([rng.normal(0.2, 1, 25), rng.normal(0, 1, 25)])
    res = permutation_test(s, 25, n_permutations=20_000, seed=1)
    assert res.method == "monte carlo" and res.n_permutations == 20_000
    assert 0 < res.p_value < 1 and res.mc_se > 0


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_chunked_exact_enumeration_equals_brute_force(alternative):
    """Above the chunk size the enumeration is split; the count must not change (memory bound)."""
    from engine.assoc.permutation import _count, _exact_count, _ordered_sum, _tolerance

    rng = np.random.default_rng(9)
    s = np.concatenate([rng.normal(0.4, 1, 6), rng.normal(0, 1, 7)])
    m = 6
    u_obs, tol, centre = _ordered_sum(s, np.arange(m)), _tolerance(s, m), m * float(s.mean())
    whole = _count(subset_sums(s, m), u_obs, centre, alternative, tol)
    for chunk in (1, 5, 40, 300):
        assert _exact_count(s, m, u_obs, centre, alternative, tol, chunk=chunk) == whole
    assert whole / math.comb(13, 6) == pytest.approx(ref_p(list(s), m, alternative), abs=1e-15)
    ties = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0])  # many exact ties across chunks
    want = _count(subset_sums(ties, 4), 3.0, 2.0, "greater", 1e-12)
    assert _exact_count(ties, 4, 3.0, 2.0, "greater", 1e-12, chunk=3) == want


def test_monte_carlo_on_many_stimuli_stays_without_replacement():
    """SEAT-size sets (hundreds of sentences) use smaller random batches; draws stay distinct."""
    rng = np.random.default_rng(4)
    s = np.concatenate([rng.normal(0.1, 1, 150), rng.normal(0, 1, 250)])
    res = permutation_test(s, 150, n_permutations=3000, seed=2)
    assert res.method == "monte carlo" and res.n_permutations == 3000
    assert res.p_value == permutation_test(s, 150, n_permutations=3000, seed=2).p_value
    assert 1 / 3001 <= res.p_value <= 1
