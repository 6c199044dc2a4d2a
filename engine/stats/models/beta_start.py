"""Start values of a statsmodels ``BetaModel`` fit: its own ``_start_params``, computed with less memory.

Why (issue 42): statsmodels finds the start values with two least-squares fits and two rounds of
two weighted ones, and keeps every one of them (each with its weighted design, its pseudo-inverse
and its fitted values) until it returns: for a million sentences 430 MB at once, twice what the
Newton iterations that follow need, and the peak of a million-sentence audit. Here the same steps,
in the same order and with the same statsmodels classes, keep only the arrays the next step reads,
so the start values — and so the fit — are bit for bit statsmodels' (tests/test_stats_lean_memory.py
compares them).
"""
from __future__ import annotations

from typing import Any

import numpy as np


def start_params(model: Any, niter: int = 2) -> np.ndarray:
    """``model._start_params(niter)`` of a statsmodels ``BetaModel`` (see the module docstring)."""
    from statsmodels.regression.linear_model import OLS, WLS

    link, link_precision = model.link, model.link_precision
    endog, exog, exog_precision = model.endog, model.exog, model.exog_precision
    fitted = link.inverse(OLS(link(endog), exog).fit().fittedvalues)
    resid = endog - fitted
    prec_i = fitted * (1 - fitted) / np.maximum(np.abs(resid), 1e-2) ** 2 - 1
    del resid
    prec_fitted = link_precision.inverse(OLS(link_precision(prec_i), exog_precision).fit().fittedvalues)
    del prec_i
    sp = None
    for _ in range(niter):
        y_var_inv = (1 + prec_fitted) / (fitted * (1 - fitted))
        ylink_var_inv = y_var_inv / link.deriv(fitted) ** 2
        del y_var_inv
        res_m = WLS(link(endog), exog, weights=ylink_var_inv).fit()
        del ylink_var_inv
        fitted = link.inverse(res_m.fittedvalues)
        params_m = res_m.params
        del res_m
        resid = endog - fitted
        prec_i = fitted * (1 - fitted) / np.maximum(np.abs(resid), 1e-2) ** 2 - 1
        del resid
        w_p = 1.0 / link_precision.deriv(prec_fitted) ** 2
        res_p = WLS(link_precision(prec_i), exog_precision, weights=w_p).fit()
        del prec_i, w_p
        prec_fitted = link_precision.inverse(res_p.fittedvalues)
        sp = np.concatenate((params_m, res_p.params))
        del res_p
    return sp
