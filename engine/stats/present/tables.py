"""Publication layouts as format-neutral tables (rendered by ``latex`` and ``markdown``).

Why separate layout from format: the same arrangement — Câmara et al.'s Tables 3–5 (rows =
models, for each emotion the Race/Ethnicity, Gender and Intersection effects with stars) or
Kiritchenko & Mohammad's Tables 5–7 (per task, the number of systems in each bias group and
their average score differences) — is wanted in LaTeX for papers and in Markdown for
reports, and should not be written twice.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd

from engine.common.fmt import as_float, number, p_value

from engine.stats import _common as C
from engine.stats.errors import StatisticError
from engine.stats.reasons import REASON_COLUMN, STATUSES, read_reason, status_of


@dataclass
class Cell:
    """A cell's text and an optional superscript (significance stars)."""

    text: str
    sup: str = ""
    numeric: bool = False


@dataclass
class Table:
    caption: str
    header: list[list[tuple[str, int]]]  # header rows of (text, column span)
    rows: list[list[Cell]]
    align: str
    group_starts: list[int] = field(default_factory=list)  # body rows that start a group (rule before)
    notes: list[str] = field(default_factory=list)
    #: True: a further block of the previous table (same float and caption in LaTeX), as the
    #: papers stack emotion blocks or subsets in one table; ``block_title`` names the block.
    continues: bool = False
    block_title: str = ""

    @property
    def ncols(self) -> int:
        return len(self.align)


#: Widths a layout is built for: "page" (a full-width table: the report, Markdown, a ``table*``) and
#: "column" (one column of a two-column paper, ACL/IEEE: 219 pt; narrower layouts, abbreviations
#: with a legend in the notes, long tables split into blocks per model).
WIDTHS = ("page", "column")

#: What a table prints for a statistic that was not tested (never 0.000 or a blank that reads as one).
NOT_TESTED = "—"
_MARKS = "†‡§¶"

#: Why a row has no test, from its ``status``: each status's short reason (engine.stats.reasons.STATUSES, field-free
#: so that rows with one status share one footnote mark); an unknown status is shown as it is.
UNTESTED_WORDS = STATUSES


def _text(x: object) -> str:
    return "" if x is None or (isinstance(x, float) and x != x) else str(x)


def untested_status(p: object, status: object = "", note: object = "", reason: object = "") -> str:
    """The status that explains why a row's statistic is not tested ('' when it is tested): its p-value
    is missing and its status is not "ok" — or, for an "ok" row whose person-level test was dropped
    (the papers' p-value stands), the status its ``reason`` cell (engine.stats.reasons) names, else
    "no_person_variation" where the English note says so (a file written before rows had reasons)."""
    if as_float(p) is not None:
        return ""
    st = _text(status)
    if st not in ("", "ok"):
        return st
    said = read_reason(reason)
    if said is not None:
        return status_of(said)
    text = _text(note)
    if "no person-level test" not in text:
        return ""
    return "design_limited" if "differ from the rest of their group" in text else "no_person_variation"


def untested_reason(p: object, status: object = "", note: object = "", reason: object = "") -> str:
    """Why a row's statistic is not tested, in English ('' when it is): the short reason of its
    status (untested_status; UNTESTED_WORDS)."""
    st = untested_status(p, status, note, reason)
    return UNTESTED_WORDS.get(st, st.replace("_", " "))


class Marks:
    """Footnote marks for the reasons rows are not tested: one mark per reason (†, ‡, §, ¶, then
    a, b, …), and the notes that explain them, in the order they were first used."""

    def __init__(self) -> None:
        self.reasons: dict[str, str] = {}

    def cell(self, reason: str) -> Cell:
        """The cell of a statistic that was not tested: "—" with the reason's mark."""
        if reason not in self.reasons:
            k = len(self.reasons)
            self.reasons[reason] = _MARKS[k] if k < len(_MARKS) else chr(ord("a") + k - len(_MARKS))
        return Cell(NOT_TESTED, self.reasons[reason], True)

    def notes(self) -> list[str]:
        return [f"{mark} Not tested: {reason}." for reason, mark in self.reasons.items()]


def _check_width(width: str) -> None:
    if width not in WIDTHS:
        raise StatisticError(f"width must be one of {list(WIDTHS)}, not {width!r}")


def legend(abbreviations: dict[str, str]) -> str:
    """'Int. = Intersection; n = pairs': the note that spells out a narrow layout's abbreviations."""
    return "; ".join(f"{short} = {full}" for short, full in abbreviations.items()) + "."


