"""The corpus word list (``[spelling] accept``) and the engine's spelling judge the editors use:
where a text has words the W113 check reports (slots skipped), the dictionary's suggestions,
adding words (case-insensitive, one word each), and the CLI twin ``corpus spelling-add``."""
from __future__ import annotations

import pytest

from engine.corpus import check_corpus, load_corpus, parse_definition
from engine.corpus.check.spelling import Misspelling, Speller, accept_words
from engine.corpus.definition.errors import DefinitionError

from test_grammar_data import _has_dictionary, corpus


@pytest.fixture
def spanish():
    if not _has_dictionary("es_ES"):
        pytest.skip("no es_ES Hunspell dictionary here (Debian: apt install hunspell-es)")
    return parse_definition(corpus("es", ["{person} estaba muy {emotion gender=person.gender} aier con Kasachin."]),
                            "t.toml")


def w113_words(c) -> set[str]:
    return {f.message.split("'")[1] for f in check_corpus(c).findings if f.code == "W113"}


def test_misspelt_words_of_a_template_are_found_where_they_are_and_slots_are_not_words(spanish):
    text = spanish.templates[0].variants[0].text
    found = Speller(spanish).misspelt(text)
    assert [m.word for m in found] == ["aier", "Kasachin"]
    assert all(text[m.start:m.end] == m.word for m in found)
    # the same words as the check reports (one judge for the check and the underline)
    assert w113_words(spanish) == {"aier", "Kasachin"}
    # slot names and keys ("person", "gender") are markup, never looked up
    assert Speller(spanish).misspelt("{persona kind=stat} {emotion gendr=person.gender}") == []
    # a name of the corpus is exempt
    assert [m.word for m in Speller(spanish).misspelt("con Xochiquetzal")] == ["Xochiquetzal"]
    spanish.persons[0].forms[0].text = "Xochiquetzal"
    assert Speller(spanish).misspelt("con Xochiquetzal") == []


def test_suggestions_come_from_the_dictionary(spanish):
    assert "ayer" in Speller(spanish).suggest("aier")
    assert len(Speller(spanish).suggest("aier", 2)) <= 2


def test_an_accepted_word_is_no_longer_reported(spanish):
    spanish.spelling_accept, added = accept_words(spanish.spelling_accept, ["Kasachin"])
    assert added == ["Kasachin"]
    assert w113_words(spanish) == {"aier"}
    assert [m.word for m in Speller(spanish).misspelt(spanish.templates[0].variants[0].text)] == ["aier"]


def test_accept_words_adds_each_word_once_and_refuses_what_is_not_one_word():
    words, added = accept_words(["indignante"], ["Indignante", "Kasachin", "kasachin", " d'Artagnan "])
    assert words == ["indignante", "Kasachin", "d'Artagnan"] and added == ["Kasachin", "d'Artagnan"]
    for bad in ("dos palabras", "", "3D", "{person}"):
        with pytest.raises(DefinitionError) as err:
            accept_words([], [bad], "mine.toml")
        assert str(err.value).startswith("mine.toml [spelling.accept]: ") and "one word" in str(err.value)


def test_no_dictionary_means_no_underline():
    c = parse_definition(corpus("en", ["{person} feels {emotion} qwzx."]).replace('language = "en"',
                                                                                 'language = "tlh"'), "t.toml")
    assert Speller(c).dictionary()[0] is None and Speller(c).misspelt("qwzx") == [] and Speller(c).suggest("qwzx") == []


def test_japanese_unknown_words_have_their_place_in_the_text():
    pytest.importorskip("fugashi")
    c = parse_definition(corpus("ja", ["{person}はヌガポリャと{emotion}気持ちだ。"]), "t.toml")
    text = c.templates[0].variants[0].text
    found = Speller(c).misspelt(text)
    assert found and all(text[m.start:m.end] == m.word for m in found)
    assert isinstance(found[0], Misspelling)


# -- CLI twin ------------------------------------------------------------------------------------------
def test_cli_spelling_add_writes_the_word_list_and_keeps_comments(spanish, run, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("# my notes: keep me\n" + corpus("es", ["{person} estaba muy {emotion gender=person.gender} "
                                                         "aier con Kasachin."]), encoding="utf-8")
    proc = run("corpus", "spelling-add", str(path), "Kasachin", "aier", "kasachin")
    assert proc.returncode == 0, proc.stderr
    assert "added 2 word(s)" in proc.stdout and "already there: kasachin" in proc.stdout
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# my notes: keep me\n") and 'accept = ["Kasachin", "aier"]' in text
    assert w113_words(load_corpus(path)) == set()
    again = run("corpus", "spelling-add", str(path), "aier")
    assert again.returncode == 0 and "added 0 word(s)" in again.stdout and path.read_text(encoding="utf-8") == text


def test_cli_spelling_add_refuses_a_built_in_corpus_and_a_phrase(run, tmp_path):
    proc = run("corpus", "spelling-add", "es-camara2022", "foo")
    assert proc.returncode == 2 and "built-in corpus" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    path = tmp_path / "mine.toml"
    path.write_text(corpus("es", ["{person} está {emotion gender=person.gender}."]), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    proc = run("corpus", "spelling-add", str(path), "dos palabras")
    assert proc.returncode == 2 and "is not one word" in proc.stderr and "mine.toml" in proc.stderr
    assert path.read_text(encoding="utf-8") == before


def test_an_accepted_word_glued_to_template_text_is_accepted_too():
    """Arabic templates glue a preposition onto the slot (ب + الانزعاح): the sentence's word is
    بالانزعاح, the editor underlines الانزعاح; adding that to the list clears the finding."""
    if not _has_dictionary("ar"):
        pytest.skip("no Arabic Hunspell dictionary here (Debian: apt install hunspell-ar)")
    c = parse_definition(corpus("ar", ["{person} يشعر ب{emotion}."], forms=("الانزعاح", "الانزعاح")), "t.toml")
    assert w113_words(c) == {"بالانزعاح"}
    assert [m.word for m in Speller(c).misspelt(c.emotion_words[0].forms[0].text)] == ["الانزعاح"]
    c.spelling_accept, _ = accept_words(c.spelling_accept, ["الانزعاح"])
    assert w113_words(c) == set()
