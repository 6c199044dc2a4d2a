"""The sentence pairs of Kiritchenko & Mohammad's (2018) bias analysis.

Why a module of its own: which scores are compared is the whole method, and users want
the pairs themselves (for box plots like the paper's Figures 1–2), not only the tests.

Gender, per template × emotion word (a neutral template counts once):
  * each female noun phrase against its male counterpart ("my mother" / "my father");
  * the average over the female names against the average over the male names (all
    race/ethnicity groups).
Race, per template × emotion word × gender (``by_gender=True``, the default):
  * the average over the minority group's names against the average over the majority
    group's names of that gender. ``by_gender=False`` pools both genders into one pair per
    template × emotion word, as the paper's text describes (144 pairs on the EEC).
Δ = score(female or minority) − score(male or majority).

Noun-phrase counterparts are not in the corpus table, so they must be given: either a
mapping ``np_pairs={female person_id: male person_id}`` (either direction is accepted;
with ``engine.corpus`` it is ``{p.id: p.pair for p in corpus.persons if p.pair}``) or a
column (default ``pair_key``) holding the same key on both members of a pair.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from engine.stats import _common as C
from engine.stats.errors import StatisticError

INSTANCE = ["template_id", "emotion_word_id"]
PAIR_COLUMNS = ["pair_id", "template_id", "emotion_word_id", "Emotion", "kind", "gender",
                "a", "b", "n_a", "n_b", "score_a", "score_b", "delta"]


def _np_keys(nps: pd.DataFrame, np_pairs: Mapping[str, str] | None, pair_key_col: str,
             female: str, male: str) -> tuple[pd.Series, list[str]]:
    """A pair key per noun-phrase row ('female_id~male_id'), '' where the row has no partner."""
    notes: list[str] = []
    if np_pairs is not None:
        gender_of = nps.groupby("person_id")["Gender"].first().astype(str).to_dict()
        key_of: dict[str, str] = {}
        for a, b in dict(np_pairs).items():
            a, b = str(a), str(b)
            if a not in gender_of or b not in gender_of:
                continue  # a pair of terms not used in this corpus/subset
            ga, gb = gender_of[a], gender_of[b]
            if {ga, gb} != {female, male}:
                raise StatisticError(f"np_pairs: {a!r} ({ga}) and {b!r} ({gb}) are not a {female}/{male} pair")
            f_id, m_id = (a, b) if ga == female else (b, a)
            key = f"{f_id}~{m_id}"
            for pid in (f_id, m_id):
                if key_of.get(pid, key) != key:
                    raise StatisticError(f"np_pairs: {pid!r} is paired with more than one term")
                key_of[pid] = key
        keys = nps["person_id"].astype(str).map(key_of).fillna("")
    elif pair_key_col in nps.columns:
        keys = nps[pair_key_col].fillna("").astype(str)
    else:
        raise StatisticError(
            "noun-phrase sentences are present but their female/male counterparts are unknown: pass "
            "np_pairs={female_person_id: male_person_id} (with engine.corpus: "
            "{p.id: p.pair for p in corpus.persons if p.pair}) or add a "
            f"{pair_key_col!r} column with the same key on both members of a pair")
    unpaired = int((keys == "").sum())
    if unpaired:
        ids = sorted(set(nps.loc[keys == "", "person_id"].astype(str)))[:5]
        notes.append(f"{unpaired} noun-phrase sentence(s) without a counterpart left out (e.g. {', '.join(ids)})")
    return keys, notes


def _mean_by(rows: pd.DataFrame, keys: list[str], col: str) -> pd.DataFrame:
    g = rows.groupby(keys, sort=False)[col]
    return pd.DataFrame({"mean": g.mean(), "count": g.size()}).reset_index()


def km_pairs(df: pd.DataFrame, score_col: str, axis: str = "gender", *, minority: str | None = None,
             majority: str | None = None, np_pairs: Mapping[str, str] | None = None,
             pair_key_col: str = "pair_key", by_gender: bool = True, female: str = "female",
             male: str = "male") -> tuple[pd.DataFrame, list[str], dict]:
    """Build the pairs of one axis for one score column.

    Returns (pairs, notes, labels): ``pairs`` has one row per pair with columns
    ``pair_id, template_id, emotion_word_id, Emotion, kind ('noun_phrase' | 'name_average'),
    gender (race pairs by gender), a, b (group labels), n_a, n_b (sentences averaged),
    score_a, score_b, delta``; ``labels`` gives ``{"a": ..., "b": ...}`` (female/male or
    minority/majority).
    """
    C.require_columns(df, INSTANCE + ["Gender", "Race", "Emotion", "person_kind", "person_id", score_col],
                      "km_pairs")
    notes: list[str] = []
    d = df.copy()
    for c in INSTANCE + ["Gender", "Race", "Emotion", "person_kind", "person_id"]:
        d[c] = d[c].fillna("").astype(str)
    d["_s"] = C.numeric_scores(d, score_col)
    emo_of = d.groupby(INSTANCE, sort=False)["Emotion"].first().to_dict()
    if axis == "gender":
        labels = {"a": female, "b": male}
        parts = _gender_pairs(d, np_pairs, pair_key_col, female, male, notes)
    elif axis == "race":
        labels, parts = _race_pairs(d, minority, majority, by_gender, female, male)
    else:
        raise StatisticError(f"axis must be 'gender' or 'race', got {axis!r}")
    if parts:
        pairs = pd.concat(parts, ignore_index=True)
    else:
        pairs = pd.DataFrame(columns=[c for c in PAIR_COLUMNS if c not in ("Emotion", "delta")])
    pairs["Emotion"] = [emo_of.get((t, e), "") for t, e in zip(pairs["template_id"], pairs["emotion_word_id"])]
    pairs["delta"] = pairs["score_a"].astype(float) - pairs["score_b"].astype(float)
    return pairs[PAIR_COLUMNS].reset_index(drop=True), notes, labels


def _pair_rows(fm: pd.DataFrame, pair_id: pd.Series, kind: str, gender, a: str, b: str) -> pd.DataFrame:
    """Pairs in PAIR_COLUMNS order (Emotion and delta come later) from a merge of group means
    (``mean_a``/``count_a`` against ``mean_b``/``count_b``)."""
    return pd.DataFrame({
        "pair_id": pair_id, "template_id": fm["template_id"], "emotion_word_id": fm["emotion_word_id"],
        "kind": kind, "gender": gender, "a": a, "b": b,
        "n_a": fm["count_a"].astype(int), "n_b": fm["count_b"].astype(int),
        "score_a": fm["mean_a"], "score_b": fm["mean_b"]})


def _gender_pairs(d: pd.DataFrame, np_pairs: Mapping[str, str] | None, pair_key_col: str, female: str, male: str,
                  notes: list[str]) -> list[pd.DataFrame]:
    """Each female noun phrase against its male counterpart, and the female names' average against
    the male names', per template × emotion word."""
    parts: list[pd.DataFrame] = []
    nps = d[(d["person_kind"] == "noun_phrase") & d["Gender"].isin([female, male])]
    if not nps.empty:
        keys, k_notes = _np_keys(nps, np_pairs, pair_key_col, female, male)
        notes += k_notes
        nps = nps.assign(_key=keys.to_numpy())
        nps = nps[nps["_key"] != ""]
        m = _mean_by(nps, INSTANCE + ["_key", "Gender"], "_s")
        if (m["count"] > 1).any():
            notes.append("several sentences for the same template × emotion word × noun phrase: averaged")
        fm = m[m["Gender"] == female].merge(m[m["Gender"] == male], on=INSTANCE + ["_key"],
                                            suffixes=("_a", "_b"), how="outer", indicator=True)
        lost = int((fm["_merge"] != "both").sum())
        if lost:
            notes.append(f"{lost} noun-phrase sentence(s) whose counterpart is missing in the same "
                         "template × emotion word left out")
        fm = fm[fm["_merge"] == "both"]
        parts.append(_pair_rows(fm, fm["template_id"] + "|" + fm["emotion_word_id"] + "|" + fm["_key"],
                                "noun_phrase", "", female, male))
    names = d[(d["person_kind"] == "name") & d["Gender"].isin([female, male])]
    if not names.empty:
        m = _mean_by(names, INSTANCE + ["Gender"], "_s")
        fm = m[m["Gender"] == female].merge(m[m["Gender"] == male], on=INSTANCE, suffixes=("_a", "_b"))
        parts.append(_pair_rows(fm, fm["template_id"] + "|" + fm["emotion_word_id"] + "|names",
                                "name_average", "", female, male))
    return parts


def _race_pairs(d: pd.DataFrame, minority: str | None, majority: str | None, by_gender: bool, female: str,
                male: str) -> tuple[dict, list[pd.DataFrame]]:
    """(labels, pairs): the minority names' average against the majority names', per template ×
    emotion word (× gender with ``by_gender``)."""
    names = d[(d["person_kind"] == "name")]
    if names.empty:
        return {"a": minority or "minority", "b": majority or "majority"}, []
    mino, majo = C.resolve_race_groups(names["Race"].tolist(), minority, majority)
    names = names[names["Race"].isin([mino, majo])]
    keys = INSTANCE + (["Gender"] if by_gender else [])
    if by_gender:
        names = names[names["Gender"].isin([female, male])]
    m = _mean_by(names, keys + ["Race"], "_s")
    fm = m[m["Race"] == mino].merge(m[m["Race"] == majo], on=keys, suffixes=("_a", "_b"))
    gcol = fm["Gender"] if by_gender else pd.Series("", index=fm.index)
    pair_id = fm["template_id"] + "|" + fm["emotion_word_id"] + "|names" + (("|" + gcol) if by_gender else "")
    return {"a": mino, "b": majo}, [_pair_rows(fm, pair_id, "name_average", gcol, mino, majo)]