def note_columns(frame: pd.DataFrame) -> list[str]:
    """Columns that carry warnings for the reader (e.g. ``language_warning``): table notes, never columns."""
    return [c for c in frame.columns if str(c).endswith("warning")]


def warning_notes(frame: pd.DataFrame) -> list[str]:
    """Each distinct warning of ``frame`` once, as a table note."""
    out: list[str] = []
    for col in note_columns(frame):
        for v in frame[col].dropna():
            text = str(v).strip()
            if text and text not in out:
                out.append(text)
    return out


# one formatter for every table (engine.common.fmt); the short names read well in the layouts below
fmt = number
fmt_p = p_value


def num(x, digits: int = 3, sup: str = "") -> Cell:
    return Cell(fmt(x, digits), sup if fmt(x, digits) != "–" else "", True)


def _title(emotion: str) -> str:
    return emotion[:1].upper() + emotion[1:] if emotion else "Score"


#: Dimensions that are not emotion intensities: K&M call that task "Valence prediction".
NON_INTENSITY = ("valence", "sentiment", "polarity")


def _task(emotion: str) -> str:
    """Task label of K&M's tables: "Anger intensity prediction", "Valence prediction"."""
    if not emotion:
        return "Score"
    if emotion.lower() in NON_INTENSITY:
        return f"{_title(emotion)} prediction"
    return f"{_title(emotion)} intensity prediction"


# --------------------------------------------------------------------------- Câmara et al.
VALUE_CAPTIONS = {
    "ame": "average marginal effects of the Beta regression on the score scale",
    "estimate": "Beta regression coefficients (logit scale)",
    "ols_estimate": "OLS coefficients with intercept (differences of group means)",
}


def camara_tables(frame: pd.DataFrame, *, value: str = "ame", p_col: str | None = None,
                  emotions_per_block: int = 2, digits: int = 3, subset: str = "names",
                  corpus_labels: dict[str, str] | None = None, width: str = "page") -> list[Table]:
    """Câmara et al.'s Tables 3–5: rows = models (grouped by corpus), columns per emotion.

    ``width="column"``: one block per model (its name above it), a row per emotion and the three
    effects as columns ("Race", "Gender", "Int." with a legend), so the table fits a paper's column.
    A coefficient that was not tested prints "—" with a footnote giving the reason."""
    _check_width(width)
    if value not in VALUE_CAPTIONS:
        raise StatisticError(f"value must be one of {list(VALUE_CAPTIONS)}")
    p_col = p_col or ("ols_p_value" if value == "ols_estimate" else "p_value")
    if p_col not in frame.columns:
        raise StatisticError(f"no column {p_col!r} in the Beta regression table")
    f = frame[(frame["subset"] == subset) & frame["term"].isin(["race", "gender", "intersection"])]
    if f.empty:
        raise StatisticError(f"no Beta regression coefficients for subset {subset!r} to render")
    terms = ["race", "gender", "intersection"] if subset == "names" else ["gender"]
    term_heads = {"race": "Race/Ethnicity", "gender": "Gender", "intersection": "Intersection"}
    emotions = list(pd.unique(f["emotion"]))
    corpora = list(pd.unique(f["corpus"]))
    models = list(pd.unique(f["model"]))
    look = {(r.corpus, r.model, r.emotion, r.term): r for r in f.itertuples(index=False)}
    marks = Marks()

    def value_cell(c, m, e, t) -> Cell:
        r = look.get((c, m, e, t))
        if r is None:
            return Cell("–")
        p = getattr(r, p_col)
        reason = untested_reason(p, getattr(r, "status", ""), getattr(r, "note", ""), getattr(r, "reason", ""))
        if reason:
            return marks.cell(reason)
        return num(getattr(r, value), digits, C.stars(p if p is not None else float("nan")))

    what = VALUE_CAPTIONS[value]
    adj = "" if p_col in ("p_value", "ols_p_value") else f" (stars from {p_col})"
    inf = inference_words(f, "beta")
    caption = (f"{what[:1].upper() + what[1:]} for all model, emotion combinations{adj}. "
               "Statistically significant results (p ≤ 0.01) are marked with three asterisks ***, "
               "(p ≤ 0.05) with two asterisks **, (p ≤ 0.10) with one asterisk *."
               + (f" Stars from {inf}." if inf and p_col in ("p_value", "ols_p_value") else ""))
    tables = []
    if width == "column":
        short = {"race": "Race", "gender": "Gender", "intersection": "Int."}
        header = [[("Emotion", 1)] + [(short[t], 1) for t in terms]]
        for c in corpora:
            label = (corpus_labels or {}).get(c, c)
            for m in models:
                rows = [[Cell(_title(e))] + [value_cell(c, m, e, t) for t in terms] for e in emotions
                        if any((c, m, e, t) in look for t in terms)]
                if rows:
                    title = m + (f" ({label})" if len(corpora) > 1 and label else "")
                    tables.append(Table(caption, header, rows, "l" + "r" * len(terms), continues=bool(tables),
                                        block_title=title))
        abbreviations = {"Race": "Race/Ethnicity", "Int.": "Intersection (race × gender)"} if len(terms) > 1 else {}
        tables[-1].notes = ([legend(abbreviations)] if abbreviations else []) + marks.notes()
        return tables
    per = max(1, int(emotions_per_block))
    for bi in range(0, len(emotions), per):
        block = emotions[bi:bi + per]
        header = [[("", 1), ("", 1)] + [(f"{_title(e)} Coefficients", len(terms)) for e in block],
                  [("Corpus", 1), ("Model", 1)] + [(term_heads[t], 1) for e in block for t in terms]]
        rows, starts = [], []
        for c in corpora:
            first = True
            for m in models:
                if not any((c, m, e, t) in look for e in block for t in terms):
                    continue
                if first:
                    starts.append(len(rows))
                label = (corpus_labels or {}).get(c, c)
                row = [Cell(label if first else ""), Cell(m)]
                first = False
                row += [value_cell(c, m, e, t) for e in block for t in terms]
                rows.append(row)
        tables.append(Table(caption, header, rows, "ll" + "r" * (len(block) * len(terms)), starts,
                            continues=bi > 0))
    tables[-1].notes = marks.notes()
    return tables


