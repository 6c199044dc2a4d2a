"""Every checker rule: one fixture that triggers it and the clean one that does not."""
import pytest

from testkit.corpus_fixtures import mini
from engine.corpus import CODES, check_corpus, generate, parse_definition


def codes(text: str) -> set[str]:
    return check_corpus(parse_definition(text, "fixture.toml")).codes()


def test_clean_fixture_has_no_findings():
    rep = check_corpus(parse_definition(mini(), "fixture.toml"))
    assert rep.findings == []
    # T1: 4 persons × 1 state word, T2 same, T3: 4 × 2 situation words, T4: 4 persons
    assert rep.sentences == 4 + 4 + 8 + 4


def test_clean_fixture_sentences():
    df = generate(parse_definition(mini()))
    s = set(df.Sentence)
    assert {"She feels angry.", "I made her feel angry.", "He found himself in an annoying situation.",
            "Ann found herself in a grim situation.", "I saw him in the market.", "Bob feels angry."} <= s


def _replace(old: str, new: str, base: str | None = None) -> str:
    base = base or mini()
    assert old in base
    return base.replace(old, new, 1)


CASES = {
    # E001: the person slot asks role=object but 'she' only has a subject form
    "E001": ('forms = [{ text = "she", role = "subject" }, { text = "her", role = "object" }]',
             'forms = [{ text = "she", role = "subject" }]'),
    # E002: two forms fit a slot that asks nothing to tell them apart
    "E002": ('text = "{person role=subject} feels {emotion kind=state}."', 'text = "{person} feels {emotion kind=state}."'),
    "E003": ('text = "I saw {person role=object} in the market."', 'text = "I saw nobody in the market."'),
    "E004": ('{self gender=person.gender}', '{selv gender=person.gender}'),
    "E005": ('text = "{person role=subject} feels {emotion kind=state}."', 'text = "{person case=nom} feels {emotion kind=state}."'),
    "E006": ('text = "{person role=subject} feels {emotion kind=state}."', 'text = "{person role=agent} feels {emotion kind=state}."'),
    "E007": ('id = "angry"\nemotion = "anger"', 'id = "angry"\nemotion = ""'),
    "E008": ('text = "angry"', 'text = "  "'),
    "E010": ('text = "I saw {person role=object} in the market."', 'text = "I saw {person role=object in the market."'),
    "E011": ('race = "A"', 'race = "C"'),
    "E012": ('id = "grim"\nemotion = "sadness"\nkind = "situation"\ntext = "grim"', 'id = "grim"\nemotion = "sadness"\nkind = "situation"'),
    "W101": ('text = "grim"', 'text = "annoying"'),
    "W102": ('text = "angry"', 'text = "angry,"'),
    "W104": ('text = "Ann"', 'text = "ann"'),
    "W105": ('text = "I saw {person role=object} in the market."', 'text = "I saw  {person role=object} in the market."'),
    "W106": ('pair = "he"', 'pair = "ann"'),
    "W107": ('id = "grim"\nemotion = "sadness"', 'id = "grim"\nstatus = "done"\nemotion = "sadness"'),
    "W108": ('id = "grim"\nemotion = "sadness"\nkind = "situation"\ntext = "grim"',
             'id = "grim"\nemotion = "sadness"\nkind = "situation"\nstatus = "untranslatable"'),
    # W109: the translator declares that 'she' has no object form
    "W109": ('forms = [{ text = "she", role = "subject" }, { text = "her", role = "object" }]',
             'forms = [{ text = "she", role = "subject" }, { absent = "no object form", role = "object" }]'),
    # W112: an [expect] shape the realised object does not have
    "W112": ("[derive.initial]", "[expect.role]\nobject = '^(?:him|her)\\b'\n\n[derive.initial]"),
}

# Codes whose trigger/non-trigger fixtures live elsewhere (they need more than one replacement).
TESTED_ELSEWHERE = {
    "E009": "test_e009_no_variant", "E010": "test_e010_agreement_cycle_and_bad_reference",
    "W103": "test_w103_lowercase_sentence_start",
    "E013": "test_pairs_model.py::test_e013", "E014": "test_pairs_model.py::test_e014_*",
    "E015": "test_pairs_model.py::test_e015", "W110": "test_pairs_model.py::test_w110_length_beyond_the_person_term",
    "W111": "test_pairs_model.py::test_w111_one_side_missing",
    # grammar rules: language-specific fixtures in test_grammar_rules.py
    "E016": "test_grammar_rules.py::test_e016_*", "E017": "test_grammar_rules.py::test_e017_*",
    "E018": "test_grammar_rules.py::test_e018_*", "E019": "test_grammar_rules.py::test_e019_*",
    "E020": "test_grammar_rules.py::test_e020_*", "E021": "test_grammar_rules.py::test_e021_*",
    # issue 25: data-driven restrictions, punctuation and spelling (test_grammar_data.py)
    "E022": "test_grammar_data.py::test_restriction_fires_*", "E023": "test_grammar_data.py::test_restriction_fires_*",
    "E024": "test_grammar_data.py::test_restriction_fires_*", "E025": "test_grammar_data.py::test_final_punctuation",
    "W113": "test_grammar_data.py::test_misspelt_word_*", "W114": "test_grammar_data.py::test_a_language_without_*",
    # issue 38: agreement the checker knows, names that decline (test_inflection.py)
    "E026": "test_inflection.py::test_one_untagged_form_*", "E027": "test_inflection.py::test_a_form_with_a_separator_*",
    "E028": "test_inflection.py::test_swapped_forms_*", "E029": "test_inflection.py::test_a_name_without_declension_*",
    "E030": "test_inflection.py::test_an_object_without_its_case_*",
    # issue 28: social axes (test_corpus_axes.py)
    "W115": "test_corpus_axes.py::test_w115_*", "W116": "test_corpus_axes.py::test_w115_*",
}


