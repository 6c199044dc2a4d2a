"""Adding persons and emotion words: their text, their kind and group chosen explicitly.

Why a dialog: a new person used to get the id ``person07``, kind *noun phrase* and gender
*female* by default — *mon père* started out female. Here nothing is preset, the id is derived
from the text (``mon_pere``), and several entries of one kind are typed one per line, their
forms separated by "/" in the order the templates need them (*furieuse / furieux*).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
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
from engine.corpus.definition.entry_lines import LineEntry, parse_emotion_lines, parse_person_lines
from engine.corpus.definition.ids import derive_id
from engine.corpus.definition.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS
from engine.corpus.generate.needed_forms import needed_combinations

from gui.i18n import _, list_separator

from .finding_text import value_label


def _choice_box(values: list[str]) -> QComboBox:
    box = QComboBox()
    box.addItem(_("(choose)"), "")
    for v in values:
        box.addItem(value_label(v), v)
    return box


def _labelled(text: str, buddy: QWidget) -> QLabel:
    """A form label whose & accelerator (Alt+K…) moves the focus to its field: every choice by keyboard."""
    label = QLabel(text)
    label.setBuddy(buddy)
    return label


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
    """Adds persons or emotion words, several at a time: one per line, each line may carry its
    own attributes (``Ana f negra``, ``minha mãe f ~ meu pai m``, ``anger: furiosa / furioso``).

    Nothing is preset: *Add* stays disabled until every line has its kind and groups (or emotion
    and kind), typed on the line or chosen above. The list below the text shows what each line
    will be before anything is added. After *Add* the groups and the emotion are cleared again
    (the kind stays), so no batch silently inherits the last one's gender. ``add`` receives the
    values of each entry.
    """

    def __init__(self, corpus: CorpusDefinition, list_name: str, add: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.corpus, self.list_name, self._add = corpus, list_name, add
        persons = list_name == "persons"
        self.setWindowTitle(_("Add persons") if persons else _("Add emotion words"))
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText(
            _("One per line; what a line does not say comes from the choices above, e.g.\nAna f\nminha mãe f ~ meu pai m")
            if persons else _("One per line, e.g.\nfurieuse / furieux\nanger: irritada / irritado"))
        self.text.setTabChangesFocus(True)
        self.text.textChanged.connect(self._validate)
        self.forms_hint = QLabel()
        self.forms_hint.setWordWrap(True)
        self.syntax = QLabel()
        self.syntax.setWordWrap(True)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        self.preview.setTextFormat(Qt.PlainText)
        form = QFormLayout()
        self.boxes: dict[str, QComboBox] = {}
        if persons:
            self.boxes["kind"] = _choice_box(list(PERSON_KINDS))
            form.addRow(_labelled(_("&Kind:"), self.boxes["kind"]), self.boxes["kind"])
            for name, axis in corpus.axes.items():
                self.boxes[f"axis:{name}"] = _choice_box(list(axis.groups))
                form.addRow(_labelled(f"{axis.display}:", self.boxes[f"axis:{name}"]), self.boxes[f"axis:{name}"])
        else:
            self.boxes["emotion"] = _choice_box(list(EMOTIONS))
            self.boxes["kind"] = _choice_box(list(EMOTION_KINDS))
            form.addRow(_labelled(_("&Emotion:"), self.boxes["emotion"]), self.boxes["emotion"])
            form.addRow(_labelled(_("&Kind:"), self.boxes["kind"]), self.boxes["kind"])
        form.addRow(_labelled(_("&Text:"), self.text), self.text)
        form.addRow("", self.syntax)
        form.addRow("", self.forms_hint)
        form.addRow(_("Will add:"), self.preview)
        for box in self.boxes.values():
            box.currentIndexChanged.connect(lambda _i: self._validate())
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Close)
        self.add_button = self.buttons.addButton(_("Add"), QDialogButtonBox.ApplyRole)
        self.add_button.setDefault(True)
        self.add_button.setShortcut(QKeySequence("Ctrl+Return"))  # the text box keeps Enter for new lines
        self.add_button.clicked.connect(self.add)
        self.buttons.rejected.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)
        self._syntax_text()
        self._validate()

    def _syntax_text(self) -> None:
        if self.list_name == "persons":
            words = []
            for name, axis in self.corpus.axes.items():
                vals = list(axis.groups) + [v for v in axis.feature_values.values()]
                words.append(f"{axis.display}: {', '.join(vals)}")
            self.syntax.setText(_("At the end of a line you may type its groups ({groups}); “X ~ Y” adds two noun "
                                  "phrases paired with each other.").format(groups="; ".join(words)))
        else:
            self.syntax.setText(_("Start a line with “emotion:” to give its emotion ({emotions}); a line with only "
                                  "“emotion:” applies to the lines below.").format(
                emotions=list_separator().join(value_label(e) for e in EMOTIONS)))

    def lines(self) -> list[str]:
        return [ln.strip() for ln in self.text.toPlainText().splitlines() if ln.strip()]

    def _labels(self) -> dict[str, str]:
        values = list(PERSON_KINDS) + list(EMOTIONS) + list(EMOTION_KINDS)
        values += [g for a in self.corpus.axes.values() for g in a.groups]
        return {v: value_label(v) for v in values if value_label(v) != v}

    def entries(self) -> list[LineEntry]:
        """What each typed line will add (attributes typed on the line, else the choices above)."""
        c = self._choices()
        if self.list_name == "persons":
            return parse_person_lines(self.corpus, self.lines(), c["kind"], c["groups"], self._labels())
        return parse_emotion_lines(self.lines(), c["emotion"], c["kind"], self._labels())

    def problem_text(self) -> str:
        if not self.lines():
            return _("Type the text first.")
        for e in self.entries():
            if e.problem:
                what = self._attribute_name(e.problem)
                return _("“{text}”: its {what} is not chosen. Type it at the end of the line or choose it above — "
                         "nothing is preset, so that no entry starts out with the wrong value.").format(
                    text=e.text, what=what) if what else e.problem
        return ""

    def _attribute_name(self, key: str) -> str:
        if key == "kind":
            return _("kind")
        if key == "emotion":
            return _("emotion")
        if key in self.corpus.axes:
            return self.corpus.axes[key].display
        return ""

    def _describe(self, e: LineEntry, entries: list[LineEntry]) -> str:
        v = e.values
        if self.list_name == "persons":
            parts = [value_label(v.get("kind", "")) or "?"]
            groups = v.get("groups", {})
            parts += [value_label(groups[a]) for a in self.corpus.axes if groups.get(a)]  # in the axes' order
        else:
            parts = [value_label(v.get("emotion", "")) or "?", value_label(v.get("kind", "")) or "?"]
        line = f"{e.text} — {' · '.join(parts)}"
        if e.pair_with >= 0:
            line += "  ~ " + entries[e.pair_with].text
        return line

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem)
        self.add_button.setEnabled(not problem)
        entries = self.entries() if self.lines() else []
        shown = [self._describe(e, entries) for e in entries[:8]]
        if len(entries) > 8:
            shown.append(_("… and {n} more").format(n=len(entries) - 8))
        self.preview.setText("\n".join(shown) if shown else "–")
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
        """One dict per entry for ``build_entry``; ``pair_index`` links the two sides of an X ~ Y line."""
        out = []
        for e in self.entries():
            v = {**e.values, "text": e.text}
            if e.pair_with >= 0:
                v["pair_index"] = e.pair_with
            out.append(v)
        return out

    def add(self) -> int:
        """Add the typed entries (one undo step), clear the text and the groups for the next batch."""
        if self.problem_text():
            return 0
        values = self.values()
        self._add(values)
        self.text.clear()
        for key, box in self.boxes.items():
            if key.startswith("axis:") or key == "emotion":
                box.setCurrentIndex(0)  # the next batch chooses its gender again: nothing carried over silently
        self.text.setFocus()
        return len(values)