# ------------------------------------------------------------------ Kiritchenko & Mohammad
SUBSET_WORDS = {"all": "including both sentences with emotion words and sentences without emotion words",
                "neutral": "the subset of sentences that do not contain any emotion words",
                "emotional": "the subset of sentences with emotion words",
                "matching": "sentences whose emotion words match the task's emotion"}


#: group labels up to this long stay in a column table's bias groups (F↑–M↓, AA↑–EA↓); longer: Δ > 0
NARROW_GROUP_LABEL = 3


def km_tables(frame: pd.DataFrame, *, digits: int = 3, width: str = "page") -> list[Table]:
    """Kiritchenko & Mohammad's Tables 5–7: per task, systems per bias group and their average Δs.

    ``width="column"``: the task is its emotion ("Anger" for anger intensity prediction) and the
    bias groups are abbreviated ("F=M n.s.", "F↑–M↓ sig."), spelled out in a note."""
    _check_width(width)
    if frame.empty:
        raise StatisticError("no paired tests to render")
    narrow = width == "column"
    tables = []
    previous = None
    for (corp, axis, subset), g in frame.groupby(["corpus", "axis", "subset"], sort=False):
        la, lb = g["label_a"].iloc[0], g["label_b"].iloc[0]
        up, down, same = f"{la}↑–{lb}↓", f"{la}↓–{lb}↑", f"{la}={lb}"
        header = [[("Task", 1), ("Bias group", 1), ("#Subm.", 1), ("Avg. score diff.", 2)],
                  [("", 1), ("", 1), ("", 1), (up, 1), (down, 1)]]
        # one column of a two-column paper: group names longer than the papers' F/M and AA/EA
        # ("minority", "unmarked", "Latino") made the table 0.62-0.79 of full size; the direction
        # of Δ = a − b says the same in a fixed width, spelled out in the note
        delta = narrow and max(len(str(la)), len(str(lb))) > NARROW_GROUP_LABEL
        if delta:
            up, down, same = "Δ > 0", "Δ < 0", "Δ = 0"
        if narrow:
            header = [[("Task", 1), ("Bias group", 1), ("#", 1), ("Avg. diff.", 2)],
                      [("", 1), ("", 1), ("", 1), (up, 1), (down, 1)]]
        rows, starts, notes = [], [], []
        for emo, ge in g.groupby("emotion", sort=False):
            # plain arrays: a few dozen pandas selections per table made rendering the layouts the
            # slowest part of writing an audit's folder
            tested = ~ge["status"].isin(["too_few", "no_pairs"]).to_numpy()
            if tested.sum() < len(ge):
                notes.append(f"{_title(emo)}: {len(ge) - tested.sum()} system(s) not tested (too few pairs)")
            sig = ge["significant"].to_numpy(dtype=bool) & tested
            direction = ge["direction"].to_numpy(dtype=float)
            pos = ge["avg_delta_pos"].to_numpy(dtype=float)
            neg = ge["avg_delta_neg"].to_numpy(dtype=float)
            ns, sg = ("n.s.", "sig.") if narrow else ("not significant", "significant")
            groups = [(f"{same} {ns}" if not delta else ns, tested & ~sig),
                      (f"{up} {sg}", sig & (direction > 0)),
                      (f"{down} {sg}", sig & (direction < 0)),
                      ("All", tested)]
            starts.append(len(rows))
            for i, (name, sel) in enumerate(groups):
                task = (_title(emo) if narrow else _task(emo)) if i == 0 else ""
                rows.append([Cell(task), Cell(name),
                             Cell(str(int(sel.sum())), numeric=True),
                             num(_mean_of_known(pos[sel]), digits), num(_mean_of_known(neg[sel]), digits)])
        what = "gender" if axis == "gender" else "race"
        alpha = _setting(g, "alpha", 0.05)
        where = f" on {corp}" if corp else ""
        caption = (f"Analysis of {what} bias: summary results for {g['model'].nunique()} system(s){where}, "
                   f"per subset of sentences. Bias groups from {inference_words(g, 'km')} at "
                   f"α = {alpha:g}; average score differences are averaged over the systems of each group.")
        if narrow:
            words = {"Task": "the emotion's intensity prediction (valence: valence prediction)",
                     "n.s.": "not significant", "sig.": "significant", "#": "number of systems",
                     "Avg. diff.": "average score difference"}
            if delta:
                words["Δ"] = f"score({la}) − score({lb}) of a pair"
            notes = [legend(words)] + notes
        tables.append(Table(caption, header, rows, "llrrr", starts, notes, continues=previous == (corp, axis),
                            block_title=_subset_title(subset)))
        previous = (corp, axis)
    return tables


