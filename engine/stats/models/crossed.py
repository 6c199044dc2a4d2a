"""Templates and emotion words as random factors beside persons: the variance of a contrast that
is to generalise to "templates and words like these" (``inference="crossed"``).

Why this estimator (issue 37). A contrast θ̂ = Σ_i c_i y_i of an EEC (a regression coefficient, a
mean paired difference) is computed over persons × templates × words. Under the crossed random-
effects model y = group effects + person + template + word + template×cell + word×cell + ... + noise,
its variance is the person-robust part (which already holds persons, their quirks, and the sentence
noise) plus, per factor f, σ²_{f×cell} · κ_f: only the factor × group interactions move the
contrast, because main effects of templates and words cancel inside a contrast that is balanced
over them. The earlier form, V_f − V₀ with V₀ the observation-level sandwich, subtracted the
template and word *main* effects (which sit in every residual but cancel inside V_f): with word SD
1.0 logit it clipped the factor part to zero in 100 of 100 fits and rejected 17 % of bias-free
systems.

How, per factor f with levels ℓ and per coefficient (ψ_i = c_i·e_i its per-sentence influence,
Σψ = 0):

* A_f = L/(L−1) · Σ_ℓ (s_ℓ − s̄)², s_ℓ = Σ_{i∈ℓ} ψ_i: what the contrast's ℓ-slices vary by — the
  f × group effects plus the slices' own noise. Common parts (person effects, which are the same in
  every slice of a balanced design) drop out with s̄; main effects of f cancel inside each s_ℓ.
* N_f: that noise, measured where no f × group effect can reach it: the table z[u, ℓ] = Σ_{i∈(u,ℓ)} ψ_i
  of the persons u (within their design cell) × levels ℓ, less its additive fit (person row + level
  column, which absorb person effects, f main effects and f × group effects alike). Its residual
  variance σ̂²_cell per entry gives N_f = Σ_ℓ Σ_cell (entries of ℓ in the cell) · σ̂²_cell. A test
  without persons (pairs averaged over names) uses the other factor's levels as the rows.
* The factor adds E_f = A_f − N_f where that exceeds a relative tolerance (1e-6 of A_f + N_f + the
  person variance: rounding never creates a factor), else nothing (the boundary rule of a
  variance-components fit).
* Degrees of freedom: Satterthwaite's over the person part (its own df) and, for each factor that
  adds, Var(A_f) and Var(N_f): A_f's effective df are (Σ τ_ℓ²)² / Σ τ_ℓ⁴ · (L−1)/L with τ_ℓ² the
  expected size of slice ℓ (κ_ℓ σ̂²_f + its noise; κ_ℓ = Σ_cell (Σ_{i∈(ℓ,cell)} c_i)², from the
  design), so that levels holding few sentences (neutral templates) do not count as full levels.
* A factor that cannot be estimated — a single level, or no residual degrees of freedom for its noise
  (every level seen by one row of the table, as the K&M neutral subsets where each template holds
  one pair) — makes the crossed variance *not estimable*: status and note say so and no crossed
  p-value is given (the person-level one stays in its own column).

Checked against Owen's (2007) pigeonhole bootstrap in bench/bench_calibration.py, which shares none
of this algebra, and by the calibration tables in docs/stats.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from engine.common.messages import Said
from engine.stats.reasons import reason

#: |A − N| below this share of (A + N + person variance) is rounding: the factor adds nothing.
RTOL = 1e-6
#: Status of a crossed result whose factor parts cannot be estimated from the design.
NOT_ESTIMABLE = "crossed_not_estimable"


@dataclass(frozen=True)
class FactorPart:
    """One factor's contribution (arrays per coefficient)."""

    name: str
    levels: int
    clustered: np.ndarray      # A_f
    noise: np.ndarray          # N_f
    excess: np.ndarray         # E_f kept (0 where the factor adds nothing)
    var_excess: np.ndarray     # Var(A_f) + Var(N_f) where kept (Satterthwaite), else 0
    estimable: bool = True
    #: why the factor cannot be estimated (engine.stats.reasons: crossed.*), None when it can
    reason: Said | None = None


@dataclass(frozen=True)
class CrossedVariance:
    """Person part + factor parts of a contrast's variance, with Satterthwaite df and a status."""

    var: np.ndarray
    df: np.ndarray
    person_var: np.ndarray
    person_df: np.ndarray
    parts: list[FactorPart] = field(default_factory=list)

    @property
    def estimable(self) -> bool:
        return all(p.estimable for p in self.parts)

    @property
    def status(self) -> str:
        return "ok" if self.estimable else NOT_ESTIMABLE

    @property
    def reason(self) -> Said | None:
        """Why there is no crossed test (each factor that cannot be estimated, said as data), or None."""
        bad = [p.reason for p in self.parts if not p.estimable and p.reason is not None]
        return reason(NOT_ESTIMABLE, parts=bad) if bad else None

    @property
    def note(self) -> str:
        return "" if self.reason is None else str(self.reason)

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.clip(self.var, 0.0, None))


