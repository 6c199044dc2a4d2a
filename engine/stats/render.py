"""``to_latex`` / ``to_markdown``: publication tables from any result of this package.

The layout is chosen from the kind of result (or ``layout=``):

* ``"camara"`` — Beta regression, Câmara et al.'s Tables 3–5 (rows = models; per emotion the
  Race/Ethnicity, Gender and Intersection effects with stars). ``value="ame"`` (default,
  score scale), ``"estimate"`` (logit coefficients) or ``"ols_estimate"``; ``p_col`` picks
  the p-values behind the stars (e.g. ``"p_holm"`` after a correction).
* ``"km"`` — paired analysis, Kiritchenko & Mohammad's Tables 5–7 (one table per corpus ×
  axis × subset); ``"km_models"`` lists each system instead of counting them.
* ``"counterfactual"`` — one row per model × group of pairs.
* ``"confusion"`` — a confusion matrix (privileged rows × minoritised columns); ``shares=True``
  shows shares of all pairs instead of counts.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from . import latex, markdown
from .tables import Table, camara_tables, confusion_tables, counterfactual_tables, km_model_tables, km_tables

LAYOUT_OF_TEST = {"beta_regression": "camara", "km_paired_t": "km", "counterfactual": "counterfactual",
                  "confusion_matrix": "confusion"}
BUILDERS = {"camara": camara_tables, "km": km_tables, "km_models": km_model_tables,
            "counterfactual": counterfactual_tables, "confusion": confusion_tables}


def _frame(result: Any) -> pd.DataFrame:
    if isinstance(result, pd.DataFrame):
        return result
    if hasattr(result, "to_frame"):
        return result.to_frame()
    raise TypeError(f"cannot render {type(result).__name__}: pass a result object or its to_frame() table")


def build_tables(result: Any, layout: str | None = None, **options) -> list[Table]:
    """The format-neutral tables of ``result`` in ``layout`` (inferred from the result if None)."""
    frame = _frame(result)
    if layout is None:
        tests = list(pd.unique(frame["test"])) if "test" in frame.columns else []
        if len(tests) != 1 or tests[0] not in LAYOUT_OF_TEST:
            raise ValueError(f"cannot infer a layout from tests {tests}; pass layout= one of {list(BUILDERS)}")
        layout = LAYOUT_OF_TEST[tests[0]]
    if layout not in BUILDERS:
        raise ValueError(f"unknown layout {layout!r}; use one of {list(BUILDERS)}")
    return BUILDERS[layout](frame, **options)


def to_latex(result: Any, layout: str | None = None, *, label: str | None = None, **options) -> str:
    """LaTeX (booktabs) table(s) for ``result``; see the module docstring for layouts and options."""
    return latex.render_all(build_tables(result, layout, **options), label=label)


def to_markdown(result: Any, layout: str | None = None, **options) -> str:
    """Markdown table(s) for ``result``; see the module docstring for layouts and options."""
    return markdown.render_all(build_tables(result, layout, **options))
