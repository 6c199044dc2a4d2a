"""Adding a person or an emotion word: its text first, its kind and group chosen explicitly.

Why a dialog: a new person used to get the id ``person07``, kind *noun phrase* and gender
*female* by default — *mon père* started out female. Here nothing is preset: OK stays disabled
until the kind, the gender (and, for a name, the other axes' groups) are chosen, and the id is
derived from the text (``mon_pere``), editable.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from engine.corpus import CorpusDefinition, EmotionWord, Form, PersonTerm
from engine.corpus.ids import derive_id
from engine.corpus.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS

from gui.i18n import _

from .finding_text import value_label


def _choice_box(values: list[str]) -> QComboBox:
    box = QComboBox()
    box.addItem(_("(choose)"), "")
    for v in values:
        box.addItem(value_label(v), v)
    return box


def build_entry(corpus: CorpusDefinition, list_name: str, values: dict[str, Any]) -> PersonTerm | EmotionWord:
    """The entry the dialog describes (also used directly by scripts and tests)."""
    text = values["text"].strip()
    taken = {e.id for e in getattr(corpus, list_name)}
    new_id = values.get("id") or derive_id(text, taken, "person" if list_name == "persons" else "word")
    forms = values.get("forms") or ([Form(text)] if text else [])
    if list_name == "persons":
        groups = {k: v for k, v in values.get("groups", {}).items() if v}
        return PersonTerm(new_id, values["kind"], groups, forms)
    return EmotionWord(new_id, values["emotion"], values["kind"], forms)


class AddEntryDialog(QDialog):
    """Asks for the text, the id (derived) and every classification of a new person or emotion word."""

    def __init__(self, corpus: CorpusDefinition, list_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.corpus, self.list_name = corpus, list_name
        self.setWindowTitle(_("Add a person") if list_name == "persons" else _("Add an emotion word"))
        self.text = QLineEdit()
        self.text.setPlaceholderText(_("e.g. mon père") if list_name == "persons" else _("e.g. furieux"))
        self.id = QLineEdit()
        self._id_edited = False
        self.id.textEdited.connect(lambda _t: setattr(self, "_id_edited", True))
        self.text.textChanged.connect(self._suggest_id)
        form = QFormLayout()
        form.addRow(_("Text:"), self.text)
        form.addRow(_("Id:"), self.id)
        self.boxes: dict[str, QComboBox] = {}
        if list_name == "persons":
            self.boxes["kind"] = _choice_box(list(PERSON_KINDS))
            form.addRow(_("Kind:"), self.boxes["kind"])
            for name, axis in corpus.axes.items():
                self.boxes[f"axis:{name}"] = _choice_box(list(axis.groups))
                form.addRow(f"{axis.display}:", self.boxes[f"axis:{name}"])
        else:
            self.boxes["emotion"] = _choice_box(list(EMOTIONS))
            self.boxes["kind"] = _choice_box(list(EMOTION_KINDS))
            form.addRow(_("Emotion:"), self.boxes["emotion"])
            form.addRow(_("Kind:"), self.boxes["kind"])
        for box in self.boxes.values():
            box.currentIndexChanged.connect(lambda _i: self._validate())
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.id.textChanged.connect(lambda _t: self._validate())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self._validate()

    def _suggest_id(self, text: str) -> None:
        if not self._id_edited:
            self.id.setText(derive_id(text, {e.id for e in getattr(self.corpus, self.list_name)},
                                      "person" if self.list_name == "persons" else "word") if text.strip() else "")
        self._validate()

    def problem_text(self) -> str:
        if not self.text.text().strip():
            return _("Type the text first.")
        new_id = self.id.text().strip()
        if not new_id or any(ch.isspace() for ch in new_id):
            return _("An id cannot be empty or contain spaces.")
        if new_id in {e.id for e in getattr(self.corpus, self.list_name)}:
            return _("The id “{id}” is already used by another entry; ids must be unique.").format(id=new_id)
        kind = self.boxes["kind"].currentData()
        for key, box in self.boxes.items():
            axis = key.split(":", 1)[1] if key.startswith("axis:") else ""
            optional = axis and (axis != "gender" and kind != "name" or axis == "gender" and kind == "identity_term")
            if not box.currentData() and not optional:
                return _("Choose every value: nothing is preset, so that no person starts out with the wrong gender.")
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not problem)

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text.text().strip(), "id": self.id.text().strip(),
                               "kind": self.boxes["kind"].currentData()}
        if self.list_name == "persons":
            out["groups"] = {k.split(":", 1)[1]: b.currentData() for k, b in self.boxes.items() if k.startswith("axis:")}
        else:
            out["emotion"] = self.boxes["emotion"].currentData()
        return out