_THESE = "; the p-values generalise to persons like these, in these templates with these words"
_LIKE = ("; persons, templates and emotion words are crossed random factors, so the p-values generalise to "
         "templates and words like these")
_SENTENCES = "; the p-values are about these sentences only"
INFERENCE_WORDS = {
    "beta": {"person": "p-values cluster-robust by person (CR2, t with Welch–Satterthwaite df)" + _THESE,
             "crossed": "p-values cluster-robust by person, template and emotion word (Satterthwaite df)" + _LIKE,
             "paper": "p-values from the Beta model's Wald z test (as in the paper; sentences treated as independent)"
                      + _SENTENCES},
    "km": {"person": "a two-sided Welch t-test on person means (each name and noun-phrase pair one unit)" + _THESE,
           "crossed": "a two-sided t-test on person means widened by the template and word variation" + _LIKE,
           "paper": "a two-sided paired t-test over sentence pairs (as in the paper)" + _SENTENCES},
    "cf": {"person": "t and Wilcoxon tests over person pairs" + _THESE,
           "crossed": "t-test over person pairs widened by the template and word variation (Wilcoxon over person "
                      "pairs)" + _LIKE,
           "paper": "paired t and Wilcoxon signed-rank tests over sentence pairs (as in the paper)" + _SENTENCES},
}


def inference_words(frame: pd.DataFrame, kind: str) -> str:
    """How the table's p-values were obtained, from its ``inference`` column ('' if unknown/mixed)."""
    if "inference" not in frame.columns:
        return INFERENCE_WORDS[kind]["paper"] if kind != "beta" else ""
    vals = {str(v) for v in frame["inference"].dropna() if str(v)}
    if len(vals) == 1 and next(iter(vals)) in INFERENCE_WORDS[kind]:
        return INFERENCE_WORDS[kind][next(iter(vals))]
    return "p-values of mixed inference (see the 'inference' column)" if vals else ""


def _mean_of_known(values: np.ndarray) -> float:
    """The mean of the values that are not NaN (NaN when none is): pandas' `Series.mean()`."""
    known = values[~np.isnan(values)]
    return float(known.mean()) if len(known) else float("nan")


def _subset_title(subset: str) -> str:
    words = SUBSET_WORDS.get(subset, subset)
    return words[:1].upper() + words[1:]


def _setting(g: pd.DataFrame, key: str, default):
    import json
    try:
        return json.loads(g["settings"].iloc[0]).get(key, default)
    except (ValueError, KeyError, TypeError):
        return default


SUBSET_SHORT = {"all": "all sentences", "neutral": "sentences without emotion words",
                "emotional": "sentences with emotion words", "matching": "sentences whose emotion words match the task"}


def _short_verdict(verdict: str) -> str:
    return str(verdict).replace("not significant", "n.s.").replace("significant", "sig.")


