"""Average marginal effects on the score scale for indicator terms of a Beta regression.

Why this definition: the Beta coefficients live on the logit scale, while readers compare
bias with score differences (Câmara et al. report effects of a few hundredths of the 0–1
scale). For an indicator term j we report

    AME_j = mean over the sentences with x_ij = 1 of [ μ(η_i) − μ(η_i − β_j) ]

i.e. the average change of the predicted score that the term itself produces in the
sentences it applies to. It has the sign of β_j, is 0 exactly when β_j = 0, and when a
scorer adds δ to one group's scores it recovers δ (race: minority sentences; gender:
female sentences; intersection: the intersectional cell). Standard errors use the delta
method with the fitted covariance of the mean parameters.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MarginalEffect:
    estimate: float
    std_err: float
    ci_low: float
    ci_high: float


def indicator_ame(params: np.ndarray, cov: np.ndarray, exog: np.ndarray, j: int, link,
                  scale: float = 1.0, conf_level: float = 0.95) -> MarginalEffect:
    """AME of indicator column ``j`` (see module docstring), scaled by ``scale``.

    ``params``/``cov`` are the mean-model parameters and their covariance (precision
    parameters removed); ``link`` is a statsmodels link (``inverse``, ``inverse_deriv``).
    ``scale`` converts differences on the fitted scale to the original score scale.
    """
    from scipy.stats import norm

    active = exog[:, j] != 0
    xa = exog[active]
    if xa.shape[0] == 0:
        nan = float("nan")
        return MarginalEffect(nan, nan, nan, nan)
    x0 = xa.copy()
    x0[:, j] = 0.0
    eta1 = xa @ params
    eta0 = x0 @ params
    diff = link.inverse(eta1) - link.inverse(eta0)
    grad = (link.inverse_deriv(eta1)[:, None] * xa - link.inverse_deriv(eta0)[:, None] * x0).mean(axis=0)
    est = float(diff.mean()) * scale
    var = float(grad @ cov @ grad)
    se = float(np.sqrt(var)) * scale if var >= 0 else float("nan")
    z = float(norm.ppf(0.5 + conf_level / 2))
    return MarginalEffect(est, se, est - z * se, est + z * se)
