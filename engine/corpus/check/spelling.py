"""W113/W114 — spelling of every realised sentence against a Hunspell dictionary.

Why real dictionaries: hand-written patterns catch the faults someone already found; a
Hunspell dictionary knows the whole standard vocabulary, and UniDic (fugashi + unidic-lite) the
Japanese one. Names are exempt, and so are a corpus's own words (``[spelling] accept = [...]``).

Why dictionaries that come with the install (issue 38): the verdicts must not depend on the host.
The LibreOffice dictionaries of the languages EEC Studio knows (ar, de, en, es, fr, it, pt) travel
with the package in ``resources/spelling/`` and are read by Hunspell itself (the C library inside
the ``chunspell`` wheel) or, where no such wheel exists, by ``spylls``, its pure-Python port (same
files, same verdicts on the built-in corpora: bench/bench_spelling.py). The system's dictionaries
(Enchant: ``hunspell-nl``, ...) are consulted only for a language the package has none for: they
may add languages, never change a verdict. ``EEC_STUDIO_SYSTEM_DICTIONARIES=0`` hides them (the
test suite's second run). A language without a dictionary is said once (W114), never skipped
silently. Findings are grouped per unknown word with an example.
"""
from __future__ import annotations

import functools
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from engine.corpus.check.grammar.inflection import inflection
from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.check.grammar.language_data import language_data
from engine.corpus.definition.model import CorpusDefinition

# Enchant dictionaries and MeCab taggers are not thread-safe, and the GUI checks several corpora
# in pool threads at once (the Corpora page): every use of the shared, cached objects holds this lock.
_LOCK = threading.RLock()

# a word: letters (with Arabic/Hebrew marks), joined by an inner hyphen or apostrophe
WORD = re.compile(r"[^\W\d_][\w\u0300-\u036f\u064b-\u065f\u0670]*(?:[-'’][^\W\d_][\w\u064b-\u065f\u0670]*)*")

#: the Hunspell dictionaries that come with EEC Studio (``<tag>.aff`` + ``<tag>.dic``; licences beside)
BUNDLED_DIR = Path(__file__).resolve().parents[3] / "resources" / "spelling"
#: "0" hides the system's (Enchant) dictionaries; anything else, or unset, lets them add languages
SYSTEM_ENV = "EEC_STUDIO_SYSTEM_DICTIONARIES"
#: "spylls" reads the bundled dictionaries with the pure-Python reader even where Hunspell is there
READER_ENV = "EEC_STUDIO_SPELL_READER"


def system_dictionaries_allowed() -> bool:
    return os.environ.get(SYSTEM_ENV, "1").strip() != "0"


def bundled_tags() -> list[str]:
    """The tags of the dictionaries that come with the package (``de_DE``, ``en_US``, ...)."""
    return sorted(p.stem for p in BUNDLED_DIR.glob("*.dic") if p.with_suffix(".aff").is_file())


class BundledDictionary:
    """One bundled Hunspell dictionary, with Enchant's ``check``/``suggest`` interface.

    Read by Hunspell (the ``chunspell`` wheel's C library) where it is installed, else by spylls;
    ``reader`` says which. A word the dictionary's encoding cannot write (Arabic letters in a
    Latin-1 German dictionary) is unknown, as Hunspell itself would say."""

    def __init__(self, tag: str, reader: str | None = None) -> None:
        self.tag = tag
        self.reader = reader or _default_reader()
        base = BUNDLED_DIR / tag
        if self.reader == "hunspell":
            import hunspell

            self._h = hunspell.Hunspell(tag, hunspell_data_dir=str(BUNDLED_DIR))
        else:
            from spylls.hunspell import Dictionary

            self._d = Dictionary.from_files(str(base))

    def check(self, word: str) -> bool:
        if self.reader == "hunspell":
            try:
                return bool(self._h.spell(word))
            except UnicodeError:
                return False
        return bool(self._d.lookup(word))

    def suggest(self, word: str) -> list[str]:
        if self.reader == "hunspell":
            try:
                return list(self._h.suggest(word))
            except UnicodeError:
                return []
        return list(self._d.suggest(word))


def _default_reader() -> str:
    return _reader(os.environ.get(READER_ENV, "").strip().lower())


@functools.lru_cache(maxsize=None)
def _reader(wanted: str) -> str:
    """"hunspell" where chunspell's wheel is installed (unless "spylls" is wanted), else "spylls"."""
    if wanted == "spylls":
        return "spylls"
    try:
        import hunspell

        if hasattr(hunspell, "Hunspell") and hasattr(hunspell, "HunspellFilePathError"):  # chunspell's API
            return "hunspell"
    except ImportError:  # no chunspell wheel for this platform: the pure-Python reader
        pass
    return "spylls"


def _dictionary(tags: tuple[str, ...]):
    with _LOCK:
        return _dictionary_cached(tags, system_dictionaries_allowed(), _default_reader())


