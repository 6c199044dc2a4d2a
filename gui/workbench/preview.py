"""Live preview of the sentences the corpus will produce, filtered by template, person and emotion.

Why: a translator judges agreement by reading real sentences, not slot syntax. The engine's
generator produces them (the same code the audit uses), so what is previewed is exactly what
will be scored; the counts say how many sentences and counterfactual pairs the corpus yields.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from gui.common.frame_table import FrameTable
from gui.i18n import N_, _, connect_retranslate, ngettext, number

from .document import CorpusDocument

SHOWN_COLUMNS = ["Sentence", "template_id", "Person", "Gender", "Race", "Emotion", "Emotion word"]
HEADERS = {"Sentence": N_("Sentence"), "template_id": N_("Template"), "Person": N_("Person"), "Gender": N_("Gender"),
           "Emotion": N_("Emotion"), "Emotion word": N_("Emotion word")}


class PreviewPanel(QWidget):
    def __init__(self, doc: CorpusDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.frame: Any = None  # the whole generated corpus (engine.corpus.generate)
        self.pairs: int | None = None
        self.template = QComboBox()
        self.person = QComboBox()
        self.emotion = QComboBox()
        for box in (self.template, self.person, self.emotion):
            box.currentIndexChanged.connect(lambda _i: self._apply())
            box.setMinimumContentsLength(10)
        self.counts = QLabel()
        self.counts.setWordWrap(True)
        self.table = FrameTable(name="preview")
        self.t_label, self.p_label, self.e_label = QLabel(), QLabel(), QLabel()
        # one filter a line: side by side, the three (labels in Portuguese, Italian…) made the side
        # column at least 520 px wide at 1280 × 800, starving the tables and the form editor
        top = QFormLayout()
        top.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        for label, box in ((self.t_label, self.template), (self.p_label, self.person), (self.e_label, self.emotion)):
            label.setBuddy(box)
            top.addRow(label, box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.counts)
        layout.addWidget(self.table, 1)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.t_label.setText(_("Template:"))
        self.p_label.setText(_("Person:"))
        self.e_label.setText(_("Emotion:"))
        self._fill_filters()

    def _fill_filters(self) -> None:
        c = self.doc.corpus
        choices = [
            (self.template, [(t.id, t.id) for t in c.templates]),
            (self.person, [(p.id, " / ".join(f.text for f in p.forms) or p.id) for p in c.persons]),
            (self.emotion, [(e, _(e)) for e in sorted({e.emotion for e in c.emotion_words})] + [("-", _("(none: neutral templates)"))]),
        ]
        for box, values in choices:
            current = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(_("All"), "")
            for data, label in values:
                box.addItem(label if label == data else f"{data} — {label}" if box is self.person else label, data)
            i = box.findData(current)
            box.setCurrentIndex(i if i >= 0 else 0)
            box.blockSignals(False)

    def set_filter(self, template: str = "", person: str = "", emotion: str = "") -> None:
        for box, value in ((self.template, template), (self.person, person), (self.emotion, emotion)):
            i = box.findData(value)
            box.blockSignals(True)
            box.setCurrentIndex(max(i, 0))
            box.blockSignals(False)
        self._apply()

    def show_generated(self, frame: Any, pairs: int | None) -> None:
        self.frame, self.pairs = frame, pairs
        self._fill_filters()
        self._apply()

    def filtered(self) -> Any:
        df = self.frame
        if df is None:
            return None
        t, p, e = self.template.currentData(), self.person.currentData(), self.emotion.currentData()
        if t:
            df = df[df["template_id"] == t]
        if p:
            df = df[df["person_id"] == p]
        if e:
            df = df[df["Emotion"] == ("" if e == "-" else e)]
        return df

    def _apply(self) -> None:
        df = self.filtered()
        if df is None:
            self.counts.setText(_("Generating…"))
            return
        total = len(self.frame)
        text = ngettext("The corpus produces {n} sentence", "The corpus produces {n} sentences", total).format(
            n=number(total))
        if self.pairs is not None:
            text += " " + ngettext("and {n} counterfactual pair", "and {n} counterfactual pairs", self.pairs).format(
                n=number(self.pairs))
        text += ". "
        if len(df) == total:
            text += _("All are shown below; choose a template, person or emotion to narrow the list.")
        else:
            # TRANSLATORS: the same English text for one and many; {n} of the sentences above
            text += ngettext("Showing {n} of them.", "Showing {n} of them.", len(df)).format(n=number(len(df)))
        self.counts.setText(text)
        headers = {k: _(v) for k, v in HEADERS.items()}
        race = self.doc.corpus.race_axis
        headers["Race"] = race.display if race is not None else _("Group")
        shown = df[[c for c in SHOWN_COLUMNS if c in df.columns]].reset_index(drop=True).rename(columns=headers)
        rtl = {headers[c] for c in ("Sentence", "Person", "Emotion word")} if self.doc.rtl else None
        self.table.set_frame(shown, rtl_columns=rtl)
