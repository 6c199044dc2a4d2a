"""Stimulus model: word sets, sentence sets and the test specifications built on them.

Why one small model for every test family: WEAT, XWEAT, SEAT, LPBS and FISE all reduce
to "two target sets, two attribute sets" (FISE: two attribute dimensions and a target
list), so the loaders of the many source formats all produce these dataclasses and the
statistics never see a file format.

A *term* is one stimulus with one or more surface forms (XWEAT and the Italian lists
give masculine and feminine forms). How forms are used is a property of the test:
``"each"`` counts every form as its own word (XWEAT: "both forms count"), ``"average"``
averages the forms' vectors into one point (GG-FISE).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

FormsPolicy = Literal["each", "average"]
TestKind = Literal["weat", "seat", "lpbs", "crows", "fise"]


@dataclass(frozen=True)
class Term:
    """One stimulus: its surface forms (first = citation form) and an optional gloss."""

    forms: tuple[str, ...]
    gloss: str = ""  # e.g. the English source word of a translation

    @property
    def text(self) -> str:
        return self.forms[0] if self.forms else ""


@dataclass(frozen=True)
class WordSet:
    """A named list of terms (a target or attribute set)."""

    name: str
    terms: tuple[Term, ...]

    def words(self, policy: FormsPolicy = "each") -> list[str]:
        """Surface words in order; with "each" every form is one word."""
        if policy == "each":
            return [f for t in self.terms for f in t.forms]
        return [t.text for t in self.terms]

    @staticmethod
    def of(name: str, items: list[Any]) -> "WordSet":
        """Build from a list whose items are a word or a list of forms."""
        terms = []
        for it in items:
            if isinstance(it, str):
                terms.append(Term((it,)))
            elif isinstance(it, dict):
                terms.append(Term(tuple(it["forms"]), it.get("gloss", "")))
            else:
                terms.append(Term(tuple(x for x in it if x)))
        return WordSet(name, tuple(terms))


@dataclass(frozen=True)
class SentenceItem:
    """A sentence and (when known) the stimulus word inside it, for token-level SEAT."""

    sentence: str
    word: str | None = None


@dataclass(frozen=True)
class SentenceSet:
    name: str
    items: tuple[SentenceItem, ...]


@dataclass
class TestSpec:
    """A runnable test definition, whatever file it came from."""

    __test__ = False  # not a pytest class, despite the name

    id: str
    kind: TestKind
    language: str = "en"
    title: str = ""
    source: str = ""
    license: str = ""
    forms: FormsPolicy = "each"
    # weat / lpbs: word sets; seat: sentence sets
    X: WordSet | SentenceSet | None = None
    Y: WordSet | SentenceSet | None = None
    A: WordSet | SentenceSet | None = None
    B: WordSet | SentenceSet | None = None
    # lpbs: templates with TARGET and ATTRIBUTE
    templates: tuple[str, ...] = ()
    # crows: path of the pairs CSV
    data_file: str = ""
    # fise: two dimensions, each a pair of word sets, plus the target list and affect sets
    fise: "FiseSpec | None" = None
    published: dict[str, Any] = field(default_factory=dict)
    path: str = ""  # file it was read from (for messages)
    attr_language: str = ""  # cross-lingual XWEAT: language of A and B

    def sets(self) -> dict[str, WordSet | SentenceSet]:
        return {k: v for k, v in (("X", self.X), ("Y", self.Y), ("A", self.A), ("B", self.B)) if v is not None}


@dataclass
class FiseSpec:
    """FISE / GG-FISE: two bias dimensions and the words placed in their plane."""

    x_name: str
    x_pos: WordSet
    x_neg: WordSet
    y_name: str
    y_pos: WordSet
    y_neg: WordSet
    targets: WordSet
    affect: dict[str, tuple[WordSet, WordSet]] = field(default_factory=dict)
    target_forms: FormsPolicy = "each"
