"""Grammar rules E016-E021 (engine.corpus.check.grammar): each fires on the faulty construction and not
on its corrected form, in small definitions of the language it is written for."""
import pytest

from engine.corpus import check_corpus, parse_definition
from engine.corpus.definition.errors import DefinitionError
from engine.corpus.definition.writer import to_toml

PERSONS = {
    "es": [("ana", "female", "Ana"), ("juan", "male", "Juan")],
    "it": [("anna", "female", "Anna"), ("gianni", "male", "Gianni")],
    "ar": [("maryam", "female", "مريم"), ("hassan", "male", "حسن")],
    "ja": [("kanojo", "female", "彼女"), ("kare", "male", "彼")],
}


def corpus(lang: str, templates: list[str], emotion_forms: str, *, features: str = "", extra: str = "") -> str:
    """A one-emotion-word definition: one template per text, one female and one male person."""
    out = [f'format = 1\nid = "g-{lang}"\nlanguage = "{lang}"\ncapitalize = false\n{extra}',
           f'[features]\ngender = ["f", "m"]\n{features}',
           '[axes.gender]\ngroups = ["female", "male"]\nreference = "male"\nfeature = { female = "f", male = "m" }']
    for i, text in enumerate(templates):
        out.append(f'[[templates]]\nid = "T{i + 1}"\ntext = "{text}"')
    for pid, gender, text in PERSONS[lang]:
        out.append(f'[[persons]]\nid = "{pid}"\nkind = "noun_phrase"\ngender = "{gender}"\ntext = "{text}"')
    out.append(f'[[emotion_words]]\nid = "w"\nemotion = "joy"\nkind = "state"\n{emotion_forms}')
    return "\n\n".join(out) + "\n"


def found(text: str) -> dict[str, set[str]]:
    """code -> templates it names (grammar codes only)."""
    out: dict[str, set[str]] = {}
    for f in check_corpus(parse_definition(text, "g.toml")).findings:
        if f.code in ("E016", "E017", "E018", "E019", "E020", "E021"):
            out.setdefault(f.code, set()).add(f.template)
    return out


ES_ADJ = 'forms = [{ text = "contenta", gender = "f" }, { text = "contento", gender = "m" }]'


def test_e016_adjective_after_me_agrees_with_the_person():
    text = corpus("es", ["{person} me hizo sentir {emotion kind=state gender=person.gender}",  # wrong: describes 'me'
                         "{person} me hizo sentir {emotion kind=state gender=m}",              # speaker held fixed
                         "Hice que {person} se sintiera {emotion kind=state gender=person.gender}",
                         "{person} nos contó algo {emotion kind=state gender=person.gender}"], ES_ADJ)
    assert found(text) == {"E016": {"T1"}}


def test_e016_adjective_after_se_fixed_instead_of_agreeing():
    text = corpus("es", ["{person} se siente {emotion kind=state gender=m}",             # wrong: se is the person
                         "{person} se siente {emotion kind=state gender=person.gender}",
                         "Quiero sentirme {emotion kind=state gender=m} con {person}"], ES_ADJ)
    assert found(text) == {"E016": {"T1"}}


def test_e016_in_italian():
    adj = 'forms = [{ text = "contenta", gender = "f" }, { text = "contento", gender = "m" }]'
    text = corpus("it", ["{person} mi ha fatto sentire {emotion kind=state gender=person.gender}",
                         "{person} mi ha fatto sentire {emotion kind=state gender=m}"], adj)
    assert found(text) == {"E016": {"T1"}}


AR_ADJ = 'forms = [{ text = "سعيدة", gender = "f" }, { text = "سعيد", gender = "m" }]'


def test_e017_bare_adjective_after_a_feel_verb():
    text = corpus("ar", ["{person} يشعر {emotion kind=state gender=person.gender}",   # يشعر سعيد
                         "{person} جعلني أشعر {emotion kind=state gender=m}",
                         "{person} ينفعل {emotion kind=state gender=person.gender}",
                         "المحادثة مع {person} {emotion kind=state gender=f}"],        # حسن is a name, not أحسّ
                  AR_ADJ)
    assert found(text) == {"E017": {"T1", "T2", "T3"}}
    noun = corpus("ar", ["{person} يشعر ب{emotion kind=state}", "{person} جعلني أشعر ب{emotion kind=state}"],
                  'text = "السعادة"')
    assert found(noun) == {}
    accusative = corpus("ar", ["{person} يشعر {emotion kind=state}"], 'text = "سعيدًا"')
    assert found(accusative) == {}


def test_e018_object_pronoun_with_a_noun_object():
    text = corpus("ar", ["الموقف جعله {person} يشعر ب{emotion kind=state}",   # made him + person
                         "أنا جعلته {person} يشعر ب{emotion kind=state}",
                         "تحدثت معه {person} أمس",                             # preposition + pronoun + noun
                         "الموقف جعل {person} يشعر ب{emotion kind=state}",
                         "جعله {person} يشعر ب{emotion kind=state}",            # verb first: '<person> made him'
                         "رأيت هذه {person}"], 'text = "السعادة"')
    assert found(text) == {"E018": {"T1", "T2", "T3"}}


JA = ('forms = [{{ text = "{a}", voice = "active" }}, {{ text = "{c}", voice = "causative" }}]')
JA_FEAT = 'voice = ["active", "causative"]'


