"""Score-based bias statistics: Beta regression with an intersectional term (Câmara et al.
2022), Kiritchenko & Mohammad's (2018) paired analysis, Goldfarb-Tarrant et al.'s (2023)
counterfactual pair analysis, multiple-comparison corrections, bootstrap intervals and
LaTeX/Markdown tables in the papers' layouts. See docs/stats.md.

Inputs are plain pandas tables (the generated corpus or pair table plus score columns);
outputs are result dataclasses with ``summary()`` and ``to_frame()``. Attributes are loaded
on first use so that ``import engine.stats`` stays cheap (no scipy/statsmodels until needed).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "beta_regression": "beta", "BetaRegressionResults": "beta", "BetaFit": "beta",
    "km_paired_analysis": "km", "KMPairedResults": "km", "KMTest": "km", "km_pairs": "km_pairing",
    "counterfactual_analysis": "counterfactual", "CounterfactualResults": "counterfactual",
    "confusion_matrix": "confusion", "ConfusionMatrix": "confusion",
    "correct_pvalues": "multitest", "bootstrap_ci": "bootstrap", "BootstrapCI": "bootstrap",
    "paired_t": "paired_tests", "wilcoxon_signed_rank": "paired_tests",
    "smithson_verkuilen": "squeeze", "stars": "_common",
    "to_latex": "render", "to_markdown": "render",
    "synthetic_eec": "synthetic", "planted_scores": "synthetic", "synthetic_np_pairs": "synthetic",
    "synthetic_pairs": "synthetic", "group_means": "group_summary",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'engine.stats' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from ._common import stars
    from .beta import BetaFit, BetaRegressionResults, beta_regression
    from .bootstrap import BootstrapCI, bootstrap_ci
    from .confusion import ConfusionMatrix, confusion_matrix
    from .counterfactual import CounterfactualResults, counterfactual_analysis
    from .km import KMPairedResults, KMTest, km_paired_analysis
    from .km_pairing import km_pairs
    from .multitest import correct_pvalues
    from .paired_tests import paired_t, wilcoxon_signed_rank
    from .render import to_latex, to_markdown
    from .squeeze import smithson_verkuilen
    from .synthetic import planted_scores, synthetic_eec, synthetic_np_pairs, synthetic_pairs
