"""Per-language data for the grammar rules (``languages/<lang>.toml``), read once per language.

Why data: an error class found by a native reviewer (a false friend, a verb said only of bad
situations, a calque) is a list entry a linguist can add and test, not a code change. A
corpus adds its own entries in ``[[restrictions]]`` (same keys); see languages/README.md.
"""
from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from engine.common.errors import UserError
from engine.common.patterns import PatternError, UserPattern, toml_line_of, user_pattern

from engine.corpus.definition.model import EMOTIONS, EXPERIENCERS
from engine.corpus.translate.review_record import ERROR_CLASSES

DATA_DIR = Path(__file__).with_name("languages")
RESTRICTION_CODES = ("E022", "E023", "E024")
RESTRICTION_KEYS = {"code", "class", "message", "template", "sentence", "words", "word", "emotions", "experiencer"}


@dataclass(frozen=True)
class Restriction:
    code: str
    message: str
    error_class: str = "lexical"
    template: UserPattern | None = None
    sentence: UserPattern | None = None
    words: frozenset[str] = frozenset()
    word: UserPattern | None = None
    emotions: frozenset[str] = frozenset()
    experiencer: frozenset[str] = frozenset()

    def applies_to_template(self, text: str, experiencer: str) -> bool:
        """The conditions that do not depend on the filler (checked once per template variant)."""
        if self.template is not None and not self.template.search(text):
            return False
        return not self.experiencer or experiencer in self.experiencer

    def matches(self, sentence: str, word: str, emotion: str) -> bool:
        if self.sentence is not None and not self.sentence.search(sentence):
            return False
        if (self.words or self.word is not None) and not word:
            return False
        if self.words and word not in self.words:
            return False
        if self.word is not None and not self.word.search(word):
            return False
        return not self.emotions or emotion in self.emotions


@dataclass(frozen=True)
class LanguageData:
    speaker: tuple[UserPattern, ...] = ()
    final_punctuation: str = ""
    spelling: tuple[str, ...] = ()
    restrictions: tuple[Restriction, ...] = field(default_factory=tuple)


class LanguageDataError(UserError):
    """A malformed entry, naming its field (for a corpus's own entries the loader turns it into a
    DefinitionError at the entry's line; the shipped files are parsed by their tests)."""


def _regex(value, where: str, file: str = "") -> UserPattern:
    """A pattern of a language file or a corpus, run with a deadline (engine.common.patterns)."""
    try:
        return user_pattern(value, file=file, field=where, line_of=toml_line_of(file, where))
    except PatternError as exc:
        raise LanguageDataError(exc.message, field=where, fix=exc.fix) from None


def _names(d: dict, key: str, where: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """An array of non-empty strings (from ``allowed`` when given). Why so strict: ``words = "angry"``
    (a string, not an array) was read letter by letter, a rule that never fired; ``emotions = 5``
    ended in an internal error."""
    value = d.get(key, [])
    example = f'{key} = ["{allowed[0] if allowed else "angry"}"]'
    if not isinstance(value, list):
        kind = "a string" if isinstance(value, str) else type(value).__name__
        raise LanguageDataError(f"expected an array of strings, got {kind} ({value!r})", field=f"{where}.{key}",
                                fix=f"write it in brackets, e.g. {example}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise LanguageDataError(f"entry {i + 1} is {item!r}, not a non-empty string", field=f"{where}.{key}",
                                    fix=f"e.g. {example}")
        if allowed and item not in allowed:
            raise LanguageDataError(f"{item!r} is not one of {', '.join(allowed)}", field=f"{where}.{key}",
                                    fix=f"use {', '.join(allowed)}")
    return list(value)


def parse_restriction(d: dict, where: str, file: str = "") -> Restriction:
    unknown = set(d) - RESTRICTION_KEYS
    if unknown:
        raise LanguageDataError(f"unknown key(s) {', '.join(sorted(unknown))}", field=where)
    if not isinstance(d, dict):
        raise LanguageDataError(f"expected a table, got {type(d).__name__}", field=where,
                                fix='write [[restrictions]] with code = "E022", message = "…" and a condition')
    code, message = d.get("code"), d.get("message")
    if code not in RESTRICTION_CODES:
        raise LanguageDataError(f"{code!r} is not one of {', '.join(RESTRICTION_CODES)}", field=f"{where}.code")
    if not isinstance(message, str) or not message.strip():
        raise LanguageDataError("say what is wrong and how to fix it", field=f"{where}.message")
    cls = d.get("class", "lexical")
    if cls not in ERROR_CLASSES:
        raise LanguageDataError(f"{cls!r} is not one of {', '.join(ERROR_CLASSES)}", field=f"{where}.class")
    emotions = frozenset(_names(d, "emotions", where, EMOTIONS))
    exp = frozenset(_names(d, "experiencer", where, EXPERIENCERS))
    words = _names(d, "words", where)
    r = Restriction(code, message.strip(), cls,
                    template=_regex(d["template"], f"{where}.template", file) if "template" in d else None,
                    sentence=_regex(d["sentence"], f"{where}.sentence", file) if "sentence" in d else None,
                    words=frozenset(words),
                    word=_regex(d["word"], f"{where}.word", file) if "word" in d else None,
                    emotions=emotions, experiencer=exp)
    if r.template is None and r.sentence is None and not r.words and r.word is None:
        raise LanguageDataError("give at least one of template, sentence, words, word", field=where)
    return r


@functools.lru_cache(maxsize=None)
def language_data(language: str) -> LanguageData:
    """The data for ``language`` (``es-MX`` reads ``es.toml``); empty when there is none."""
    base = language.split("-")[0].split("_")[0].lower()
    path = DATA_DIR / f"{base}.toml"
    if not path.is_file():
        return LanguageData()
    d = tomllib.loads(path.read_text(encoding="utf-8"))
    return LanguageData(
        speaker=tuple(_regex(x, f"{path.name}: speaker") for x in d.get("speaker", ())),
        final_punctuation=str(d.get("final_punctuation", "")),
        spelling=tuple(d.get("spelling", ())),
        restrictions=tuple(parse_restriction(r, f"{path.name}: restrictions[{i}]")
                           for i, r in enumerate(d.get("restrictions", ()))))
