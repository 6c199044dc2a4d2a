"""Registry entry: counterfactual pair differences (Goldfarb-Tarrant et al. 2023)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from engine.common.fmt import as_float
from engine.common.i18n import N_
from engine.common.svg import Row

from ..context import StatContext
from ..registry import KeyRow, PlotSpec, Statistic
from ._shared import f, p_column


def applies(ctx: StatContext) -> str | None:
    return None if ctx.pairs is not None else "the corpus declares no counterfactual pairs"


def compute(ctx: StatContext) -> list[Any]:
    from engine.stats.counterfactual import counterfactual_analysis

    return [counterfactual_analysis(ctx.pairs, f"{col}:privileged", f"{col}:minoritised", model=sname, emotion=dim,
                                    corpus=ctx.corpus_id, band_share=ctx.setting("band_share", 0.03),
                                    correction=ctx.setting("correction", None),
                                    n_resamples=ctx.setting("n_resamples", 1000), seed=ctx.setting("seed", 0))
            for col, (sname, dim) in ctx.score_cols.items()]


def plot(df: pd.DataFrame) -> PlotSpec:
    out = [Row(f"{r.corpus} · {r.model}:{r.emotion} · {r.variable}", f(r.mean_diff), as_float(r.ci_low),
               as_float(r.ci_high), f"changed {100 * (as_float(r.share_changed) or 0):.0f}%",
               "sig" if bool(r.exceeds_band) else "ns", as_float(r.band))
           for r in df.itertuples()]
    return PlotSpec("Counterfactual pairs (Goldfarb-Tarrant et al.)",
                    "mean R(privileged) − R(minoritised) (95% CI); shaded: ± negligible band", out)


def key_rows(cf: pd.DataFrame) -> list[KeyRow]:
    out = []
    pc = p_column(cf, "t_p_value")
    std = {"corpus", "model", "emotion", "test", "note", "settings", "status", "band", "exceeds_band"}
    by = [c for c in cf.columns if c not in std and cf[c].dtype == object and not c.startswith(("t_p_", "wilcoxon_p_"))]
    for r in cf.to_dict("records"):
        group = ", ".join(str(r[c]) for c in by if isinstance(r.get(c), str))
        beyond = r.get("exceeds_band")
        verdict = ("beyond band" if beyond in (True, "True") else "within band") if as_float(r.get("band")) is not None else ""
        out.append(KeyRow("counterfactual", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                          "privileged − minoritised" + (f" ({group})" if group else ""),
                          f(r["mean_diff"]), f(r.get("ci_low")), f(r.get("ci_high")), f(r.get(pc)), verdict))
    return out


ENTRY = Statistic(
    id="counterfactual",
    label=N_("Counterfactual pairs"),
    title=N_("Counterfactual pairs (Goldfarb-Tarrant et al. 2023)"),
    paper=N_("Goldfarb-Tarrant et al. 2023: differences and confusion"),
    compute=compute,
    applies=applies,
    needs=("corpus", "model", "emotion", "test", "mean_diff", "t_p_value"),
    x_label="mean R(privileged) − R(minoritised)",
    plot=plot,
    key_rows=key_rows,
    layouts=(("",), ()),
)
