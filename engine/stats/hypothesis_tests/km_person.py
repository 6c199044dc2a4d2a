"""Kiritchenko & Mohammad's mean Δ as a contrast of persons (for the person-robust test).

Why: the paper's paired t-test treats its 1,584 (gender) or 144 (race) pairs as independent,
but the same ten noun-phrase pairs and forty names fill all of them, so a single name's quirk
moves every pair it is in. When every person appears in every template × emotion word, the
mean Δ over the pairs is exactly a weighted contrast of *person* means (see
:class:`engine.stats.hypothesis_tests.person_tests.PersonContrast`):

* gender: (n_np·mean over noun-phrase pairs of their mean Δ + n_names·(mean of female names −
  mean of male names)) / (n_np + n_names), pair counts as weights; names are shuffled within
  their race/ethnicity group by the permutation test, noun-phrase pairs flipped;
* race, pooled (the paper): mean of the minority names − mean of the majority names (all
  genders), persons shuffled within gender; per gender: the average over genders of the two
  groups' difference.

Its Welch t (person means as the units) is the person-robust test of the same mean Δ.
"""
from __future__ import annotations

import pandas as pd

from engine.stats.hypothesis_tests.person_tests import PersonContrast, Stratum


def _subset_rows(rows: pd.DataFrame, sub: str, emotion: str) -> pd.DataFrame:
    emo = rows["Emotion"].fillna("").astype(str)
    if sub == "all":
        return rows
    if sub == "neutral":
        return rows[emo == ""]
    if sub == "emotional":
        return rows[emo != ""]
    return rows[(emo == emotion) & (emo != "")]


def _strata(names: pd.DataFrame, score_col: str, person_col: str, strat_col: str, side_col: str, a: str,
            pooled: bool) -> list[Stratum]:
    pm = names.groupby([strat_col, person_col], sort=True).agg(v=(score_col, "mean"), side=(side_col, "first"))
    pm = pm.reset_index()
    n_a = int((pm["side"] == a).sum())
    n_b = len(pm) - n_a
    groups = list(pm.groupby(strat_col, sort=True))
    out = []
    for _, g in groups:
        is_a = (g["side"] == a).to_numpy()
        if pooled:
            wa, wb = is_a.sum() / max(n_a, 1), (~is_a).sum() / max(n_b, 1)
        else:
            wa = wb = 1.0 / len(groups)
        out.append(Stratum(g["v"].to_numpy(float), is_a, float(wa), float(wb)))
    return out


def km_person_contrast(rows: pd.DataFrame, pairs: pd.DataFrame, score_col: str, axis: str, sub: str,
                       emotion: str, a: str, b: str, by_gender: bool, female: str, male: str,
                       person_col: str) -> PersonContrast:
    """The person contrast of one K&M test (``pairs``: that test's pairs, already subset)."""
    rows = _subset_rows(rows, sub, emotion)
    rows = rows.assign(_s=pd.to_numeric(rows[score_col], errors="coerce"))
    for c in ("Gender", "Race", "person_kind"):
        rows[c] = rows[c].fillna("").astype(str)
    names = rows[rows["person_kind"] == "name"]
    n_pairs = len(pairs)
    if axis == "gender":
        names = names[names["Gender"].isin([female, male])]
        npp = pairs[pairs["kind"] == "noun_phrase"]
        n_np, n_nm = len(npp), int((pairs["kind"] == "name_average").sum())
        d = None
        if n_np:
            key = npp["pair_id"].astype(str).str.split("|", n=2).str[2]
            d = npp.assign(_k=key.to_numpy()).groupby("_k", sort=True)["delta"].mean().to_numpy(float)
        strata = _strata(names, "_s", person_col, "Race", "Gender", female, pooled=True) if n_nm else []
        return PersonContrast(strata, d, n_np / n_pairs if n_pairs else 0.0, n_nm / n_pairs if n_pairs else 1.0)
    names = names[names["Race"].isin([a, b])]
    if by_gender:
        names = names[names["Gender"].isin([female, male])]
    strata = _strata(names, "_s", person_col, "Gender", "Race", a, pooled=not by_gender) if n_pairs else []
    return PersonContrast(strata, None, 0.0, 1.0)
