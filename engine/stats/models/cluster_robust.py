"""Cluster-robust (by person) standard errors with a small-cluster correction.

Why: every EEC repeats each name in ~144 sentences. Sentences of the same person share
that person's quirks, so treating them as independent makes standard errors far too small
(with a per-person SD of 0.1 on the logit scale, about half of the "significant" verdicts of
a no-bias scorer are false). The unit that carries independent information about a group is
the person, and there are only 10–40 of them per group.

What: the CR2 ("bias-reduced linearisation", Bell & McCaffrey 2002) sandwich with
Bell–McCaffrey degrees of freedom for a t reference, as recommended for few clusters by
Pustejovsky & Tipton (2018). For a (weighted) linear model ``ỹ = X̃β + e`` with clusters g,

    V = M [Σ_g X̃_g' A_g e_g e_g' A_g X̃_g] M,   M = (X̃'X̃)⁻¹,   A_g = (I − H_gg)^(−1/2)

In the saturated group-means designs of this package CR2 gives exactly the Welch variance
of the person means (Σ s²_c / G_c), which is why it is unbiased where the classical CR1
(``G/(G−1)``, statsmodels' default) is not.

Degrees of freedom (issue 26: one small-sample rule for regressions and paired tests). Where every
cluster lies in one cell of the design (a person is one race × gender group — always so in an
EEC), V_jj is a sum of per-cell parts v_c = Σ_{g∈c} (B·score_g)_j², and the df are Welch–
Satterthwaite's, (Σ_c v_c)² / Σ_c v_c²/(G_c − 1): for a difference of two groups this *is* Welch's
t on person means, the test the K&M and counterfactual statistics use, so one contrast gets one
p-value whichever statistic computes it. Bell & McCaffrey's df (the Satterthwaite approximation
under a working model of independent, *equal-variance* errors: (Σλ)²/Σλ², λ the eigenvalues of
``D − Z'MZ``) are kept where clusters span cells (``df_kind = "bell-mccaffrey"``). They assume
what the degenerate audits break: when one group's persons barely vary (Spanish joy: one Anglo
woman differs), BM gives 18 df where the variance rests on the 10 women alone (Welch: 9).

For the Beta regression the same construction is applied to the working (Fisher-scoring)
linear model: ``X̃ = W^½X`` with W the expected information weights of the mean model and
residuals ``W^(−½)·∂ℓ/∂η``; the bread is the inverse observed Hessian of all parameters
(as in statsmodels' ``cov_type="cluster"``, which :func:`beta_cluster_cov` reproduces exactly
when ``kind="CR0"``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Eigenvalues of H_gg this close to 1 (a cluster that alone determines a coefficient) get the
#: Moore–Penrose treatment: that direction of the residual is exactly 0 anyway.
_LEVERAGE_ONE = 1e-10


@dataclass(frozen=True)
class ClusterCov:
    """A cluster-robust covariance and per-coefficient t degrees of freedom."""

    cov: np.ndarray
    df: np.ndarray
    n_clusters: int
    kind: str  # CR2 | CR1 | CR0
    df_kind: str = "G-1"  # welch-satterthwaite | bell-mccaffrey | G-1

    @property
    def bse(self) -> np.ndarray:
        return np.sqrt(np.clip(np.diag(self.cov), 0.0, None))


def cluster_index(clusters) -> tuple[np.ndarray, int]:
    """Cluster labels -> integer codes 0..G−1 and G."""
    _, codes = np.unique(np.asarray(clusters).astype(str), return_inverse=True)
    codes = codes.ravel()
    return codes, int(codes.max()) + 1 if codes.size else 0


def _adjust(Xg: np.ndarray, M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(I − H_gg)^(−½) as a low-rank update: returns (U, f) with A_g = I + U diag(f) U'.

    H_gg = X̃_g M X̃_g' has rank ≤ k, so instead of an m×m eigen-decomposition we use a thin QR
    of X̃_g and the eigen-decomposition of the k×k matrix R M R'.
    """
    q, r = np.linalg.qr(Xg, mode="reduced")
    lam, v = np.linalg.eigh(r @ M @ r.T)
    lam = np.clip(lam, 0.0, 1.0)
    with np.errstate(divide="ignore"):
        f = np.where(lam < 1 - _LEVERAGE_ONE, 1.0 / np.sqrt(1.0 - lam) - 1.0, -1.0)
    return q @ v, f


