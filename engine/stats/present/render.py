"""``to_latex`` / ``to_markdown``: publication tables from any result of this package.

The layout is chosen from the kind of result (or ``layout=``):

* ``"camara"`` — Beta regression, Câmara et al.'s Tables 3–5 (rows = models; per emotion the
  Race/Ethnicity, Gender and Intersection effects with stars). ``value="ame"`` (default,
  score scale), ``"estimate"`` (logit coefficients) or ``"ols_estimate"``; ``p_col`` picks
  the p-values behind the stars (e.g. ``"p_adjusted"`` after a correction).
* ``"km"`` — paired analysis, Kiritchenko & Mohammad's Tables 5–7 (one table per corpus ×
  axis × subset); ``"km_models"`` lists each system instead of counting them.
* ``"counterfactual"`` — one row per model × group of pairs.
* ``"confusion"`` — a confusion matrix (privileged rows × minoritised columns); ``shares=True``
  shows shares of all pairs instead of counts.

Every layout takes ``width="page"`` (the default of ``build_tables`` and Markdown) or ``"column"``
(narrow, for one column of a two-column paper; the default of ``to_latex``).
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from engine.stats.present import latex, markdown
from engine.stats.present.tables import Table, camara_tables, confusion_tables, counterfactual_tables, km_model_tables, km_tables
from engine.stats.errors import StatisticError

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
            raise StatisticError(f"cannot infer a layout from tests {tests}; pass layout= one of {list(BUILDERS)}")
        layout = LAYOUT_OF_TEST[tests[0]]
    if layout not in BUILDERS:
        raise StatisticError(f"unknown layout {layout!r}; use one of {list(BUILDERS)}")
    return BUILDERS[layout](frame, **options)


def to_latex(result: Any, layout: str | None = None, *, label: str | None = None, width: str = "column",
             transliterate: bool = False, **options) -> str:
    """LaTeX (booktabs) table(s) for ``result``; see the module docstring for layouts and options.

    ``width="column"`` (default): ``table`` floats laid out for one column of a two-column paper
    (ACL, IEEE); ``"page"``: ``table*`` floats across the page. ``transliterate``: ASCII labels for
    pdflatex where a label is in another script (Arabic, Japanese...)."""
    return latex.render_all(build_tables(result, layout, width=width, **options), label=label, wide=width == "page",
                            transliterate=transliterate)


def to_markdown(result: Any, layout: str | None = None, **options) -> str:
    """Markdown table(s) for ``result``; see the module docstring for layouts and options."""
    return markdown.render_all(build_tables(result, layout, **options))


def layouts_of(name: str, frame: pd.DataFrame, width: str = "page") -> tuple[list[Table], list[Table]]:
    """(main, extra) tables of statistic ``name``, laid out by its registry entry (``tables``);
    ([], []) for a statistic without a paper table."""
    from engine.stats import registry

    build = registry.get(name).tables
    if build is None:
        return [], []
    main, extra = build(frame, width)
    return list(main), list(extra)


def tables_csv(tables: list[Table]) -> bytes:
    """The tables as CSV (one flattened header per table, stars as text), one after the other."""
    from engine.common.csv_cells import csv_rows_text

    return "\n".join(csv_rows_text(markdown._flat_header(t), ([c.text + c.sup for c in row] for row in t.rows))
                     for t in tables).encode("utf-8")


def statistic_files(name: str, frame: pd.DataFrame) -> dict[str, bytes]:
    """{relative path: bytes} of a statistic's paper tables, the one set both an audit folder and its
    report write: ``tables/<name>.tex`` (table floats for one column of a two-column paper),
    ``tables/<name>-wide.tex`` (table* floats across the page), ``tables/<name>.md`` and
    ``tables/<name>.csv`` (the page layout). Raises ValueError/KeyError/TypeError when the frame
    cannot be laid out; {} for a statistic without a paper layout."""
    main, extra = layouts_of(name, frame, "page")
    if not main and not extra:
        return {}
    col_main, col_extra = layouts_of(name, frame, "column")
    # every float gets a \label to \ref: tab:<name>, or tab:<name>-1, -2, … when there are several
    return {f"tables/{name}.tex": latex.render_all(col_main + col_extra, label=f"tab:{name}").encode("utf-8"),
            f"tables/{name}-wide.tex": latex.render_all(main + extra, label=f"tab:{name}-wide", wide=True).encode("utf-8"),
            f"tables/{name}.md": markdown.render_all(main + extra).encode("utf-8"),
            f"tables/{name}.csv": tables_csv(main + extra)}