_KM_ROW_COLUMNS = ("model", "emotion", "verdict", "n", "mean_delta", "avg_delta_pos", "avg_delta_neg", "delta_spread",
                   "p_value", "status", "note", "reason")


def km_model_tables(frame: pd.DataFrame, *, digits: int = 3, width: str = "page") -> list[Table]:
    """One row per system: bias group, mean Δ, average Δ>0 / Δ<0, Δ-spread and p.

    ``width="column"``: one block per system and subset (its name above it), a row per task, the
    bias group abbreviated and the Δ-spread left to the page-wide table. A test that does not
    exist prints "—" with a footnote giving the reason."""
    _check_width(width)
    if frame.empty:
        raise StatisticError("no paired tests to render")
    narrow = width == "column"
    tables = []
    previous = None
    # the rows are read through these columns only: itertuples builds a column at a time, and over the
    # paired table's 50 columns that was a seventh of its paper tables' time (0.203 -> 0.175 s, issue 42)
    read = [c for c in frame.columns if c in _KM_ROW_COLUMNS]
    for (corp, axis, subset), g in frame.groupby(["corpus", "axis", "subset"], sort=False):
        marks = Marks()
        where = f" on {corp}" if corp else ""
        caption = (f"Paired {axis} analysis per system{where}, per subset of sentences; "
                   f"p from {inference_words(g, 'km')}.")

        def p_cell(r) -> Cell:
            reason = untested_reason(r.p_value, getattr(r, "status", ""), getattr(r, "note", ""),
                                     getattr(r, "reason", ""))
            return marks.cell(reason) if reason else Cell(fmt_p(r.p_value, digits), numeric=True)

        if narrow:
            for model, gm in g.groupby("model", sort=False):
                one_n = gm["n"].nunique() == 1  # the same pairs for every task: said once, in the title
                header = [[("Task", 1), ("Bias group", 1)] + ([] if one_n else [("n", 1)])
                          + [("Mean Δ", 1), ("Avg. Δ", 2), ("p", 1)],
                          [("", 1), ("", 1)] + ([] if one_n else [("", 1)]) + [("", 1), ("> 0", 1), ("< 0", 1), ("", 1)]]
                rows = [[Cell(_title(r.emotion)), Cell(_short_verdict(r.verdict))]
                        + ([] if one_n else [Cell(str(r.n), numeric=True)])
                        + [num(r.mean_delta, digits), num(r.avg_delta_pos, digits), num(r.avg_delta_neg, digits),
                           p_cell(r)] for r in gm[read].itertuples(index=False)]
                title = f"{model} — {SUBSET_SHORT.get(subset, subset)}" + (f", {gm['n'].iloc[0]} pairs" if one_n else "")
                tables.append(Table(caption, header, rows, "ll" + ("" if one_n else "r") + "rrrr",
                                    continues=bool(tables) and previous == (corp, axis), block_title=title))
                previous = (corp, axis)
            tables[-1].notes = [legend({"n": "pairs", "Avg. Δ > 0 / < 0": "average of the positive / negative "
                                        "differences", "n.s.": "not significant", "sig.": "significant"}),
                                "The Δ-spread is in the page-wide table."] + marks.notes()
            continue
        header = [[("Model", 1), ("Task", 1), ("Bias group", 1), ("Pairs", 1), ("Mean Δ", 1),
                   ("Avg. Δ", 2), ("Δ-spread", 1), ("p", 1)],
                  [("", 1)] * 5 + [("> 0", 1), ("< 0", 1), ("", 1), ("", 1)]]
        rows, starts, last = [], [], None
        for r in g[read].itertuples(index=False):
            if r.model != last:
                starts.append(len(rows))
            rows.append([Cell(r.model), Cell(_title(r.emotion)), Cell(r.verdict),
                         Cell(str(r.n), numeric=True), num(r.mean_delta, digits), num(r.avg_delta_pos, digits),
                         num(r.avg_delta_neg, digits), num(r.delta_spread, digits), p_cell(r)])
            last = r.model
        tables.append(Table(caption, header, rows, "lllrrrrrr", starts, marks.notes(),
                            continues=previous == (corp, axis), block_title=_subset_title(subset)))
        previous = (corp, axis)
    return tables