def test_every_code_has_a_fixture():
    assert set(CASES) | set(TESTED_ELSEWHERE) == set(CODES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_triggers(code):
    old, new = CASES[code]
    assert code not in codes(mini())
    assert code in codes(_replace(old, new))


def test_e001_reports_slot_features_and_available_forms():
    rep = check_corpus(parse_definition(_replace(*CASES["E001"])))
    f = next(f for f in rep.findings if f.code == "E001")
    assert f.template == "T2" and f.slot == "person" and f.person == "she"
    assert f.wanted == {"role": "object"}
    assert any("'she'" in a for a in f.available)
    # the other combinations still generate: errors block only their own combination
    assert rep.sentences == 20 - 1 - 1  # T2 and T4 lose 'she'


def test_e009_no_variant():
    text = mini(templates='''
[[templates]]
id = "V"
select = { gender = "person.gender" }
variants = [{ gender = "m", text = "{person role=subject} is here." }]
''')
    rep = check_corpus(parse_definition(text))
    assert "E009" in rep.codes()
    assert rep.sentences == 2  # only the two male persons
    ok = text.replace('variants = [{ gender = "m", text = "{person role=subject} is here." }]',
                      'variants = [{ gender = "m", text = "{person role=subject} is here." }, { gender = "f", text = "{person role=subject} is there." }]')
    assert "E009" not in codes(ok)


def test_w103_lowercase_sentence_start():
    text = mini().replace("capitalize = true", "capitalize = false")
    assert "W103" in codes(text)
    assert "W103" not in codes(mini())


def test_e010_agreement_cycle_and_bad_reference():
    cyc = mini(templates='''
[[templates]]
id = "C"
text = "{person role=subject} {self gender=a.gender} {a initial=self.initial}."
''')
    rep = check_corpus(parse_definition(cyc))
    assert any(f.code == "E010" and "cycle" in f.message for f in rep.findings)
    bad = mini(templates='''
[[templates]]
id = "R"
text = "{person role=subject} found {self gender=nobody.gender}."
''')
    assert any(f.code == "E010" and "nobody" in f.message for f in check_corpus(parse_definition(bad)).findings)


def test_stray_punctuation_detector():
    from engine.corpus.check.checker import stray_characters
    assert stray_characters("empört,")
    assert stray_characters("bal  x")
    assert stray_characters(" x")
    assert stray_characters("mi madre") == ""
    assert stray_characters("مضحك جدا") == ""
    assert stray_characters("Mary-Jane") == ""
    assert stray_characters("l'homme") == ""


def test_explicit_feature_overrides_derived_initial():
    text = mini().replace('text = "annoying"', 'forms = [{ text = "honest", initial = "vowel" }]')
    df = generate(parse_definition(text))
    assert "Bob found himself in an honest situation." in set(df.Sentence)


def test_w109_skips_only_the_declared_combinations():
    rep = check_corpus(parse_definition(_replace(*CASES["W109"])))
    w109 = [f for f in rep.findings if f.code == "W109"]
    assert len(w109) == 1 and "no object form" in w109[0].message and "2 combination(s)" in w109[0].message
    assert rep.ok and rep.sentences == 20 - 2  # T2 and T4 lose 'she', nothing else


def test_w112_reports_slot_and_shape_and_passes_a_kept_rule():
    rep = check_corpus(parse_definition(_replace(*CASES["W112"])))
    w112 = [f for f in rep.findings if f.code == "W112"]
    assert {(f.template, f.person) for f in w112} == {("T2", "ann"), ("T2", "bob"), ("T4", "ann"), ("T4", "bob")}
    assert all(f.slot == "person" and "role=object" in f.message for f in w112)
    kept = _replace("[derive.initial]", "[expect.role]\nobject = '^\\w+ '\n\n[derive.initial]")
    assert "W112" not in codes(kept)


def test_untranslated_template_is_e012_not_e003():
    """A template left empty by "translate from" is untranslated (E012), not malformed (E003)."""
    import dataclasses

    from engine.corpus import check_corpus, load_corpus

    corpus = load_corpus("en-kiritchenko2018")
    t = corpus.templates[0]
    corpus.templates[0] = dataclasses.replace(t, variants=[dataclasses.replace(t.variants[0], text="")])
    codes = {f.code for f in check_corpus(corpus).errors if f.template == t.id}
    assert codes == {"E012"}
    corpus.templates[0] = dataclasses.replace(t, variants=[dataclasses.replace(t.variants[0], text="No person here.")])
    assert "E003" in {f.code for f in check_corpus(corpus).errors if f.template == t.id}