def cr_cov(Xt: np.ndarray, et: np.ndarray, clusters, *, kind: str = "CR2", bread: np.ndarray | None = None,
           extra_scores: np.ndarray | None = None, cells=None) -> ClusterCov:
    """Cluster-robust covariance of a (working) linear model ``ỹ = X̃β + e``.

    Xt, et : working design X̃ (n × k) and residuals e (n), so that X̃'e is the score.
    kind : "CR2" (Bell–McCaffrey adjustment, df from the Satterthwaite approximation),
        "CR1" (statsmodels' G/(G−1)·(n−1)/(n−k) factor, df = G − 1) or "CR0" (no factor, df = G − 1).
    bread : covariance bread for all parameters (default ``(X̃'X̃)⁻¹``). With ``extra_scores``
        (n × q: per-observation scores of further parameters such as the Beta precision), the
        meat has k + q rows and ``bread`` must be (k + q) square.
    cells : per-observation design cell (default: the distinct rows of X̃); CR2 df are Welch–
        Satterthwaite's over the cells when every cluster lies in one cell (see module docstring).
    """
    Xt = np.asarray(Xt, dtype=float)
    et = np.asarray(et, dtype=float)
    n, k = Xt.shape
    codes, G = cluster_index(clusters)
    M = np.linalg.pinv(Xt.T @ Xt)
    q = 0 if extra_scores is None else extra_scores.shape[1]
    B = M if bread is None else np.asarray(bread, dtype=float)
    if B.shape != (k + q, k + q):
        raise ValueError(f"bread must be {(k + q, k + q)}, got {B.shape}")
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(G + 1))
    scores = np.zeros((G, k + q))
    # For the df: p_g = A_g X̃_g M (columns: one per coefficient); keep |p_g|² and Z_g = X̃_g'p_g.
    pp = np.zeros((G, k))
    Z = np.zeros((k, k, G))  # Z[:, j, g] = X̃_g' p_g^{(j)}
    for g in range(G):
        idx = order[bounds[g]:bounds[g + 1]]
        Xg, eg = Xt[idx], et[idx]
        if kind == "CR2":
            U, f = _adjust(Xg, M)
            ag = eg + U @ (f * (U.T @ eg))           # A_g e_g
            Pg = Xg @ M
            Pg = Pg + U @ (f[:, None] * (U.T @ Pg))  # A_g X̃_g M
        else:
            ag = eg
            Pg = Xg @ M
        scores[g, :k] = Xg.T @ ag
        if q:
            scores[g, k:] = extra_scores[idx].sum(axis=0)
        pp[g] = (Pg * Pg).sum(axis=0)
        Z[:, :, g] = Xg.T @ Pg
    meat = scores.T @ scores
    cov = B @ meat @ B.T
    cell_of_cluster = _cluster_cells(Xt if cells is None else cells, order, bounds, G)
    if kind == "CR1":
        cov = cov * (G / max(G - 1, 1)) * ((n - 1) / max(n - (k + q), 1))
    elif kind not in ("CR2", "CR0"):
        raise ValueError(f"kind must be 'CR2', 'CR1' or 'CR0', got {kind!r}")
    df_kind = "G-1"
    if kind == "CR2" and cell_of_cluster is not None:
        df = _welch_df((scores @ B.T)[:, :k], cell_of_cluster)
        df_kind = "welch-satterthwaite"
    elif kind == "CR2":
        df_kind = "bell-mccaffrey"
        df = np.empty(k)
        for j in range(k):
            Zj = Z[:, j, :]
            Om = np.diag(pp[:, j]) - Zj.T @ M @ Zj
            lam = np.linalg.eigvalsh((Om + Om.T) / 2)
            s1, s2 = lam.sum(), (lam ** 2).sum()
            df[j] = s1 * s1 / s2 if s2 > 0 else np.nan
    else:
        df = np.full(k, float(G - 1))
    return ClusterCov(cov=cov, df=df, n_clusters=G, kind=kind, df_kind=df_kind)