# ------------------------------------------------------------------ Goldfarb-Tarrant et al.
from engine.stats.hypothesis_tests.counterfactual import INFERENCE_COLUMNS as COUNTERFACTUAL_INFERENCE_COLUMNS  # noqa: E402
def _short_band_verdict(verdict: str) -> str:
    from engine.stats.present import verdicts as V

    return {V.SIGNIFICANT_BEYOND: "sig., > band", V.SIGNIFICANT_WITHIN: "sig., ≤ band",
            V.NOT_SIGNIFICANT_BEYOND: "n.s., > band", V.NOT_SIGNIFICANT_WITHIN: "n.s., ≤ band",
            V.SIGNIFICANT: "sig.", V.NOT_SIGNIFICANT: "n.s."}.get(verdict, verdict)


def counterfactual_tables(frame: pd.DataFrame, *, digits: int = 3, by: Sequence[str] | None = None,
                          width: str = "page") -> list[Table]:
    """Per corpus, one table in two blocks (as wide tables are split in the papers): per model and
    group of pairs the mean (CI) and variance of R(priv) − R(min) with the verdict, then the
    shares of changed scores and the two tests' p-values.

    ``width="column"``: two blocks per model (its name above them), a row per group of pairs,
    short verdicts and column heads with a legend; a band shared by every row is stated in a note,
    the variance is left to the page-wide table. Warning columns (``language_warning``) are table
    notes, never columns; a test that does not exist prints "—" with a footnote."""
    from engine.stats.entries._shared import p_column
    from engine.stats.present.verdicts import frame_verdicts
    from engine.stats.hypothesis_tests.multitest import correction_name

    _check_width(width)
    if frame.empty:
        raise StatisticError("no counterfactual results to render")
    t_p, w_p = p_column(frame, "t_p_value"), p_column(frame, "wilcoxon_p_value")
    adjusted = "" if t_p == "t_p_value" else f" (p-values adjusted: {correction_name(frame, t_p)})"
    by = _counterfactual_by(frame, by)
    tables: list[Table] = []
    for corpus, g in frame.groupby("corpus", sort=False) if "corpus" in frame.columns else [("", frame)]:
        block = _CounterfactualBlock(_counterfactual_caption(g, corpus, adjusted), by, g.to_dict("records"),
                                     frame_verdicts(g), warning_notes(g), digits, t_p, w_p)
        if width == "column":
            _counterfactual_column_tables(tables, block, g)
        else:
            _counterfactual_page_tables(tables, block)
    return tables


def _counterfactual_by(frame: pd.DataFrame, by: Sequence[str] | None) -> list[str]:
    """The columns naming a group of pairs: ``by``, else every column that is no statistic, id or note
    (with the emotion first when the rows are of several)."""
    std = set(["corpus", "model", "emotion", "test", "note", "settings"]) | set(
        ["n", "mean_diff", "var_diff", "sd_diff", "ci_low", "ci_high", "share_changed", "share_priv_higher",
         "share_min_higher", "t_statistic", "t_df", "t_p_value", "wilcoxon_statistic", "wilcoxon_p_value",
         "band", "exceeds_band", "status", REASON_COLUMN, "verdict"]) | set(COUNTERFACTUAL_INFERENCE_COLUMNS) | set(
        note_columns(frame))
    by = list(by) if by is not None else [c for c in frame.columns if c not in std and not c.startswith(("t_p_", "wilcoxon_p_"))]
    if "emotion" in frame.columns and frame["emotion"].nunique() > 1 and "emotion" not in by:
        by = ["emotion"] + by  # rows of several emotions must say which is which
    return by


def _counterfactual_caption(g: pd.DataFrame, corpus, adjusted: str) -> str:
    inf = inference_words(g, "cf")
    ci_what = ("t interval over person pairs" if inf == INFERENCE_WORDS["cf"]["person"]
               else "t interval over person pairs, templates and words" if inf == INFERENCE_WORDS["cf"]["crossed"]
               else "bootstrap CI")
    return (f"Counterfactual pairs{' of ' + str(corpus) if corpus else ''}: difference R(privileged) − "
            f"R(minoritised) (> 0: against the minoritised group) with its 95% {ci_what} and variance; the "
            "verdict combines the t-test (α = 0.05) with the negligible band (|mean| ≤ band); then the "
            "share of pairs whose score changed, the shares where each side scored higher, and the p-values "
            f"of {inf}{adjusted}.")


