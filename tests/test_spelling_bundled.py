"""Issue 38 item 6: spelling dictionaries that come with the install, so the checker (W113/W114), the
workbench and the test suite give the same verdicts on every host. The system's dictionaries
(Enchant) may add a language the package has none for; they never decide a word of a language the
package covers. EEC_STUDIO_SYSTEM_DICTIONARIES=0 hides them (the suite is run both ways)."""
import sys
import types

import pytest

from engine.corpus.check import spelling
from engine.corpus.check.grammar.language_data import language_data
from engine.corpus.check.spelling import BUNDLED_DIR, BundledDictionary, Speller, bundled_tags
from engine.corpus.definition.loader import parse_definition
from test_grammar_data import corpus

#: the languages the issue requires, each with the tag its language data tries first
REQUIRED = {"en": "en_US", "es": "es_ES", "de": "de_DE", "pt": "pt_PT", "fr": "fr_FR", "it": "it_IT", "ar": "ar"}


@pytest.fixture
def fresh_cache():
    spelling._dictionary_cached.cache_clear()
    yield
    spelling._dictionary_cached.cache_clear()


def test_every_required_language_has_a_bundled_dictionary_with_its_licence():
    tags = bundled_tags()
    for lang, tag in REQUIRED.items():
        assert tag in tags and tag in language_data(lang).spelling, (lang, tags)
        assert language_data(lang).spelling[0] in tags  # the first tag tried is the bundled one
        lic = BUNDLED_DIR / "licences"
        assert any(p.name.startswith((tag + "-", lang + "-")) for p in lic.iterdir()), f"no licence file for {tag}"
    assert "pt_BR" in tags and "en_GB" in tags  # the second tags of pt and en too


class _FakeEnchant(types.ModuleType):
    """An Enchant whose dictionaries know no word at all: if it were ever asked about a language the
    package covers, every word would be reported."""

    class errors:  # noqa: N801 - mirrors enchant.errors
        Error = Exception

    def __init__(self, tags):
        super().__init__("enchant")
        self.tags = set(tags)
        self.asked: list[str] = []

    def dict_exists(self, tag):
        self.asked.append(tag)
        return tag in self.tags

    def Dict(self, tag):  # noqa: N802 - enchant's name
        return types.SimpleNamespace(check=lambda w: False, suggest=lambda w: ["zzz"])


def _w113(text):
    from engine.corpus.check.checker import check_corpus

    return {f.message.split("'")[1] for f in check_corpus(parse_definition(text, "t.toml")).findings if f.code == "W113"}


def test_a_system_dictionary_never_changes_a_bundled_languages_verdicts(monkeypatch, fresh_cache):
    """Issue 38: a host with libenchant and other dictionaries (the reported one had only Italian)
    gave other results than a host without; now the bundled dictionary decides."""
    fake = _FakeEnchant({"es_ES", "it_IT", "de_DE"})
    monkeypatch.setitem(sys.modules, "enchant", fake)
    monkeypatch.setenv(spelling.SYSTEM_ENV, "1")
    text = corpus("es", ["{person} estaba muy {emotion gender=person.gender} aier."])
    assert _w113(text) == {"aier"}  # not every word, as the fake system dictionary would say
    assert fake.asked == []  # the system was not even asked about Spanish
    c = parse_definition(text, "t.toml")
    d, name = Speller(c).dictionary()
    assert isinstance(d, BundledDictionary) and name == "the es_ES dictionary"
    assert "ayer" in Speller(c).suggest("aier")


def test_a_system_dictionary_may_add_a_language_the_package_lacks(monkeypatch, fresh_cache):
    fake = _FakeEnchant({"xx_XX"})
    monkeypatch.setitem(sys.modules, "enchant", fake)
    monkeypatch.setenv(spelling.SYSTEM_ENV, "1")
    d, name = spelling._dictionary(("xx_XX",))
    assert d is not None and name == "the system's xx_XX dictionary" and fake.asked == ["xx_XX"]
    monkeypatch.setenv(spelling.SYSTEM_ENV, "0")  # hidden: W114 says so, and names the switch
    d, why = spelling._dictionary(("xx_XX",))
    assert d is None and "EEC_STUDIO_SYSTEM_DICTIONARIES=0" in why and "comes with EEC Studio" in why


def test_without_enchant_a_bundled_language_is_still_checked(monkeypatch, fresh_cache):
    """A Windows/macOS install or the one-folder build has no libenchant: nothing changes."""
    monkeypatch.setitem(sys.modules, "enchant", None)  # import enchant -> ImportError
    monkeypatch.setenv(spelling.SYSTEM_ENV, "1")
    assert _w113(corpus("it", ["{person} era molto {emotion gender=person.gender} iery."])) == {"iery"}
    d, why = spelling._dictionary(("xx_XX",))
    assert d is None and "Enchant library is not available" in why and "\n" not in why


@pytest.mark.slow  # loads two dictionaries twice (about 10 s)
@pytest.mark.parametrize("tag,words", [
    ("es_ES", "La conversación con María fue seria estremecedora acontecimientos graves desoladores aier "
              "indignante cabreado enojada Ángel"),
    ("de_DE", "Das Gespräch mit diesem Roma-Mann war enervierend Sinti-Frau Sintiza vietnamesische "
              "furchterregend Hauss glücklich Gespräche"),
])
def test_hunspell_and_the_pure_python_reader_agree(tag, words):
    """The verdict does not depend on which reader a platform has (chunspell's Hunspell or spylls)."""
    pytest.importorskip("hunspell")
    c_reader, py_reader = BundledDictionary(tag, "hunspell"), BundledDictionary(tag, "spylls")
    verdicts = [(w, c_reader.check(w), py_reader.check(w)) for w in words.split()]
    assert all(a == b for _w, a, b in verdicts), verdicts
    unknown = {w for w, a, _ in verdicts if not a}
    assert unknown >= ({"aier"} if tag == "es_ES" else {"Hauss", "Sintiza"}), unknown


def test_every_bundled_dictionary_is_attributed():
    from conftest import ROOT

    text = (ROOT / "ATTRIBUTION.md").read_text(encoding="utf-8")
    for tag in bundled_tags():
        assert f"`{tag}.aff`, `{tag}.dic`" in text, f"{tag} is not listed in ATTRIBUTION.md"