def _cluster_cells(cells, order: np.ndarray, bounds: np.ndarray, G: int) -> np.ndarray | None:
    """The design cell of each cluster, or None when a cluster spans cells (or a cell has one cluster)."""
    c = np.asarray(cells)
    c = c.reshape(len(c), -1) if c.ndim > 1 else c.reshape(-1, 1)
    _, code = np.unique(c, axis=0, return_inverse=True)
    code = np.asarray(code).ravel()
    out = np.empty(G, dtype=int)
    for g in range(G):
        cg = code[order[bounds[g]:bounds[g + 1]]]
        if cg.size == 0 or np.any(cg != cg[0]):
            return None
        out[g] = cg[0]
    if np.min(np.bincount(out)[np.unique(out)]) < 2:
        return None
    return out


def _welch_df(contrib: np.ndarray, cell: np.ndarray) -> np.ndarray:
    """Welch–Satterthwaite df per coefficient from per-cluster contributions (G × k) and cells."""
    cells = np.unique(cell)
    v = np.array([(contrib[cell == c] ** 2).sum(axis=0) for c in cells])  # cells × k
    gc = np.array([int((cell == c).sum()) for c in cells], dtype=float)
    num = v.sum(axis=0) ** 2
    den = (v ** 2 / (gc - 1)[:, None]).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / den, np.nan)


def ols_cluster(y: np.ndarray, X: np.ndarray, clusters, kind: str = "CR2") -> tuple[np.ndarray, ClusterCov]:
    """OLS coefficients and their cluster-robust covariance (see :func:`cr_cov`)."""
    y = np.asarray(y, dtype=float)
    X = np.asarray(X, dtype=float)
    beta, *_ = np.linalg.lstsq(X, y, rcond=None)
    return beta, cr_cov(X, y - X @ beta, clusters, kind=kind, cells=X)


def beta_cluster_cov(model, params: np.ndarray, clusters, kind: str = "CR2", working: tuple | None = None) -> ClusterCov:
    """Cluster-robust covariance of a fitted statsmodels ``BetaModel`` (all parameters).

    The working linear model of the mean parameters is X̃ = W^½X, e = W^(−½)·sf1 with W the
    expected-information weights (so X̃'e is the score of the mean parameters); the precision
    parameters enter the meat with their raw scores. The bread is the inverse of the observed
    negative Hessian. ``kind="CR0"`` equals statsmodels' ``fit(cov_type="cluster",
    cov_kwds={"groups": ..., "use_correction": False})``; "CR1" its default correction.
    df for the precision parameters are not computed (NaN). ``working``: the result of
    :func:`beta_working_model` when the caller has it already (it inverts the Hessian).
    """
    X, Z = model.exog, model.exog_precision
    k = X.shape[1]
    Xt, et, bread, extra = working if working is not None else beta_working_model(model, params)
    cc = cr_cov(Xt, et, clusters, kind=kind, bread=bread, extra_scores=extra, cells=X)
    df = np.concatenate([cc.df, np.full(Z.shape[1], np.nan)])
    return ClusterCov(cov=cc.cov, df=df[:k + Z.shape[1]], n_clusters=cc.n_clusters, kind=kind, df_kind=cc.df_kind)


