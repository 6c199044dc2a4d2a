"""The corpus model: plain dataclasses a translator's definition file maps onto.

Every filler (person term, emotion word, small word such as an article) has one or
more *forms*, each keyed by grammatical features. Templates have slots that ask for
features, fixed or agreed with another slot, so inflection lives in data, not code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EMOTIONS = ("anger", "fear", "joy", "sadness")
EMOTION_KINDS = ("state", "situation")
PERSON_KINDS = ("name", "noun_phrase", "identity_term")
# "identity_term": a noun phrase that names a group (der Türke, 外国人, その人): it may carry a
# group on any axis (race, rank...) and, in languages that do not mark it, no gender.
PAIR_MATCHES = ("zip", "cross")
# How a [[pairs]] entry with lists expands: "zip" pairs the i-th privileged with the i-th
# minoritised term; "cross" pairs every privileged with every minoritised term that agrees
# with it on every other axis (er/sie × der Türke/die Türkin -> er~der Türke, sie~die Türkin).
REVIEW_STATUSES = ("new", "machine-translated", "translated", "reviewed", "untranslatable")
# "untranslatable": the translator states that the language has no form for this item;
# its combinations are skipped with a warning instead of one error per combination.


@dataclass
class Form:
    text: str
    features: dict[str, str] = field(default_factory=dict)
    # Non-empty: the translator states that the entry has no form with these features (and
    # why); combinations needing it are skipped with a warning (W109), not an error.
    absent: str = ""


@dataclass
class Review:
    """Translate-then-verify workflow metadata carried by every item."""

    status: str = "new"
    translator: str = ""
    note: str = ""
    source: str = ""  # source-language text the item was translated from


@dataclass
class Axis:
    """An identity axis (gender, race/ethnicity) with its groups and reference group."""

    name: str
    groups: list[str]
    reference: str
    label: str = ""
    # social group -> value of the grammatical feature of the same name (gender only)
    feature_values: dict[str, str] = field(default_factory=dict)

    @property
    def display(self) -> str:
        return self.label or self.name.capitalize()

    @property
    def minority_groups(self) -> list[str]:
        return [g for g in self.groups if g != self.reference]


@dataclass
class PersonTerm:
    id: str
    kind: str  # name | noun_phrase | identity_term
    groups: dict[str, str]  # axis name -> group (race absent for noun phrases)
    forms: list[Form]
    features: dict[str, str] = field(default_factory=dict)  # entry-level grammatical features
    pair: str = ""  # id of the counterpart term (female NP <-> male NP)
    review: Review = field(default_factory=Review)

    @property
    def gender(self) -> str:
        return self.groups.get("gender", "")


@dataclass
class EmotionWord:
    id: str
    emotion: str
    kind: str  # state | situation
    forms: list[Form]
    features: dict[str, str] = field(default_factory=dict)
    review: Review = field(default_factory=Review)


@dataclass
class Word:
    """A small closed-class slot value (article, reflexive, pronoun clitic...)."""

    id: str
    forms: list[Form]
    review: Review = field(default_factory=Review)


@dataclass
class Variant:
    """One text of a template; several variants are selected by features (Arabic m/f)."""

    text: str
    features: dict[str, str] = field(default_factory=dict)
    published: str = ""


@dataclass
class Template:
    id: str
    variants: list[Variant]
    select: dict[str, str] = field(default_factory=dict)  # variant feature -> "person.gender"
    published: str = ""
    review: Review = field(default_factory=Review)
    # who feels the emotion word: "person", "speaker", "third" (a third party) or "noun" (a noun
    # such as "situation"); "" = inferred (engine.corpus.check.grammar.referent). Checked by E016.
    experiencer: str = ""
    # id of the template in the source corpus this one translates ("" = not declared: paired by
    # its own id). Exchange files show that template as the source text: ids need not line up
    # (the Japanese corpus adds a template, so its T05 translates the English T04).
    source_template: str = ""


EXPERIENCERS = ("person", "speaker", "third", "noun")


@dataclass
class Pair:
    """Counterfactual person pairs: sentences that differ only in ``variable`` (Goldfarb-Tarrant
    et al. 2023). One entry may declare many pairs through lists (see PAIR_MATCHES)."""

    id: str
    variable: str  # an axis name: gender, race, migrant, rank...
    privileged: list[str]  # person ids
    minoritised: list[str]
    match: str = "zip"
    shared: list[str] = field(default_factory=list)  # person features both sides must realise alike
    note: str = ""


@dataclass
class CorpusDefinition:
    id: str
    language: str
    name: str
    axes: dict[str, Axis]
    features: dict[str, list[str]]
    persons: list[PersonTerm]
    emotion_words: list[EmotionWord]
    templates: list[Template]
    words: list[Word] = field(default_factory=list)
    derive: dict[str, dict[str, str]] = field(default_factory=dict)  # feature -> value -> regex
    capitalize: bool = True
    description: str = ""
    source: str = ""
    licence: str = ""
    cite: str = ""
    id_prefix: str = ""
    direction: str = "ltr"
    pairs: list[Pair] = field(default_factory=list)
    # feature -> value -> regex the text realised from a slot asking for it must match
    # (German attributive adjectives need an ending; Japanese causatives end in -(s)ase-).
    expect: dict[str, dict[str, str]] = field(default_factory=dict)
    # grammar-rule code (E016...) -> why the fault is kept: a published text reproduced as it was
    # reports these findings as warnings (engine.corpus.check.grammar, docs/corpus.md).
    known_defects: dict[str, str] = field(default_factory=dict)
    # the speaker's grammatical gender (a value of features.gender), held constant wherever the
    # speaker is the one who feels (experiencer = "speaker"); "" = not declared
    speaker_gender: str = ""
    # words the spelling check accepts for this corpus (names are exempt already)
    spelling_accept: list[str] = field(default_factory=list)
    # the corpus's own grammar restrictions (same keys as grammar/languages/<lang>.toml)
    restrictions: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # reserved (meta etc.), kept on save
    path: str = ""  # file the definition was read from

    @property
    def race_axis(self) -> Axis | None:
        for name, axis in self.axes.items():
            if name != "gender":
                return axis
        return None

    def word(self, word_id: str) -> Word | None:
        return next((w for w in self.words if w.id == word_id), None)
