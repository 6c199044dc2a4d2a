"""What each workbench table shows and how a cell edit maps onto the corpus model.

Why a declarative column list: the four tables (templates, persons, emotion words, words)
differ only in their columns; one table model reads these specs, so every cell edit becomes
the same undoable ``document.set(path, value)`` and adding a column is one line here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from engine.corpus import CorpusDefinition, Form
from engine.corpus.definition.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS, REVIEW_STATUSES

from gui.i18n_core import N_, _

FORM_SEP = " / "


def forms_text(forms: list[Form]) -> str:
    return FORM_SEP.join(f.text for f in forms)


def template_text(t: Any) -> str:
    """A template's text; variants (Arabic masculine/feminine) joined by ‖ in their order.

    No "m:"/"f:" labels: inside a right-to-left sentence they land in confusing places; the
    form editor shows each variant with its features.
    """
    if len(t.variants) == 1:
        return t.variants[0].text
    return "  ‖  ".join(v.text for v in t.variants)


@dataclass
class Column:
    """One column: its header, how to read it, and (if editable) which path a value goes to."""

    key: str
    header: str  # marked with N_, translated when shown
    get: Callable[[Any], str]
    path: Callable[[Any], tuple] | None = None  # entry -> path suffix under the entry
    convert: Callable[[str, Any], Any] = lambda text, entry: text
    choices: Callable[[CorpusDefinition], list[str]] | None = None
    editable_if: Callable[[Any], bool] = lambda entry: True
    target: bool = False  # text in the corpus language (right-to-left for Arabic)
    source: bool = False  # the source-language text, shown beside the target, read-only
    tip: str = ""
    stretch: bool = False
    meta: dict = field(default_factory=dict)

    @property
    def editable(self) -> bool:
        return self.path is not None


def _single_form(text: str, entry: Any) -> list[Form]:
    """A cell edit of the forms column: keep the one form's features, replace its text."""
    text = text.strip("\n")
    if not text:
        return []
    feats = dict(entry.forms[0].features) if entry.forms else {}
    return [Form(text, feats)]


def _set_group(axis: str) -> Callable[[str, Any], dict]:
    def convert(text: str, entry: Any) -> dict:
        groups = dict(entry.groups)
        if text:
            groups[axis] = text
        else:
            groups.pop(axis, None)
        return groups
    return convert


def _set_variant_text(text: str, entry: Any) -> list:
    import copy

    variants = copy.deepcopy(entry.variants)
    variants[0].text = text
    return variants


def review_columns() -> list[Column]:
    return [
        Column("status", N_("Status"), lambda e: e.review.status, lambda e: ("review", "status"),
               choices=lambda c: list(REVIEW_STATUSES),
               tip=N_("new → machine-translated → translated → reviewed (by a second native speaker)")),
        Column("translator", N_("Translator"), lambda e: e.review.translator, lambda e: ("review", "translator")),
        Column("note", N_("Note"), lambda e: e.review.note, lambda e: ("review", "note"), stretch=True),
    ]


def source_column() -> Column:
    return Column("source", N_("Source"), lambda e: e.review.source, None, source=True,
                  tip=N_("The text this item was translated from"))


def template_columns(corpus: CorpusDefinition) -> list[Column]:
    return [
        Column("id", N_("ID"), lambda e: e.id, lambda e: ("id",)),
        source_column(),
        Column("text", N_("Template"), template_text, lambda e: ("variants",), _set_variant_text,
               editable_if=lambda e: len(e.variants) == 1, target=True, stretch=True,
               tip=N_("Slots: {person role=subject}, {emotion kind=state}, {self gender=person.gender}; "
                      "templates with variants are edited in the form editor below")),
    ] + review_columns()


def person_columns(corpus: CorpusDefinition) -> list[Column]:
    cols = [
        Column("id", N_("ID"), lambda e: e.id, lambda e: ("id",)),
        source_column(),
        Column("forms", N_("Forms"), lambda e: forms_text(e.forms), lambda e: ("forms",), _single_form,
               editable_if=lambda e: len(e.forms) <= 1, target=True,
               tip=N_("Entries with several forms (she/her) are edited in the form editor below")),
        Column("kind", N_("Kind"), lambda e: e.kind, lambda e: ("kind",), choices=lambda c: list(PERSON_KINDS)),
    ]
    for name, axis in corpus.axes.items():
        cols.append(Column(f"axis:{name}", axis.display, (lambda n: lambda e: e.groups.get(n, ""))(name),
                           lambda e: ("groups",), _set_group(name),
                           choices=(lambda n: lambda c: [""] + list(c.axes[n].groups) if n in c.axes else [""])(name),
                           meta={"axis": name}))
    cols.append(Column("pair", N_("Pair"), lambda e: e.pair, lambda e: ("pair",),
                       choices=lambda c: [""] + [p.id for p in c.persons if p.kind != "name"],
                       tip=N_("The counterpart noun phrase of the other gender (my mother ↔ my father)")))
    return cols + review_columns()


def emotion_columns(corpus: CorpusDefinition) -> list[Column]:
    return [
        Column("id", N_("ID"), lambda e: e.id, lambda e: ("id",)),
        source_column(),
        Column("forms", N_("Forms"), lambda e: forms_text(e.forms), lambda e: ("forms",), _single_form,
               editable_if=lambda e: len(e.forms) <= 1, target=True,
               tip=N_("Words with several forms (enojado/enojada) are edited in the form editor below")),
        Column("emotion", N_("Emotion"), lambda e: e.emotion, lambda e: ("emotion",), choices=lambda c: list(EMOTIONS)),
        Column("kind", N_("Kind"), lambda e: e.kind, lambda e: ("kind",), choices=lambda c: list(EMOTION_KINDS)),
    ] + review_columns()


def word_columns(corpus: CorpusDefinition) -> list[Column]:
    return [
        Column("id", N_("ID"), lambda e: e.id, lambda e: ("id",)),
        source_column(),
        Column("forms", N_("Forms"), lambda e: forms_text(e.forms), lambda e: ("forms",), _single_form,
               editable_if=lambda e: len(e.forms) <= 1, target=True, stretch=True),
    ] + review_columns()


COLUMNS_FOR = {
    "templates": template_columns,
    "persons": person_columns,
    "emotion_words": emotion_columns,
    "words": word_columns,
}

LIST_TITLES = {
    "templates": N_("Templates"),
    "persons": N_("Persons"),
    "emotion_words": N_("Emotion words"),
    "words": N_("Words"),
}


def status_label(status: str) -> str:
    """The review status as shown to users (the stored value stays the English keyword)."""
    labels = {"new": N_("new"), "machine-translated": N_("machine-translated"), "translated": N_("translated"),
              "reviewed": N_("reviewed"), "untranslatable": N_("untranslatable")}
    return _(labels.get(status, status))


def shown_value(col: Column, value: Any) -> Any:
    """A value of ``col`` as the interface shows it: the review status and closed choices (kind,
    emotion, gender…) in the interface language, the pair's partner and every text as stored.
    One rule for the cell, the search that matches it and the cell's choice box."""
    from .finding_text import value_label

    if col.key == "status":
        return status_label(value)
    if col.choices is not None and col.key != "pair":
        return value_label(value)
    return value


def cell_text(col: Column, entry: Any) -> Any:
    """What a cell shows (shown_value of its value). The table draws it and the search filter matches
    it (gui/workbench/page_state.py), so a search finds what is on screen."""
    return shown_value(col, col.get(entry))
