"""Beta regression with an intersectional term (Câmara et al. 2022, §3.2–3.3).

Per corpus × model × emotion we fit, over the *name* sentences,

    logit E[score] = β0 + β1·minority + β2·female + β3·minority·female

(reference: the majority group's men) with statsmodels' ``BetaModel`` (logit mean link,
log precision link, observed-information standard errors, Wald z tests as statsmodels
reports them). Next to each coefficient we give its average marginal effect on the score
scale (see :mod:`engine.stats.models.ame`) and an OLS fit of the same design with an intercept and
HC3 errors, whose coefficients are plain differences of group means — a cross-check that
needs no distributional assumption.

Noun-phrase sentences carry no race, so they are left out of this model by default
(``noun_phrases="exclude"``); ``noun_phrases="gender_only"`` adds a separate fit
``score ~ 1 + female`` on them (``subset="noun_phrases"``). Putting them in the main fit
would code them as majority-group people, which they are not.

Degenerate inputs give a result with a ``status`` and a ``note`` instead of an exception:
``constant`` (every score identical: all differences are exactly 0), ``no_within_group_variation``
(each group has one fixed score: the differences are exact, there is nothing to test),
``insufficient_data`` (a group has no sentence) and ``not_converged``.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from engine.stats import _common as C
from engine.stats.models.ame import indicator_ame
from engine.stats.results import ID_COLUMNS, ResultsMixin, fmt_num, order_columns, rule, text_table
from engine.stats.inference import NO_FACTORS_NOTE, NOT_ESTIMABLE_GENERALISES, InferenceOptions
from engine.stats.models.fit_frame import fit_frame, label_eq, label_isin, shared_labels
from engine.stats.models.squeeze import to_unit_interval
from engine.stats.hypothesis_tests.person_tests import terms_design_limited, terms_without_person_variation
from engine.stats.hypothesis_tests.no_test import (CROSSED_NOT_ESTIMABLE, DESIGN_LIMITED, NO_PERSON_VARIATION,
                                                   design_limited_reason, no_person_test_reason, tolerance)
from engine.common.messages import Said
from engine.stats.reasons import REASON_COLUMN, REASONS, reason, reason_json
from engine.stats.errors import StatisticError

TEST = "beta_regression"
TERM_LABELS = {"intercept": "Intercept", "race": "Race/Ethnicity", "gender": "Gender",
               "intersection": "Intersection"}
TERM_COLUMNS = ["term", "term_label", "inference", "estimate", "std_err", "statistic", "df", "p_value", "stars",
                "ci_low", "ci_high", "ame", "ame_std_err", "ame_ci_low", "ame_ci_high",
                "ols_estimate", "ols_std_err", "ols_statistic", "ols_df", "ols_p_value", "ols_stars",
                "ols_ci_low", "ols_ci_high", "person_std_err", "person_df", "person_p_value",
                "crossed_std_err", "crossed_df", "crossed_p_value", "ols_crossed_p_value",
                "paper_std_err", "paper_p_value", "ols_person_p_value", "ols_paper_p_value",
                "perm_p_value", "perm_se", "perm_n", "perm_method", "n_persons", "note"]
STATUS_OK = "ok"
#: OLS differences and their standard errors below this (scores mapped to [0, 1] by score_range) are
#: rounding noise: sums of identical floats in a different order differ in the last bits.
ROUNDING = 1e-12
SQUEEZE_NOTE = ("scores squeezed (Smithson & Verkuilen): some equal a bound of the score range, so the Beta fit "
                "used (y·(n−1)+0.5)/n; AMEs are back on the score scale, OLS uses the raw scores")
#: Accepted spellings of ``noun_phrases`` -> canonical value ("gender" is the audit CLI's choice).
NOUN_PHRASE_OPTIONS = {"exclude": "exclude", "gender_only": "gender_only", "gender": "gender_only"}


@dataclass
class BetaFit:
    """One Beta regression (one corpus × model × emotion × subset) with its OLS cross-check."""

    corpus: str
    model: str
    emotion: str
    subset: str  # "names" | "noun_phrases"
    n: int
    cells: dict[str, int]
    status: str
    squeezed: bool
    terms: pd.DataFrame
    precision: float = float("nan")
    precision_std_err: float = float("nan")
    llf: float = float("nan")
    notes: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def term(self, name: str) -> pd.Series:
        """The row of one term ("intercept", "race", "gender", "intersection")."""
        return self.terms.set_index("term").loc[name]

    def summary(self) -> str:
        head = f"Beta regression · {self.model or '(model)'} · {self.emotion or '(emotion)'}" \
               f" · {self.corpus or '(corpus)'} · {self.subset}"
        cells = ", ".join(f"{k} {v}" for k, v in self.cells.items())
        lines = [rule(head),
                 f"n = {self.n}   cells: {cells}",
                 f"status: {self.status}   link: logit   precision φ = {fmt_num(self.precision, 3)}"
                 f"   log-likelihood = {fmt_num(self.llf, 2)}",
                 "scores squeezed (Smithson & Verkuilen): " + ("yes" if self.squeezed else "no"),
                 "inference: " + _inference_line(self.settings),
                 "",
                 text_table(self.terms, ["term", "estimate", "std_err", "statistic", "df", "p_value", "stars",
                                         "ci_low", "ci_high", "perm_p_value"],
                            ["term", "coef (logit)", "std err", "t/z", "df", "p", "", "[ci low", "ci high]",
                             "p (perm.)"]),
                 "",
                 text_table(_shown(self.terms), ["term", "ame", "ame_ci_low", "ame_ci_high", "ols_estimate",
                                                 "ols_std_err", "ols_p_value", "ols_stars", "paper_p_value"],
                            ["term", "AME (score)", "[ci low", "ci high]", "OLS coef", "OLS se", "p", "",
                             "p (paper)"])]
        for n in self.notes:
            lines.append("note: " + n)
        return "\n".join(lines)


def _shown(terms: pd.DataFrame) -> pd.DataFrame:
    """The terms as the text summary prints them: a term without a person-level test shows no
    p-value at all — the papers' sentence-level one stays in the table's paper_p_value column
    (for reproductions), but printed beside "no person-level test" it would read as the verdict."""
    if "_status" not in terms:
        return terms
    out = terms.copy()
    out.loc[out["_status"].isin([NO_PERSON_VARIATION, DESIGN_LIMITED]), "paper_p_value"] = np.nan
    return out


def _inference_line(settings: dict) -> str:
    inf = (settings.get("inference") or {}).get("inference", "paper")
    if inf == "crossed":
        return ("crossed (persons, templates and emotion words as random factors: person CR2 plus the template "
                "and word parts, Satterthwaite df); p (perm.): person-level permutation")
    if inf == "person":
        kind = (settings.get("inference") or {}).get("small_sample", "CR2")
        return (f"person-robust ({kind} cluster-robust by person, t with "
                + ("Welch–Satterthwaite df over the design's cells" if kind == "CR2" else "G − 1 df") + "); p (perm.): person-level permutation")
    return "paper (Beta: observed-information Wald z; OLS: HC3; sentences treated as independent)"


@dataclass
class BetaRegressionResults(ResultsMixin):
    """All Beta regressions of one call; ``to_frame()`` has one row per coefficient."""

    fits: list[BetaFit]
    settings: dict[str, Any]
    frame: pd.DataFrame

    def get(self, model: str | None = None, emotion: str | None = None, corpus: str | None = None,
            subset: str = "names") -> BetaFit:
        """The single fit matching the given labels (ValueError if none or several)."""
        hits = [f for f in self.fits if f.subset == subset
                and (model is None or f.model == model) and (emotion is None or f.emotion == emotion)
                and (corpus is None or f.corpus == corpus)]
        if len(hits) != 1:
            raise StatisticError(f"{len(hits)} fits match model={model!r} emotion={emotion!r} "
                             f"corpus={corpus!r} subset={subset!r}")
        return hits[0]

    def summary(self) -> str:
        return "\n\n".join(f.summary() for f in self.fits) if self.fits else "no Beta regression fitted"


def beta_regression(df: pd.DataFrame, score_col: str | Sequence[str] | Mapping[str, Any], *,
                    model: str | None = None, emotion: str | None = None, corpus: str | None = None,
                    minority: str | None = None, majority: str | None = None,
                    noun_phrases: str = "exclude", score_range: tuple[float, float] = (0.0, 1.0),
                    conf_level: float = 0.95, correction: str | None = None, dropna: bool = False,
                    female: str = "female", male: str = "male", inference: str = "person",
                    small_sample: str = "CR2", n_permutations: int = 2000, seed: int | None = 0,
                    person_col: str = "person_id") -> BetaRegressionResults:
    """Fit Câmara et al.'s Beta regression per corpus × score column.

    Parameters
    ----------
    df : generated corpus table (``engine.corpus.generate``) with score column(s) added.
    score_col : a column name, a list of names, or ``{column: (model, emotion)}``.
    model, emotion : labels for a single column (default: model = column name, emotion = "").
    corpus : force one corpus label for all rows (default: split by the ``corpus`` column).
    minority, majority : race/ethnicity groups of X1 = 1 and of the reference. Inferred only
        when unambiguous (two groups, exactly one of them a known reference such as "European").
    noun_phrases : "exclude" (default: left out, and each fit's notes say how many) or
        "gender_only" (alias "gender", as the audit CLI spells it): adds a ``score ~ 1 + female``
        fit on them (``subset="noun_phrases"``).
    score_range : bounds of the model's scale; scores are mapped to [0, 1] and squeezed
        (Smithson & Verkuilen) only if some score equals a bound. AMEs are on this original scale.
    conf_level : level of the confidence intervals (Wald, normal quantile).
    correction : None, "holm", "bh" or "bonferroni": adds ``p_adjusted`` over all non-intercept
        coefficients of this call, beside the raw ``p_value``.
    dropna : refuse NaN scores (default) or leave those sentences out with a note.
    inference : "person" (default): ``std_err``, ``df``, ``p_value``, CIs (coefficients, AMEs, OLS)
        are cluster-robust by person; "paper": the Beta model's Wald z (and HC3 for OLS) as in
        Câmara et al. Both are always in ``person_*`` / ``paper_*`` columns.
    small_sample : "CR2" (default; Welch–Satterthwaite df over the design's cells, as the paired tests) or "CR1" (statsmodels' factor, t with G − 1 df).
    n_permutations, seed : person-level permutation test (``perm_*`` columns; 0 = none).
    person_col : the column naming the person of each sentence (clusters).
    """
    opts = InferenceOptions(inference, small_sample, n_permutations, seed, person_col)
    noun_phrases = NOUN_PHRASE_OPTIONS.get(str(noun_phrases), noun_phrases)
    if noun_phrases not in ("exclude", "gender_only"):
        raise StatisticError(f"noun_phrases must be 'exclude' or 'gender_only' (alias 'gender'), got {noun_phrases!r}")
    if not 0 < conf_level < 1:
        raise StatisticError("conf_level must lie in (0, 1)")
    specs = C.resolve_scores(score_col, model, emotion)
    C.require_columns(df, ["Gender", "Race", "person_kind"] + [s.column for s in specs], "beta_regression")
    if person_col not in df.columns:
        if opts.person:
            raise StatisticError(f"beta_regression: column {person_col!r} (the person of each sentence) is missing; "
                             "person-robust inference needs it. Add it, name it with person_col=..., or pass "
                             "inference='paper' for the paper's sentence-level tests")
        import dataclasses
        opts = dataclasses.replace(opts, person_col="")
    base_settings = {"minority": minority, "majority": majority, "female": female, "male": male,
                     "noun_phrases": noun_phrases, "score_range": list(map(float, score_range)),
                     "conf_level": conf_level, "link": "logit", "precision_link": "log",
                     "cov_type": "oim (statsmodels BetaModel, Wald z)", "optimizer": "newton (bfgs fallback)",
                     "ols": "OLS with intercept", "correction": correction,
                     "ame": "mean over sentences with the term = 1 of mu(eta) - mu(eta - beta_j); delta-method SE",
                     "inference": opts.describe(), "paper_cov_type": "oim Wald z (Beta), HC3 (OLS)"}
    # only the columns the fits read, labels as categoricals: selecting a million name sentences
    # copied every column of the scored table (issue 42; engine.stats.models.fit_frame)
    df = fit_frame(df, [s.column for s in specs], opts.person_col)
    fits: list[BetaFit] = []
    for spec in specs:
        data, drop_notes = C.refuse_missing(df, [spec.column], dropna)
        data = data.drop(columns=["ID"], errors="ignore")  # read only by refuse_missing's message
        C.check_range(C.numeric_scores(data, spec.column), score_range, spec.column)
        for corp, rows in C.split_corpora(data, corpus):
            fits.extend(_fits_for_corpus(rows, spec, corp, minority, majority, noun_phrases,
                                         score_range, conf_level, female, male, drop_notes, base_settings,
                                         opts))
    frame = _to_frame(fits)
    if correction:
        from engine.stats.hypothesis_tests.multitest import correct_pvalues
        frame = correct_pvalues(frame, correction, mask=(frame["term"] != "intercept").to_numpy())
    return BetaRegressionResults(fits=fits, settings=dict(base_settings), frame=frame)


def _fits_for_corpus(rows: pd.DataFrame, spec: C.ScoreSpec, corp: str, minority, majority,
                     noun_phrases: str, score_range, conf_level: float, female: str, male: str,
                     drop_notes: list[str], base_settings: dict,
                     opts: InferenceOptions) -> list[BetaFit]:
    out: list[BetaFit] = []
    names = rows[label_eq(rows["person_kind"], "name")]
    notes = list(drop_notes)
    n_np = int(label_eq(rows["person_kind"], "noun_phrase").sum())
    if n_np:
        notes.append(f"{n_np} noun-phrase sentence(s) left out of this model: they have no race/ethnicity "
                     + ("(fitted separately with gender only: subset 'noun_phrases')" if noun_phrases == "gender_only"
                        else "(noun_phrases='gender_only' fits them separately with gender only)"))
    settings = dict(base_settings, score_column=spec.column)
    if names.empty:
        out.append(_empty_fit(corp, spec, "names", ("intercept", "race", "gender", "intersection"),
                              reason("insufficient_data.names"), settings))
    else:
        mino, majo = C.resolve_race_groups(names["Race"].unique().tolist(), minority, majority, where=f"corpus {corp!r}")
        settings.update(minority=mino, majority=majo)
        keep = label_isin(names["Race"], [mino, majo]) & label_isin(names["Gender"], [female, male])
        if (~keep).any():
            others = names[~keep]
            left = sorted({f"{r}/{g}" for r, g in zip(others["Race"].astype(str), others["Gender"].astype(str))})
            notes.append(f"{int((~keep).sum())} name sentence(s) of other groups left out ({', '.join(left)})")
        used = names[keep] if not keep.all() else names
        x1 = label_eq(used["Race"], mino).astype(float)
        x2 = label_eq(used["Gender"], female).astype(float)
        X = np.column_stack([np.ones(len(used)), x1, x2, x1 * x2])
        cells = {f"{majo} {male}": int(((x1 == 0) & (x2 == 0)).sum()),
                 f"{mino} {male}": int(((x1 == 1) & (x2 == 0)).sum()),
                 f"{majo} {female}": int(((x1 == 0) & (x2 == 1)).sum()),
                 f"{mino} {female}": int(((x1 == 1) & (x2 == 1)).sum())}
        y = C.numeric_scores(used, spec.column)
        out.append(_fit(y, X, ("intercept", "race", "gender", "intersection"), cells, corp, spec, "names",
                        score_range, conf_level, notes, settings, opts,
                        shared_labels(used[opts.person_col]) if opts.person_col else None,
                        C.crossed_factors(used)))
    if noun_phrases == "gender_only":
        nps = rows[label_eq(rows["person_kind"], "noun_phrase") & label_isin(rows["Gender"], [female, male])]
        np_settings = dict(settings, model_formula="score ~ 1 + female (noun phrases)", pairing=NP_UNPAIRED_NOTE)
        if nps.empty:
            out.append(_empty_fit(corp, spec, "noun_phrases", ("intercept", "gender"),
                                  reason("insufficient_data.noun_phrases"), np_settings))
        else:
            x2 = label_eq(nps["Gender"], female).astype(float)
            X = np.column_stack([np.ones(len(nps)), x2])
            cells = {male: int((x2 == 0).sum()), female: int((x2 == 1).sum())}
            out.append(_fit(C.numeric_scores(nps, spec.column), X, ("intercept", "gender"), cells, corp, spec,
                            "noun_phrases", score_range, conf_level, list(drop_notes) + [NP_UNPAIRED_NOTE],
                            np_settings, opts,
                            shared_labels(nps[opts.person_col]) if opts.person_col else None,
                            C.crossed_factors(nps)))
    return out


#: One contrast, two tests (issue 37): this fit and the paired tests answer "female vs male noun phrases" differently.
NP_UNPAIRED_NOTE = ("noun phrases compared unpaired (each phrase one person, female vs male as two groups); the "
                    "counterfactual and K&M tests compare the same contrast paired (each female phrase with its male "
                    "counterpart), which removes what a pair shares, so their p-values differ (docs/stats.md, "
                    "'One contrast, two tests')")


def _blank_terms(terms: Sequence[str]) -> pd.DataFrame:
    t = pd.DataFrame({c: [np.nan] * len(terms) for c in TERM_COLUMNS})
    t["term"] = list(terms)
    t["term_label"] = [TERM_LABELS[x] for x in terms]
    t["stars"] = ""
    t["ols_stars"] = ""
    t["perm_method"] = ""
    t["inference"] = ""
    t["note"] = ""
    t["_reason"] = ""  # why a term is not tested, as data (engine.stats.reasons): the frame's reason column
    return t


def _empty_fit(corp: str, spec: C.ScoreSpec, subset: str, terms: Sequence[str], why: Said,
               settings: dict) -> BetaFit:
    t = _blank_terms(terms)
    _say(t, slice(None), why)
    return BetaFit(corp, spec.model, spec.emotion, subset, 0, {}, "insufficient_data", False, t,
                   notes=[str(why)], settings=settings)


def _fit(y: np.ndarray, X: np.ndarray, terms: Sequence[str], cells: dict[str, int], corp: str,
         spec: C.ScoreSpec, subset: str, score_range, conf_level: float, notes: list[str],
         settings: dict, opts: InferenceOptions | None = None, persons: np.ndarray | None = None,
         factors: dict[str, np.ndarray] | None = None) -> BetaFit:
    """One design's fit: cells checked, degenerate data answered exactly (no model), then the Beta
    and OLS fits, their inference (the papers', by person, crossed) and one row of tests per term."""
    opts = opts or InferenceOptions(inference="paper")
    t = _blank_terms(terms)
    t.loc[t["term"] == "intercept", "note"] = "reference-group level (logit scale); no marginal effect"
    draft = _Draft(corp, spec, subset, len(y), cells, settings, list(notes), t)
    notes = draft.notes
    empty = [k for k, v in cells.items() if v == 0]
    if empty:
        why = reason("insufficient_data.cells", cells=", ".join(empty))
        notes.append(str(why))
        _say(t, slice(None), why)
        return draft.done("insufficient_data")
    lo, hi = float(score_range[0]), float(score_range[1])
    sq = to_unit_interval(y, score_range)
    if sq.squeezed:
        notes.append("some scores equal a bound of the score range: all scores squeezed with "
                     "Smithson & Verkuilen's (y·(n−1)+0.5)/n before the Beta fit (OLS uses raw scores)")
    ones = [k for k, v in cells.items() if v == 1]
    if ones:
        notes.append(f"only one sentence for {', '.join(ones)}: estimates for that group rest on a single score")
    degenerate = _degenerate(y, X, terms, t, sq, notes, C.ZERO_TOL * max(hi - lo, 1.0), conf_level)
    if degenerate:
        return draft.done(degenerate, sq.squeezed)

    res, fit_notes, ok = _beta_fit(sq.values, X)
    notes.extend(fit_notes)
    k = X.shape[1]
    params = np.asarray(res.params, dtype=float)
    bse = np.asarray(res.bse, dtype=float)
    ols_res, ols_cov = _ols_fit(y, X, min(cells.values()))
    if ols_cov != "HC3":
        notes.append("a group has a single sentence (leverage 1), where HC3 is undefined: "
                     "OLS standard errors are the classical (non-robust) ones")
    inference = _inference(res, ols_res, y, X, len(terms), persons, factors, opts, notes, hi - lo)
    tiny = ROUNDING * (hi - lo)
    for j, term in enumerate(terms):
        sel = t["term"] == term
        est, ols_est = params[j], float(ols_res.params[j])
        rounded = term != "intercept" and inference.equal_up_to_rounding(j, ols_est, hi - lo, tiny)
        if rounded:
            # every group (and person) mean equal up to rounding, as lexicons that ignore names give:
            # the studentised ratio of two rounding errors is noise, not evidence. The same whatever the
            # inference (person or crossed) and with the tolerance of the no-test rule when no person
            # varies — as the K&M and counterfactual tests' "all_zero" (engine.stats.hypothesis_tests.no_test)
            est, ols_est = 0.0, 0.0
        vals = inference.columns(j, term, est, ols_est, conf_level)
        perm = inference.person["perm"].get(term) if inference.person is not None else None
        if perm is not None:
            t.loc[sel, "perm_method"] = perm.method
        _untested_status(t, sel, term, j, vals, inference, rounded, tiny)
        untested = t.loc[sel, "_status"].iloc[0] if "_status" in t else None
        if rounded:
            _rounded_to_zero(t, sel, vals, inference)
        elif term != "intercept" and isinstance(untested, str) and untested:
            vals.update(ame=float(indicator_ame(params[:k], np.zeros((k, k)), X, j, res.model.link, sq.scale_back,
                                                conf_level).estimate))  # the estimate stands; no interval
        elif term != "intercept":
            me = indicator_ame(params[:k], inference.use["cov"], X, j, res.model.link, sq.scale_back, conf_level)
            q = _quantile(inference.use["df"][j], conf_level)
            vals.update(ame=me.estimate, ame_std_err=me.std_err,
                        ame_ci_low=me.estimate - q * me.std_err, ame_ci_high=me.estimate + q * me.std_err)
        for c_, v in vals.items():
            t.loc[sel, c_] = float(v)
        t.loc[sel, "stars"] = C.stars(float(vals["p_value"]))
        t.loc[sel, "ols_stars"] = C.stars(float(vals["ols_p_value"]))
    prec = float(np.exp(params[k])) if len(params) > k else float("nan")
    prec_se = prec * float(bse[k]) if len(bse) > k else float("nan")
    status = STATUS_OK if ok else "not_converged"
    if not ok:
        _not_converged(t)
    fit = draft.done(status, sq.squeezed, precision=prec, precision_std_err=prec_se, llf=float(res.llf))
    fit.settings["ols_cov_type"] = ols_cov
    return fit


@dataclass
class _Draft:
    """A fit being filled in: what identifies it, its notes and its term table ``t`` (changed in place)."""

    corp: str
    spec: C.ScoreSpec
    subset: str
    n: int
    cells: dict[str, int]
    settings: dict
    notes: list[str]
    t: pd.DataFrame

    def done(self, status: str, squeezed: bool = False, **kw) -> BetaFit:
        t = self.t
        if squeezed:
            t["note"] = [f"{x}; {SQUEEZE_NOTE}" if x else SQUEEZE_NOTE for x in t["note"]]
        return BetaFit(self.corp, self.spec.model, self.spec.emotion, self.subset, self.n, self.cells, status,
                       squeezed, t, notes=self.notes,
                       settings=dict(self.settings, squeeze="smithson-verkuilen" if squeezed else "none"), **kw)


def _degenerate(y: np.ndarray, X: np.ndarray, terms: Sequence[str], t: pd.DataFrame, sq, notes: list[str],
                tol: float, conf_level: float) -> str | None:
    """The status of data that leave nothing to fit — every score identical ("constant"), or one
    fixed score per group ("no_within_group_variation": the likelihood has no maximum) — with the
    exact estimates written into ``t``; None when the model is to be fitted."""
    # Group structure of the saturated design: one row of X per cell.
    cell_rows, cell_of = np.unique(X, axis=0, return_inverse=True)
    cell_of = cell_of.ravel()
    spread = np.ptp(y) if len(y) else 0.0
    if spread <= tol:
        c = float(y[0])
        notes.append(f"every score is identical ({c:.6g}): all group differences are exactly 0; "
                     "no model fitted and no test performed")
        t.loc[t["term"] != "intercept", ["estimate", "ame", "ols_estimate"]] = 0.0
        t.loc[t["term"] == "intercept", "estimate"] = float(np.log(sq.values[0] / (1 - sq.values[0])))
        t.loc[t["term"] == "intercept", "ols_estimate"] = c
        _say(t, t["term"] != "intercept", reason("constant"))
        return "constant"
    within = max(float(np.ptp(y[cell_of == i])) for i in range(len(cell_rows)))
    if within > tol:
        return None
    # Each group has a single score: the differences are exact, the likelihood has no maximum.
    means = np.array([y[cell_of == i][0] for i in range(len(cell_rows))])
    smeans = np.array([sq.values[cell_of == i][0] for i in range(len(cell_rows))])
    beta = np.linalg.solve(cell_rows, np.log(smeans / (1 - smeans)))
    ols = np.linalg.solve(cell_rows, means)
    from statsmodels.genmod.families.links import Logit
    for j, term in enumerate(terms):
        t.loc[t["term"] == term, ["estimate", "ols_estimate"]] = [beta[j], ols[j]]
        if term != "intercept":
            me = indicator_ame(beta, np.zeros((len(beta), len(beta))), X, j, Logit(), sq.scale_back, conf_level)
            t.loc[t["term"] == term, "ame"] = me.estimate
            _say(t, t["term"] == term, reason("no_within_group_variation"))
    notes.append("every group has one fixed score (no variation within groups): the group differences "
                 "are exact and there is nothing to test; estimates are the exact cell contrasts")
    return "no_within_group_variation"


@dataclass
class _Inference:
    """Standard errors and df of a fit under each inference: the papers' (``paper``: observed
    information for the Beta, HC3 for OLS), by person (``person``) and crossed persons × templates ×
    words (``crossed``); ``use`` is the one the main columns report. ``flat[j]``: term j's cells show
    no variation between persons."""

    paper: dict
    person: dict | None
    crossed: dict | None
    use: dict
    flat: list
    limited: list = field(default_factory=list)

    @property
    def crossed_missing(self) -> bool:
        """Crossed inference in the main columns, but a factor's part cannot be estimated."""
        return self.use is self.crossed and self.crossed is not None and self.crossed.get("status", "ok") != "ok"

    @property
    def person_level(self) -> bool:
        """The main columns report a person-level (person or crossed) test."""
        return self.use is self.person or self.use is self.crossed

    def equal_up_to_rounding(self, j: int, ols_est: float, width: float, tiny: float) -> bool:
        """Every group (and person) mean of indicator term j is equal up to rounding."""
        zero_flat = self.flat[j] and abs(ols_est) <= tolerance(width)
        return bool(zero_flat or (abs(ols_est) <= tiny and (self.person or self.use)["ols_se"][j] <= tiny))

    def without_person_test(self, j: int, tiny: float) -> list[str]:
        """Which of the Beta ("") and OLS ("ols_") person-level tests of term j do not exist."""
        return ["", "ols_"] if self.flat[j] else _degenerate_person_se(self.person, j, tiny)

    def columns(self, j: int, term: str, est: float, ols_est: float, conf_level: float) -> dict[str, float]:
        """Term j's Wald tests of the Beta estimate and of its OLS cross-check under the inference
        used, the papers', by person and crossed, and its person-level permutation test."""
        use, paper, person, crossed, inf = self.use, self.paper, self.person, self.crossed, float("inf")
        stat, p, ci_lo, ci_hi = _wald(est, use["se"][j], use["df"][j], conf_level)
        ostat, op, olo, ohi = _wald(ols_est, use["ols_se"][j], use["ols_df"][j], conf_level)
        vals = {"estimate": est, "std_err": use["se"][j], "statistic": stat, "df": use["df"][j], "p_value": p,
                "ci_low": ci_lo, "ci_high": ci_hi, "ols_estimate": ols_est, "ols_std_err": use["ols_se"][j],
                "ols_statistic": ostat, "ols_df": use["ols_df"][j], "ols_p_value": op, "ols_ci_low": olo,
                "ols_ci_high": ohi, "paper_std_err": paper["se"][j],
                "paper_p_value": _wald(est, paper["se"][j], inf, conf_level)[1],
                "ols_paper_p_value": _wald(ols_est, paper["ols_se"][j], inf, conf_level)[1]}
        if person is None:
            return vals
        vals.update(person_std_err=person["se"][j], person_df=person["df"][j],
                    person_p_value=_wald(est, person["se"][j], person["df"][j], conf_level)[1],
                    ols_person_p_value=_wald(ols_est, person["ols_se"][j], person["ols_df"][j], conf_level)[1],
                    n_persons=person["n_persons"])
        if crossed is not None:
            vals.update(crossed_std_err=crossed["se"][j], crossed_df=crossed["df"][j],
                        crossed_p_value=_wald(est, crossed["se"][j], crossed["df"][j], conf_level)[1],
                        ols_crossed_p_value=_wald(ols_est, crossed["ols_se"][j], crossed["ols_df"][j],
                                                  conf_level)[1])
        perm = person["perm"].get(term)
        if perm is not None:
            vals.update(perm_p_value=perm.p_value, perm_se=perm.mc_se, perm_n=perm.n_permutations)
        return vals


def _inference(res, ols_res, y: np.ndarray, X: np.ndarray, n_terms: int, persons: np.ndarray | None,
               factors: dict[str, np.ndarray] | None, opts: InferenceOptions, notes: list[str],
               width: float) -> _Inference:
    """The papers' inference, and with ``persons`` the person-level and crossed ones; which one the
    main columns use follows ``opts`` (crossed falls back to person, with a note, without factors)."""
    k = X.shape[1]
    inf = float("inf")
    paper = {"se": np.asarray(res.bse, dtype=float)[:k], "df": np.full(k, inf),
             "cov": np.asarray(res.cov_params(), dtype=float)[:k, :k],
             "ols_se": np.asarray(ols_res.bse, dtype=float),
             "ols_df": np.full(k, inf)}  # HC3 with a normal reference, as statsmodels reports it
    person = None
    if persons is not None:
        person = _person_inference(res, y, X, persons, opts, factors)
        notes.extend(person.pop("notes"))
    use = person if (opts.person and person is not None) else paper
    crossed = person.pop("crossed", None) if person is not None else None
    if opts.crossed and person is not None:
        if crossed is None:
            notes.append(NO_FACTORS_NOTE)
        else:
            use = crossed
    # one rule, from the data: a term whose cells show no variation between persons has no
    # person-level test, whatever standard error the Beta sandwich reports
    limited = [None] * n_terms
    flat = [False] * n_terms
    if person is not None:
        pm, pg = person.pop("person_means"), person.pop("person_groups")
        flat = terms_without_person_variation(pm, pg, tolerance(width))
        limited = terms_design_limited(pm, pg, tolerance(width))
    return _Inference(paper, person, crossed, use, flat, limited)


def _untested_status(t: pd.DataFrame, sel, term: str, j: int, vals: dict, inference: "_Inference", rounded: bool,
                     tiny: float) -> None:
    """The status of a term without a test (no person variation, design-limited, crossed not
    estimable), its blanked columns and note (engine.stats.hypothesis_tests.no_test)."""
    no_person_test = [] if rounded else inference.without_person_test(j, tiny)
    if no_person_test:
        _drop_person_tests(t, sel, term, vals, no_person_test, inference)
    elif not rounded and term != "intercept" and inference.limited[j] is not None:
        _drop_person_tests(t, sel, term, vals, ["", "ols_"], inference, DESIGN_LIMITED,
                           design_limited_reason(inference.limited[j], int(inference.person["n_persons"])))
    elif not rounded and term != "intercept" and inference.crossed_missing:
        t.loc[sel, "_status"] = CROSSED_NOT_ESTIMABLE
        t.loc[sel, "_reason"] = reason_json(inference.crossed["reason"])
        _add_note(t, sel, inference.crossed["note"])


def _say(t: pd.DataFrame, sel, why: Said) -> None:
    """A term's reason for no test (or caution), as data and as its English note."""
    t.loc[sel, "note"] = str(why)
    t.loc[sel, "_reason"] = reason_json(why)


def _not_converged(t: pd.DataFrame) -> None:
    """The caution of a fit that did not converge: it replaces the terms' notes; a term's own reason
    for no test (its status) stays its reason."""
    why = reason("not_converged")
    t.loc[t["term"] != "intercept", "note"] = str(why)
    t.loc[(t["term"] != "intercept") & (t["_reason"] == ""), "_reason"] = reason_json(why)


def _add_note(t: pd.DataFrame, sel, note: str) -> None:
    old_note = t.loc[sel, "note"].iloc[0]
    t.loc[sel, "note"] = f"{old_note}; {note}" if isinstance(old_note, str) and old_note else note


def _drop_person_tests(t: pd.DataFrame, sel, term: str, vals: dict, parts: list[str], inference: _Inference,
                       status: str = NO_PERSON_VARIATION, why: Said | None = None) -> None:
    """Blank the person-level tests named by ``parts`` ("" Beta, "ols_" OLS) and say why in the note
    (``status``: no person variation, or a design-limited test)."""
    # every person has the same scores (a lexicon that ignores names): the person-clustered
    # variance is zero up to rounding, and estimate / rounding error is no evidence at all —
    # there is no person-level test of this term, not an astronomically small p-value
    nan = float("nan")
    for part in parts:
        vals[f"{part}person_p_value"] = nan
        vals[f"{part}crossed_p_value"] = nan
        # the person-clustered standard errors are rounding or leakage here: none is shown
        if part == "":
            vals.update(person_std_err=nan, crossed_std_err=nan)
        if inference.person_level:
            vals.update({f"{part}statistic": nan, f"{part}p_value": nan, f"{part}ci_low": nan,
                         f"{part}ci_high": nan, f"{part}std_err": nan, f"{part}df": nan})
    why = why or no_person_test_reason()
    note = str(why) + " (the papers' sentence-level p-value is paper_p_value)"
    perm = (inference.person or {}).get("perm", {}).get(term)
    if perm is not None and perm.note:
        note += f"; permutation p-value {perm.note}"
    if inference.person_level and "" in parts:
        t.loc[sel, "_status"] = status
    t.loc[sel, "_reason"] = reason_json(why)  # also where the papers' test stands: why no person-level one
    _add_note(t, sel, note)


def _rounded_to_zero(t: pd.DataFrame, sel, vals: dict, inference: _Inference) -> None:
    """A difference that is rounding noise: exactly 0, p = 1 under every inference."""
    vals.update(statistic=0.0, p_value=1.0, ci_low=0.0, ci_high=0.0, ols_statistic=0.0, ols_p_value=1.0,
                ols_ci_low=0.0, ols_ci_high=0.0, ame=0.0, ame_std_err=0.0, ame_ci_low=0.0, ame_ci_high=0.0,
                paper_p_value=1.0, ols_paper_p_value=1.0)
    if inference.person is not None:
        vals.update(person_p_value=1.0, ols_person_p_value=1.0)
    if inference.crossed is not None:
        vals.update(crossed_p_value=1.0, ols_crossed_p_value=1.0)
    t.loc[sel, "note"] = "group means equal up to rounding: difference exactly 0, p = 1"


def _degenerate_person_se(person: dict | None, j: int, tiny: float) -> list[str]:
    """Which of the Beta ("") and OLS ("ols_") person-clustered standard errors of term `j` are
    zero up to rounding."""
    if person is None:
        return []
    return [part for part, key in (("", "se"), ("ols_", "ols_se")) if not float(person[key][j]) > tiny]


def _quantile(df: float, conf_level: float) -> float:
    from scipy.stats import norm, t as tdist

    if not np.isfinite(df):
        return float(norm.ppf(0.5 + conf_level / 2))
    return float(tdist.ppf(0.5 + conf_level / 2, df)) if df > 0 else float("nan")


def _wald(est: float, se: float, df: float, conf_level: float) -> tuple[float, float, float, float]:
    """(statistic, two-sided p, ci low, ci high) with a normal (df = inf) or t(df) reference."""
    from scipy.stats import norm, t as tdist

    if not (np.isfinite(se) and se > 0):
        nan = float("nan")
        return nan, nan, nan, nan
    stat = est / se
    p = float(2 * norm.sf(abs(stat))) if not np.isfinite(df) else float(2 * tdist.sf(abs(stat), df))
    q = _quantile(df, conf_level)
    return stat, p, est - q * se, est + q * se


def _person_inference(res, y: np.ndarray, X: np.ndarray, persons: np.ndarray, opts: InferenceOptions,
                      factors: dict[str, np.ndarray] | None = None) -> dict:
    """Cluster-robust (by person) SEs/df for the Beta and OLS coefficients, the person-level
    permutation tests of each indicator term (on person means of the raw scores) and, where the
    templates and words are known, the crossed (persons × templates × words) SEs/df."""
    from engine.stats.models.cluster_robust import beta_cluster_cov, beta_working_model, crossed_cov, ols_cluster
    from engine.stats.hypothesis_tests.person_tests import PersonContrast, Stratum, interaction_permutation, permutation_test

    k = X.shape[1]
    notes: list[str] = []
    working = beta_working_model(res.model, res.params)
    bc = beta_cluster_cov(res.model, np.asarray(res.params, dtype=float), persons, kind=opts.small_sample,
                          working=working)
    ols_beta, oc = ols_cluster(y, X, persons, kind=opts.small_sample)
    G = bc.n_clusters
    ids, codes = np.unique(persons, return_inverse=True)
    codes = codes.ravel()
    cnt = np.bincount(codes, minlength=len(ids))
    pm = np.bincount(codes, weights=y, minlength=len(ids)) / cnt
    px = np.vstack([np.bincount(codes, weights=X[:, j], minlength=len(ids)) / cnt for j in range(k)]).T
    perm: dict = {}
    if np.any((px != 0) & (px != 1)):
        notes.append("a person occurs in more than one group: no person-level permutation test")
    elif opts.n_permutations:
        if k == 4:
            x1, x2 = px[:, 1] == 1, px[:, 2] == 1
            perm["race"] = permutation_test(PersonContrast([Stratum(pm[~x2], x1[~x2])]), opts.n_permutations, opts.seed)
            perm["gender"] = permutation_test(PersonContrast([Stratum(pm[~x1], x2[~x1])]), opts.n_permutations,
                                              opts.seed)
            perm["intersection"] = interaction_permutation(pm, x1, x2, opts.n_permutations, opts.seed)
        elif k == 2:
            perm["gender"] = permutation_test(PersonContrast([Stratum(pm, px[:, 1] == 1)]), opts.n_permutations,
                                              opts.seed)
    if G < 4:
        notes.append(f"only {G} persons: person-robust standard errors are unreliable")
    crossed = None
    if factors and opts.small_sample == "CR2":
        Xt, et, bread, extra = working
        bx, binfo = crossed_cov(Xt, et, bc, factors, persons=persons, bread=bread, extra_scores=extra, cells=X)
        ox, oinfo = crossed_cov(X, y - X @ ols_beta, oc, factors, persons=persons, cells=X)
        crossed = {"se": bx.bse[:k], "df": bx.df[:k], "cov": bx.cov[:k, :k], "ols_se": ox.bse, "ols_df": ox.df,
                   "n_persons": G, "status": binfo["status"], "note": binfo["note"] or oinfo["note"],
                   "reason": binfo["reason"] or oinfo["reason"]}
    return {"se": bc.bse[:k], "df": bc.df[:k], "cov": bc.cov[:k, :k], "ols_se": oc.bse, "ols_df": oc.df,
            "n_persons": G, "perm": perm, "notes": notes, "person_means": pm, "person_groups": px,
            "crossed": crossed}


def _beta_fit(yfit: np.ndarray, X: np.ndarray):
    """statsmodels BetaModel fit: Newton (analytic Hessian, converges to machine precision),
    falling back to BFGS when Newton fails. Returns (results, notes, converged)."""
    from statsmodels.othermod.betareg import BetaModel

    from engine.stats.models.beta_start import start_params

    notes: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = BetaModel(yfit, X)
        res = sp = None
        try:
            sp = start_params(mod)  # statsmodels' own start values, with less memory (issue 42)
            res = mod.fit(start_params=sp, method="newton", maxiter=100, disp=False)
        except (np.linalg.LinAlgError, ValueError, FloatingPointError):
            res = None
        if res is None or not _good(res):
            notes.append("Newton optimiser failed; refitted with BFGS")
            res = mod.fit(start_params=sp, method="bfgs", maxiter=5000, disp=False)
    ok = _good(res)
    if not ok:
        notes.append("the Beta regression did not converge (or its covariance is not finite)")
    return res, notes, ok


def _good(res) -> bool:
    return bool(res.mle_retvals.get("converged", False)) and bool(np.all(np.isfinite(res.bse))) \
        and bool(np.all(np.isfinite(res.params)))


def _ols_fit(y: np.ndarray, X: np.ndarray, smallest_cell: int):
    # the module that defines OLS, not statsmodels.api: that one also imports the time-series,
    # graphics and formula packages, 0.29 s of every audit's start (issue 42)
    from statsmodels.regression.linear_model import OLS

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if smallest_cell >= 2:
            return OLS(y, X).fit(cov_type="HC3"), "HC3"
        return OLS(y, X).fit(), "nonrobust"


def _to_frame(fits: list[BetaFit]) -> pd.DataFrame:
    parts = []
    for f in fits:
        t = f.terms.copy()
        t.insert(0, "corpus", f.corpus)
        t.insert(1, "model", f.model)
        t.insert(2, "emotion", f.emotion)
        t.insert(3, "test", TEST)
        t.insert(4, "subset", f.subset)
        t.insert(7, "n", f.n)
        # a term without a person-level test says so in its own row (engine.stats.hypothesis_tests.no_test)
        own = t.pop("_status") if "_status" in t else pd.Series([None] * len(t), index=t.index)
        t["status"] = [x if isinstance(x, str) and x else f.status for x in own]
        # the reason as data; a term that only inherits its fit's status gets that status's reason
        said = t.pop("_reason") if "_reason" in t else pd.Series([""] * len(t), index=t.index)
        t[REASON_COLUMN] = [x if isinstance(x, str) and x else
                            (reason_json(reason(st)) if st != STATUS_OK and st in REASONS else "")
                            for x, st in zip(said, t["status"])]
        t["squeezed"] = f.squeezed
        t["inference"] = (f.settings.get("inference") or {}).get("inference", "")
        t["generalises_to"] = (f.settings.get("inference") or {}).get("generalises_to", "")
        t.loc[t["status"] == CROSSED_NOT_ESTIMABLE, "generalises_to"] = NOT_ESTIMABLE_GENERALISES
        t["settings"] = C.settings_json(f.settings)
        parts.append(t)
    if not parts:
        cols = ID_COLUMNS + ["subset", "n"] + TERM_COLUMNS + ["status", REASON_COLUMN, "squeezed", "settings"]
        return pd.DataFrame(columns=cols)
    frame = pd.concat(parts, ignore_index=True)
    frame["n"] = frame["n"].astype(int)
    frame = order_columns(frame, ID_COLUMNS + ["subset", "term", "term_label", "n"])
    # keep 'note' next to status at the end for readability
    cols = [c for c in frame.columns if c not in ("note", "settings")] + ["note", "settings"]
    return frame[cols]
