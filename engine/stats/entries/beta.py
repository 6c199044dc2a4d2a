"""Registry entry: Beta regression with race, gender and their intersection (Câmara et al. 2022)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd

from engine.common.fmt import as_float, p_label, to_float
from engine.common.i18n import N_
from engine.common.svg import Row, level_of

from engine.stats.context import StatContext, unit_interval_columns
from engine.stats.registry import KeyRow, PlotSpec, Statistic
from engine.stats.settings import CORRECTION, INFERENCE, N_PERMUTATIONS, SEED, Setting
from engine.stats.entries._layouts import paper_layouts
from engine.stats.entries._shared import inference_suffix, p_column


NOUN_PHRASES = Setting("noun_phrases", "choice", "exclude", choices=("exclude", "gender"),
                       choice_aliases={"gender_only": "gender"},
                       choice_labels=(N_("left out"), N_("gender only")), label=N_("Noun phrases (Beta):"),
                       help="Beta regression: leave noun-phrase sentences out, or fit them with gender only")


def applies(ctx: StatContext) -> str | None:
    return None if ctx.race_axis is not None else "the corpus has no race/ethnicity axis"


def compute(ctx: StatContext) -> list[Any]:
    from engine.stats.models.beta import beta_regression

    cols = unit_interval_columns(ctx.scores, ctx.score_cols)
    for col in sorted(set(ctx.score_cols) - set(cols)):
        ctx.note(f"Beta regression on {ctx.corpus_id}: {col} lies outside [0, 1] (e.g. 1–5 stars) and is left out; "
                 f"use its [0, 1] column (such as expected_01) for the regression")
    if not cols:
        return []
    return [beta_regression(ctx.scores, cols, corpus=ctx.corpus_id, minority=ctx.minority, majority=ctx.majority,
                            noun_phrases=ctx.setting("noun_phrases"), correction=ctx.setting("correction"),
                            inference=ctx.setting("inference"),
                            n_permutations=ctx.setting("n_permutations"), seed=ctx.setting("seed"),
                            dropna=ctx.setting("dropna", False))]


def plot(df: pd.DataFrame) -> PlotSpec:
    rows = df[df.term != "intercept"]
    out = []
    for r in rows.itertuples():
        p = as_float(r.p_value)
        out.append(Row(f"{r.corpus} · {r.model}:{r.emotion} · {r.term} ({r.subset})", to_float(r.ame), as_float(r.ame_ci_low),
                       as_float(r.ame_ci_high), p_label(p), level_of(p)))
    return PlotSpec(f"Beta regression: average marginal effects (Câmara et al.){inference_suffix(df)}", "AME on the score scale (95% CI)", out)


def _verdict(status) -> str:
    """The key-results verdict of a Beta row: empty when tested, else why not."""
    from engine.stats.present.verdicts import status_verdict

    return status_verdict(status) or (str(status) if status not in ("ok", None) else "")


def key_rows(beta: pd.DataFrame) -> list[KeyRow]:
    out = []
    pc = p_column(beta, "p_value")
    for r in beta[beta["term"].isin(["race", "gender", "intersection"])].to_dict("records"):
        use_ame = as_float(r.get("ame")) is not None
        label = r.get("term_label") if isinstance(r.get("term_label"), str) else r["term"]
        subset = "" if r.get("subset") == "names" else f" ({r.get('subset')})"
        out.append(KeyRow("beta", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                          f"{label}{subset}" + ("" if use_ame else " [logit]"),
                          to_float(r["ame"] if use_ame else r.get("estimate")),
                          to_float(r.get("ame_ci_low") if use_ame else r.get("ci_low")),
                          to_float(r.get("ame_ci_high") if use_ame else r.get("ci_high")), to_float(r.get(pc)),
                          _verdict(r.get("status"))))
    return out


ENTRY = Statistic(
    id="beta",
    cost=3.5,  # 0.31–0.40 s on an English corpus of 8,640 sentences against 0.09–0.14 s for its files (VADER)
    modules=("engine.stats.models.beta", "scipy.stats", "statsmodels.regression.linear_model",
             "statsmodels.othermod.betareg"),
    label=N_("Beta regression"),
    title=N_("Beta regression (Câmara et al. 2022)"),
    paper=N_("Câmara et al. 2022: race, gender and their intersection"),
    compute=compute,
    applies=applies,
    needs=("corpus", "model", "emotion", "test", "subset", "term", "p_value"),
    x_label="average marginal effect on the score scale",
    plot=plot,
    key_rows=key_rows,
    tables=paper_layouts(("",)),  # "": inferred from the table (camara)
    settings=(INFERENCE, NOUN_PHRASES, CORRECTION, N_PERMUTATIONS, SEED),
)
