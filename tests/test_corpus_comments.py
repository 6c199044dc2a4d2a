"""Saving a definition keeps its # comments (engine.corpus.definition.comments via save_definition)."""
import dataclasses

import pytest

from engine.corpus import load_corpus, load_definition, parse_definition
from engine.corpus.definition.comments import carry_comments
from engine.corpus.definition.registry import resolve_path
from engine.corpus.definition.writer import save_definition, to_toml

from testkit.audit_fixtures import mini_corpus_text

COMMENTED = mini_corpus_text("notes").replace(
    'format = 1\n', '# Notes corpus: written by hand.\n# Second line of the header.\n\nformat = 1\n', 1).replace(
    '[[templates]]\nid = "T2"', '# T2 was reworded after review (see the issue tracker).\n[[templates]]\nid = "T2"', 1).replace(
    'text = "{person role=subject} feels {emotion kind=state}."',
    'text = "{person role=subject} feels {emotion kind=state}."  # the paper\'s template 1', 1).replace(
    '[axes.race]', '# Groups as named in the paper # with a hash inside\n[axes.race]', 1) + \
    '\n# closing remark at the end of the file\n'


def comment_lines(text):
    return [l.strip() for l in text.splitlines() if l.strip().startswith("#")]


@pytest.mark.parametrize("name", ["en-kiritchenko2018", "es-camara2022", "de-goldfarb2023", "ar-camara2022",
                                  "ja-goldfarb2023"])
def test_every_comment_of_a_builtin_survives_a_save_and_repeated_saves_do_not_double_them(name, tmp_path):
    src = resolve_path(name)
    dst = tmp_path / src.name
    dst.write_bytes(src.read_bytes())
    corpus = load_definition(dst)
    for _ in range(3):
        save_definition(corpus, dst)
    text = dst.read_text("utf-8")
    old = comment_lines(src.read_text("utf-8"))
    assert old and comment_lines(text) == old  # same comments, same order, each once
    assert load_definition(dst) == corpus


def test_comments_stay_with_their_entry_key_and_section(tmp_path):
    path = tmp_path / "notes.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    corpus = load_definition(path)
    save_definition(corpus, path)
    lines = path.read_text("utf-8").splitlines()
    assert lines[:2] == ["# Notes corpus: written by hand.", "# Second line of the header."]
    t2 = lines.index('id = "T2"')
    assert lines[t2 - 2] == "# T2 was reworded after review (see the issue tracker)." and lines[t2 - 1] == "[[templates]]"
    assert 'text = "{person role=subject} feels {emotion kind=state}."  # the paper\'s template 1' in lines
    race = lines.index("[axes.race]")
    assert lines[race - 1] == "# Groups as named in the paper # with a hash inside"
    assert lines[-1] == "# closing remark at the end of the file"
    assert parse_definition("\n".join(lines), str(path)).templates == corpus.templates


def test_a_comment_of_a_deleted_entry_moves_to_the_next_one_and_a_renamed_value_keeps_its_inline_note(tmp_path):
    path = tmp_path / "notes.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    corpus = load_definition(path)
    t1 = corpus.templates[0]
    variant = dataclasses.replace(t1.variants[0], text="{person role=subject} feels {emotion kind=state}!")
    corpus.templates[0] = dataclasses.replace(t1, variants=[variant])
    del corpus.templates[1]  # T2, which carried a comment
    save_definition(corpus, path)
    lines = path.read_text("utf-8").splitlines()
    assert 'text = "{person role=subject} feels {emotion kind=state}!"  # the paper\'s template 1' in lines
    t3 = lines.index('id = "T3"')
    assert lines[t3 - 2] == "# T2 was reworded after review (see the issue tracker)."
    assert 'id = "T2"' not in lines


def test_hash_inside_a_string_is_not_a_comment():
    old = 'format = 1\nid = "x"\nname = "A # B"  # real note\n'
    new = 'format = 1\nid = "x"\nname = "A # B"\n'
    assert carry_comments(old, new) == old


def test_save_as_carries_the_comments_of_the_file_it_was_opened_from(tmp_path):
    src = tmp_path / "a.toml"
    src.write_text(COMMENTED, encoding="utf-8")
    corpus = load_definition(src)
    save_definition(corpus, tmp_path / "b.toml", comments_from=src)
    assert comment_lines((tmp_path / "b.toml").read_text("utf-8")) == comment_lines(COMMENTED)
    save_definition(corpus, tmp_path / "c.toml", comments_from=None)
    assert (tmp_path / "c.toml").read_text("utf-8") == to_toml(corpus)
    save_definition(corpus, tmp_path / "d.toml", comments_from=tmp_path / "missing.toml")  # nothing to carry: no error
    assert (tmp_path / "d.toml").read_text("utf-8") == to_toml(corpus)


def test_builtin_corpora_load_unchanged_after_carrying(tmp_path):
    for name in ("zh-goldfarb2023", "en-goldfarb2023", "es-goldfarb2023"):
        corpus = load_corpus(name)
        text = carry_comments(resolve_path(name).read_text("utf-8"), to_toml(corpus))
        assert parse_definition(text, name) == parse_definition(to_toml(corpus), name)


def test_comments_inside_a_multi_line_value_are_kept_before_the_next_key():
    old = ('format = 1\nid = "x"\nprivileged = [\n    # the unmarked side first\n    "a",  # pronoun\n    "b",\n]\n'
           'shared = ["case"]\n')
    new = 'format = 1\nid = "x"\nprivileged = ["a", "b"]\nshared = ["case"]\n'
    out = carry_comments(old, new).splitlines()
    assert out == ['format = 1', 'id = "x"', 'privileged = ["a", "b"]', '# the unmarked side first', '',
                   '# pronoun', 'shared = ["case"]']
