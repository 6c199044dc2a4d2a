"""*Add a local LLM…*: a causal-LM folder or .gguf file, the tasks and language it is asked in,
and the exact prompt wording — shown and editable before the audit runs.

Why show the prompt: the prompt is part of the measuring instrument (docs/models.md, "Auditing a
local LLM"); a researcher must see and cite the wording, and may change it (the edited copy is
saved as a prompt file and recorded, with its hash, in the run manifest).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gui.errors import friendly
from gui.i18n import _

from .setup_model import AuditSetup, Choice


class LLMDialog(QDialog):
    """Choose the model, the prompts (by language and task) and, optionally, edit their text."""

    def __init__(self, setup: AuditSetup, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from engine.models.prompts import shipped_prompts

        self.setup = setup
        self.prompts = shipped_prompts()
        self.added: Choice | None = None
        self._shown_text = ""
        self.setWindowTitle(_("Add a local LLM"))
        self.path = QLineEdit()
        folder_button, gguf_button = QPushButton(_("Folder…")), QPushButton(_(".gguf file…"))
        folder_button.clicked.connect(self._ask_folder)
        gguf_button.clicked.connect(self._ask_gguf)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(folder_button)
        path_row.addWidget(gguf_button)
        self.language = QComboBox()
        for lang in sorted({p.language for p in self.prompts.values()}):
            self.language.addItem(lang, lang)
        self.language.setCurrentIndex(max(0, self.language.findData("en")))
        self.tasks = QListWidget()
        self.tasks.setMaximumHeight(140)
        for task in sorted({p.task for p in self.prompts.values()}):
            item = QListWidgetItem(task)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if task in ("anger", "fear", "joy", "sadness") else Qt.Unchecked)
            self.tasks.addItem(item)
        self.name = QLineEdit()
        self.name.setPlaceholderText(_("optional: a name for its score columns"))
        self.text = QPlainTextEdit()
        self.text.setMinimumHeight(220)
        self.note = QLabel(_("The prompts exactly as the model reads them (the sentence goes where {text} "
                             "stands). Edit the wording and raise its version to audit a variant."))
        self.note.setWordWrap(True)
        self.language.currentIndexChanged.connect(self._refresh_text)
        self.tasks.itemChanged.connect(self._refresh_text)
        form = QFormLayout()
        form.addRow(_("Model:"), path_row)
        form.addRow(_("Language of the prompts:"), self.language)
        form.addRow(_("Tasks:"), self.tasks)
        form.addRow(_("Name:"), self.name)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #611a15;")
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.note)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self._refresh_text()

    def chosen_ids(self) -> list[str]:
        lang = self.language.currentData()
        tasks = [self.tasks.item(i).text() for i in range(self.tasks.count())
                 if self.tasks.item(i).checkState() == Qt.Checked]
        ids = []
        for task in tasks:
            hits = sorted(p.id for p in self.prompts.values() if p.task == task and p.language == lang)
            ids += hits[:1]
        return ids

    def _refresh_text(self, *_args: Any) -> None:
        from engine.models.prompts import prompts_to_toml

        self._shown_text = prompts_to_toml([self.prompts[i] for i in self.chosen_ids()])
        self.text.setPlainText(self._shown_text)

    def _ask_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose a causal language model folder"))
        if folder:
            self.path.setText(folder)

    def _ask_gguf(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Choose a GGUF model file"), "", _("GGUF models (*.gguf)"))
        if path:
            self.path.setText(path)

    def accept(self) -> None:
        path = self.path.text().strip()
        if not path or not Path(path).exists():
            self.error.setText(_("Choose the model folder or .gguf file first."))
            return
        ids = self.chosen_ids()
        if not ids:
            self.error.setText(_("Tick at least one task."))
            return
        edited = self.text.toPlainText()
        try:
            self.added = self.setup.add_llm(path, ids, edited_prompts=edited if edited != self._shown_text else None,
                                            name=self.name.text())
        except Exception as exc:  # a malformed edited prompt file: file:line and the fix
            info = friendly(exc)
            self.error.setText(info.as_text())
            return
        super().accept()
