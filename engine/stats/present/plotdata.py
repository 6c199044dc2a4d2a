"""What a results plot draws, and the sentence pairs behind each mark (drill-down).

Why in the engine: the GUI (gui/results), the HTML report and a notebook must draw the same
boxes and heatmaps and list the same pairs behind them; quartiles, bin membership and the
mapping from a K&M pair back to its sentences are statistics and data handling, not display.
Only numpy and pandas; every function takes the tidy tables of an audit folder
(docs/DATA-CONTRACT.md, engine/audit/pipeline.py) and returns plain numbers or DataFrames.

* ``box_summary`` / ``km_boxes``: Tukey box plots of K&M per-pair differences per system.
* ``km_pair_sentences``: the pairs behind one box, with the sentences on both sides.
* ``km_pair_members``: every sentence averaged into one K&M pair (names are averaged).
* ``beta_term_sentences``: the sentences of the two groups a Beta-regression term compares.
* ``display_confusion`` / ``confusion_cell_pairs``: a confusion matrix with labels or bins
  chosen for display, and the pairs that fall into one of its cells.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

import numpy as np
import pandas as pd

from engine.stats.hypothesis_tests.confusion import ConfusionMatrix, confusion_matrix
from engine.stats.errors import StatisticError

#: K&M subsets a box plot can show: all pairs, neutral templates only, emotional templates only.
KM_SUBSETS = ("all", "neutral", "emotional")
#: At most this many distinct scores are shown as labels (1–5 stars); more are binned.
MAX_DISPLAY_LABELS = 10


def box_summary(values: Any, whisker: float = 1.5) -> dict[str, Any]:
    """Tukey box: quartiles (linear interpolation), whiskers at the most extreme values within
    ``whisker`` × IQR of the box, the points beyond them (outliers), n and mean. NaNs are ignored."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if x.size == 0:
        nan = float("nan")
        return {"n": 0, "mean": nan, "median": nan, "q1": nan, "q3": nan, "whisker_low": nan,
                "whisker_high": nan, "outliers": np.array([], dtype=float)}
    q1, med, q3 = (float(v) for v in np.percentile(x, [25, 50, 75]))
    iqr = q3 - q1
    lo_lim, hi_lim = q1 - whisker * iqr, q3 + whisker * iqr
    inside = x[(x >= lo_lim) & (x <= hi_lim)]
    return {"n": int(x.size), "mean": float(x.mean()), "median": med, "q1": q1, "q3": q3,
            "whisker_low": float(inside.min()) if inside.size else q1,
            "whisker_high": float(inside.max()) if inside.size else q3,
            "outliers": np.sort(x[(x < lo_lim) | (x > hi_lim)])}


def _subset_mask(pairs: pd.DataFrame, subset: str) -> pd.Series:
    if subset not in KM_SUBSETS:
        raise StatisticError(f"subset must be one of {', '.join(KM_SUBSETS)}, not {subset!r}")
    if subset == "all" or "neutral" not in pairs.columns:
        return pd.Series(True, index=pairs.index)
    neutral = pairs["neutral"].astype(str).str.lower().isin(["true", "1"])
    return neutral if subset == "neutral" else ~neutral


def km_pairs_for(paired_pairs: pd.DataFrame, *, corpus: str | None = None, model: str | None = None,
                 emotion: str | None = None, axis: str = "gender", subset: str = "all") -> pd.DataFrame:
    """The rows of a K&M pair table (``stats/paired_pairs.csv``) for one selection."""
    if paired_pairs is None or not len(paired_pairs):
        return pd.DataFrame()
    sel = (paired_pairs["axis"] == axis) & _subset_mask(paired_pairs, subset)
    if corpus is not None:
        sel &= paired_pairs["corpus"] == corpus
    if model is not None:
        sel &= paired_pairs["model"].astype(str) == str(model)
    if emotion is not None:
        sel &= paired_pairs["emotion"].astype(str) == str(emotion)
    return paired_pairs[sel]