@dataclass
class _CounterfactualBlock:
    """One corpus's rows of counterfactual results, and the cells their tables share (an untested
    p-value is "—" with a footnote mark, one per reason, explained in ``marks``' notes)."""

    caption: str
    by: list[str]
    records: list[dict]
    verdicts: list[str]
    notes: list[str]
    digits: int
    t_p: str
    w_p: str
    marks: Marks = field(default_factory=Marks)

    def p_cells(self, r) -> list[Cell]:
        reason = untested_reason(r[self.t_p], r.get("status", ""), r.get("note", ""), r.get(REASON_COLUMN, ""))
        if reason:
            return [self.marks.cell(reason), self.marks.cell(reason)]
        return [Cell(fmt_p(r[self.t_p], self.digits), numeric=True),
                Cell(fmt_p(r[self.w_p], self.digits), numeric=True)]

    def ci(self, r) -> Cell:
        return Cell(f"[{fmt(r['ci_low'], self.digits)}, {fmt(r['ci_high'], self.digits)}]", numeric=True)

    @staticmethod
    def pairs(r) -> Cell:
        return Cell(str(int(r["n"])) if r["n"] == r["n"] else "–", numeric=True)

    def shares(self, r) -> list[Cell]:
        return [num(r["share_changed"], self.digits), num(r["share_priv_higher"], self.digits),
                num(r["share_min_higher"], self.digits)]


def _counterfactual_column_tables(tables: list[Table], b: _CounterfactualBlock, g: pd.DataFrame) -> None:
    """Append one corpus's column-width blocks: per model, the size of the difference, then changes and tests."""
    digits, by = b.digits, b.by
    bands = {fmt(x, digits) for x in g["band"]} if "band" in g.columns else set()
    one_band = len(bands) == 1
    head1 = [("Group", 1), ("n", 1), ("Mean", 1), ("95% CI", 1)] + ([] if one_band else [("Band", 1)]) + [
        ("Verdict", 1)]
    head2 = [("", 1), ("Share of pairs", 3), ("p-value", 2)]
    head2b = [("Group", 1), ("Changed", 1), ("Priv. >", 1), ("Min. >", 1), ("t", 1), ("W", 1)]
    for model in dict.fromkeys(r["model"] for r in b.records):
        mine = [(r, v) for r, v in zip(b.records, b.verdicts) if r["model"] == model]
        label = [Cell(" · ".join(str(r[c]) for c in by) or "all pairs") for r, _v in mine]
        rows1 = [[lab, b.pairs(r), num(r["mean_diff"], digits), b.ci(r)]
                 + ([] if one_band else [num(r["band"], digits)]) + [Cell(_short_band_verdict(v))]
                 for lab, (r, v) in zip(label, mine)]
        rows2 = [[lab] + b.shares(r) + b.p_cells(r) for lab, (r, _v) in zip(label, mine)]
        tables.append(Table(b.caption, [head1], rows1, "lrrr" + ("" if one_band else "r") + "l",
                            continues=bool(tables), block_title=f"{model} — size of the difference"))
        tables.append(Table(b.caption, [head2, head2b], rows2, "lrrrrr", continues=True,
                            block_title=f"{model} — changes and tests"))
    band = f"Band = {next(iter(bands))} (|mean| ≤ band: negligible); " if one_band else ""
    tables[-1].notes = b.notes + [
        legend({"Group": " · ".join(c.capitalize() for c in by) or "all pairs", "n": "pairs",
                "sig.": "significant (t-test, α = 0.05)", "n.s.": "not significant",
                "> band / ≤ band": "beyond / within the negligible band",
                "Priv. > / Min. >": "shares of pairs where the privileged / minoritised side scored higher",
                "W": "Wilcoxon signed-rank test"}).replace("Group = ", band + "Group = ")
        + " The variance is in the page-wide table."] + b.marks.notes()


def _counterfactual_page_tables(tables: list[Table], b: _CounterfactualBlock) -> None:
    """Append one corpus's page-width blocks: the size of the difference, then changes and tests."""
    keys = [("Model", 1)] + [(c.capitalize(), 1) for c in b.by]
    first, second, starts, last = [], [], [], None
    for r, verdict in zip(b.records, b.verdicts):
        if r["model"] != last:
            starts.append(len(first))
        label = [Cell(str(r["model"]))] + [Cell(str(r[c])) for c in b.by]
        last = r["model"]
        first.append(label + [b.pairs(r), num(r["mean_diff"], b.digits), b.ci(r), num(r["var_diff"], b.digits),
                              num(r["band"], b.digits), Cell(verdict)])
        second.append(label + b.shares(r) + b.p_cells(r))
    lead = "l" * len(keys)
    tables.append(Table(b.caption, [keys + [("Pairs", 1), ("Mean", 1), ("95% CI", 1), ("Variance", 1), ("Band", 1),
                                            ("Verdict", 1)]], first, lead + "rrrrrl", starts,
                        block_title="Size of the difference"))
    tables.append(Table(b.caption, [[("", 1)] * len(keys) + [("Share of pairs", 3), ("p-value", 2)],
                                    keys + [("Changed", 1), ("Priv. higher", 1), ("Min. higher", 1), ("t", 1),
                                            ("Wilcoxon", 1)]], second, lead + "rrrrr", list(starts),
                        b.notes + b.marks.notes(), continues=True, block_title="Changes and tests"))


