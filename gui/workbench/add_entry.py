"""Adding persons and emotion words: their text, their kind and group chosen explicitly.

Why a dialog: a new person used to get the id ``person07``, kind *noun phrase* and gender
*female* by default — *mon père* started out female. Here nothing is preset, the id is derived
from the text (``mon_pere``), and several entries of one kind are typed one per line, their
forms separated by "/" in the order the templates need them (*furieuse / furieux*).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from engine.corpus import CorpusDefinition, EmotionWord, Form, PersonTerm
from engine.corpus.ids import derive_id
from engine.corpus.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS
from engine.corpus.needed_forms import needed_combinations

from gui.i18n import _

from .finding_text import value_label


def _choice_box(values: list[str]) -> QComboBox:
    box = QComboBox()
    box.addItem(_("(choose)"), "")
    for v in values:
        box.addItem(value_label(v), v)
    return box


def forms_of_line(corpus: CorpusDefinition, list_name: str, line: str, probe: Any) -> list[Form]:
    """One typed line -> forms: "furieuse / furieux" fills the needed combinations in order."""
    parts = [p.strip() for p in line.split("/") if p.strip()]
    if not parts:
        return []
    combos = needed_combinations(corpus, list_name, probe)
    if len(parts) == len(combos):
        return [Form(text, dict(c)) for text, c in zip(parts, combos)]
    if len(parts) == 1:
        return [Form(parts[0])]
    return [Form(text) for text in parts]  # the checker will say which features to add


def build_entry(corpus: CorpusDefinition, list_name: str, values: dict[str, Any]) -> PersonTerm | EmotionWord:
    """The entry the dialog describes (also used directly by scripts and tests)."""
    text = values["text"].strip()
    taken = {e.id for e in getattr(corpus, list_name)} | set(values.get("taken", ()))
    first = text.split("/")[0].strip()
    new_id = values.get("id") or derive_id(first, taken, "person" if list_name == "persons" else "word")
    if list_name == "persons":
        groups = {k: v for k, v in values.get("groups", {}).items() if v}
        entry: Any = PersonTerm(new_id, values["kind"], groups, [])
    else:
        entry = EmotionWord(new_id, values["emotion"], values["kind"], [])
    entry.forms = values.get("forms") or forms_of_line(corpus, list_name, text, entry)
    return entry


class AddEntryDialog(QDialog):
    """Adds persons or emotion words, several at a time: one per line, classification chosen once.

    Nothing is preset: *Add* stays disabled until the kind, the gender (and, for a name, the
    other axes' groups) or the emotion and kind are chosen. The dialog stays open after *Add*
    with the choices kept in view, so the next batch (the men after the women) needs only
    the gender changed. ``added`` receives the values of each entry.
    """

    def __init__(self, corpus: CorpusDefinition, list_name: str, add: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.corpus, self.list_name, self._add = corpus, list_name, add
        self.setWindowTitle(_("Add persons") if list_name == "persons" else _("Add emotion words"))
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText(_("One per line, e.g.\nma mère\nma sœur") if list_name == "persons"
                                     else _("One per line, e.g.\nfurieuse / furieux"))
        self.text.setTabChangesFocus(True)
        self.text.textChanged.connect(self._validate)
        self.forms_hint = QLabel()
        self.forms_hint.setWordWrap(True)
        form = QFormLayout()
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
        form.addRow(_("Text:"), self.text)
        form.addRow("", self.forms_hint)
        for box in self.boxes.values():
            box.currentIndexChanged.connect(lambda _i: self._validate())
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Close)
        self.add_button = self.buttons.addButton(_("Add"), QDialogButtonBox.ApplyRole)
        self.add_button.setDefault(True)
        self.add_button.clicked.connect(self.add)
        self.buttons.rejected.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)
        self._validate()

    def lines(self) -> list[str]:
        return [ln.strip() for ln in self.text.toPlainText().splitlines() if ln.strip()]

    def problem_text(self) -> str:
        if not self.lines():
            return _("Type the text first.")
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
        self.add_button.setEnabled(not problem)
        probe = self._probe()
        combos = needed_combinations(self.corpus, self.list_name, probe) if probe is not None else [{}]
        labels = [", ".join(f"{k}={v}" for k, v in c.items()) for c in combos if c]
        self.forms_hint.setText(_("Several forms on a line, separated by “/”, in this order: {order}").format(
            order=" / ".join(labels)) if len(labels) > 1 else "")

    def _probe(self) -> Any:
        v = self._choices()
        try:
            return build_entry(self.corpus, self.list_name, {**v, "text": "x"})
        except KeyError:
            return None

    def _choices(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.boxes["kind"].currentData() or ""}
        if self.list_name == "persons":
            out["groups"] = {k.split(":", 1)[1]: b.currentData() for k, b in self.boxes.items() if k.startswith("axis:")}
        else:
            out["emotion"] = self.boxes["emotion"].currentData() or ""
        return out

    def values(self) -> list[dict[str, Any]]:
        return [{**self._choices(), "text": line} for line in self.lines()]

    def add(self) -> int:
        """Add the typed entries (one undo step) and clear the text for the next batch."""
        if self.problem_text():
            return 0
        values = self.values()
        self._add(values)
        self.text.clear()
        self.text.setFocus()
        return len(values)
