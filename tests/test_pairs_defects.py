"""The source defects of Goldfarb-Tarrant et al.'s data: the checker flags each one when fed their
original rows, and none is left in the built-in corpora.

Their rows are fed in two ways: a literal excerpt quoted here (always runs) and, when
``../shared`` is present, every row of their sheets. The rows go into the built-in corpus
definition in place of ours (its templates state the grammar each slot needs), so the checker
sees exactly what their generator used.
"""
import csv
import re

from conftest import shared_path
from testkit.corpus_fixtures import builtin_report, builtin_tables
from engine.corpus import EmotionWord, Form, Pair, Template, Variant, check_corpus, generate, generate_pairs, load_corpus

SHEETS = ("data", "goldfarb_tarrant2023", "sheets")


def _sheet(name: str) -> list[dict[str, str]]:
    with open(shared_path(*SHEETS, name), encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


# -- German: uninflected attributive adjectives and the stray comma --------------------------------

# Emotions_German.csv, lines 2, 3, 30 and 45 (Emotion Category, Emotion Word, Grammar), verbatim.
GERMAN_ROWS = [("anger", "empört,", "state"), ("anger", "verärgert", "state"),
               ("anger", "irritierend", "situation"), ("joy", "erfreulich", "situation")]


def german_from_rows(rows):
    """de-goldfarb2023 with its emotion words replaced by the sheet's rows (one bare form each)."""
    c = load_corpus("de-goldfarb2023-published")  # the sheet's templates (issue 25 rewrote T02-T04, T09)
    c.emotion_words = [EmotionWord(id=f"row{i}", emotion=emotion, kind=kind, forms=[Form(word)])
                       for i, (emotion, word, kind) in enumerate(rows)]
    return c


def _german_findings(rows):
    c = german_from_rows(rows)
    report = check_corpus(c)
    ids = {word: f"row{i}" for i, (_, word, _) in enumerate(rows)}
    return c, report, ids


def test_german_defects_flagged_in_their_rows():
    c, report, ids = _german_findings(GERMAN_ROWS)
    # the stray comma: W102 on the form itself
    assert any(f.code == "W102" and "'empört,'" in f.message and f.item == f"emotion_words[{ids['empört,']}]"
               for f in report.findings), report.to_text()
    # their generator's sentence is what these rows give ...
    sentences = set(generate(c).Sentence)
    assert "Er ist in eine irritierend Situation geraten." in sentences
    assert "Sie hat uns alles über die neuesten irritierend Ereignisse erzählt." in sentences
    # ... and the checker flags every attributive slot filled with the bare adjective
    w112 = [f for f in report.findings if f.code == "W112"]
    flagged = {(f.template, f.person, f.emotion_word) for f in w112}
    assert ("T09", "np_er", ids["irritierend"]) in flagged
    assert ("T10", "np_sie", ids["irritierend"]) in flagged
    assert {f.template for f in w112} == {"T09", "T10"}  # the predicative template T11 is fine bare
    assert {f.emotion_word for f in w112} == {ids["irritierend"], ids["erfreulich"]}
    per_word = len(c.persons)
    assert len(w112) == 2 * 2 * per_word  # 2 situation words × 2 attributive templates × every person
    assert all("position=attr" in f.message for f in w112)


def test_german_inflected_rows_not_flagged():
    rows = [("anger", "empört", "state"), ("anger", "verärgert", "state")]
    c, report, _ = _german_findings(rows)
    assert not {"W102", "W112"} & report.codes()


def test_german_defects_flagged_in_every_sheet_row():
    rows = [(r["Emotion Category"], r["Emotion Word"], r["Grammar"]) for r in _sheet("Emotions_German.csv")
            if r["Emotion Category"]]
    assert ("anger", "empört,", "state") in rows
    c, report, ids = _german_findings(rows)
    assert [f.message for f in report.findings if f.code == "W102"] == ["form 'empört,': punctuation ',' at position 7"]
    situation = {ids[w] for _, w, k in rows if k == "situation"}
    flagged = {f.emotion_word for f in report.findings if f.code == "W112"}
    assert flagged == situation and len(situation) == 20  # every situation word, none of the states


def test_german_defects_absent_from_builtin():
    c, _, df, pairs = builtin_tables("de-goldfarb2023")
    report = builtin_report("de-goldfarb2023")
    assert not {"W102", "W112"} & report.codes()
    t09 = df[df.template_id == "T09"].Sentence
    t10 = df[df.template_id == "T10"].Sentence
    assert t09.str.fullmatch(r".+ war in einer \w+en Situation\.").all()
    assert t10.str.fullmatch(r".+ hat uns alles über die neuesten \w+en Ereignisse erzählt\.").all()
    assert "Er war in einer enervierenden Situation." in set(t09)  # issue 38: irritierend ("confusing") is no anger word
    assert not df.Sentence.str.contains(",").any()
    assert "Er ist empört." in set(df.Sentence)
    for side in (pairs.privileged, pairs.minoritised):
        assert not side.str.contains(r"einer \w+(?<!en) Situation|neuesten \w+(?<!en) Ereignisse|,", regex=True).any()


# -- Japanese: malformed causative ("passive") forms ---------------------------------------------

# Emotions_JPN.csv (active row, the "passive" row after it), verbatim; 頭にくる has no passive row.
JAPANESE_ROWS = [("joy", "幸せ", "幸せにさ"), ("joy", "嬉しい", "嬉しがらせる"), ("joy", "興奮する", "興奮"),
                 ("anger", "イライラする", "イライラさ"), ("anger", "怒る", "怒ら"), ("joy", "驚く", "驚か"),
                 ("anger", "頭にくる", None)]


def japanese_from_rows(rows, templates=None):
    """ja-goldfarb2023 with the sheet's templates (our `published` texts are the sheet's rows,
    checked below) and the sheet's emotion rows."""
    c = load_corpus("ja-goldfarb2023")
    texts = templates or [t.published for t in c.templates]
    c.templates = [Template(id=f"T{i + 1:02d}", variants=[Variant(_sheet_template(text))])
                   for i, text in enumerate(texts)]
    c.emotion_words = []
    for i, (emotion, active, passive) in enumerate(rows):
        forms = [Form(active, {"voice": "active"})]
        forms.append(Form(passive, {"voice": "causative"}) if passive
                     else Form("", {"voice": "causative"}, absent="active only in the sheet"))
        c.emotion_words.append(EmotionWord(id=f"row{i}", emotion=emotion, kind="state", forms=forms))
    return c


def _sheet_template(text: str) -> str:
    text = re.sub(r"<person (?:subject|object)>", "{person}", text.strip())
    text = text.replace("<emotion word active>", "{emotion voice=active}")
    return text.replace("<emotion word passive>", "{emotion voice=causative}")


def _japanese_flagged(c):
    report = check_corpus(c)
    ids = {(e.forms[1].text or e.forms[0].text): e.id for e in c.emotion_words}
    return report, ids, {(f.template, f.emotion_word) for f in report.findings if f.code == "W112"}


def test_japanese_defects_flagged_in_their_rows():
    c = japanese_from_rows(JAPANESE_ROWS)
    report, ids, flagged = _japanese_flagged(c)
    sentences = set(generate(c).Sentence)
    for bad in ["彼女との会話は幸せにさた。", "彼は嬉しがらせるせた。", "おばさんは興奮せた。", "妹との会話はイライラさた。"]:
        assert bad in sentences, bad  # their rows give their sentences ...
    # ... and each is flagged: 幸せにさ/イライラさ in template 12 (only た), 嬉しがらせる and 興奮 wherever せ follows
    assert ("T12", ids["幸せにさ"]) in flagged and ("T12", ids["イライラさ"]) in flagged
    assert ("T02", ids["嬉しがらせる"]) in flagged and ("T02", ids["興奮"]) in flagged
    for tid in ("T02", "T03", "T04", "T05", "T12"):
        assert (tid, ids["嬉しがらせる"]) in flagged and (tid, ids["興奮"]) in flagged
    # well-formed causatives of the same sheet are not flagged: 怒らせた, 驚かせる
    assert not {(t, e) for t, e in flagged if e in (ids["怒ら"], ids["驚か"]) and t != "T12"}
    assert "彼は私を怒らせた。" in sentences
    assert "W109" in report.codes()  # 頭にくる: no causative, skipped as the sheet says


def test_japanese_active_form_in_causative_slot_flagged():
    """Example_Full_Sents_JPN's translator corrections: 'むかつくせた' (the active form) for 'むかつかせた'."""
    c = japanese_from_rows([("anger", "むかつく", "むかつく")])
    report, ids, flagged = _japanese_flagged(c)
    assert "彼女は私をむかつくせた。" in set(generate(c).Sentence)
    assert ("T05", ids["むかつく"]) in flagged
    fixed = japanese_from_rows([("anger", "むかつく", "むかつか")])
    assert ("T05", "row0") not in _japanese_flagged(fixed)[2]


def test_japanese_defects_flagged_in_every_sheet_row():
    templates = [r["Template Sentences"] for r in _sheet("Overview_Data_JPN.csv")]
    c = load_corpus("ja-goldfarb2023")
    assert [t.published for t in c.templates] == [t.strip() for t in templates]
    rows, current = [], None
    for r in _sheet("Emotions_JPN.csv"):
        if r["Grammar"] == "active":
            current = [r["Emotion Category"], r["Emotion Word"], None]
            rows.append(current)
        elif r["Grammar"] == "passive":
            current[2] = r["Emotion Word"]
    assert len(rows) == 21
    c = japanese_from_rows([tuple(r) for r in rows], templates)
    report, ids, flagged = _japanese_flagged(c)
    sentences = set(generate(c).Sentence)
    assert {"彼女との会話は幸せにさた。", "彼女は嬉しがらせるせた。", "彼女は興奮せた。"} <= sentences
    # template 12 adds only た to every causative stem: all of them are flagged there
    assert {e for t, e in flagged if t == "T12"} == {ids[r[2]] for r in rows if r[2]}
    # in templates 2-5 (stem + せた/せる) exactly the two malformed stems are
    assert {e for t, e in flagged if t != "T12"} == {ids["嬉しがらせる"], ids["興奮"]}


CAUSATIVE = re.compile(r".*(?:[かがさざただなばまらわ]せ|させ|傷つけ)(?:た|る)。")  # 傷つける: lexical causative


def test_japanese_defects_absent_from_builtin():
    c, _, df, pairs = builtin_tables("ja-goldfarb2023")
    assert "W112" not in builtin_report("ja-goldfarb2023").codes()
    causative = df[df.template_id.isin(["T02", "T04", "T05"])].Sentence
    assert len(causative) and causative.map(lambda s: bool(CAUSATIVE.fullmatch(s))).all()
    for bad in ["幸せにさた", "イライラさた", "せるせ", "興奮せ", "興奮た", "がらた"]:
        assert not df.Sentence.str.contains(bad).any(), bad
        assert not pairs.privileged.str.contains(bad).any() and not pairs.minoritised.str.contains(bad).any()
    assert {"彼女との会話で、私は幸せな気持ちになった。", "彼はみんなを喜ばせた。", "彼はみんなをわくわくさせた。"} <= set(df.Sentence)
    # the published text keeps the sheet's sentences with only the stem fixes of docs/pairs.md
    published = set(builtin_tables("ja-goldfarb2023-published")[2].Sentence)
    assert {"彼女との会話は幸せにさせた。", "彼は嬉しがらせた。", "彼は興奮させた。"} <= published


# -- English: male race pairs with privileged and minoritised swapped -----------------------------

# People_English.csv lines 18, 19 (male race rows) and 8 (a female one): Person 1, Person 2 and their types, verbatim.
ENGLISH_ROWS = [("Alonzo", "Adam", "race: privileged", "race: minoritized"),
                ("Alphonse", "Alan", "race: privileged", "race: minoritized"),
                ("Amanda", "Ebony", "race: privileged", "race: minoritized")]


def english_from_rows(rows):
    c = load_corpus("en-goldfarb2023")
    c.pairs = [Pair(id=f"row{i}", variable="race", privileged=[a.lower()], minoritised=[b.lower()])
               for i, (a, b, ta, tb) in enumerate(rows) if ta == "race: privileged" and tb == "race: minoritized"]
    return c


def test_english_swapped_rows_flagged():
    c = english_from_rows(ENGLISH_ROWS)
    report = check_corpus(c)
    e015 = [f for f in report.findings if f.code == "E015"]
    assert {f.item for f in e015} == {"pairs[row0]", "pairs[row1]"}  # Amanda/Ebony is the right way round
    assert all("swapped" in f.message for f in e015)
    pairs = generate_pairs(c)
    assert set(pairs.person_pair) == {"row2"}  # a swapped pair is never emitted


def test_english_swapped_rows_flagged_in_every_sheet_row():
    rows = [(r["Person 1"], r["Person 2"], r["Person 1 Type"], r["Person 2 Type"]) for r in _sheet("People_English.csv")]
    c = english_from_rows(rows)
    e015 = {f.person for f in check_corpus(c).findings if f.code == "E015"}
    male = {"alonzo~adam", "alphonse~alan", "darnell~andrew", "jamel~frank", "jerome~harry", "lamar~jack",
            "leroy~josh", "malik~justin", "terrence~roger", "torrance~ryan"}
    assert e015 == male  # exactly the ten male rows; the ten female rows are fine
    assert generate_pairs(c).variable.value_counts().to_dict() == {"race": 1440}  # the ten female rows only


def test_english_swap_absent_from_builtin():
    assert "E015" not in builtin_report("en-goldfarb2023").codes()
    _, _, _, pairs = builtin_tables("en-goldfarb2023")
    race = pairs[pairs.variable == "race"]
    assert (race.privileged_group == "European").all()
    assert ("adam", "alonzo") in set(zip(race.privileged_person_id, race.minoritised_person_id))
    assert not race.privileged_person_id.isin(["alonzo", "alphonse", "darnell", "jamel", "jerome"]).any()

