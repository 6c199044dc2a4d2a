"""Social axes (issue 28): declared with `corpus new --axis`, renamed with their persons, and
checked — W115 (a group without names), W116 (cells of unequal size), W106 for unpaired or
one-sided noun-phrase pairs, and E002 advice that names the template fix, with its one-click edit."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.corpus import EmotionWord, Form, PersonTerm, Template, Variant, check_corpus, load_corpus
from engine.corpus.definition.axes import AxisError, make_axis, parse_axis_option, renamed_group
from engine.corpus.check.fixes import add_agreement, fix_for, pair_edits
from engine.corpus.generate.generator import generate
from engine.corpus.definition.new_corpus import new_corpus
from engine.corpus.definition.paths import assign

ROOT = Path(__file__).resolve().parents[1]


def _pt(names: list[tuple[str, str, str]] = (), nps: list[tuple[str, str, str]] = ()):
    c = new_corpus("Portuguese", axes=[parse_axis_option("race:Raça=branco*,negro")])
    for text, g, race in names:
        c.persons.append(PersonTerm(text.lower(), "name", {"gender": g, "race": race}, [Form(text)]))
    for pid, g, text in nps:
        c.persons.append(PersonTerm(pid, "noun_phrase", {"gender": g}, [Form(text)]))
    return c


def _codes(c, code):
    return [f for f in check_corpus(c).findings if f.code == code]


def test_axis_option_marks_the_reference_and_refuses_what_cannot_work():
    a = parse_axis_option("religion=christian,muslim*,jewish")
    assert (a.name, a.groups, a.reference) == ("religion", ["christian", "muslim", "jewish"], "muslim")
    assert parse_axis_option("race:Raça=branco,negro").label == "Raça"
    for bad, says in (("race", "NAME=GROUP"), ("race=only", "at least two"), ("race=a*,b*", "one reference"),
                      ("ra ce=a,b", "letters"), ("race=a,a", "twice")):
        with pytest.raises(AxisError, match=says):
            parse_axis_option(bad)
    with pytest.raises(AxisError, match="not one of"):
        make_axis("race", ["a", "b"], "c")


def test_corpus_new_cli_declares_the_axis_and_saves_in_the_corpora_folder(tmp_path):
    env = {"EEC_STUDIO_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "corpus", "new", "--language", "Portuguese",
                        "--axis", "race:Raça=branco*,negro"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "corpora" / "pt-my-eec.toml"  # created on first use
    assert str(out) in r.stdout and "race = branco, negro (reference branco)" in r.stdout
    c = load_corpus(out)
    assert (c.axes["race"].groups, c.axes["race"].reference, c.axes["race"].label) == (["branco", "negro"], "branco", "Raça")
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "corpus", "new", "--language", "pt", "--out",
                        str(tmp_path / "x.toml"), "--axis", "race=a*,b*"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 2 and "mark one reference group with *" in r.stderr and "Traceback" not in r.stderr


def test_w115_group_without_names_and_w116_unbalanced_cells():
    c = _pt([("Ana", "female", "branco"), ("Rita", "female", "branco"), ("João", "male", "branco"),
             ("Paulo", "male", "branco")])
    w115 = _codes(c, "W115")
    assert [f.item for f in w115] == ["axes.race"] and "'negro'" in w115[0].message
    c = _pt([("Ana", "female", "branco"), ("Rita", "female", "branco"), ("João", "male", "branco"),
             ("Jasmine", "female", "negro"), ("Ebony", "female", "negro"), ("Darnell", "male", "negro")])
    assert not _codes(c, "W115")
    w116 = _codes(c, "W116")
    assert len(w116) == 1 and "female · branco 2, female · negro 2, male · branco 1, male · negro 1" in w116[0].message
    c.persons.append(PersonTerm("pedro", "name", {"gender": "male", "race": "branco"}, [Form("Pedro")]))
    c.persons.append(PersonTerm("jamal", "name", {"gender": "male", "race": "negro"}, [Form("Jamal")]))
    assert not _codes(c, "W116") and not _codes(c, "W115")
    assert not _codes(new_corpus("pt", axes=[parse_axis_option("race=a,b")]), "W115")  # empty: progress, not a problem


def test_renaming_a_group_retags_its_persons_and_the_reference():
    c = _pt([("Ana", "female", "branco"), ("Jasmine", "female", "negro")])
    axis, persons = renamed_group(c, "race", "branco", "branca")
    assert (axis.groups, axis.reference) == (["branca", "negro"], "branca")
    assert persons == {0: {"gender": "female", "race": "branca"}}
    with pytest.raises(AxisError, match="already has"):
        renamed_group(c, "race", "branco", "negro")


def test_w106_unpaired_noun_phrase_and_one_sided_pair_with_their_fixes():
    c = _pt(nps=[("minha_mae", "female", "minha mãe"), ("meu_pai", "male", "meu pai")])
    w = _codes(c, "W106")
    assert {f.person for f in w} == {"minha_mae", "meu_pai"} and "has no pair" in w[0].message
    fix = fix_for(c, w[0])
    assert fix is not None and fix.kind == "pair"
    for path, value in fix.edits:
        assign(c, path, value)
    assert (c.persons[0].pair, c.persons[1].pair) == ("meu_pai", "minha_mae") and not _codes(c, "W106")
    c.persons[1].pair = ""  # set on one side only
    w = _codes(c, "W106")
    assert len(w) == 1 and "not mirrored" in w[0].message
    for path, value in fix_for(c, w[0]).edits:
        assign(c, path, value)
    assert c.persons[1].pair == "minha_mae" and not _codes(c, "W106")


def test_pair_edits_mirror_and_release_the_old_partners():
    c = _pt(nps=[("a_f", "female", "a"), ("a_m", "male", "b"), ("b_f", "female", "c"), ("b_m", "male", "d")])
    for path, value in pair_edits(c, "a_f", "a_m") + pair_edits(c, "b_f", "b_m"):
        assign(c, path, value)
    for path, value in pair_edits(c, "a_f", "b_m"):  # re-pair: both old partners are released
        assign(c, path, value)
    assert {p.id: p.pair for p in c.persons} == {"a_f": "b_m", "b_m": "a_f", "a_m": "", "b_f": ""}


def test_e002_names_the_template_fix_once_per_slot_and_the_fix_clears_it():
    c = _pt([("Ana", "female", "branco"), ("João", "male", "branco")])
    c.templates.append(Template("T01", [Variant("{person} está {emotion kind=state}.")]))
    c.emotion_words += [EmotionWord(w, "anger", "state", [Form(w + "a", {"gender": "f"}), Form(w + "o", {"gender": "m"})])
                        for w in ("irritad", "furios")]
    e002 = _codes(c, "E002")
    assert e002 and all(f.item == "templates[T01]" for f in e002)
    assert "add gender=person.gender to the slot" in e002[0].message
    from engine.corpus.check.finding_groups import group_findings
    groups = [g for g in group_findings(check_corpus(c), c) if g.code == "E002"]
    assert len(groups) == 1 and groups[0].cause == ("templates", "T01")  # one line, not one per emotion word
    fix = fix_for(c, e002[0])
    assert fix.kind == "agree"
    for path, value in fix.edits:
        assign(c, path, value)
    assert c.templates[0].variants[0].text == "{person} está {emotion kind=state gender=person.gender}."
    assert not _codes(c, "E002")
    assert "Ana está irritada." in set(generate(c).Sentence)


def test_add_agreement_touches_only_the_named_slot_and_keeps_an_existing_feature():
    assert add_agreement("{person} e {emotion}, {emotion:x kind=state}", "emotion", "gender", "person.gender") == \
        "{person} e {emotion gender=person.gender}, {emotion:x kind=state gender=person.gender}"
    assert add_agreement("{emotion gender=f}", "emotion", "gender", "person.gender") == "{emotion gender=f}"
    assert add_agreement("{{emotion}} {person}", "emotion", "gender", "person.gender") == "{{emotion}} {person}"


def test_builtin_pair_designs_do_not_raise_w106_or_w115():
    for name in ("en-kiritchenko2018", "de-goldfarb2023"):
        c = load_corpus(name)
        assert not [f for f in check_corpus(c).findings if f.code in ("W106", "W115")], name
