"""Shared input checks and row labels for every bias statistic.

Why one module: every analysis must refuse bad scores the same way (NaN, infinities,
values outside the declared scale) and label its result rows the same way (corpus, model,
emotion, test, n, settings), so that tables from different tests can be concatenated,
saved and re-derived. Only numpy and pandas here; scipy/statsmodels are imported lazily by
the modules that need them.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from engine.common.fmt import stars  # noqa: F401  (re-exported: engine.stats.stars)
from engine.stats.errors import StatisticError

#: Groups the data contract names as the reference ("majority") of the race/ethnicity axis.
#: Used only to infer ``majority`` when exactly one of them occurs in the data.
KNOWN_REFERENCE_GROUPS: tuple[str, ...] = ("European", "Anglo")

#: Short labels used in verdicts ("AA↑–EA↓ significant"), as in Kiritchenko & Mohammad.
GROUP_ABBREVIATIONS: dict[str, str] = {"African-American": "AA", "European": "EA", "female": "F", "male": "M"}

#: Differences smaller than this (relative to the score scale) are treated as exactly zero.
#: Averages of identical floats can differ in the last bit; without this a lexicon system
#: that ignores names could come out "significantly" biased by rounding noise.
ZERO_TOL = 1e-12

SCORES_HELP = ("pass a column name, a list of column names, or a mapping "
               "{column: (model, emotion)}")


@dataclass(frozen=True)
class ScoreSpec:
    """One score column and the labels its result rows carry."""

    column: str
    model: str
    emotion: str


def resolve_scores(score_col: str | Sequence[str] | Mapping[str, Any],
                   model: str | None = None, emotion: str | None = None) -> list[ScoreSpec]:
    """Turn the ``score_col`` argument into labelled score columns.

    * ``"bert_anger"`` -> model ``model`` (default: the column name), emotion ``emotion`` (default "").
    * ``["a", "b"]`` -> one spec per column, model = column name, emotion = ``emotion`` or "".
    * ``{"bert_anger": ("BERT", "anger")}`` -> explicit labels (``model``/``emotion`` must be None).
    """
    if isinstance(score_col, str):
        return [ScoreSpec(score_col, model if model is not None else score_col, emotion or "")]
    if isinstance(score_col, Mapping):
        if model is not None or emotion is not None:
            raise StatisticError("model=/emotion= cannot be combined with a {column: (model, emotion)} mapping")
        specs = []
        for col, lab in score_col.items():
            if isinstance(lab, str):
                lab = (lab, "")
            if not (isinstance(lab, (tuple, list)) and len(lab) == 2):
                raise StatisticError(f"labels for score column {col!r} must be (model, emotion), got {lab!r}")
            specs.append(ScoreSpec(str(col), str(lab[0]), str(lab[1])))
        if not specs:
            raise StatisticError("no score columns given; " + SCORES_HELP)
        return specs
    if isinstance(score_col, Sequence):
        cols = list(score_col)
        if not cols:
            raise StatisticError("no score columns given; " + SCORES_HELP)
        if model is not None and len(cols) > 1:
            raise StatisticError("model= labels a single score column; for several columns "
                             "pass a mapping {column: (model, emotion)}")
        return [ScoreSpec(str(c), model if model is not None else str(c), emotion or "") for c in cols]
    raise TypeError(f"score_col: {SCORES_HELP} (got {type(score_col).__name__})")


def require_columns(df: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    """Raise a ValueError naming the missing columns (instead of a KeyError deep inside pandas)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{what}: expected a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise StatisticError(f"{what}: missing column(s) {missing}; columns present: {list(df.columns)}")


def numeric_scores(df: pd.DataFrame, col: str) -> np.ndarray:
    """The score column as float64, with a clear message when it is not numeric."""
    try:
        return pd.to_numeric(df[col], errors="raise").to_numpy(dtype=float)
    except (ValueError, TypeError) as exc:
        raise StatisticError(f"score column {col!r} is not numeric ({exc})") from None


def refuse_missing(df: pd.DataFrame, cols: Sequence[str], dropna: bool,
                   id_col: str = "ID") -> tuple[pd.DataFrame, list[str]]:
    """Refuse NaN/inf scores (or drop those rows when ``dropna``), returning a note per column.

    Why refuse by default: a NaN silently dropped changes which sentences are compared, and a
    NaN kept turns every statistic into NaN. Either way the user must know.
    """
    notes: list[str] = []
    bad_any = np.zeros(len(df), dtype=bool)
    for col in cols:
        vals = numeric_scores(df, col)
        bad = ~np.isfinite(vals)
        if bad.any():
            ids = df.loc[bad, id_col].astype(str).head(5).tolist() if id_col in df.columns else \
                [str(i) for i in df.index[bad][:5]]
            if not dropna:
                raise StatisticError(
                    f"score column {col!r} has {int(bad.sum())} missing or infinite value(s) "
                    f"(first: {', '.join(ids)}); scores must be finite numbers — re-score those "
                    f"sentences, or let the statistics leave them out with a note: for a prediction file "
                    f"add ?on_missing=keep or ?on_bad=keep to its --model spec (Python: dropna=True)")
            notes.append(f"{int(bad.sum())} row(s) with missing {col!r} left out of this statistic")
            bad_any |= bad
    return (df.loc[~bad_any] if bad_any.any() else df), notes


