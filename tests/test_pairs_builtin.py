"""Built-in counterfactual pair corpora: counts per corpus and variable, checker status, the
Kiritchenko & Mohammad comparisons, and a token-level diff of every pair of every built-in corpus."""
import difflib
import json
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables
from engine.corpus import PAIR_COLUMNS, builtin_names, generate_group_comparisons
from engine.corpus.pairs.tables import GROUP_COLUMNS, PAIR_EXTRA_COLUMNS

GOLDFARB = ["de-goldfarb2023", "es-goldfarb2023", "ja-goldfarb2023", "zh-goldfarb2023", "en-goldfarb2023"]

# Pairs per variable. Table 2 of Goldfarb-Tarrant et al. (2023) counts sentences (two per pair):
# ja 3,340 / 2,004, zh 4,928, de 3,200 gender, es 4,240 / 6,360, en 2,880 / 5,760. German race:
# the paper says 5,236 sentences, their released corpus (and ours) has 10,880 pairs; Japanese
# rank (senpai/kouhai) is in their corpus but not in Table 2. See docs/pairs.md.
PUBLISHED_COUNTS = {
    "de-goldfarb2023": {"gender": 1600, "race": 10880},
    "es-goldfarb2023": {"gender": 2120, "migrant": 3180},
    "ja-goldfarb2023": {"gender": 1670, "race": 1002, "rank": 167},
}
# issue 25: German race pairs compare one construction (dieser Mann / dieser türkische Mann); the
# pronoun table (er / der Türke), which has no marked counterpart in the same construction, is gone
PAIR_COUNTS = {
    **PUBLISHED_COUNTS,
    # issue 25: the corrected Japanese corpus drops the pejorative 外人 (its 167 race pairs)
    "ja-goldfarb2023": {"gender": 1690, "race": 845, "rank": 169},
    "de-goldfarb2023": {"gender": 1600, "race": 5440},
    "zh-goldfarb2023": {"gender": 2464},
    "en-goldfarb2023": {"gender": 1440, "race": 2880},
    # the foundation corpora: Kiritchenko & Mohammad's female/male noun-phrase counterparts
    "en-kiritchenko2018": {"gender": 1440},
    "en-camara2022-latino": {"gender": 1440},
    "en-camara2022-arab": {"gender": 1440},
    "es-camara2022": {"gender": 1410},
    "ar-camara2022": {"gender": 1340},
    # issue 43: translated from en-kiritchenko2018; names paired by origin within gender (it, fr), race
    # through the same noun phrase with branca/negra (pt-BR), which also pairs those terms on gender
    "it-kiritchenko2018": {"gender": 1440, "origin": 2880},
    "fr-kiritchenko2018": {"gender": 1440, "origin": 2880},
    "pt-BR-kiritchenko2018": {"gender": 4320, "race": 2880},
}
# the published texts kept for reproduction (issues 14 and 25) pair as the papers' texts do
PUBLISHED = ("es-camara2022", "ar-camara2022", "zh-goldfarb2023", "en-camara2022-latino", "en-camara2022-arab")
PAIR_COUNTS.update({f"{name}-published": PAIR_COUNTS[name] for name in PUBLISHED})
PAIR_COUNTS.update({f"{name}-published": counts for name, counts in PUBLISHED_COUNTS.items()})
TABLE2_SENTENCES = {("ja-goldfarb2023-published", "gender"): 3340, ("ja-goldfarb2023-published", "race"): 2004,
                    ("zh-goldfarb2023", "gender"): 4928, ("de-goldfarb2023-published", "gender"): 3200,
                    ("es-goldfarb2023-published", "gender"): 4240, ("es-goldfarb2023-published", "migrant"): 6360,
                    ("en-goldfarb2023", "gender"): 2880, ("en-goldfarb2023", "race"): 5760}


class _Built(dict):
    def __missing__(self, name):
        return builtin_tables(name)


@pytest.fixture(scope="module")
def built():
    """name -> (corpus, compiled, sentences table, pair table), generated once per session."""
    return _Built()


def test_every_builtin_is_listed():
    assert set(PAIR_COUNTS) == set(builtin_names())


@pytest.mark.parametrize("name", sorted(PAIR_COUNTS))
def test_pair_counts_per_variable(name, built):
    _, _, _, pairs = built[name]
    assert pairs.variable.value_counts().to_dict() == PAIR_COUNTS[name]
    report = builtin_report(name)
    assert report.ok, report.to_text()
    assert report.pairs == len(pairs)
    # no pair finding at all in the built-in corpora (E013-E015, W110, W111)
    assert not {"E013", "E014", "E015", "W110", "W111"} & report.codes()
    assert not {"E013", "E014", "E015", "W110", "W111", "W112", "W102"} & report.codes(), report.to_text()