@functools.lru_cache(maxsize=None)
def _dictionary_cached(tags: tuple[str, ...], system: bool, reader: str):
    """(dictionary, its name for messages) for the first tag the package has a dictionary for, else
    (system only) the first the system's Enchant has; or (None, the W114 line saying why)."""
    have = set(bundled_tags())
    for tag in tags:
        if tag in have:
            try:
                return BundledDictionary(tag, reader), f"the {tag} dictionary"
            except ImportError as exc:  # neither reader installed: a broken install, said as such
                return None, (f"spelling not checked: the bundled {tag} dictionary cannot be read ({exc}); "
                              f"reinstall EEC Studio (it needs chunspell or spylls)")
    if not system:
        return None, (f"spelling not checked: no dictionary for {', '.join(tags)} comes with EEC Studio "
                      f"(system dictionaries hidden: {SYSTEM_ENV}=0)")
    d, tag = _enchant_dict(tags)
    return (d, f"the system's {tag} dictionary") if d is not None else (None, tag)


def _enchant_dict(tags: tuple[str, ...]):
    """(dictionary, tag) for the first tag this system has, or (None, why)."""
    try:
        import enchant
    except ImportError as exc:  # pyenchant missing, or the enchant C library missing
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, (f"spelling not checked: no dictionary for {', '.join(tags)} comes with EEC Studio, and "
                      f"the system's Enchant library is not available ({first}); install libenchant-2 with a "
                      f"Hunspell dictionary (Debian/Ubuntu: apt install hunspell-{tags[0].split('_')[0].lower()})")
    for tag in tags:
        try:
            if enchant.dict_exists(tag):
                return enchant.Dict(tag), tag
        except enchant.errors.Error:
            continue
    return None, (f"spelling not checked: no dictionary for {', '.join(tags)} comes with EEC Studio or is on "
                  f"this system (Debian/Ubuntu: apt install hunspell-{tags[0].split('_')[0].lower()})")


def _unidic_tagger():
    with _LOCK:
        return _unidic_tagger_cached()


@functools.lru_cache(maxsize=1)
def _unidic_tagger_cached():
    try:
        import fugashi
        import unidic_lite  # noqa: F401 - the dictionary fugashi finds

        return fugashi.Tagger(), "UniDic"
    except Exception as exc:  # ImportError, or MeCab failing to open its dictionary
        from engine.common.extras import install_command

        return None, (f"spelling not checked: fugashi with unidic-lite is not available "
                      f"({type(exc).__name__}); {install_command('japanese')}")


@dataclass(frozen=True)
class Misspelling:
    """A word of a text that the dictionary does not know: ``text[start:end] == word``."""

    start: int
    end: int
    word: str


# a template's slot ({person role=subject}): markup, not words of the language
_SLOT = re.compile(r"\{[^{}]*\}")


class Speller:
    """How one corpus's words are judged: the language's dictionary, then the corpus's own words
    (``[spelling] accept``) and its names. One home for the checker's W113 and the editors'
    underline, so the workbench marks exactly the words the check reports."""

    def __init__(self, corpus: CorpusDefinition) -> None:
        self.corpus = corpus
        self.language = corpus.language.split("-")[0].lower()
        self.japanese = self.language == "ja"
        self.exempt = {w.lower() for w in corpus.spelling_accept}
        decl = inflection(corpus.language).declension
        for p in corpus.persons:
            if p.kind == "name":
                cls = decl.classes.get(p.features.get(decl.feature, "")) if decl is not None else None
                for f in p.forms:
                    # a declined name is a name too (محمدًا, Annas)
                    texts = [f.text] + ([cls.decline(f.text, case) for case in cls.cases] if cls else [])
                    self.exempt.update(t.lower() for text in texts for t in WORD.findall(text))

    def dictionary(self) -> tuple[object | None, str]:
        """(the checker, its name for messages), or (None, the W114 line saying why there is none)."""
        if self.japanese:
            tagger, name = _unidic_tagger()
            return (tagger, "UniDic (fugashi)") if tagger is not None else (None, name)
        tags = language_data(self.language).spelling
        if not tags:
            return None, (f"spelling not checked: EEC Studio knows no spelling dictionary for "
                          f"{self.corpus.language!r}")
        return _dictionary(tuple(tags))

    def unknown(self, words: list[str]) -> list[str]:
        """The words (not Japanese: those come from the tagger) that are neither exempt nor in the
        dictionary; [] when there is no dictionary."""
        d, _why = self.dictionary()
        if d is None:
            return []
        with _LOCK:
            return [w for w in words if w.lower() not in self.exempt and not _known(d, w)]

    def misspelt(self, text: str) -> list[Misspelling]:
        """Where ``text`` (a form, or a template with its slots) has words the check would report."""
        plain = _SLOT.sub(lambda m: " " * len(m.group(0)), text or "")
        if self.japanese:
            tagger, _why = self.dictionary()
            if tagger is None:
                return []
            out, at = [], 0
            with _LOCK:
                for w in tagger(plain):
                    start = plain.find(w.surface, at)
                    if start < 0:
                        continue
                    at = start + len(w.surface)
                    if w.is_unk and w.surface.strip() and w.surface.lower() not in self.exempt:
                        out.append(Misspelling(start, at, w.surface))
            return out
        found = [(m.start(), m.end(), m.group(0)) for m in WORD.finditer(plain)]
        bad = set(self.unknown(sorted({w for _s, _e, w in found})))
        return [Misspelling(a, b, w) for a, b, w in found if w in bad]

    def suggest(self, word: str, limit: int = 5) -> list[str]:
        """The dictionary's replacements for ``word`` (none for Japanese or without a dictionary)."""
        d, _why = self.dictionary()
        if d is None or self.japanese:
            return []
        with _LOCK:
            found = [s for s in d.suggest(word) if s != word]
        return rank_suggestions(word, found)[:limit]


