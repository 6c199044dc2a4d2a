"""Kiritchenko & Mohammad's (2018) paired bias analysis.

Per system (model × emotion) and axis, over the pairs of :mod:`engine.stats.hypothesis_tests.km_pairing`:
a two-sided paired t-test of Δ = score(female/minority) − score(male/majority) at α = .05,
turned into the paper's three bias groups ("F=M not significant", "F↑–M↓ significant",
"F↓–M↑ significant"; "AA=EA …" for race), the average Δ over the pairs where Δ > 0 and
where Δ < 0, and the Δ-spread (max Δ − min Δ). Each is computed on all sentences and on
the neutral subset (templates without an emotion word), as in the paper's Tables 5–7.
A seeded bootstrap interval for the mean Δ is added.

Kiritchenko & Mohammad corrected for their 438 assessments with Bonferroni; here a
correction is optional (``correction="bonferroni" | "holm" | "bh"``) and, when given, the
verdicts follow the adjusted p-values (the raw ones stay in ``p_value``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from engine.stats import _common as C
from engine.stats.hypothesis_tests.bootstrap import bootstrap_ci
from engine.stats.hypothesis_tests.km_pairing import km_pairs
from engine.stats.inference import NO_FACTORS_NOTE, NOT_ESTIMABLE_GENERALISES, InferenceOptions, race_by_gender_from
from engine.stats.hypothesis_tests.km_person import km_person_contrast
from engine.stats.hypothesis_tests.no_test import CROSSED_NOT_ESTIMABLE, NO_TEST_STATUSES
from engine.stats.hypothesis_tests.paired_tests import paired_t
from engine.stats.present.verdicts import status_verdict
from engine.stats.hypothesis_tests.person_tests import PersonContrast, crossed_t, permutation_test, person_t
from engine.stats.reasons import REASON_COLUMN, reason, reason_json
from engine.stats.results import ID_COLUMNS, ResultsMixin, order_columns, rule, text_table
from engine.stats.errors import StatisticError

TEST = "km_paired_t"
SUBSETS = ("all", "neutral", "emotional", "matching")


def verdict_text(a: str, b: str, significant: bool, mean_delta: float, tested: bool = True,
                 status: str = "") -> str:
    """The paper's bias-group label, e.g. 'F↑–M↓ significant'; "no person-level test" where the
    persons compared do not vary (:mod:`engine.stats.hypothesis_tests.no_test`)."""
    if status_verdict(status):
        return status_verdict(status)
    if not tested:
        return "not tested"
    if not significant:
        return f"{a}={b} not significant"
    return f"{a}↑–{b}↓ significant" if mean_delta > 0 else f"{a}↓–{b}↑ significant"


@dataclass
class KMTest:
    """One paired test: one corpus × model × emotion × axis × subset."""

    corpus: str
    model: str
    emotion: str
    axis: str
    subset: str
    a: str
    b: str
    label_a: str
    label_b: str
    n: int
    n_noun_phrase_pairs: int
    n_name_pairs: int
    mean_delta: float
    sd_delta: float
    statistic: float
    df: float
    p_value: float
    significant: bool
    direction: int
    verdict: str
    avg_delta_pos: float
    avg_delta_neg: float
    n_pos: int
    n_neg: int
    n_zero: int
    delta_spread: float
    delta_min: float
    delta_max: float
    ci_low: float
    ci_high: float
    status: str
    notes: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    inference_columns: dict[str, Any] = field(default_factory=dict)
    #: why the test is not done, as data (engine.stats.reasons; JSON, '' when tested)
    reason: str = ""


@dataclass
class KMPairedResults(ResultsMixin):
    """Paired tests (``tests``, one row each in ``to_frame()``) and the pairs behind them."""

    tests: list[KMTest]
    pairs: pd.DataFrame
    settings: dict[str, Any]
    frame: pd.DataFrame

    def summary(self) -> str:
        if not self.tests:
            return "no paired test run"
        from engine.stats.inference import summary_line

        inf = self.frame["inference"] if "inference" in self.frame else [self.settings.get("inference", "person")]
        out = [rule("Kiritchenko & Mohammad paired analysis"), summary_line(inf)]
        cols = ["corpus", "model", "emotion", "axis", "subset", "n", "mean_delta", "p_value", "perm_p_value",
                "verdict", "avg_delta_pos", "avg_delta_neg", "delta_spread"]
        heads = ["corpus", "model", "emotion", "axis", "subset", "pairs", "mean Δ", "p", "p (perm.)", "bias group",
                 "avg Δ>0", "avg Δ<0", "Δ-spread"]
        out.append(text_table(self.frame, cols, heads))
        notes = sorted({n for t in self.tests for n in t.notes})
        out += ["note: " + n for n in notes]
        return "\n".join(out)


def _axes(axis) -> list[str]:
    if axis in ("both", "all"):
        return ["gender", "race"]
    if isinstance(axis, str):
        axis = [axis]
    out = [str(a) for a in axis]
    bad = [a for a in out if a not in ("gender", "race")]
    if bad or not out:
        raise StatisticError(f"axis must be 'gender', 'race' or 'both', got {axis!r}")
    return out


def _check_subsets_and_alpha(subsets: Sequence[str], alpha: float) -> None:
    bad = [s for s in subsets if s not in SUBSETS]
    if bad or not subsets:
        raise StatisticError(f"subsets must be among {SUBSETS}, got {list(subsets)}")
    from engine.stats.settings import ALPHA

    ALPHA.check(alpha, "alpha")  # the setting's one check and wording (engine.stats.settings)


def km_paired_analysis(df: pd.DataFrame, score_col: str | Sequence[str] | Mapping[str, Any],
                       axis: str | Sequence[str] = "gender", *, model: str | None = None,
                       emotion: str | None = None, corpus: str | None = None,
                       minority: str | None = None, majority: str | None = None,
                       np_pairs: Mapping[str, str] | None = None, pair_key_col: str = "pair_key",
                       race_by_gender: bool | None = None, subsets: Sequence[str] = ("all", "neutral"),
                       alpha: float = 0.05, labels: tuple[str, str] | None = None,
                       correction: str | None = None, n_resamples: int = 1000, seed: int | None = 0,
                       conf_level: float = 0.95, dropna: bool = False, female: str = "female",
                       male: str = "male", race_pooling: str | None = None, inference: str = "person",
                       n_permutations: int = 2000, person_col: str = "person_id") -> KMPairedResults:
    """Kiritchenko & Mohammad's paired analysis for each score column, axis and subset.

    Parameters (beyond those shared with :func:`beta_regression`)
    ----------
    axis : "gender", "race" or "both".
    np_pairs / pair_key_col : how female and male noun phrases are paired (see ``km_pairs``).
    race_pooling : "paper" (default): one race pair per template × emotion word, both genders
        pooled (144 pairs on the EEC, as Kiritchenko & Mohammad); "within_gender": one per gender (288).
    race_by_gender : the older spelling of the same choice (True = "within_gender").
    inference : "person" (default): ``statistic``/``df``/``p_value``/CI are the Welch t on person
        means (each name and noun-phrase pair is one unit), verdicts follow it; "paper": the
        paper's paired t-test over sentence pairs (CI: bootstrap over pairs). Both are always in
        ``person_*`` / ``paper_*`` columns; ``perm_*`` is the person-level permutation test.
    n_permutations : relabellings of the permutation test (0: none); seeded by ``seed``.
    subsets : any of "all", "neutral" (no emotion word), "emotional", "matching" (emotion
        words of the score's own emotion, as the paper's unreported check).
    alpha : significance level of the verdicts (p < alpha).
    labels : abbreviations of the two groups in verdicts (default F/M, AA/EA or the group names).
    n_resamples, seed, conf_level : bootstrap interval of the mean Δ (n_resamples=0: none).
    """
    axes = _axes(axis)
    _check_subsets_and_alpha(subsets, alpha)
    opts = InferenceOptions(inference, "CR2", n_permutations, seed, person_col)
    race_by_gender = race_by_gender_from(race_pooling, race_by_gender)
    specs = C.resolve_scores(score_col, model, emotion)
    C.require_columns(df, ["template_id", "emotion_word_id", "Gender", "Race", "Emotion", "person_kind",
                           "person_id"] + [s.column for s in specs], "km_paired_analysis")
    bootstrap = {"n_resamples": n_resamples, "seed": seed, "conf_level": conf_level, "method": "percentile"}
    tests: list[KMTest] = []
    all_pairs: list[pd.DataFrame] = []
    for spec in specs:
        data, drop_notes = C.refuse_missing(df, [spec.column], dropna)
        for corp, rows in C.split_corpora(data, corpus):
            rows = _read_columns(rows, spec.column, pair_key_col, person_col)
            for ax in axes:
                pairs, notes, lab = km_pairs(rows, spec.column, ax, minority=minority, majority=majority,
                                             np_pairs=np_pairs, pair_key_col=pair_key_col,
                                             by_gender=race_by_gender, female=female, male=male)
                scale = float(np.nanmax(np.abs(C.numeric_scores(rows, spec.column)))) if len(rows) else 1.0
                pairs["delta"] = C.normalise_zero(pairs["delta"].to_numpy(dtype=float), scale)
                la, lb = labels if labels else (C.abbreviation(lab["a"]), C.abbreviation(lab["b"]))
                settings = _axis_settings(spec.column, ax, lab, alpha, correction, opts, bootstrap, race_by_gender,
                                          "mapping" if np_pairs is not None else f"column {pair_key_col!r}")
                for sub in subsets:
                    sel = _subset(pairs, sub, spec.emotion)
                    p = pairs[sel]
                    extra = []
                    if sub == "matching" and not spec.emotion:
                        extra.append("subset 'matching' needs the score's emotion label: no pairs")
                    contrast = km_person_contrast(rows, p, spec.column, ax, sub, spec.emotion, lab["a"], lab["b"],
                                                  race_by_gender, female, male, person_col)
                    tests.append(_test(p, corp, spec, ax, sub, lab, la, lb, alpha, n_resamples, seed,
                                       conf_level, drop_notes + notes + extra, dict(settings, subset=sub),
                                       contrast, opts, scale))
                pairs = pairs.assign(corpus=corp, model=spec.model, emotion=spec.emotion, axis=ax,
                                     neutral=pairs["Emotion"] == "")
                all_pairs.append(pairs)
    frame = _to_frame(tests)
    if correction and len(frame):
        frame = _corrected(frame, tests, correction, alpha)
    pairs_out = pd.concat(all_pairs, ignore_index=True) if all_pairs else pd.DataFrame()
    if len(pairs_out):
        pairs_out = order_columns(pairs_out, ["corpus", "model", "emotion", "axis"])
    settings = {"axis": axes, "alpha": alpha, "race_by_gender": race_by_gender,
                "race_pooling": "within_gender" if race_by_gender else "paper", "inference": inference,
                "n_permutations": n_permutations, "subsets": list(subsets),
                "correction": correction, "n_resamples": n_resamples, "seed": seed, "conf_level": conf_level}
    return KMPairedResults(tests=tests, pairs=pairs_out, settings=settings, frame=frame)


def _read_columns(rows: pd.DataFrame, score_col: str, pair_key_col: str, person_col: str) -> pd.DataFrame:
    """The columns the pairs and person contrasts read (issue 42: each selection of rows — per axis,
    subset and group — copied every column of the scored table, its sentences' texts among them:
    hundreds of MB a copy for a corpus of a million sentences)."""
    wanted = ["template_id", "emotion_word_id", "Gender", "Race", "Emotion", "person_kind", "person_id",
              person_col, pair_key_col, score_col]
    return rows[[c for c in dict.fromkeys(wanted) if c in rows.columns]]


def _axis_settings(column: str, ax: str, lab: dict, alpha: float, correction: str | None, opts: InferenceOptions,
                   bootstrap: dict, race_by_gender: bool, np_pairs: str) -> dict:
    """The settings recorded with each test of one axis (``np_pairs``: how noun phrases were paired)."""
    settings = {"score_column": column, "axis": ax, "alpha": alpha, "a": lab["a"], "b": lab["b"],
                "delta": "score(a) - score(b)",
                "test": ("Welch t on person means (person-robust), two-sided" if opts.person
                         else "paired t-test (scipy ttest_rel), two-sided"),
                "paper_test": "paired t-test (scipy ttest_rel), two-sided",
                "verdict": "p < alpha", "correction": correction, "inference": opts.describe(),
                "bootstrap": dict(bootstrap)}
    if ax == "race":
        settings["race_by_gender"] = race_by_gender
        settings["race_pooling"] = "within_gender" if race_by_gender else "paper"
    else:
        settings["np_pairs"] = np_pairs
    return settings


def _corrected(frame: pd.DataFrame, tests: list[KMTest], correction: str, alpha: float) -> pd.DataFrame:
    """The frame with adjusted p-values; the verdicts (of ``tests`` and the frame) follow them."""
    from engine.stats.hypothesis_tests.multitest import adjusted_column, correct_pvalues
    frame = correct_pvalues(frame, correction)
    col = adjusted_column("p_value")
    for t, padj in zip(tests, frame[col].to_numpy(dtype=float)):
        tested = t.status not in ("too_few", "no_pairs", *NO_TEST_STATUSES)
        t.significant = bool(tested and padj < alpha)
        t.direction = int(np.sign(t.mean_delta)) if t.significant else 0
        t.verdict = verdict_text(t.label_a, t.label_b, t.significant, t.mean_delta, tested, t.status)
        t.settings["verdict"] = f"{col} ({correction}) < alpha"
    frame["significant"] = [t.significant for t in tests]
    frame["direction"] = [t.direction for t in tests]
    frame["verdict"] = [t.verdict for t in tests]
    frame["settings"] = [C.settings_json(t.settings) for t in tests]
    return frame


def _subset(pairs: pd.DataFrame, sub: str, emotion: str) -> np.ndarray:
    emo = pairs["Emotion"].astype(str)
    if sub == "all":
        return np.ones(len(pairs), dtype=bool)
    if sub == "neutral":
        return (emo == "").to_numpy()
    if sub == "emotional":
        return (emo != "").to_numpy()
    return ((emo == emotion) & (emo != "")).to_numpy()


def _test(p: pd.DataFrame, corp: str, spec: C.ScoreSpec, ax: str, sub: str, lab: dict, la: str, lb: str,
          alpha: float, n_resamples: int, seed, conf_level: float, notes: list[str], settings: dict,
          contrast: PersonContrast | None = None, opts: InferenceOptions | None = None,
          scale: float | None = None) -> KMTest:
    d = p["delta"].to_numpy(dtype=float)
    n = len(d)
    nan = float("nan")
    notes = list(notes)
    opts = opts or InferenceOptions(inference="paper")
    if n == 0:
        notes.append(f"{ax}/{sub}: {reason('no_pairs')}")
        return KMTest(corp, spec.model, spec.emotion, ax, sub, lab["a"], lab["b"], la, lb, 0, 0, 0, nan, nan,
                      nan, nan, nan, False, 0, "not tested", nan, nan, 0, 0, 0, nan, nan, nan, nan, nan,
                      "no_pairs", notes, settings, {"inference": opts.inference, "perm_method": "none",
                                                    "generalises_to": opts.generalises_to},
                      reason_json(reason("no_pairs")))
    r = paired_t(p["score_a"].to_numpy(dtype=float), p["score_b"].to_numpy(dtype=float))
    if r.note:
        notes.append(f"{ax}/{sub}: {r.note}")
    pt = person_t(contrast, scale) if contrast is not None else None
    cx = crossed_t(pt, d, C.crossed_factors(p), units=_pair_units(p), cells=p["kind"].astype(str).to_numpy()) \
        if pt is not None else None
    if opts.crossed and pt is not None and cx is None:
        notes.append(f"{ax}/{sub}: {NO_FACTORS_NOTE}")
    elif opts.crossed and cx is not None and cx is not pt and cx.note:
        notes.append(f"{ax}/{sub}: {cx.note}")
    perm = permutation_test(contrast, opts.n_permutations, seed) if contrast is not None else None
    if pt is not None and pt.note and (opts.person or pt.status == "too_few"):
        notes.append(f"{ax}/{sub}: person-level test: {pt.note}")
    if perm is not None and perm.note and opts.person:
        notes.append(f"{ax}/{sub}: permutation p-value {perm.note}")
    mean = float(d.mean())
    ci = (nan, nan)
    if opts.person and pt is not None:
        use = cx if (opts.crossed and cx is not None) else pt
        stat, df_, pv, status, why = use.statistic, use.df, use.p_value, use.status, use.reason
        tested = use.status not in ("too_few", *NO_TEST_STATUSES)
        ci = use.ci(conf_level)
    else:
        stat, df_, pv, status, why = r.statistic, r.df, r.p_value, r.status, r.reason
        tested = r.status not in ("too_few", *NO_TEST_STATUSES)
        if n_resamples:
            b = bootstrap_ci(d, n_resamples=n_resamples, conf_level=conf_level, seed=seed)
            ci = (b.low, b.high)
    sig = bool(tested and pv < alpha)
    pos, neg = d[d > 0], d[d < 0]
    extra = {"inference": opts.inference, "paper_statistic": r.statistic, "paper_df": r.df,
             "paper_p_value": r.p_value,
             "person_statistic": pt.statistic if pt else nan, "person_df": pt.df if pt else nan,
             "person_p_value": pt.p_value if pt else nan, "n_persons": pt.n_units if pt else 0,
             "crossed_df": cx.df if cx else nan, "crossed_p_value": cx.p_value if cx else nan,
             "generalises_to": (NOT_ESTIMABLE_GENERALISES if opts.crossed and cx is not None
                                and cx.status == CROSSED_NOT_ESTIMABLE else opts.generalises_to),
             "perm_p_value": perm.p_value if perm else nan, "perm_se": perm.mc_se if perm else nan,
             "perm_n": perm.n_permutations if perm else 0, "perm_method": perm.method if perm else "none"}
    return KMTest(
        corp, spec.model, spec.emotion, ax, sub, lab["a"], lab["b"], la, lb, n,
        int((p["kind"] == "noun_phrase").sum()), int((p["kind"] == "name_average").sum()),
        mean, float(d.std(ddof=1)) if n > 1 else nan, stat, df_, pv, sig,
        int(np.sign(mean)) if sig else 0, verdict_text(la, lb, sig, mean, tested, status),
        float(pos.mean()) if len(pos) else nan, float(neg.mean()) if len(neg) else nan,
        int(len(pos)), int(len(neg)), int(n - len(pos) - len(neg)),
        float(d.max() - d.min()), float(d.min()), float(d.max()), ci[0], ci[1],
        status, notes, settings, extra, reason_json(why))


def _pair_units(p: pd.DataFrame) -> np.ndarray:
    """The person unit of each pair for the crossed noise table: a noun-phrase pair's key; "" for a
    pair of name averages (it has no single person: the other factor's levels stand in)."""
    key = p["pair_id"].astype(str).str.split("|", n=2).str[2].fillna("")
    return np.where(p["kind"].astype(str).to_numpy() == "noun_phrase", key.to_numpy(dtype=object), "")


FRAME_COLUMNS = ["axis", "subset", "a", "b", "label_a", "label_b", "n", "n_noun_phrase_pairs", "n_name_pairs", "mean_delta",
                 "sd_delta", "ci_low", "ci_high", "statistic", "df", "p_value", "significant", "direction",
                 "verdict", "avg_delta_pos", "avg_delta_neg", "n_pos", "n_neg", "n_zero", "delta_spread",
                 "delta_min", "delta_max", "status", REASON_COLUMN]
INFERENCE_COLUMNS = ["inference", "generalises_to", "person_statistic", "person_df", "person_p_value",
                     "crossed_df", "crossed_p_value", "paper_statistic", "paper_df",
                     "paper_p_value", "perm_p_value", "perm_se", "perm_n", "perm_method", "n_persons"]


def _to_frame(tests: list[KMTest]) -> pd.DataFrame:
    rows = []
    for t in tests:
        row = {"corpus": t.corpus, "model": t.model, "emotion": t.emotion, "test": TEST}
        row.update({c: getattr(t, c) for c in FRAME_COLUMNS})
        row.update({c: t.inference_columns.get(c, np.nan) for c in INFERENCE_COLUMNS})
        row["note"] = "; ".join(t.notes)
        row["settings"] = C.settings_json(t.settings)
        rows.append(row)
    return pd.DataFrame(rows, columns=ID_COLUMNS + FRAME_COLUMNS + INFERENCE_COLUMNS + ["note", "settings"])
