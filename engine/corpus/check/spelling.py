"""W113/W114 — spelling of every realised sentence against the system's dictionaries.

Why real dictionaries: hand-written patterns catch the faults someone already found; a
Hunspell dictionary (Debian/Ubuntu ``hunspell-de-de``, ``hunspell-es``, ``hunspell-ar`` …,
read through pyenchant) knows the whole standard vocabulary, and UniDic (fugashi +
unidic-lite) the Japanese one. Names are exempt, and so are a corpus's own words
(``[spelling] accept = [...]``). A language without a dictionary on this machine is said once
(W114), never skipped silently. Findings are grouped per unknown word with an example.
"""
from __future__ import annotations

import functools
import re
import threading
from collections import Counter

from engine.corpus.check.findings import Finding
from engine.corpus.check.grammar.language_data import language_data
from engine.corpus.definition.model import CorpusDefinition

# Enchant dictionaries and MeCab taggers are not thread-safe, and the GUI checks several corpora
# in pool threads at once (the Corpora page): every use of the shared, cached objects holds this lock.
_LOCK = threading.RLock()

# a word: letters (with Arabic/Hebrew marks), joined by an inner hyphen or apostrophe
WORD = re.compile(r"[^\W\d_][\w\u0300-\u036f\u064b-\u065f\u0670]*(?:[-'’][^\W\d_][\w\u064b-\u065f\u0670]*)*")


def _enchant_dict(tags: tuple[str, ...]):
    with _LOCK:
        return _enchant_dict_cached(tags)


@functools.lru_cache(maxsize=None)
def _enchant_dict_cached(tags: tuple[str, ...]):
    """(dictionary, tag) for the first tag this system has, or (None, why)."""
    try:
        import enchant
    except ImportError as exc:  # pyenchant missing, or the enchant C library missing
        return None, (f"spelling not checked: the enchant library is not available ({exc}); install pyenchant "
                      f"and the system's libenchant-2 with Hunspell dictionaries")
    for tag in tags:
        try:
            if enchant.dict_exists(tag):
                return enchant.Dict(tag), tag
        except enchant.errors.Error:
            continue
    return None, (f"spelling not checked: no dictionary for {', '.join(tags)} on this system "
                  f"(Debian/Ubuntu: apt install hunspell-{tags[0].split('_')[0].lower()})")


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


class SpellingCheck:
    """Collects the words of realised sentences; ``findings()`` checks each distinct word once."""

    def __init__(self, corpus: CorpusDefinition) -> None:
        self.corpus = corpus
        self.language = corpus.language.split("-")[0].lower()
        self.first: dict[str, tuple[str, str]] = {}  # word -> (template, example sentence)
        self.count: Counter[str] = Counter()
        self.exempt = {w.lower() for w in corpus.spelling_accept}
        for p in corpus.persons:
            if p.kind == "name":
                for f in p.forms:
                    self.exempt.update(t.lower() for t in WORD.findall(f.text))
        self.japanese = self.language == "ja"
        self._seen_sentences: set[str] = set()

    def sentence(self, sentence: str, template: str) -> None:
        if sentence in self._seen_sentences:
            return
        self._seen_sentences.add(sentence)
        words = self._japanese_unknown(sentence) if self.japanese else WORD.findall(sentence)
        for w in words:
            self.count[w] += 1
            self.first.setdefault(w, (template, sentence))

    def _japanese_unknown(self, sentence: str) -> list[str]:
        tagger, _ = _unidic_tagger()
        if tagger is None:
            return []
        with _LOCK:
            return [w.surface for w in tagger(sentence) if w.is_unk and w.surface.lower() not in self.exempt]

    def findings(self) -> list[Finding]:
        if not self._seen_sentences:
            return []
        if self.japanese:
            tagger, name = _unidic_tagger()
            if tagger is None:
                return [Finding("W114", name)]
            unknown = list(self.first)
            where = "UniDic (fugashi)"
        else:
            tags = language_data(self.language).spelling
            if not tags:
                return [Finding("W114", f"spelling not checked: EEC Studio knows no spelling dictionary for "
                                        f"{self.corpus.language!r}")]
            d, tag = _enchant_dict(tuple(tags))
            if d is None:
                return [Finding("W114", tag)]
            where = f"the {tag} dictionary"
            with _LOCK:
                unknown = [w for w in self.first if w.lower() not in self.exempt and not _known(d, w)]
        out = []
        for w in sorted(unknown):
            template, example = self.first[w]
            out.append(Finding("W113", f"{w!r} is not in {where} ({self.count[w]} sentence(s), e.g. {example!r}): "
                               f"correct it, or add it to [spelling] accept if it is right",
                               item=f"templates[{template}]", template=template))
        return out


def _known(d, word: str) -> bool:
    if d.check(word):
        return True
    # sentence-initial capitals and names of the corpus's own terms: try the other case
    return d.check(word.lower()) or d.check(word[:1].upper() + word[1:])