def _is_subsequence(word: str, longer: str) -> bool:
    it = iter(longer.lower())
    return all(ch in it for ch in word.lower())


def rank_suggestions(word: str, found: list[str]) -> list[str]:
    """Hunspell's suggestions, those that keep every letter typed first (a letter left out is the
    commoner slip: *terorizzata* is *terrorizzata*, not *teorizzata*, which Hunspell put first);
    otherwise in Hunspell's order."""
    return sorted(found, key=lambda s: not _is_subsequence(word, s))


def accept_words(accepted: list[str], words: list[str], where: str = "") -> tuple[list[str], list[str]]:
    """``accepted`` (a corpus's ``[spelling] accept``) with ``words`` added: (new list, words added).

    A word already there in any letter case is not added twice. Raises DefinitionError for an
    entry that is not one word (the check splits sentences into words, so "a b" would never match)."""
    from engine.corpus.definition.errors import DefinitionError

    have = {w.lower() for w in accepted}
    out, added = list(accepted), []
    for word in words:
        w = word.strip()
        if not w or WORD.fullmatch(w) is None:
            raise DefinitionError(where or "spelling", f"{word!r} is not one word", field="spelling.accept",
                                  fix="give words one by one: letters, with an inner hyphen or apostrophe")
        if w.lower() not in have:
            have.add(w.lower())
            out.append(w)
            added.append(w)
    return out, added


class SpellingCheck:
    """Collects the words of realised sentences; ``findings()`` checks each distinct word once."""

    def __init__(self, corpus: CorpusDefinition) -> None:
        self.corpus = corpus
        self.speller = Speller(corpus)
        self.first: dict[str, tuple[str, str]] = {}  # word -> (template, example sentence)
        # word -> (list, id) of the filler it was first seen in ("emotion_words", "terrified"): W113 names
        # the entry whose form is misspelt, not the template that showed it (issue 39)
        self.origin: dict[str, tuple[str, str]] = {}
        self.count: Counter[str] = Counter()
        self.japanese = self.speller.japanese
        self._seen_sentences: set[str] = set()

    def sentence(self, sentence: str, template: str, spans: dict[str, tuple[int, int]] | None = None,
                 fillers: dict[str, tuple[str, str]] | None = None) -> None:
        """Collect the words of one realised sentence. ``spans`` (slot -> (start, end), as
        engine.corpus.generate.realised.slot_spans gives them) let a word the template glues onto
        a filler (Arabic ب + الانزعاج, Italian d' + a name) count as accepted when the filler's
        part of it is on the corpus word list or is a name."""
        if sentence in self._seen_sentences:
            return
        self._seen_sentences.add(sentence)
        if self.japanese:
            words = self._japanese_unknown(sentence)
        else:
            ranges = list((spans or {}).values())
            found = [m for m in WORD.finditer(sentence)
                     if not (ranges and self._accepted_filler(sentence, m.start(), m.end(), ranges))]
            for m in found:
                slot = next((k for k, (a, b) in (spans or {}).items() if a <= m.start() and m.end() <= b), None)
                if slot is not None and fillers and slot in fillers:
                    self.origin.setdefault(m.group(0), fillers[slot])
            words = [m.group(0) for m in found]
        for w in words:
            self.count[w] += 1
            self.first.setdefault(w, (template, sentence))

    def _accepted_filler(self, sentence: str, start: int, end: int, ranges: list[tuple[int, int]]) -> bool:
        for a, b in ranges:
            lo, hi = max(start, a), min(end, b)
            if lo < hi and sentence[lo:hi].lower() in self.speller.exempt:
                return True
        return False

    def _japanese_unknown(self, sentence: str) -> list[str]:
        return [m.word for m in self.speller.misspelt(sentence)]

    def findings(self) -> list[Finding]:
        if not self._seen_sentences:
            return []
        d, where = self.speller.dictionary()
        if d is None:
            return [Finding("W114", said("W114.no_dictionary", reason=where, language=self.corpus.language))]
        unknown = list(self.first) if self.japanese else self.speller.unknown(list(self.first))
        out = []
        for w in sorted(unknown):
            template, example = self.first[w]
            out.append(Finding("W113", said("W113.unknown", word=w, where=where, sentences=self.count[w], example=example),
                               item=f"{self.origin[w][0]}[{self.origin[w][1]}]" if w in self.origin
                               else f"templates[{template}]", template=template))
        return out


def _known(d, word: str) -> bool:
    if d.check(word):
        return True
    # sentence-initial capitals and names of the corpus's own terms: try the other case
    return d.check(word.lower()) or d.check(word[:1].upper() + word[1:])
