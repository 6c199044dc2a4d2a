"""Saving a definition and reading it back loses nothing."""
import pytest

from engine.corpus import builtin_names, generate, load_corpus, parse_definition
from engine.corpus.definition.writer import save_definition, to_toml


@pytest.mark.parametrize("name", builtin_names())
def test_roundtrip_builtin(name, tmp_path):
    c = load_corpus(name)
    text = to_toml(c)
    back = parse_definition(text, "roundtrip.toml")
    back.path = c.path
    assert back == c
    assert generate(back).equals(generate(c))
    save_definition(c, tmp_path / "x.toml")
    assert (tmp_path / "x.toml").read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["x.toml"]  # no temp file left behind