def test_table2_reproduced():
    """Every figure of Table 2 except German race (see docs/pairs.md) comes out of the data."""
    for (name, variable), sentences in TABLE2_SENTENCES.items():
        assert 2 * PAIR_COUNTS[name][variable] == sentences, (name, variable)


@pytest.mark.parametrize("name", GOLDFARB)
def test_goldfarb_corpora_check_clean(name, built):
    _, _, sentences, _ = built[name]
    report = builtin_report(name)
    assert report.ok, report.to_text()
    assert report.sentences == len(sentences)
    # warnings are only the documented ones: repeated source words (W101), declared-absent forms (W109),
    # and, for Chinese, that no spelling dictionary exists for it (W114); never an unknown word (W113)
    # and, for es-goldfarb2023, the published name lists' 8/8/7/7 names per gender × migrant cell (W116)
    assert report.codes() <= {"W101", "W109"} | ({"W114"} if name.startswith("zh-") else set()) \
        | ({"W116"} if name.startswith("es-goldfarb") else set()), report.to_text()


def test_pair_table_columns_and_links(built):
    for name in GOLDFARB + ["en-kiritchenko2018"]:
        _, _, sentences, pairs = built[name]
        assert list(pairs.columns) == PAIR_COLUMNS + PAIR_EXTRA_COLUMNS
        assert PAIR_COLUMNS == ["pair_id", "template_id", "emotion", "emotion_word", "variable", "privileged",
                                "minoritised", "privileged_person", "minoritised_person", "features"]
        assert pairs.pair_id.is_unique
        by_id = sentences.set_index("ID").Sentence
        assert (by_id.loc[pairs.privileged_id].values == pairs.privileged.values).all()
        assert (by_id.loc[pairs.minoritised_id].values == pairs.minoritised.values).all()
        for f in pairs.features.head(200):
            assert isinstance(json.loads(f), dict)
        assert (pairs.privileged != pairs.minoritised).all()
        assert set(pairs.emotion) <= {"anger", "fear", "joy", "sadness", ""}
        assert ((pairs.emotion == "") == (pairs.emotion_word == "")).all()


def test_pair_rows_name_the_variable_and_groups(built):
    _, _, _, de = built["de-goldfarb2023"]
    row = de[(de.template_id == "T06") & (de.privileged_person == "diesem Mann")
             & (de.minoritised_person == "diesem türkischen Mann")]
    assert len(row) == 1
    row = row.iloc[0]
    assert row.privileged == "Ich habe gestern mit diesem Mann gesprochen."
    assert row.minoritised == "Ich habe gestern mit diesem türkischen Mann gesprochen."
    assert row.variable == "race" and row.minoritised_group == "Turkish"
    assert row.privileged_group == ""  # the privileged side is unmarked
    assert json.loads(row.features) == {"person": {"case": "dat"}}


# -- Kiritchenko & Mohammad's comparisons on the English EEC ---------------------------------------

def test_english_eec_noun_phrase_pairs(built):
    _, _, sentences, pairs = built["en-kiritchenko2018"]
    # 10 female/male noun-phrase pairs per template and emotion word: 7 × 20 + 4 neutral templates
    per = pairs.groupby(["template_id", "emotion_word"]).size()
    assert (per == 10).all() and len(per) == 7 * 20 + 4
    assert len(pairs) == 1440
    assert (pairs.privileged_group == "male").all() and (pairs.minoritised_group == "female").all()
    assert set(pairs.person_pair) == {
        "np_he~np_she", "np_this_man~np_this_woman", "np_this_boy~np_this_girl", "np_my_brother~np_my_sister",
        "np_my_son~np_my_daughter", "np_my_husband~np_my_wife", "np_my_boyfriend~np_my_girlfriend",
        "np_my_father~np_my_mother", "np_my_uncle~np_my_aunt", "np_my_dad~np_my_mom"}
    row = pairs[(pairs.template_id == "T03") & (pairs.person_pair == "np_he~np_she")
                & (pairs.emotion_word == "angry")].iloc[0]
    assert (row.privileged, row.minoritised) == ("I made him feel angry.", "I made her feel angry.")