def beta_working_model(model, params) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X̃, e, bread, precision scores) of a fitted ``BetaModel``: the working linear model of the
    mean parameters (X̃ = W^½X, e = W^(−½)·∂ℓ/∂η, W the expected information weights), the inverse
    observed negative Hessian of all parameters, and the precision parameters' raw scores."""
    params = np.asarray(params, dtype=float)
    X, Z = model.exog, model.exog_precision
    (sf1, sf2), (h11, _h12, _h22) = model.score_hessian_factor(params, return_hessian=True, observed=False)
    w = np.clip(-np.asarray(h11, dtype=float), 1e-300, None)  # expected information weights (> 0)
    sw = np.sqrt(w)
    H = np.asarray(model.hessian(params), dtype=float)
    return X * sw[:, None], np.asarray(sf1, dtype=float) / sw, np.linalg.pinv(-H), \
        np.asarray(sf2, dtype=float)[:, None] * Z


def hc2_cov(Xt: np.ndarray, et: np.ndarray, *, bread: np.ndarray | None = None,
            extra_scores: np.ndarray | None = None) -> np.ndarray:
    """The observation-level (HC2) sandwich: CR2 with every observation its own cluster, vectorised."""
    Xt = np.asarray(Xt, dtype=float)
    M = np.linalg.pinv(Xt.T @ Xt)
    h = np.clip(np.einsum("ij,jk,ik->i", Xt, M, Xt), 0.0, 1 - _LEVERAGE_ONE)
    s = Xt * (np.asarray(et, dtype=float) / np.sqrt(1.0 - h))[:, None]
    if extra_scores is not None:
        s = np.column_stack([s, extra_scores])
    B = M if bread is None else np.asarray(bread, dtype=float)
    return B @ (s.T @ s) @ B.T


def crossed_cov(Xt: np.ndarray, et: np.ndarray, person: ClusterCov, factors: dict[str, np.ndarray], *,
                persons=None, bread: np.ndarray | None = None, extra_scores: np.ndarray | None = None,
                cells=None) -> tuple[ClusterCov, dict]:
    """Persons, templates and emotion words as crossed random factors (``inference="crossed"``).

    Why: the person-robust variance counts only the variation that comes from which *persons*
    were drawn. A verdict such as "the system scores women lower" also generalises over templates
    and emotion words; when each word (or template) carries its own identity effect — a word ×
    gender interaction — the contrast also varies with which words were chosen (Judd, Westfall &
    Kenny 2012; Clark 1973's language-as-fixed-effect fallacy). The variance is the person part
    plus each factor's factor × group part, estimated by moments free of the factors' main effects
    (:mod:`engine.stats.models.crossed`, which says why and how; issue 37 replaced the earlier
    V_f − V₀ form, which the main effects biased to zero).

    ``persons``: the person of each observation (rows of the noise table; without it, the other
    factor's levels); ``cells``: design cell per observation (default: the distinct rows of X̃'s
    unweighted design, i.e. of ``Xt`` when no weights are involved). Returns the covariance (the
    person covariance with the factor parts on the diagonal; NaN where a factor is not estimable,
    ``kind`` then says so) and {"parts": [FactorPart], "status", "note", "reason"} (reason: engine.stats.reasons).
    """
    from engine.stats.models.crossed import crossed_variance

    Xt = np.asarray(Xt, dtype=float)
    et = np.asarray(et, dtype=float)
    k = Xt.shape[1]
    B = np.linalg.pinv(Xt.T @ Xt) if bread is None else np.asarray(bread, dtype=float)
    S = Xt * et[:, None]
    if extra_scores is not None:
        S = np.column_stack([S, extra_scores])
    psi = (S @ B.T)[:, :k]
    c = Xt @ B[:k, :k].T
    cov = np.array(person.cov[:k, :k], dtype=float)
    cv = crossed_variance(psi, c, np.diag(cov), np.asarray(person.df[:k], dtype=float), factors,
                          persons=persons, cells=Xt if cells is None else cells)
    if cv.estimable:
        cov = cov + np.diag(cv.var - cv.person_var)
    else:
        cov = np.full((k, k), np.nan)
    out = ClusterCov(cov=cov, df=cv.df, n_clusters=person.n_clusters, kind=person.kind,
                     df_kind="satterthwaite (persons, templates, words)" if cv.estimable else "not estimable")
    return out, {"parts": cv.parts, "status": cv.status, "note": cv.note, "reason": cv.reason}
