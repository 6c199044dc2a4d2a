"""Registry entry: Kiritchenko & Mohammad's (2018) paired analysis (F–M and minority–majority)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd

from engine.common.fmt import as_float, p_label, to_float
from engine.common.i18n import N_
from engine.common.svg import UNTESTED, Row

from engine.stats.context import StatContext, noun_phrase_pairs
from engine.stats.registry import KeyRow, PlotSpec, Statistic
from engine.stats.settings import ALPHA, CORRECTION, INFERENCE, N_PERMUTATIONS, N_RESAMPLES, RACE_POOLING, SEED
from engine.stats.entries._layouts import paper_layouts
from engine.stats.entries._shared import inference_suffix, p_column



def compute(ctx: StatContext) -> list[Any]:
    from engine.stats.hypothesis_tests.km import km_paired_analysis

    race = ctx.race_axis
    np_pairs = noun_phrase_pairs(ctx.corpus, ctx.pairs)
    return [km_paired_analysis(ctx.scores, ctx.score_cols, axis="both" if race is not None else "gender",
                               corpus=ctx.corpus_id, minority=ctx.minority if race else None,
                               majority=ctx.majority if race else None, np_pairs=np_pairs or None,
                               alpha=ctx.setting("alpha"), correction=ctx.setting("correction"),
                               n_resamples=ctx.setting("n_resamples"), seed=ctx.setting("seed"),
                               inference=ctx.setting("inference"), race_pooling=ctx.setting("race_pooling"),
                               n_permutations=ctx.setting("n_permutations"),
                               dropna=ctx.setting("dropna", False))]


def extra_tables(res: Any) -> dict[str, pd.DataFrame]:
    pairs = getattr(res, "pairs", None)
    return {"paired_pairs": pairs} if pairs is not None else {}


def plot(df: pd.DataFrame) -> PlotSpec:
    rows = df[df.get("status", "ok").astype(str) != "error"] if "status" in df else df
    out = [Row(f"{r.corpus} · {r.model}:{r.emotion} · {r.label_a}−{r.label_b} ({r.subset})", to_float(r.mean_delta),
               as_float(r.ci_low), as_float(r.ci_high), p_label(r.p_value),
               UNTESTED if as_float(r.p_value) is None else "sig" if bool(r.significant) else "ns")
           for r in rows.itertuples()]
    return PlotSpec(f"Paired differences (Kiritchenko & Mohammad){inference_suffix(df)}", "mean difference a − b (95% CI)", out)


def key_rows(paired: pd.DataFrame) -> list[KeyRow]:
    out = []
    pc = p_column(paired, "p_value")
    sub = paired[paired["subset"] == "all"] if (paired["subset"] == "all").any() else paired
    for r in sub.to_dict("records"):
        a, b = r.get("label_a", r.get("a", "a")), r.get("label_b", r.get("b", "b"))
        subset = "" if r.get("subset") == "all" else f", {r.get('subset')}"
        out.append(KeyRow("paired", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                          f"{r['axis']}: {a} − {b}{subset}", to_float(r["mean_delta"]), to_float(r.get("ci_low")),
                          to_float(r.get("ci_high")), to_float(r.get(pc)),
                          str(r.get("verdict", "")) if isinstance(r.get("verdict"), str) else ""))
    return out


ENTRY = Statistic(
    id="paired",
    cost=2.0,  # 0.18–0.20 s on an English corpus of 8,640 sentences against 0.09–0.14 s for its files (VADER)
    modules=("engine.stats.hypothesis_tests.km", "scipy.stats", "statsmodels.stats.multitest"),
    label=N_("Paired differences"),
    title=N_("Paired analysis (Kiritchenko & Mohammad 2018)"),
    paper=N_("Kiritchenko & Mohammad 2018: F–M and minority–majority pairs"),
    compute=compute,
    needs=("corpus", "model", "emotion", "test", "axis", "subset", "mean_delta", "p_value"),
    x_label="mean score difference (first group − second)",
    extra_tables=extra_tables,
    extra_table_labels={"paired_pairs": N_("Paired differences, one row per pair")},
    plot=plot,
    key_rows=key_rows,
    tables=paper_layouts(("km_models",), ("km",)),
    settings=(INFERENCE, RACE_POOLING, ALPHA, CORRECTION, N_RESAMPLES, N_PERMUTATIONS, SEED),
)