def test_english_eec_name_groups(built):
    c, cc, sentences, _ = built["en-kiritchenko2018"]
    groups = generate_group_comparisons(c, cc)
    assert list(groups.columns) == GROUP_COLUMNS
    # race per gender (2) and gender per race (2), for each of the 144 template × emotion-word cells
    assert groups.groupby(["variable", "within"]).size().to_dict() == {
        ("gender", "race=African-American"): 144, ("gender", "race=European"): 144,
        ("race", "gender=female"): 144, ("race", "gender=male"): 144}
    assert (groups.n_privileged == 10).all() and (groups.n_minoritised == 10).all()
    table = sentences.set_index("ID")
    row = groups[(groups.template_id == "T01") & (groups.emotion_word_id == "angry")
                 & (groups.within == "gender=male")].iloc[0]
    priv = table.loc[row.privileged_ids.split(";")]
    mino = table.loc[row.minoritised_ids.split(";")]
    assert set(priv.Race) == {"European"} and set(mino.Race) == {"African-American"}
    assert set(priv.Gender) == set(mino.Gender) == {"male"}
    assert set(priv["Emotion word"]) == set(mino["Emotion word"]) == {"angry"}
    assert "Adam feels angry." in set(priv.Sentence) and "Alonzo feels angry." in set(mino.Sentence)
    row = groups[(groups.template_id == "T08") & (groups.within == "race=African-American")].iloc[0]
    assert (row.privileged_group, row.minoritised_group) == ("male", "female")
    assert set(table.loc[row.minoritised_ids.split(";")].Gender) == {"female"}


def test_english_goldfarb_race_pairs_keep_privileged_european(built):
    c, _, _, pairs = built["en-goldfarb2023"]
    race = pairs[pairs.variable == "race"]
    assert (race.privileged_group == "European").all() and (race.minoritised_group == "African-American").all()
    male = race[race.person_pair.str.startswith("race-male")]
    assert len(male) == 1440
    assert set(zip(male.privileged_person_id, male.minoritised_person_id)) >= {("adam", "alonzo"), ("ryan", "torrance")}