def test_e019_two_o_objects_in_one_clause():
    bad = corpus("ja", ["私は{person}を{emotion voice=causative}た。", "{person}は{emotion voice=active}。"],
                 JA.format(a="元気がない", c="元気をなくさせ"), features=JA_FEAT)
    assert found(bad) == {"E019": {"T1"}}
    good = corpus("ja", ["私は{person}を{emotion voice=causative}た。", "私は{person}に{emotion voice=causative}た。",
                         "本を読んだ{person}を{emotion voice=causative}た。"],        # a verb between: two clauses
                  JA.format(a="落ち込む", c="落ち込ませ"), features=JA_FEAT)
    assert found(good) == {}
    ni = corpus("ja", ["私は{person}に{emotion voice=causative}た。"], JA.format(a="元気がない", c="元気をなくさせ"),
                features=JA_FEAT)
    assert found(ni) == {}


def test_e020_na_adjective_before_a_noun():
    templates = ["{person}は{emotion voice=active}状況に陥った。", "{person}は最近の{emotion voice=active}出来事を話した。",
                 "{person}は{emotion voice=active}。"]
    assert found(corpus("ja", templates, JA.format(a="幸せ", c="幸せな気持ちにさせ"), features=JA_FEAT)) == {"E020": {"T1", "T2"}}
    assert found(corpus("ja", templates[:2], JA.format(a="幸せな", c="幸せな気持ちにさせ"), features=JA_FEAT)) == {}
    assert found(corpus("ja", templates, JA.format(a="嬉しい", c="喜ばせ"), features=JA_FEAT)) == {}  # an i-adjective


def test_e021_causative_without_a_causee():
    templates = ["{person}との会話は{emotion voice=causative}た。", "{person}は{emotion voice=causative}た。",
                 "{person}との会話は私を{emotion voice=causative}た。", "その状況は{person}を{emotion voice=causative}る。",
                 "{person}は{emotion voice=active}。"]
    assert found(corpus("ja", templates, JA.format(a="怯える", c="怯えさせ"), features=JA_FEAT)) == {"E021": {"T1", "T2"}}
    # 知らせる ends like a causative but is a verb of its own; 幸せな気持ちに… holds its に inside the slot
    lexical = corpus("ja", ["{person}は{emotion voice=causative}た。"], JA.format(a="知る", c="知らせ"), features=JA_FEAT)
    assert found(lexical) == {}
    inner_ni = corpus("ja", ["{person}との会話は{emotion voice=causative}た。"], JA.format(a="幸せ", c="幸せな気持ちにさせ"),
                      features=JA_FEAT)
    assert found(inner_ni) == {"E021": {"T1"}}


def test_rules_follow_the_language():
    """A language without rules is not checked by another language's rules."""
    text = corpus("ja", ["{person}との会話は{emotion voice=causative}た。"], JA.format(a="怯える", c="怯えさせ"), features=JA_FEAT)
    assert found(text.replace('language = "ja"', 'language = "ko"')) == {}
    assert found(text.replace('language = "ja"', 'language = "ja-JP"')) == {"E021": {"T1"}}


def test_findings_are_collapsed_per_template_with_a_count_and_an_example():
    text = corpus("ja", ["{person}との会話は{emotion voice=causative}た。"], JA.format(a="怯える", c="怯えさせ"), features=JA_FEAT)
    rep = check_corpus(parse_definition(text))
    e021 = [f for f in rep.findings if f.code == "E021"]
    assert len(e021) == 1 and e021[0].is_error and not rep.ok
    assert "2 sentence(s)" in e021[0].message and "との会話は怯えさせた。" in e021[0].message


KNOWN = '[known_defects]\nE021 = "as published; kept to reproduce the paper"\n'


def test_known_defects_are_warnings_with_their_reason():
    text = corpus("ja", ["{person}との会話は{emotion voice=causative}た。"], JA.format(a="怯える", c="怯えさせ"),
                  features=JA_FEAT, extra=KNOWN)
    rep = check_corpus(parse_definition(text))
    e021 = [f for f in rep.findings if f.code == "E021"]
    assert len(e021) == 1 and not e021[0].is_error and e021[0].severity == "warning" and rep.ok
    assert e021[0].known == "as published; kept to reproduce the paper"
    assert "known defect of the published text: as published" in e021[0].message
    assert str(e021[0]).startswith("WARNING E021")
    # only the declared code is demoted
    both = corpus("ja", ["{person}との会話は{emotion voice=causative}た。", "私は{person}を{emotion voice=causative}た。"],
                  JA.format(a="元気がない", c="元気をなくさせ"), features=JA_FEAT, extra=KNOWN)
    rep = check_corpus(parse_definition(both))
    # (W106: this two-template sketch has an unpaired noun phrase; not the subject here)
    assert {f.code for f in rep.errors} == {"E019"} and {f.code for f in rep.warnings} - {"W106"} == {"E021"}


def test_known_defects_round_trip_and_validation():
    text = corpus("ja", ["{person}は{emotion voice=active}。"], JA.format(a="怯える", c="怯えさせ"), features=JA_FEAT, extra=KNOWN)
    c = parse_definition(text)
    assert c.known_defects == {"E021": "as published; kept to reproduce the paper"}
    assert parse_definition(to_toml(c)).known_defects == c.known_defects
    with pytest.raises(DefinitionError) as exc:
        parse_definition(text.replace("E021 =", "E001 ="), "bad.toml")
    assert "known_defects.E001" in str(exc.value) and "E016" in str(exc.value)
    with pytest.raises(DefinitionError) as exc:
        parse_definition(text.replace('"as published; kept to reproduce the paper"', '" "'), "bad.toml")
    assert "say why" in str(exc.value)
