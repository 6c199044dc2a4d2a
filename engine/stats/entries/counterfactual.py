"""Registry entry: counterfactual pair differences (Goldfarb-Tarrant et al. 2023)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd

from engine.common.fmt import as_float, to_float
from engine.common.i18n import N_
from engine.common.svg import UNTESTED, Row

from engine.stats.context import StatContext
from engine.stats.registry import KeyRow, PlotSpec, Statistic
from engine.stats.settings import CORRECTION, INFERENCE, N_PERMUTATIONS, N_RESAMPLES, SEED, Setting
from engine.stats.present.verdicts import band_verdict
from engine.stats.entries._layouts import paper_layouts
from engine.stats.entries._shared import inference_suffix, p_column


BAND_SHARE = Setting("band_share", "float", 0.03, flag="--band", plan_key="band", low=0.0, high=1.0, high_open=True,
                     fix="a share of the score range, e.g. 0.03", label=N_("Negligible band:"),
                     help="counterfactual band as a share of the score range", step=0.01, gui_high=0.5)
SCORE_RANGE = Setting("score_range", "range", None, optional=True, metavar="LOW,HIGH",
                      fix="e.g. --score-range 1,5 or --score-range -1,1", label=N_("Score range:"),
                      tooltip=(N_("Sets the counterfactual pairs' negligible band (a share of this range)"),),
                      help="the models' score scale, e.g. 1,5 for stars: sets the counterfactual band (default: "
                           "each model's declared scale, else the observed range)")


def applies(ctx: StatContext) -> str | None:
    return None if ctx.pairs is not None else "the corpus declares no counterfactual pairs"


def compute(ctx: StatContext) -> list[Any]:
    from engine.stats.hypothesis_tests.counterfactual import counterfactual_analysis

    out = []
    indistinct = ctx.setting("indistinct_pairs", None) or {}
    for col, (sname, dim) in ctx.score_cols.items():
        rng, source = score_range_for(ctx, col)
        pairs = ctx.pairs
        drop = set(indistinct.get(sname, ()))
        if drop:  # the model sees both sides as the same token ids (engine.audit.identity_tokens)
            pairs = pairs[~pairs["pair_id"].astype(str).isin(drop)]
            ctx.note(f"counterfactual on {ctx.corpus_id} × {sname}: {len(drop):,} of {len(ctx.pairs):,} pairs left out: "
                     "their two sentences reach the model as the same token ids")
        out.append(counterfactual_analysis(pairs, f"{col}:privileged", f"{col}:minoritised", model=sname, emotion=dim,
                                           corpus=ctx.corpus_id, band_share=ctx.setting("band_share"),
                                           correction=ctx.setting("correction"),
                                           n_resamples=ctx.setting("n_resamples"), seed=ctx.setting("seed"),
                                           inference=ctx.setting("inference"),
                                           n_permutations=ctx.setting("n_permutations"),
                                           score_range=rng, score_range_source=source,
                                           dropna=ctx.setting("dropna", False)))
    return out


def score_range_for(ctx: StatContext, col: str) -> tuple[tuple[float, float] | None, str | None]:
    """The scale of one score column: --score-range when the scores fit it, else the scorer's declared
    scale (``declared_scales``, set by the pipeline), else None (the observed range, with a note)."""
    import numpy as np
    import pandas as pd

    vals = pd.to_numeric(pd.concat([ctx.pairs[f"{col}:privileged"], ctx.pairs[f"{col}:minoritised"]]),
                         errors="coerce").to_numpy(dtype=float)
    vals = vals[np.isfinite(vals)]

    def fits(r) -> bool:
        lo, hi = float(r[0]), float(r[1])
        tol = 1e-12 * (hi - lo)
        return hi > lo and (not vals.size or (vals.min() >= lo - tol and vals.max() <= hi + tol))

    user = ctx.setting("score_range")
    if user is not None:
        if fits(user):
            return (float(user[0]), float(user[1])), "user (--score-range)"
        ctx.note(f"counterfactual on {ctx.corpus_id}: {col} has scores outside --score-range "
                 f"{float(user[0]):g},{float(user[1]):g}; its own scale is used instead")
    declared = (ctx.setting("declared_scales", None) or {}).get(col)
    if declared is not None and fits(declared):
        return (float(declared[0]), float(declared[1])), "scorer (declared scale)"
    return None, None


def plot(df: pd.DataFrame) -> PlotSpec:
    out = [Row(f"{r.corpus} · {r.model}:{r.emotion} · {r.variable}", to_float(r.mean_diff), as_float(r.ci_low),
               as_float(r.ci_high), f"changed {100 * (as_float(r.share_changed) or 0):.0f}%",
               UNTESTED if as_float(r.t_p_value) is None else "sig" if bool(r.exceeds_band) else "ns", as_float(r.band))
           for r in df.itertuples()]
    return PlotSpec(f"Counterfactual pairs (Goldfarb-Tarrant et al.){inference_suffix(df)}",
                    "mean R(privileged) − R(minoritised) (95% CI); shaded: ± negligible band", out)


def key_rows(cf: pd.DataFrame) -> list[KeyRow]:
    out = []
    pc = p_column(cf, "t_p_value")
    from engine.stats.hypothesis_tests.counterfactual import INFERENCE_COLUMNS

    from engine.stats.reasons import REASON_COLUMN

    std = {"corpus", "model", "emotion", "test", "note", "settings", "status", REASON_COLUMN, "band", "exceeds_band",
           *INFERENCE_COLUMNS}
    by = [c for c in cf.columns if c not in std and cf[c].dtype == object and not c.startswith(("t_p_", "wilcoxon_p_"))]
    for r in cf.to_dict("records"):
        group = ", ".join(str(r[c]) for c in by if isinstance(r.get(c), str))
        verdict = band_verdict(r.get("mean_diff"), r.get(pc), r.get("band"), status=r.get("status", ""))
        out.append(KeyRow("counterfactual", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                          "privileged − minoritised" + (f" ({group})" if group else ""),
                          to_float(r["mean_diff"]), to_float(r.get("ci_low")), to_float(r.get("ci_high")), to_float(r.get(pc)), verdict))
    return out


ENTRY = Statistic(
    id="counterfactual",
    cost=0.2,  # 0.01–0.04 s on an English corpus of 8,640 sentences against 0.09–0.14 s for its files (VADER)
    modules=("engine.stats.hypothesis_tests.counterfactual", "scipy.stats", "statsmodels.stats.multitest"),
    label=N_("Counterfactual pairs"),
    title=N_("Counterfactual pairs (Goldfarb-Tarrant et al. 2023)"),
    paper=N_("Goldfarb-Tarrant et al. 2023: differences and confusion"),
    compute=compute,
    applies=applies,
    needs_pairs=True,
    needs=("corpus", "model", "emotion", "test", "mean_diff", "t_p_value"),
    x_label="mean R(privileged) − R(minoritised)",
    plot=plot,
    key_rows=key_rows,
    tables=paper_layouts(("",)),  # "": inferred from the table (counterfactual)
    settings=(INFERENCE, BAND_SHARE, SCORE_RANGE, CORRECTION, N_RESAMPLES, N_PERMUTATIONS, SEED),
)