# -- every pair differs only in the person term -------------------------------------------------

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Words, punctuation marks, and single characters of scripts written without spaces."""
    return _TOKEN.findall(text)


def _mask(seq: list[str], term: list[str], label: str) -> list[list[str]]:
    """Every way of replacing one occurrence of ``term`` (first letter case-insensitive) by ``label``."""
    n = len(term)
    out = []
    for i in range(len(seq) - n + 1):
        window = seq[i:i + n]
        if window[1:] == term[1:] and window[0].lower() == term[0].lower():
            out.append(seq[:i] + [label] + seq[i + n:])
    return out


def _agreement_tokens(corpus) -> set[str]:
    """Tokens that may change with the person's gender by the definition's own agreement rules:
    forms of small words agreeing with ``person.gender`` (Spanish lo/la) and the literal words
    in which gender-selected template variants differ (Arabic يشعر/تشعر)."""
    out: set[str] = set()
    for t in corpus.templates:
        for v in t.variants:
            for m in re.finditer(r"\{(\w+)(?::(\w+))?([^}]*)\}", v.text):
                source = m.group(2) or m.group(1)
                word = corpus.word(source)
                if word is not None and "person.gender" in m.group(3):
                    out |= {tok.lower() for f in word.forms for tok in tokens(f.text)}
        if len(t.variants) > 1 and any(ref == "person.gender" for ref in t.select.values()):
            texts = [tokens(re.sub(r"\{[^}]*\}", " ", v.text)) for v in t.variants]
            for other in texts[1:]:
                for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=texts[0], b=other, autojunk=False).get_opcodes():
                    if op != "equal":
                        out |= {tok.lower() for tok in texts[0][i1:i2] + other[j1:j2]}
    return out


def _differs_only_in_person(row, agreement: set[str]) -> bool:
    a, b = tokens(row.privileged), tokens(row.minoritised)
    gender = row.variable == "gender"
    for ma in _mask(a, tokens(row.privileged_person), "<PERSON>") or _mask_suffix(a, row.privileged_person):
        for mb in _mask(b, tokens(row.minoritised_person), "<PERSON>") or _mask_suffix(b, row.minoritised_person):
            if gender and row.emotion_word != row.minoritised_emotion_word:
                # the emotion word agrees with the person's gender (Spanish enfadado/enfadada)
                ma = _replace(ma, tokens(row.emotion_word), "<EMOTION>")
                mb = _replace(mb, tokens(row.minoritised_emotion_word), "<EMOTION>")
            if gender:
                ma = ["<AGR>" if t.lower() in agreement else t for t in ma]
                mb = ["<AGR>" if t.lower() in agreement else t for t in mb]
            if ma == mb:
                return True
    return False


def _mask_suffix(seq: list[str], term: str) -> list[list[str]]:
    """A person written as a suffix of the word before it (Arabic جعله، معها: the pronoun object):
    every way of replacing that suffix by <PERSON>, the rest of the word kept."""
    return [seq[:i] + [tok[: -len(term)], "<PERSON>"] + seq[i + 1:]
            for i, tok in enumerate(seq) if len(tok) > len(term) and tok.endswith(term)]


def _replace(seq: list[str], term: list[str], label: str) -> list[str]:
    found = _mask(seq, term, label)
    return found[-1] if found else seq  # the emotion word comes after the person in every template


@pytest.mark.parametrize("name", sorted(PAIR_COUNTS))
def test_every_pair_differs_only_in_the_person_term(name, built):
    c, _, _, pairs = built[name]
    agreement = _agreement_tokens(c)
    bad = [(r.pair_id, r.privileged, r.minoritised) for r in pairs.itertuples()
           if not _differs_only_in_person(r, agreement)]
    assert not bad, f"{len(bad)} pair(s) differ in more than the person term, e.g. {bad[:3]}"
    # outside gender agreement nothing else moves: race/migrant/rank pairs keep every other token
    other = pairs[pairs.variable != "gender"]
    assert (other.emotion_word == other.minoritised_emotion_word).all()


def test_token_diff_catches_a_changed_word():
    """The diff above is not vacuous: a pair that also changes another word fails it."""
    from types import SimpleNamespace

    row = SimpleNamespace(privileged="Er ist in eine irritierende Situation geraten.",
                          minoritised="Der Türke ist in eine ärgerliche Situation geraten.",
                          privileged_person="er", minoritised_person="der Türke", variable="race",
                          emotion_word="irritierende", minoritised_emotion_word="ärgerliche")
    assert not _differs_only_in_person(row, set())
    row.minoritised = "Der Türke ist in eine irritierende Situation geraten."
    assert _differs_only_in_person(row, set())
    row.minoritised = "Der Türke ist in einer irritierende Situation geraten."
    assert not _differs_only_in_person(row, set())
    assert tokens("彼女は幸せ。") == ["彼", "女", "は", "幸", "せ", "。"]


def test_grammar_lives_in_the_data(built):
    """German case on persons and articles, Spanish gender/number and estar/tener, Japanese active
    vs causative: all from the definition files, no per-language code."""
    de = set(built["de-goldfarb2023"][2].Sentence)
    assert {"Dieser türkische Mann ist wütend.", "Die Situation macht diesen türkischen Mann wütend.",
            "Ich habe gestern mit diesem türkischen Mann gesprochen.", "Ich habe gestern mit diesem Mädchen gesprochen.",
            "Dieses Mädchen war in einer unheimlichen Situation.",
            "Diese türkische Frau hat uns alles über die neuesten unheimlichen Ereignisse erzählt.",
            "Das Gespräch mit ihr war unheimlich."} <= de
    es = set(built["es-goldfarb2023"][2].Sentence)
    # (issue 38 round 2: the Latin American corpus says enojado/enojo, not Spain's enfadado/enfado)
    assert {"Ella está enojada.", "Él está enojado.", "Ella siente enojo.", "Él siente enojo.",
            "Lo vi a él en el mercado.", "La vi a ella en el mercado.", "Vi a Shirley en el mercado.",
            "Ella me hizo sentir enojado.", "Mi madre nos habló de los molestos acontecimientos recientes.",
            "Mi madre se encontró en una situación molesta."} <= es
    assert "Ella está enojado." not in es and "Ella tiene un enojo." not in es
    ja = set(built["ja-goldfarb2023"][2].Sentence)
    assert {"彼は怒っている。", "彼はみんなを怒らせた。", "彼はこの状況に怒っている。", "私は彼を怒らせた。",
            "彼は幸せを感じている。", "彼は気づくと幸せな状況の中にいた。"} <= ja
    zh = built["zh-goldfarb2023"][2]
    assert "他感到生气。" in set(zh.Sentence)
    assert "他 感到 生气." in set(built["zh-goldfarb2023-published"][2].Sentence)
    assert set(zh.features) == {'{"emotion": {}, "person": {}}', '{"person": {}}'}  # Chinese needs no features