def check_range(values: np.ndarray, score_range: tuple[float, float], col: str) -> None:
    """Refuse scores outside the declared scale, which would make the squeeze meaningless."""
    lo, hi = float(score_range[0]), float(score_range[1])
    if not hi > lo:
        raise StatisticError(f"score_range must be (low, high) with high > low, got {score_range!r}")
    if values.size and (values.min() < lo - ZERO_TOL * (hi - lo) or values.max() > hi + ZERO_TOL * (hi - lo)):
        raise StatisticError(
            f"score column {col!r} has values outside the declared score range [{lo:g}, {hi:g}] "
            f"(min {values.min():.6g}, max {values.max():.6g}). Pass score_range=(low, high) with the "
            f"bounds of the model's scale, e.g. score_range=(-1, 1) for a valence in [-1, 1].")


def resolve_race_groups(race_values: Sequence[str], minority: str | None,
                        majority: str | None, where: str = "") -> tuple[str, str]:
    """Pick the minority and majority race/ethnicity groups, inferring only when unambiguous."""
    groups = sorted({str(g) for g in race_values if isinstance(g, str) and g != ""})
    ctx = f" in {where}" if where else ""
    if majority is None:
        cands = [g for g in groups if g in KNOWN_REFERENCE_GROUPS]
        if len(cands) != 1:
            raise StatisticError(f"cannot tell which race/ethnicity group is the majority (reference){ctx}: "
                             f"groups in the data are {groups}; pass majority=... (and minority=...)")
        majority = cands[0]
    elif majority not in groups:
        raise StatisticError(f"majority group {majority!r} not found{ctx}; groups in the data: {groups}")
    if minority is None:
        others = [g for g in groups if g != majority]
        if len(others) != 1:
            raise StatisticError(f"cannot tell which race/ethnicity group is the minority{ctx}: groups other "
                             f"than {majority!r} are {others}; pass minority=...")
        minority = others[0]
    elif minority not in groups:
        raise StatisticError(f"minority group {minority!r} not found{ctx}; groups in the data: {groups}")
    if minority == majority:
        raise StatisticError(f"minority and majority are the same group ({minority!r})")
    return minority, majority


def split_corpora(df: pd.DataFrame, corpus: str | None) -> Iterator[tuple[str, pd.DataFrame]]:
    """Yield (corpus label, rows): one per value of the ``corpus`` column unless a label is forced."""
    if corpus is not None:
        yield str(corpus), df
        return
    if "corpus" not in df.columns:
        yield "", df
        return
    for label in pd.unique(df["corpus"].astype(str)):
        yield label, df[df["corpus"].astype(str) == label]


def _json_default(o: Any) -> Any:
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    return str(o)


def settings_json(settings: Mapping[str, Any]) -> str:
    """Settings as a stable JSON string, so a saved CSV row says how it was computed."""
    return json.dumps(dict(settings), sort_keys=True, ensure_ascii=False, default=_json_default)


def default_model(priv_col: str, min_col: str) -> str:
    """Model label for a pair of score columns: their common prefix ("bert:priv", "bert:min" -> "bert")."""
    import os

    pre = os.path.commonprefix([priv_col, min_col]).rstrip("_:-. /|")
    return pre or priv_col


def abbreviation(group: str) -> str:
    return GROUP_ABBREVIATIONS.get(group, group)


def normalise_zero(x: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """Set |x| below ZERO_TOL·scale to exactly 0 (see ZERO_TOL)."""
    x = np.asarray(x, dtype=float).copy()
    x[np.abs(x) <= ZERO_TOL * max(scale, 1.0)] = 0.0
    return x


def crossed_factors(rows: pd.DataFrame) -> dict[str, np.ndarray] | None:
    """Template and emotion-word labels of each row (``template_id``; ``emotion_word_id`` or, in a pair
    table, ``emotion_word``), for crossed inference (None without the columns).

    A sentence without an emotion word (a neutral template) has no word effect: its word label is
    empty, so it takes no part in the word factor (engine.stats.models.crossed).
    """
    word_col = next((c for c in ("emotion_word_id", "emotion_word") if c in rows.columns), None)
    if "template_id" not in rows.columns or word_col is None:
        return None
    from engine.stats.models.fit_frame import shared_labels

    t = shared_labels(rows["template_id"])  # a categorical (fit_frame): one string per template, not per row
    words = rows[word_col]
    w = shared_labels(words) if isinstance(words.dtype, pd.CategoricalDtype) else \
        words.fillna("").astype(str).to_numpy().astype(object)  # fit_frame's word column has "" for no word
    if len(set(t)) < 2 and len(set(w[w != ""])) < 2:
        return None
    return {"template": t, "word": w}
