"""Renaming an entry's id updates every reference to it (engine.corpus.definition.rename)."""
import copy

from engine.corpus import CompiledCorpus, check_corpus, generate, load_corpus
from engine.corpus.pairs.tables import generate_pairs
from engine.corpus.definition.rename import apply_edits, reference_edits, rename_slot_source


def renamed(corpus, list_name, old, new):
    c = copy.deepcopy(corpus)
    edits = reference_edits(c, list_name, old, new)
    entry = next(e for e in getattr(c, list_name) if e.id == old)
    entry.id = new
    apply_edits(c, edits)
    return c, edits


def test_renaming_a_noun_phrase_updates_its_partner_and_the_declared_pairs():
    de = load_corpus("de-goldfarb2023")
    c, edits = renamed(de, "persons", "np_er", "np_er_pronomen")
    wheres = {e.where for e in edits}
    assert any(w.startswith("pairs[") and w.endswith(".privileged") for w in wheres)
    assert check_corpus(c).errors == check_corpus(de).errors  # nothing dangles
    pairs_before, pairs_after = generate_pairs(de), generate_pairs(c)
    assert len(pairs_after) == len(pairs_before)
    assert list(pairs_after.privileged) == list(pairs_before.privileged)


def test_renaming_a_np_updates_pair_field_of_its_counterpart():
    en = load_corpus("en-kiritchenko2018")
    partner = next(p for p in en.persons if p.pair)
    c, edits = renamed(en, "persons", partner.pair, "np_renamed")
    assert next(p for p in c.persons if p.id == partner.id).pair == "np_renamed"
    assert not check_corpus(c).errors


def test_renaming_a_small_word_rewrites_template_slots_and_sentences_stay_the_same():
    en = load_corpus("en-kiritchenko2018")
    word = en.words[0].id
    c, edits = renamed(en, "words", word, word + "_renamed")
    assert edits and all(e.where.startswith("templates[") for e in edits)
    assert not check_corpus(c).errors
    before, after = generate(en, CompiledCorpus(en)), generate(c, CompiledCorpus(c))
    assert list(before.Sentence) == list(after.Sentence)


def test_slot_source_rewrite_keeps_names_literals_and_other_slots():
    t = "{{x}} {person role=subject} found {self gender=person.gender} and {r:self\tgender=self.gender}."
    assert rename_slot_source(t, "self", "refl") == \
        "{{x}} {person role=subject} found {self:refl gender=person.gender} and {r:refl\tgender=self.gender}."
    assert rename_slot_source("{self:refl gender=person.gender}", "refl", "self") == "{self gender=person.gender}"
    assert rename_slot_source("{broken", "self", "x") == "{broken"  # unparsable: untouched
    assert reference_edits(load_corpus("en-kiritchenko2018"), "emotion_words", "angry", "cross") == []
