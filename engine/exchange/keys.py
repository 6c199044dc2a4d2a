"""The key of one translatable form: ``SECTION/ENTRY#INDEX FEATURES``.

Examples: ``emotion_words/angry#1 gender=f``, ``templates/T01#0 gender=m``, ``persons/ebony#0``.
It is the PO ``msgctxt`` and the XLIFF unit ``name``. Why this shape: readable in Poedit's
context column, unique per form (the index), and self-checking on import — the features
must still match the form at that index, otherwise the corpus changed since the export and
the translation would land on the wrong form.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

SECTIONS = ("templates", "persons", "emotion_words", "words")
_KEY = re.compile(r"^(templates|persons|emotion_words|words)/(\S+)#(\d{1,6})(?: (.*))?$", re.S)


def features_text(features: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in features.items())


@dataclass(frozen=True)
class Key:
    section: str
    entry: str
    index: int
    features: str = ""

    def __str__(self) -> str:
        base = f"{self.section}/{self.entry}#{self.index}"
        return f"{base} {self.features}" if self.features else base

    @property
    def item(self) -> tuple[str, str]:
        return self.section, self.entry


def make_key(section: str, entry: str, index: int, features: dict[str, str]) -> Key:
    return Key(section, entry, index, features_text(features))


def parse_key(text: str) -> Key | None:
    m = _KEY.match(text or "")
    if not m:
        return None
    return Key(m.group(1), m.group(2), int(m.group(3)), m.group(4) or "")
