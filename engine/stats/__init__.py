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
    "beta_regression": "models.beta", "BetaRegressionResults": "models.beta", "BetaFit": "models.beta",
    "km_paired_analysis": "hypothesis_tests.km", "KMPairedResults": "hypothesis_tests.km", "KMTest": "hypothesis_tests.km", "km_pairs": "hypothesis_tests.km_pairing",
    "counterfactual_analysis": "hypothesis_tests.counterfactual", "CounterfactualResults": "hypothesis_tests.counterfactual",
    "confusion_matrix": "hypothesis_tests.confusion", "ConfusionMatrix": "hypothesis_tests.confusion",
    "correct_pvalues": "hypothesis_tests.multitest", "bootstrap_ci": "hypothesis_tests.bootstrap", "BootstrapCI": "hypothesis_tests.bootstrap",
    "paired_t": "hypothesis_tests.paired_tests", "wilcoxon_signed_rank": "hypothesis_tests.paired_tests",
    "smithson_verkuilen": "models.squeeze", "stars": "_common",
    "to_latex": "present.render", "to_markdown": "present.render",
    "synthetic_eec": "simulate.synthetic", "planted_scores": "simulate.synthetic", "synthetic_np_pairs": "simulate.synthetic",
    "synthetic_pairs": "simulate.synthetic", "group_means": "hypothesis_tests.group_summary",
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
    from engine.stats._common import stars
    from engine.stats.models.beta import BetaFit, BetaRegressionResults, beta_regression
    from engine.stats.hypothesis_tests.bootstrap import BootstrapCI, bootstrap_ci
    from engine.stats.hypothesis_tests.confusion import ConfusionMatrix, confusion_matrix
    from engine.stats.hypothesis_tests.counterfactual import CounterfactualResults, counterfactual_analysis
    from engine.stats.hypothesis_tests.km import KMPairedResults, KMTest, km_paired_analysis
    from engine.stats.hypothesis_tests.km_pairing import km_pairs
    from engine.stats.hypothesis_tests.multitest import correct_pvalues
    from engine.stats.hypothesis_tests.paired_tests import paired_t, wilcoxon_signed_rank
    from engine.stats.present.render import to_latex, to_markdown
    from engine.stats.models.squeeze import smithson_verkuilen
    from engine.stats.simulate.synthetic import planted_scores, synthetic_eec, synthetic_np_pairs, synthetic_pairs