def _codes(labels) -> tuple[np.ndarray, int]:
    """Integer codes 0..m−1 of any labels (strings, numbers, None as its own level) and m."""
    arr = np.asarray(labels)
    if arr.dtype.kind in "iub":
        uniques, codes = np.unique(arr, return_inverse=True)
        return codes.ravel().astype(np.int64), len(uniques)
    codes, uniques = pd.factorize(arr.astype(object), sort=False, use_na_sentinel=False)
    return codes.astype(np.int64), len(uniques)


def _joint(*codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes of the combinations of several code arrays, and one row per combination (its parts)."""
    key = np.zeros(len(codes[0]), dtype=np.int64)
    for c in codes:
        key = key * (int(c.max(initial=0)) + 1) + c
    uniq, inv = np.unique(key, return_inverse=True)
    parts = []
    rest = uniq.copy()
    for c in reversed(codes):
        m = int(c.max(initial=0)) + 1
        parts.append(rest % m)
        rest = rest // m
    return inv.ravel(), np.column_stack(parts[::-1]) if parts else np.empty((len(uniq), 0), dtype=np.int64)


def _present(labels) -> np.ndarray:
    """Observations that have a level of the factor (an empty label: no such level, e.g. no emotion word)."""
    arr = np.asarray(labels)
    if arr.dtype.kind in "iufb":
        return np.ones(len(arr), dtype=bool)
    lab = pd.Series(arr.astype(object))
    return (lab.notna() & (lab != "")).to_numpy()


def _additive_residual_ss(z: np.ndarray, row: np.ndarray, col: np.ndarray, n_rows: int, n_cols: int,
                          max_iter: int = 500) -> tuple[np.ndarray, float]:
    """Residual sum of squares (per column of z) of the additive fit row + column over the observed
    entries of a (possibly incomplete) table, and its residual df (entries − rank)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    m = len(row)
    graph = coo_matrix((np.ones(m), (row, n_rows + col)), shape=(n_rows + n_cols,) * 2)
    n_comp, _ = connected_components(graph, directed=False)
    used_rows, used_cols = np.unique(row).size, np.unique(col).size
    isolated = (n_rows - used_rows) + (n_cols - used_cols)  # labels without entries are their own components
    df = m - (used_rows + used_cols - (n_comp - isolated))
    rn = np.maximum(np.bincount(row, minlength=n_rows), 1)[:, None]
    cn = np.maximum(np.bincount(col, minlength=n_cols), 1)[:, None]
    k = z.shape[1]
    a = np.zeros((n_rows, k))
    b = np.zeros((n_cols, k))
    scale = float(np.abs(z).max()) if m else 0.0
    for _ in range(max_iter):  # backfitting: exact after one sweep on complete tables
        r = z - b[col]
        a_new = np.vstack([np.bincount(row, weights=r[:, j], minlength=n_rows) for j in range(k)]).T / rn
        r = z - a_new[row]
        b_new = np.vstack([np.bincount(col, weights=r[:, j], minlength=n_cols) for j in range(k)]).T / cn
        delta = max(float(np.abs(a_new - a).max(initial=0.0)), float(np.abs(b_new - b).max(initial=0.0)))
        a, b = a_new, b_new
        if delta <= 1e-13 * max(scale, 1e-300):
            break
    res = z - a[row] - b[col]
    return (res * res).sum(axis=0), float(df)


def factor_part(name: str, psi: np.ndarray, c: np.ndarray, labels, rows, cells, person_var: np.ndarray,
                rtol: float = RTOL) -> FactorPart | None:
    """The part of one factor (see the module docstring); None when no observation has a level of it.

    psi, c : n × k influence values and contrast weights; rows : the table rows of the noise
    estimate (persons, or another factor's levels), cells : the design cell of each observation.
    """
    k = psi.shape[1]
    has = _present(labels)
    if not has.any():
        return None
    zero = np.zeros(k)
    lev, L = _codes(np.asarray(labels, dtype=object)[has])
    psi_f, c_f = psi[has], c[has]
    if L < 2:
        return FactorPart(name, L, zero, zero, zero, zero, False, reason("crossed.single_level", factor=name, levels=L))
    s = np.vstack([np.bincount(lev, weights=psi_f[:, j], minlength=L) for j in range(k)]).T
    A = L / (L - 1) * ((s - s.mean(axis=0)) ** 2).sum(axis=0)
    cell_codes, n_cells = _codes(np.asarray(cells, dtype=object)[has])
    row_codes, n_rows = _codes(np.asarray(rows, dtype=object)[has])
    # the table z[row, level] within each cell
    entry_codes, entry = _joint(cell_codes, row_codes, lev)
    z = np.vstack([np.bincount(entry_codes, weights=psi_f[:, j], minlength=len(entry)) for j in range(k)]).T
    kappa_cell = np.vstack([np.bincount(entry_codes, weights=c_f[:, j], minlength=len(entry)) for j in range(k)]).T
    N = np.zeros(k)
    var_N = np.zeros(k)
    df_noise = 0.0
    for cc in range(n_cells):
        sel = entry[:, 0] == cc
        if not sel.any():
            continue
        ss, dfc = _additive_residual_ss(z[sel], _codes(entry[sel, 1])[0], _codes(entry[sel, 2])[0],
                                        int(np.unique(entry[sel, 1]).size), int(np.unique(entry[sel, 2]).size))
        if dfc < 1:
            continue
        sigma2 = ss / dfc
        Nc = sigma2 * int(sel.sum())  # each entry of this cell is one independent noise term of its level's sum
        N += Nc
        var_N += 2 * Nc ** 2 / dfc
        df_noise += dfc
    if df_noise < 1:
        return FactorPart(name, L, A, zero, zero, zero, False, reason("crossed.no_noise", factor=name, levels=L))
    excess = A - N
    keep = excess > rtol * (A + N + np.abs(person_var))
    excess = np.where(keep, excess, 0.0)
    # effective df of A: slices weighted by their expected size (design weights κ_ℓ)
    kap_level = np.zeros((L, k))
    lev_of_entry = entry[:, 2]
    cell_level, cl = _joint(entry[:, 0], lev_of_entry)
    per_cell_level = np.vstack([np.bincount(cell_level, weights=kappa_cell[:, j]) for j in range(k)]).T
    for j in range(k):
        kap_level[:, j] = np.bincount(cl[:, 1], weights=per_cell_level[:, j] ** 2, minlength=L)
    n_entries_level = np.bincount(lev_of_entry, minlength=L).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        sig2 = np.where(kap_level.sum(axis=0) > 0, excess / kap_level.sum(axis=0), 0.0)
        tau = kap_level * sig2 + n_entries_level[:, None] * (N / max(n_entries_level.sum(), 1.0))
        df_A = np.where((tau ** 2).sum(axis=0) > 0, tau.sum(axis=0) ** 2 / (tau ** 2).sum(axis=0), L) * (L - 1) / L
        var_exc = np.where(keep, 2 * A ** 2 / np.maximum(df_A, 1e-12) + var_N, 0.0)
    return FactorPart(name, L, A, N, excess, var_exc)


def crossed_variance(psi: np.ndarray, c: np.ndarray, person_var, person_df, factors: dict[str, np.ndarray], *,
                     persons=None, cells=None, rtol: float = RTOL) -> CrossedVariance:
    """The crossed variance of k contrasts (see the module docstring).

    psi : n × k per-observation influence of each contrast (Σψ = 0); c : n × k contrast weights
    (for the design weights of the levels); person_var / person_df : the person-robust variance and
    df of each contrast; factors : {name: level label per observation ("" = no level)};
    persons : the person (unit) of each observation, or None (rows of the noise table are then the
    other factors' levels); cells : the design cell of each observation (default: one cell).
    """
    psi = np.asarray(psi, dtype=float)
    psi = psi.reshape(len(psi), -1)
    c = np.asarray(c, dtype=float).reshape(psi.shape)
    n, k = psi.shape
    pv = np.clip(np.asarray(person_var, dtype=float).reshape(k), 0.0, None)
    pdf = np.asarray(person_df, dtype=float).reshape(k)
    cells = np.zeros(n, dtype=int) if cells is None else np.asarray(cells)
    if cells.ndim > 1:
        cells = np.unique(cells, axis=0, return_inverse=True)[1].ravel()
    parts: list[FactorPart] = []
    names = list(factors)
    person_codes, n_persons = _codes(persons) if persons is not None else (np.zeros(n, dtype=np.int64), 0)
    missing = ~_present(persons) if persons is not None else np.ones(n, dtype=bool)
    for name in names:
        unit = person_codes
        if missing.any():  # no person: the other factors' levels are the rows of the noise table
            others = [_codes(factors[o])[0] for o in names if o != name]
            other = _joint(*others)[0] if others else np.arange(n)
            unit = np.where(missing, n_persons + other, person_codes)
        part = factor_part(name, psi, c, factors[name], unit, cells, pv, rtol)
        if part is not None:
            parts.append(part)
    total = pv + sum((p.excess for p in parts), np.zeros(k))
    with np.errstate(divide="ignore", invalid="ignore"):
        den = np.where(np.isfinite(pdf) & (pdf > 0), pv ** 2 / pdf, 0.0) + sum((p.var_excess for p in parts),
                                                                               np.zeros(k))
        df = np.where(den > 0, total ** 2 / den, pdf)
    if not all(p.estimable for p in parts):
        total = np.full(k, np.nan)
        df = np.full(k, np.nan)
    return CrossedVariance(total, df, pv, pdf, parts)