# ------------------------------------------------------------------------- confusion matrix
def confusion_tables(frame: pd.DataFrame, *, digits: int = 3, shares: bool = False,
                     width: str = "page") -> list[Table]:
    """The matrix of :func:`engine.stats.confusion_matrix` (privileged rows × minoritised columns):
    counts (or shares of all pairs with ``shares=True``) and the mass below/above the diagonal.
    ``width="column"`` heads the row labels "Priv. \\ Min." (spelled out in the caption)."""
    _check_width(width)
    if frame.empty:
        raise StatisticError("no confusion matrix to render")
    tables = []
    keys = [c for c in ("corpus", "model", "emotion") if c in frame.columns]
    for key, g in (frame.groupby(keys, sort=False) if keys else [((), frame)]):
        rows_l = list(pd.unique(g["privileged"]))
        cols_l = list(pd.unique(g["minoritised"]))
        look = {(r.privileged, r.minoritised): r for r in g.itertuples(index=False)}
        corner = "Priv. \\ Min." if width == "column" else "Privileged / minoritised"
        header = [[(corner, 1)] + [(str(c), 1) for c in cols_l]]
        body = []
        for r in rows_l:
            cells = [Cell(str(r))]
            for c in cols_l:
                hit = look.get((r, c))
                v = (hit.share if shares else hit.count) if hit is not None else 0
                cells.append(num(v, digits) if shares else Cell(str(int(v)), numeric=True))
            body.append(cells)
        n = int(g["count"].sum())
        below = g.loc[g["position"] == "below", "count"].sum() / n if n else float("nan")
        above = g.loc[g["position"] == "above", "count"].sum() / n if n else float("nan")
        what = " · ".join(str(k) for k in (key if isinstance(key, tuple) else (key,)) if str(k))
        cap = (f"Confusion matrix{' (' + what + ')' if what else ''}: privileged-side score (rows) × "
               f"minoritised-side score (columns), {'shares of' if shares else 'counts over'} {n} pairs. "
               f"Below the diagonal (privileged higher): {fmt(below, digits)}; above (minoritised higher): "
               f"{fmt(above, digits)}.")
        tables.append(Table(cap, header, body, "l" + "r" * len(cols_l)))
    return tables


# ------------------------------------------------------------------ association tests (WEAT, SEAT, LPBS)
def association_tables(frame: pd.DataFrame, *, digits: int = 3, width: str = "page") -> list[Table]:
    """The association tests' overview (one row per requested test: ``tests`` of engine.assoc) as one
    table: effect size d with stars, p and how it was found, the set sizes. A test that did not run
    prints "—" with its reason as a footnote. ``width="column"``: the test's id, d and p only (its
    title, the p method and the set sizes are in the page-wide table)."""
    from engine.common.fmt import stars

    _check_width(width)
    if frame.empty:
        raise StatisticError("no association tests to render")
    narrow = width == "column"
    marks = Marks()
    rows = []
    for r in frame.to_dict("records"):
        ok = r.get("status") == "ok"
        p = r.get("p_value")
        sizes = "/".join(str(int(r[k])) if k in r and r[k] == r[k] else "–" for k in ("n_x", "n_y", "n_a", "n_b"))
        d = num(r.get("effect_size"), digits, stars(p)) if ok else marks.cell(f"{r.get('status')}: {r.get('note', '')}")
        row = [Cell(str(r["test"]))] + ([] if narrow else [Cell(str(r.get("title") or ""))])
        row += [d, Cell(fmt_p(p, digits), numeric=True) if ok else Cell("")]
        row += [] if narrow else [Cell(str(r.get("p_method") or ""))]
        rows.append(row + ([] if narrow else [Cell(sizes if ok else "", numeric=True)]))
    header = [[("Test", 1)] + ([] if narrow else [("Title", 1)]) + [("d", 1), ("p", 1)]
              + ([] if narrow else [("p from", 1), ("|X|/|Y|/|A|/|B|", 1)])]
    notes = [legend({"d": "effect size (Caliskan et al.), stars by p; the test's title, how p was found and "
                     "the set sizes are in the page-wide table"})] if narrow else []
    caption = "Association tests: effect size d and p of each test."
    return [Table(caption, header, rows, "lrr" if narrow else "llrrlr",
                  notes=notes + marks.notes())]

