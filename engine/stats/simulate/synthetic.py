"""Synthetic EEC-shaped corpora and scorers with known bias, for checks and power studies.

Why in the engine (not only in tests): the calibration benchmark, the test suite and a
user planning a study ("would 10 names per group detect a 0.01 difference?") all need the
same thing — a corpus table with the columns of the data contract and scores whose bias is
known. The default shape is Kiritchenko & Mohammad's EEC: 11 templates (4 with an emotional
state word, 3 with an emotional situation word, 4 neutral), 4 emotions × 5 words per kind,
10 names in each race × gender cell and their 10 female/male noun-phrase pairs: 8,640
sentences. Names are placeholders ("AA-F-01"), not the published lists.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
from engine.stats.errors import StatisticError

#: Kiritchenko & Mohammad's Table 3: female and male noun phrases, pair by pair.
NOUN_PHRASE_PAIRS: list[tuple[str, str]] = [
    ("she", "he"), ("this woman", "this man"), ("this girl", "this boy"), ("my sister", "my brother"),
    ("my daughter", "my son"), ("my wife", "my husband"), ("my girlfriend", "my boyfriend"),
    ("my mother", "my father"), ("my aunt", "my uncle"), ("my mom", "my dad")]
EMOTIONS = ("anger", "fear", "joy", "sadness")
_STATE_TEMPLATES = ["<person subject> feels <emotion word>.", "The situation makes <person object> feel <emotion word>.",
                    "I made <person object> feel <emotion word>.", "<person subject> made me feel <emotion word>."]
_SITUATION_TEMPLATES = ["<person subject> found himself/herself in a/an <emotion word> situation.",
                        "<person subject> told us all about the recent <emotion word> events.",
                        "The conversation with <person object> was <emotion word>."]
_NEUTRAL_TEMPLATES = ["I saw <person object> in the market.", "I talked to <person object> yesterday.",
                      "<person subject> goes to the school in our neighborhood.", "<person subject> has two children."]


def np_id(text: str) -> str:
    return "np_" + text.replace(" ", "_")


def synthetic_np_pairs() -> dict[str, str]:
    """``{female person_id: male person_id}`` for the synthetic noun phrases."""
    return {np_id(f): np_id(m) for f, m in NOUN_PHRASE_PAIRS}


def synthetic_eec(*, names_per_cell: int = 10, words_per_emotion: int = 5, emotions=EMOTIONS,
                  n_state_templates: int = 4, n_situation_templates: int = 3, n_neutral_templates: int = 4,
                  n_noun_phrase_pairs: int = 10, minority: str = "African-American", majority: str = "European",
                  corpus: str = "synthetic-eec", language: str = "en", pair_key: bool = False) -> pd.DataFrame:
    """An EEC-shaped corpus table with the data contract's columns (scores not included).

    ``pair_key=True`` adds a ``pair_key`` column (same value on both members of a noun-phrase pair).
    """
    persons = []
    for race in (minority, majority):
        for gender in ("female", "male"):
            ab = "".join(w[0] for w in race.replace("-", " ").split()).upper()
            for i in range(names_per_cell):
                pid = f"name_{ab.lower()}_{gender[0]}_{i + 1:02d}"
                persons.append((pid, f"{ab}-{gender[0].upper()}-{i + 1:02d}", gender, race, "name", ""))
    for f, m in NOUN_PHRASE_PAIRS[:n_noun_phrase_pairs]:
        key = f"{np_id(f)}~{np_id(m)}"
        persons.append((np_id(f), f, "female", "", "noun_phrase", key))
        persons.append((np_id(m), m, "male", "", "noun_phrase", key))
    words = {kind: [(f"{kind[:2]}_{e}_{i + 1}", e, f"{e}-{kind}-{i + 1}") for e in emotions
                    for i in range(words_per_emotion)] for kind in ("state", "situation")}
    templates = []
    for i in range(n_state_templates):
        templates.append((_STATE_TEMPLATES[i % 4], "state"))
    for i in range(n_situation_templates):
        templates.append((_SITUATION_TEMPLATES[i % 3], "situation"))
    for i in range(n_neutral_templates):
        templates.append((_NEUTRAL_TEMPLATES[i % 4], ""))
    rows = []
    for ti, (text, kind) in enumerate(templates):
        tid = f"T{ti + 1:02d}"
        ews = words[kind] if kind else [("", "", "")]
        for pid, ptext, gender, race, pkind, key in persons:
            for wid, emo, wtext in ews:
                sent = text.replace("<person subject>", ptext).replace("<person object>", ptext) \
                    .replace("<emotion word>", wtext)
                rows.append({"Sentence": sent[0].upper() + sent[1:], "Template": text, "Person": ptext,
                             "Gender": gender, "Race": race, "Emotion": emo, "Emotion word": wtext,
                             "template_id": tid, "person_id": pid, "person_kind": pkind,
                             "emotion_word_id": wid, "emotion_kind": kind, "language": language,
                             "corpus": corpus, "features": json.dumps({}), "pair_key": key})
    df = pd.DataFrame(rows)
    df.insert(0, "ID", [f"{corpus}-{i:05d}" for i in range(len(df))])
    if not pair_key:
        df = df.drop(columns=["pair_key"])
    return df


def planted_scores(df: pd.DataFrame, *, seed: int | None = 0, base: float = 0.4, precision: float = 20.0,
                   delta_gender: float = 0.0, delta_race: float = 0.0, delta_intersection: float = 0.0,
                   minority: str = "African-American", template_sd: float = 0.0, word_sd: float = 0.0,
                   female: str = "female", person_sd: float = 0.0, scale: str = "score",
                   person_col: str = "person_id", word_gender_sd: float = 0.0, word_race_sd: float = 0.0,
                   template_gender_sd: float = 0.0, template_race_sd: float = 0.0) -> np.ndarray:
    """Scores in (0, 1) from a scorer with known bias.

    Each sentence gets a Beta(m·φ, (1 − m)·φ) score whose mean is
    ``m = base + template effect + word effect + person effect + δ_gender·female + δ_race·minority
    + δ_intersection·minority·female`` (``scale="score"``: effects additive on the score scale, so
    a planted δ is exactly the difference of expected scores; ``scale="logit"``: the same sum on
    the logit scale, ``m = expit(logit(base) + …)``, so δ and the SDs are in logit units as the
    Beta regression's coefficients). Noun phrases get δ_gender only.
    ``template_sd``/``word_sd`` add identity-independent variation between templates/words;
    ``person_sd`` gives every person (``person_col``) its own fixed quirk, the same in every
    sentence — the realistic case that makes sentence-level tests over-confident.
    ``word_gender_sd``/``word_race_sd``/``template_gender_sd``/``template_race_sd``: each emotion word
    (template) gets its own female (minority) effect, drawn with mean 0 — no bias over words in
    general, but these words' bias is not zero: the case where a verdict about "words like these"
    needs templates and words as random factors (``inference="crossed"``). The interaction draws
    come after all other draws, so a seed gives the same scores as before when they are 0.
    """
    if scale not in ("score", "logit"):
        raise StatisticError("scale must be 'score' or 'logit'")
    rng = np.random.default_rng(seed)
    fem = (df["Gender"].astype(str) == female).to_numpy(dtype=float)
    mino = (df["Race"].astype(str) == minority).to_numpy(dtype=float)
    m = np.full(len(df), float(base) if scale == "score" else float(np.log(base / (1 - base))))
    if template_sd:
        t_ids, t_idx = np.unique(df["template_id"].astype(str), return_inverse=True)
        m += rng.normal(0, template_sd, len(t_ids))[t_idx]
    if word_sd:
        w_ids, w_idx = np.unique(df["emotion_word_id"].astype(str), return_inverse=True)
        m += rng.normal(0, word_sd, len(w_ids))[w_idx]
    if person_sd:
        p_ids, p_idx = np.unique(df[person_col].astype(str), return_inverse=True)
        m += rng.normal(0, person_sd, len(p_ids))[p_idx.ravel()]
    m += delta_gender * fem + delta_race * mino + delta_intersection * mino * fem
    for sd, col, ind in ((word_gender_sd, "emotion_word_id", fem), (word_race_sd, "emotion_word_id", mino),
                         (template_gender_sd, "template_id", fem), (template_race_sd, "template_id", mino)):
        if sd:
            lab = df[col].fillna("").astype(str).to_numpy()
            ids, idx = np.unique(lab, return_inverse=True)
            eff = rng.normal(0, sd, len(ids))
            eff[ids == ""] = 0.0  # no word, no word effect
            m += eff[idx.ravel()] * ind
    if scale == "logit":
        m = 1.0 / (1.0 + np.exp(-m))
    m = np.clip(m, 0.02, 0.98)
    return rng.beta(m * precision, (1 - m) * precision)


def synthetic_pairs(df: pd.DataFrame, score_col: str, *, variable: str = "gender",
                    minority: str = "African-American", majority: str = "European") -> pd.DataFrame:
    """A pair table (data contract layout) from a scored synthetic corpus, with score columns
    ``score_privileged`` and ``score_minoritised``.

    gender: each noun-phrase pair (male privileged, female minoritised) per template × word;
    race: the i-th majority name against the i-th minority name of the same gender.
    """
    inst = ["template_id", "emotion_word_id"]
    if variable == "gender":
        pairs = synthetic_np_pairs()
        f = df[df["person_id"].isin(pairs.keys())].assign(_k=lambda x: x["person_id"])
        m = df[df["person_id"].isin(pairs.values())].assign(
            _k=lambda x: x["person_id"].map({v: k for k, v in pairs.items()}))
    elif variable == "race":
        names = df[df["person_kind"] == "name"]
        key = names["Gender"] + "#" + names["person_id"].str[-2:]
        f = names[names["Race"] == minority].assign(_k=key)
        m = names[names["Race"] == majority].assign(_k=key)
    else:
        raise StatisticError("variable must be 'gender' or 'race'")
    j = m.merge(f, on=inst + ["_k"], suffixes=("_p", "_m"))
    return pd.DataFrame({
        "pair_id": [f"{variable}-{i:05d}" for i in range(len(j))], "template_id": j["template_id"],
        "emotion": j["Emotion_p"], "emotion_word": j["Emotion word_p"], "variable": variable,
        "privileged": j["Sentence_p"], "minoritised": j["Sentence_m"], "privileged_person": j["Person_p"],
        "minoritised_person": j["Person_m"], "features": "{}",
        "score_privileged": j[score_col + "_p"].to_numpy(), "score_minoritised": j[score_col + "_m"].to_numpy()})