def km_boxes(paired_pairs: pd.DataFrame, *, corpus: str | None = None, axis: str = "gender",
             subset: str = "all") -> pd.DataFrame:
    """One row per system (corpus × model × emotion): the box of its per-pair Δ.

    Δ = female − male or minority − majority (K&M). Columns: corpus, model, emotion, system
    ("model:emotion"), then ``box_summary``'s keys (``outliers`` as an array)."""
    rows = km_pairs_for(paired_pairs, corpus=corpus, axis=axis, subset=subset)
    out = []
    if len(rows):
        for (corp, model, emotion), g in rows.groupby(["corpus", "model", "emotion"], sort=False):
            out.append({"corpus": corp, "model": model, "emotion": emotion, "system": f"{model}:{emotion}",
                        **box_summary(g["delta"])})
    cols = ["corpus", "model", "emotion", "system", "n", "mean", "median", "q1", "q3", "whisker_low",
            "whisker_high", "outliers"]
    return pd.DataFrame(out, columns=cols)


def _isblank(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or str(v) in ("", "nan", "None")


def _instance_rows(scores: pd.DataFrame, template_id: Any, emotion_word_id: Any) -> pd.DataFrame:
    sel = scores["template_id"].astype(str) == str(template_id)
    ew = scores["emotion_word_id"]
    if _isblank(emotion_word_id):
        sel &= ew.isna() | (ew.astype(str) == "")
    else:
        sel &= ew.astype(str) == str(emotion_word_id)
    return scores[sel]


def _side_rows(inst: pd.DataFrame, pair: Mapping[str, Any], side: str) -> pd.DataFrame:
    """Sentences of one side (``a`` or ``b``) of a K&M pair within its template × emotion word."""
    kind = str(pair.get("kind", ""))
    axis = str(pair.get("axis", "gender"))
    label = str(pair[side])
    if kind == "noun_phrase":
        key = str(pair["pair_id"]).rsplit("|", 1)[-1]
        f_id, _, m_id = key.partition("~")
        pid = f_id if side == "a" else m_id
        return inst[inst["person_id"].astype(str) == pid]
    names = inst[inst["person_kind"].astype(str) == "name"]
    if axis == "gender":
        return names[names["Gender"].astype(str) == label]
    sel = names["Race"].astype(str) == label
    if not _isblank(pair.get("gender")):
        sel &= names["Gender"].astype(str) == str(pair["gender"])
    return names[sel]


def km_pair_sentences(pairs: pd.DataFrame, scores: pd.DataFrame | None) -> pd.DataFrame:
    """The K&M pairs given, each with the sentence(s) on both sides and both scores.

    A noun-phrase pair compares two sentences; a name pair compares two *averages* (all female
    and all male names, or the two race groups' names of one gender), shown as
    "mean of N: <first sentence> …". Without the scored corpus table the sentences are blank.
    Sentences are looked up through one index of the corpus table (fast for thousands of pairs)."""
    cols = ["pair_id", "template_id", "emotion_word_id", "kind", "a", "b", "sentence_a", "sentence_b",
            "score_a", "score_b", "delta", "n_a", "n_b"]
    if pairs is None or not len(pairs):
        return pd.DataFrame(columns=cols)
    out = pairs[[c for c in cols if c in pairs.columns]].copy()
    out["sentence_a"], out["sentence_b"] = "", ""
    need = {"template_id", "emotion_word_id", "person_id", "person_kind", "Gender", "Race", "Sentence"}
    if scores is not None and need <= set(scores.columns):
        index = _sentence_index(scores)
        sa, sb = [], []
        for p in pairs.to_dict("records"):
            sa.append(index.describe(p, "a"))
            sb.append(index.describe(p, "b"))
        out["sentence_a"], out["sentence_b"] = sa, sb
    return out[[c for c in cols if c in out.columns]].reset_index(drop=True)


_INDEX_CACHE: dict[int, tuple[Any, "_SentenceIndex"]] = {}


def _sentence_index(scores: pd.DataFrame) -> "_SentenceIndex":
    """One index per corpus table, reused while that table lives (drill-downs click many boxes)."""
    import weakref

    hit = _INDEX_CACHE.get(id(scores))
    if hit is not None and hit[0]() is scores:
        return hit[1]
    index = _SentenceIndex(scores)
    for key in [k for k, (ref, _i) in _INDEX_CACHE.items() if ref() is None]:
        del _INDEX_CACHE[key]
    _INDEX_CACHE[id(scores)] = (weakref.ref(scores), index)
    return index


class _SentenceIndex:
    """(template, emotion word) -> sentences by person id, and by gender / race for names."""

    def __init__(self, scores: pd.DataFrame) -> None:
        ew = scores["emotion_word_id"].where(scores["emotion_word_id"].notna(), "").astype(str)
        keys = list(zip(scores["template_id"].astype(str), ew.replace({"nan": ""})))
        self.by_person: dict[tuple, str] = {}
        self.by_group: dict[tuple, list[str]] = {}
        for key, pid, kind, g, r, sent in zip(keys, scores["person_id"].astype(str), scores["person_kind"].astype(str),
                                              scores["Gender"].astype(str), scores["Race"].astype(str),
                                              scores["Sentence"].astype(str)):
            self.by_person.setdefault((*key, pid), sent)
            if kind == "name":
                self.by_group.setdefault((*key, "gender", g, ""), []).append(sent)
                self.by_group.setdefault((*key, "race", r, g), []).append(sent)
                self.by_group.setdefault((*key, "race", r, ""), []).append(sent)

    def describe(self, p: Mapping[str, Any], side: str) -> str:
        ew = "" if _isblank(p.get("emotion_word_id")) else str(p["emotion_word_id"])
        key = (str(p["template_id"]), ew)
        if str(p.get("kind", "")) == "noun_phrase":
            f_id, _, m_id = str(p["pair_id"]).rsplit("|", 1)[-1].partition("~")
            return self.by_person.get((*key, f_id if side == "a" else m_id), "")
        axis = str(p.get("axis", "gender"))
        gender = "" if axis == "gender" or _isblank(p.get("gender")) else str(p["gender"])
        sents = self.by_group.get((*key, axis, str(p[side]), gender), [])
        return _describe_list(sents)


def _describe_list(sents: list[str]) -> str:
    if not sents:
        return ""
    return sents[0] if len(sents) == 1 else f"mean of {len(sents)}: {sents[0]} …"


def km_pair_members(pair: Mapping[str, Any], scores: pd.DataFrame, score_col: str) -> pd.DataFrame:
    """Every sentence behind one K&M pair: side (a/b), group label, ID, sentence and its score."""
    inst = _instance_rows(scores, pair["template_id"], pair.get("emotion_word_id"))
    parts = []
    for side in ("a", "b"):
        rows = _side_rows(inst, pair, side)
        parts.append(pd.DataFrame({"side": side, "group": str(pair[side]), "ID": rows["ID"].to_numpy(),
                                   "Sentence": rows["Sentence"].to_numpy(),
                                   "score": rows[score_col].to_numpy(dtype=float) if score_col in rows else np.nan}))
    return pd.concat(parts, ignore_index=True)


def beta_term_sentences(scores: pd.DataFrame, score_col: str, term: str, *, minority: str, majority: str,
                        female: str = "female", male: str = "male") -> pd.DataFrame:
    """The name sentences a Beta-regression term compares, with their scores.

    race: minority men vs majority men; gender: majority women vs majority men; intersection:
    minority women vs everyone else it is contrasted with (the other three groups). Columns:
    group, ID, Sentence, Person, Template, Emotion word, score — the term's own group first."""
    names = scores[scores["person_kind"].astype(str) == "name"]
    race, gender = names["Race"].astype(str), names["Gender"].astype(str)
    groups = {
        "race": [(f"{minority} {male}", (race == minority) & (gender == male)),
                 (f"{majority} {male}", (race == majority) & (gender == male))],
        "gender": [(f"{majority} {female}", (race == majority) & (gender == female)),
                   (f"{majority} {male}", (race == majority) & (gender == male))],
        "intersection": [(f"{minority} {female}", (race == minority) & (gender == female)),
                         (f"{minority} {male}", (race == minority) & (gender == male)),
                         (f"{majority} {female}", (race == majority) & (gender == female)),
                         (f"{majority} {male}", (race == majority) & (gender == male))],
        "intercept": [(f"{majority} {male}", (race == majority) & (gender == male))],
    }
    if term not in groups:
        raise StatisticError(f"unknown term {term!r}; expected one of {', '.join(groups)}")
    keep = [c for c in ("ID", "Sentence", "Person", "Template", "Emotion word") if c in names.columns]
    parts = []
    for label, mask in groups[term]:
        part = names.loc[mask, keep].copy()
        part.insert(0, "group", label)
        part["score"] = names.loc[mask, score_col].to_numpy(dtype=float)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def beta_groups(settings: Any) -> tuple[str, str, str, str]:
    """(minority, majority, female, male) from a Beta row's ``settings`` (JSON string or dict)."""
    s = json.loads(settings) if isinstance(settings, str) else dict(settings or {})
    return (str(s.get("minority", "")), str(s.get("majority", "")), str(s.get("female", "female")),
            str(s.get("male", "male")))


def _pairs_of(pairs: pd.DataFrame, priv_col: str, min_col: str, variable: str | None) -> pd.DataFrame:
    sel = pairs[priv_col].notna() & pairs[min_col].notna()
    if variable is not None and "variable" in pairs.columns:
        sel &= pairs["variable"].astype(str) == str(variable)
    return pairs[sel]


def display_confusion(pairs: pd.DataFrame, priv_col: str, min_col: str, *, variable: str | None = None,
                      bins: int = 5, max_labels: int = MAX_DISPLAY_LABELS) -> ConfusionMatrix:
    """``confusion_matrix`` of one score column pair (and one ``variable``), ready to draw.

    Discrete scores with at most ``max_labels`` distinct values (star ratings, argmax labels)
    are used as labels; anything else is cut into ``bins`` equal-width bins over the observed
    range of both sides (the bins are in ``settings["bins"]``). Pairs with a missing score
    on either side are left out (``settings["dropped_missing"]``)."""
    data = _pairs_of(pairs, priv_col, min_col, variable)
    dropped = int(len(pairs if variable is None or "variable" not in pairs.columns
                      else pairs[pairs["variable"].astype(str) == str(variable)]) - len(data))
    values = pd.concat([data[priv_col], data[min_col]]).astype(float)
    distinct = np.unique(values.to_numpy())
    if len(distinct) <= max_labels:
        cm = confusion_matrix(data, priv_col, min_col, labels=sorted(distinct.tolist()) or [0.0])
    else:
        cm = confusion_matrix(data, priv_col, min_col, bins=int(bins))
    cm.settings["dropped_missing"] = dropped
    if variable is not None:
        cm.settings["variable"] = variable
    return cm


def _cell_index(values: np.ndarray, cm: ConfusionMatrix) -> np.ndarray:
    if cm.kind == "bins":
        edges = np.asarray(cm.settings["bins"], dtype=float)
        k = len(edges) - 1
        return np.clip(np.searchsorted(edges, values, side="left") - 1, 0, k - 1)
    index = {float(v): i for i, v in enumerate(cm.matrix.index)}
    return np.array([index.get(float(v), -1) for v in values], dtype=int)


def confusion_cell_pairs(pairs: pd.DataFrame, priv_col: str, min_col: str, cm: ConfusionMatrix, row: int,
                         col: int, *, variable: str | None = None) -> pd.DataFrame:
    """The pairs in cell (``row``, ``col``) of ``cm`` (privileged row, minoritised column), with
    both sentences and both scores and R(privileged) − R(minoritised)."""
    data = _pairs_of(pairs, priv_col, min_col, variable)
    a = data[priv_col].to_numpy(dtype=float)
    b = data[min_col].to_numpy(dtype=float)
    sel = (_cell_index(a, cm) == row) & (_cell_index(b, cm) == col)
    part = data[sel]
    keep = [c for c in ("pair_id", "template_id", "emotion", "emotion_word", "variable", "privileged_person",
                        "minoritised_person", "privileged", "minoritised") if c in part.columns]
    out = part[keep].copy()
    out["score_privileged"] = part[priv_col].to_numpy(dtype=float)
    out["score_minoritised"] = part[min_col].to_numpy(dtype=float)
    out["difference"] = out["score_privileged"] - out["score_minoritised"]
    return out.reset_index(drop=True)
