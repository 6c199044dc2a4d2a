"""Counterfactual pair analysis (Goldfarb-Tarrant et al. 2023, §3.1).

Over the pairs of a pair corpus (sentences that differ only in one demographic word) with
a score for each side: the mean and variance of R(privileged) − R(minoritised) (> 0: bias
against the minoritised group), n, the share of pairs whose score changed, the shares
where the privileged / minoritised side scored higher, a paired t-test and a Wilcoxon
signed-rank test, a seeded bootstrap interval for the mean, and whether |mean| exceeds a
band (default 3% of the score range, the region the paper shades as "small").

Note the sign: Kiritchenko & Mohammad's Δ is minority − majority; here, as in the paper,
it is privileged − minoritised.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from engine.stats import _common as C
from engine.stats.hypothesis_tests.bootstrap import bootstrap_ci
from engine.stats.inference import NO_FACTORS_NOTE, NOT_ESTIMABLE_GENERALISES, InferenceOptions
from engine.stats.hypothesis_tests.paired_tests import paired_t, wilcoxon_signed_rank
from engine.stats.reasons import REASON_COLUMN, reason, reason_json
from engine.stats.results import ID_COLUMNS, ResultsMixin, rule, text_table

TEST = "counterfactual"
STAT_COLUMNS = ["n", "mean_diff", "var_diff", "sd_diff", "ci_low", "ci_high", "share_changed",
                "share_priv_higher", "share_min_higher", "t_statistic", "t_df", "t_p_value",
                "wilcoxon_statistic", "wilcoxon_p_value", "band", "exceeds_band", "status", REASON_COLUMN]
#: Which inference the tests used, both inferences' p-values and the permutation test (not grouping columns).
INFERENCE_COLUMNS = ["inference", "generalises_to", "person_t_p_value", "crossed_t_df", "crossed_t_p_value",
                     "person_wilcoxon_p_value", "paper_t_p_value",
                     "paper_wilcoxon_p_value", "perm_p_value", "perm_se", "perm_n", "perm_method", "n_person_pairs"]
STAT_COLUMNS = STAT_COLUMNS + INFERENCE_COLUMNS


@dataclass
class CounterfactualResults(ResultsMixin):
    """One row per group of pairs (by default per ``variable``: gender, race, migrant…)."""

    frame: pd.DataFrame
    settings: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if self.frame.empty:
            return "no counterfactual pairs analysed"
        from engine.stats.inference import GENERALISES_TO, summary_line
        from engine.stats.present.verdicts import frame_verdicts

        by = [c for c in self.settings.get("by", []) if c in self.frame.columns]
        cols = ["model"] + by + ["n", "mean_diff", "var_diff", "share_changed", "t_p_value",
                                 "wilcoxon_p_value", "band", "verdict"]
        heads = ["model"] + by + ["pairs", "mean R(p)−R(m)", "variance", "changed", "p (t)", "p (Wilcoxon)",
                                  "band", "verdict"]
        frame = self.frame.assign(verdict=frame_verdicts(self.frame))
        used = set(frame["inference"].dropna().astype(str)) if "inference" in frame else set()
        out = [rule("Counterfactual pairs (Goldfarb-Tarrant et al. 2023)"), summary_line(used)]
        if "crossed" in used:
            out.append("p (Wilcoxon) is person-level (one unit per person pair): it generalises to "
                       + GENERALISES_TO["person"])
        keys = [c for c in ("corpus", "emotion") if c in frame.columns]
        for key, block in (frame.groupby(keys, sort=False) if keys else [((), frame)]):
            key = key if isinstance(key, tuple) else (key,)
            named = [f"{k}: {v}" for k, v in zip(keys, key) if str(v)]
            if named:
                out.append("· ".join(named))
            out.append(text_table(block, cols, heads))
        out += ["note: " + n for n in self.notes]
        return "\n".join(out)


_default_model = C.default_model  # kept for callers of the old private name


def counterfactual_analysis(pairs: pd.DataFrame, priv_col: str, min_col: str, *, model: str | None = None,
                            emotion: str = "", corpus: str | None = None,
                            by: Sequence[str] | None = ("variable",), band: float | None = None,
                            band_share: float = 0.03, score_range: tuple[float, float] | None = None,
                            change_tol: float = 0.0, correction: str | None = None, n_resamples: int = 1000,
                            seed: int | None = 0, conf_level: float = 0.95,
                            dropna: bool = False, inference: str = "person", n_permutations: int = 2000,
                            cluster_col: str | Sequence[str] | None = None,
                            score_range_source: str | None = None) -> CounterfactualResults:
    """Analyse R(privileged) − R(minoritised) over a pair table.

    Parameters
    ----------
    pairs : pair table (``engine.corpus.generate_pairs``) with two score columns added.
    priv_col, min_col : score of the privileged and of the minoritised sentence of each pair.
    model, emotion : labels for the rows (model default: the common prefix of the two column names).
    corpus : corpus label (default: the ``corpus`` column's single value if present, else "").
    by : columns to analyse separately (default ``variable``; missing columns are ignored).
    band : absolute half-width of the "no bias" band; default ``band_share`` × (high − low) of
        ``score_range``, itself defaulting to the observed min/max of both columns (said in settings).
    change_tol : a pair "changed" when |difference| > change_tol (0 for discrete labels).
    correction : None, "holm", "bh" or "bonferroni" over all t and Wilcoxon p-values of this call.
    inference : "person" (default): the t and Wilcoxon tests (and the CI) use one unit per person
        pair (the mean difference over its sentences), so a pair's quirk is not counted ~144 times;
        "paper": over sentence pairs, as Goldfarb-Tarrant et al. Both in ``person_*``/``paper_*``.
    n_permutations : sign-flip permutation test over person pairs (exact when 2^pairs ≤ this).
    cluster_col : what a person pair is (default: ``person_pair`` if present, else the two
        ``*_person`` columns together).
    score_range_source : where ``score_range`` comes from, for the note and settings ("scorer",
        "user", ...; default "given"). Without ``score_range`` the observed range is used.
    """
    opts = InferenceOptions(inference, "CR2", n_permutations, seed)
    C.require_columns(pairs, [priv_col, min_col], "counterfactual_analysis")
    data, notes = C.refuse_missing(pairs, [priv_col, min_col], dropna, id_col="pair_id")
    model = model if model is not None else _default_model(priv_col, min_col)
    by = [c for c in (by or []) if c in data.columns]
    score_range, range_source = _score_range(np.concatenate([C.numeric_scores(data, priv_col),
                                                             C.numeric_scores(data, min_col)]),
                                             score_range, score_range_source, f"{priv_col}/{min_col}", notes)
    width = float(score_range[1]) - float(score_range[0])
    band_value = float(band) if band is not None else band_share * width
    if corpus is None:
        corpus = str(data["corpus"].iloc[0]) if "corpus" in data.columns and data["corpus"].nunique() == 1 else ""
    settings = {"priv_col": priv_col, "min_col": min_col, "difference": "R(privileged) - R(minoritised)",
                "by": by, "score_range": list(map(float, score_range)), "score_range_source": range_source,
                "band": band_value, "band_share": None if band is not None else band_share,
                "change_tol": change_tol, "variance": "sample variance (ddof=1)",
                "t_test": "scipy ttest_rel, two-sided", "wilcoxon": "scipy wilcoxon, two-sided, zero_method='wilcox'",
                "bootstrap": {"n_resamples": n_resamples, "seed": seed, "conf_level": conf_level,
                              "method": "percentile"}, "correction": correction, "inference": opts.describe()}
    clusters_all = _clusters(data, cluster_col)
    settings["person_unit"] = clusters_all[1]
    groups = [((), data)] if not by else list(data.groupby(by, sort=False))
    rows = []
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        a = C.numeric_scores(g, priv_col)
        b = C.numeric_scores(g, min_col)
        row = {"corpus": corpus, "model": model, "emotion": emotion, "test": TEST}
        row.update(dict(zip(by, key)))
        stats, gnotes = pair_statistics(a, b, band_value, change_tol, n_resamples, seed, conf_level,
                                        clusters=None if clusters_all[0] is None else clusters_all[0].loc[g.index],
                                        opts=opts, scale=width, factors=C.crossed_factors(g))
        row.update(stats)
        row["note"] = "; ".join(gnotes)
        row["settings"] = C.settings_json(settings)
        rows.append(row)
    frame = pd.DataFrame(rows, columns=ID_COLUMNS + by + STAT_COLUMNS + ["note", "settings"])
    if correction and len(frame):
        _insert_adjusted(frame, correction)
    from engine.stats.present.verdicts import frame_verdicts
    frame["verdict"] = frame_verdicts(frame) if len(frame) else pd.Series(dtype=object)
    return CounterfactualResults(frame=frame, settings=settings, notes=notes)


def _score_range(scores: np.ndarray, score_range: tuple[float, float] | None, source: str | None, where: str,
                 notes: list[str]) -> tuple[tuple[float, float], str]:
    """(range, where it came from): the given range (scores checked against it), else the observed
    one — with a note, since a band taken from the data is not comparable across corpora."""
    if score_range is not None:
        C.check_range(scores, score_range, where)
        return score_range, source or "given"
    score_range = (float(scores.min()), float(scores.max())) if scores.size else (0.0, 1.0)
    notes.append(f"score range taken from the data ({score_range[0]:g} to {score_range[1]:g}), so the band "
                 "depends on this corpus; give the scale's own range (score_range=(low, high), CLI "
                 "--score-range LOW,HIGH) for a band comparable across corpora")
    return score_range, "observed"


def _insert_adjusted(frame: pd.DataFrame, correction: str) -> None:
    """Adjusted p-values next to the raw ones, over all t and Wilcoxon p-values of the frame together."""
    from engine.stats.hypothesis_tests.multitest import adjust, adjusted_column
    pv = np.concatenate([frame["t_p_value"].to_numpy(float), frame["wilcoxon_p_value"].to_numpy(float)])
    adj = adjust(pv, correction)
    frame.insert(frame.columns.get_loc("t_p_value") + 1, adjusted_column("t_p_value"), adj[:len(frame)])
    frame.insert(frame.columns.get_loc("wilcoxon_p_value") + 1, adjusted_column("wilcoxon_p_value"), adj[len(frame):])


def _clusters(data: pd.DataFrame, cluster_col) -> tuple[pd.Series | None, str]:
    """The person pair of each row, and how it was found."""
    if cluster_col is not None:
        cols = [cluster_col] if isinstance(cluster_col, str) else list(cluster_col)
        C.require_columns(data, cols, "counterfactual_analysis (cluster_col)")
    elif "person_pair" in data.columns:
        cols = ["person_pair"]
    elif {"privileged_person", "minoritised_person"} <= set(data.columns):
        cols = ["privileged_person", "minoritised_person"]
    else:
        return None, "none (no person columns)"
    key = data[cols[0]].astype(str)
    for c in cols[1:]:
        key = key + "\u241f" + data[c].astype(str)
    return key, " + ".join(cols)


def _no_pairs(band: float, opts: InferenceOptions | None) -> dict[str, Any]:
    """The row of a group without pairs: nothing measured, nothing tested."""
    out = dict.fromkeys(STAT_COLUMNS, float("nan"))
    out.update(n=0, exceeds_band=False, band=band, status="no_pairs", reason=reason_json(reason("no_pairs")),
               inference=(opts.inference if opts else "paper"), perm_method="none", n_person_pairs=0, perm_n=0,
               generalises_to=(opts or InferenceOptions(inference="paper")).generalises_to)
    return out


def pair_statistics(a: np.ndarray, b: np.ndarray, band: float, change_tol: float = 0.0,
                    n_resamples: int = 1000, seed: int | None = 0,
                    conf_level: float = 0.95, clusters=None,
                    opts: InferenceOptions | None = None,
                    scale: float | None = None,
                    factors: dict[str, np.ndarray] | None = None) -> tuple[dict[str, Any], list[str]]:
    """The statistics of one group of pairs (see module docstring) and notes on degenerate cases.
    ``scale``: width of the score range, for the "no variation" rule (engine.stats.hypothesis_tests.no_test);
    ``factors``: template and word labels of the pairs, for crossed inference."""
    d = a - b
    n = len(d)
    nan = float("nan")
    notes: list[str] = []
    if n == 0:
        notes.append(str(reason("no_pairs")))
        return _no_pairs(band, opts), notes
    opts = opts or InferenceOptions(inference="paper")
    if opts.person and clusters is None:
        import dataclasses
        opts = dataclasses.replace(opts, inference="paper")
        notes.append("no person columns (person_pair, privileged_person/minoritised_person): the tests treat "
                     "sentence pairs as independent (inference 'paper'); add them or cluster_col=... for "
                     "person-robust tests")
    t = paired_t(a, b)
    w = wilcoxon_signed_rank(a, b)
    pt = pw = perm = None
    n_units = 0
    if clusters is not None:
        from engine.stats.hypothesis_tests.person_tests import PersonContrast, permutation_test, person_means, person_t

        _, dj = person_means(d, np.asarray(clusters))
        n_units = len(dj)
        dj = C.normalise_zero(dj, float(np.max(np.abs(d))) if n else 1.0)
        contrast = PersonContrast([], dj, 1.0, 0.0)
        pt = person_t(contrast, scale)
        pw = wilcoxon_signed_rank(dj, np.zeros_like(dj))
        perm = permutation_test(contrast, opts.n_permutations, seed)
    cx = None
    if pt is not None:
        from engine.stats.hypothesis_tests.person_tests import crossed_t
        cx = crossed_t(pt, d, factors, units=np.asarray(clusters).astype(str))
        if opts.crossed and cx is None:
            notes.append(NO_FACTORS_NOTE)
    use_t, use_w = (pt, pw) if (opts.person and pt is not None) else (t, w)
    if opts.crossed and cx is not None:
        use_t = cx
    for r in (use_t, use_w):
        if r.note:
            notes.append(("person pairs: " if use_t is not t else "") + r.note)
    if perm is not None and perm.note and use_t is not t:
        notes.append("permutation p-value " + perm.note)
    ci = (nan, nan)
    if opts.person and pt is not None:
        ci = use_t.ci(conf_level)
    elif n_resamples:
        bci = bootstrap_ci(d, n_resamples=n_resamples, conf_level=conf_level, seed=seed)
        ci = (bci.low, bci.high)
        if bci.note:
            notes.append("bootstrap: " + bci.note)
    mean = float(d.mean())
    changed = np.abs(d) > change_tol
    return {"n": n, "mean_diff": mean, "var_diff": float(d.var(ddof=1)) if n > 1 else nan,
            "sd_diff": float(d.std(ddof=1)) if n > 1 else nan, "ci_low": ci[0], "ci_high": ci[1],
            "share_changed": float(changed.mean()),
            "share_priv_higher": float((changed & (d > 0)).mean()),
            "share_min_higher": float((changed & (d < 0)).mean()),
            "t_statistic": use_t.statistic, "t_df": use_t.df, "t_p_value": use_t.p_value,
            "wilcoxon_statistic": use_w.statistic, "wilcoxon_p_value": use_w.p_value,
            "band": band, "exceeds_band": bool(abs(mean) > band),
            "status": use_t.status, REASON_COLUMN: reason_json(use_t.reason), "inference": opts.inference,
            "generalises_to": NOT_ESTIMABLE_GENERALISES if use_t.status == "crossed_not_estimable" else opts.generalises_to,
            "crossed_t_df": cx.df if cx else nan, "crossed_t_p_value": cx.p_value if cx else nan,
            "person_t_p_value": pt.p_value if pt else nan, "person_wilcoxon_p_value": pw.p_value if pw else nan,
            "paper_t_p_value": t.p_value, "paper_wilcoxon_p_value": w.p_value,
            "perm_p_value": perm.p_value if perm else nan, "perm_se": perm.mc_se if perm else nan,
            "perm_n": perm.n_permutations if perm else 0, "perm_method": perm.method if perm else "none",
            "n_person_pairs": n_units}, notes
