"""The main window: navigation between Corpora, Workbench, Audit and Results; files and recovery.

Why pages are built lazily: the first window must appear fast (bench/bench_gui_startup.py);
the audit and results screens pull in pyqtgraph and the model code, so they are created the
first time the user opens them.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gui import settings
from gui.common.extras import grey_without
from gui.errors import show_error
from gui.home.corpus_list import CorpusList
from gui.i18n import _, connect_retranslate, isolated, ngettext
from gui.main_files import FileActions

if TYPE_CHECKING:  # the workbench imports the engine (and pandas): loaded on first use
    from gui.workbench.document import CorpusDocument
    from gui.workbench.page import WorkbenchPage
    from gui.workbench.recovery import RecoveryEntry

PAGES = ("corpora", "workbench", "audit", "results")


class MainWindow(FileActions, QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.resize(1280, 800)
        self.setAcceptDrops(True)
        self.doc: "CorpusDocument | None" = None
        self.workbench: "WorkbenchPage | None" = None
        self._audit: Any = None
        self._results: Any = None
        #: set by tests (and scripted use) to answer questions without a modal dialog
        self.auto_answer: QMessageBox.StandardButton | None = None

        self.nav = QListWidget()
        self.nav.setFixedWidth(150)
        self.nav.setSpacing(2)
        self.nav.setIconSize(QSize(22, 22))
        for _name in PAGES:
            self.nav.addItem(QListWidgetItem())
        self.nav.currentRowChanged.connect(self._show_page)
        self.stack = QStackedWidget()
        self.corpora = CorpusList()
        self.corpora.open_requested.connect(self.open_path)
        self.corpora.translate_requested.connect(self.translate_dialog)
        self.corpora.open_file_requested.connect(self.open_file_dialog)
        self.corpora.open_path_requested.connect(self.open_path)
        self.corpora.welcome.new_corpus.connect(lambda: self.new_corpus_dialog())
        self.corpora.welcome.translate.connect(lambda: self.translate_dialog("en-kiritchenko2018"))
        self.corpora.welcome.audit.connect(lambda: self.show_page("audit"))
        self.workbench_holder = QWidget()
        self._holder_layout = QVBoxLayout(self.workbench_holder)
        self._holder_layout.setContentsMargins(0, 0, 0, 0)
        self.workbench_empty = QLabel()
        self.workbench_empty.setAlignment(Qt.AlignCenter)
        self.workbench_empty.setWordWrap(True)
        self._holder_layout.addWidget(self.workbench_empty)
        self.audit_holder = QWidget()
        QVBoxLayout(self.audit_holder).setContentsMargins(0, 0, 0, 0)
        self.results_holder = QWidget()
        QVBoxLayout(self.results_holder).setContentsMargins(0, 0, 0, 0)
        for w in (self.corpora, self.workbench_holder, self.audit_holder, self.results_holder):
            self.stack.addWidget(w)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(4, 4, 4, 0)
        row.setSpacing(6)
        row.addWidget(self.nav)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.counts_label = QLabel()
        self.statusBar().addPermanentWidget(self.counts_label)
        self._build_menus()
        connect_retranslate(self)
        self.retranslate()
        self.nav.setCurrentRow(0)

    # the corpus list table (kept as `.table`: tests and scripts read the corpora from it)
    @property
    def table(self):
        return self.corpora.table

    # -- menus ------------------------------------------------------------------
    def _action(self, menu: Any, slot: Callable[[], Any], shortcut: Any = None) -> QAction:
        act = QAction(self)
        act.triggered.connect(lambda _checked=False: slot())
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.act_new = self._action(self.file_menu, self.new_corpus_dialog, QKeySequence.New)
        self.act_open = self._action(self.file_menu, self.open_file_dialog, QKeySequence.Open)
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.act_translate = self._action(self.file_menu, lambda: self.translate_dialog(self.corpora.selected_path()))
        self.file_menu.addSeparator()
        self.act_save = self._action(self.file_menu, self.save, QKeySequence.Save)
        self.act_save_as = self._action(self.file_menu, self.save_as_dialog, QKeySequence.SaveAs)
        self.file_menu.addSeparator()
        self.export_menu = self.file_menu.addMenu("")
        self.export_menu.setToolTipsVisible(True)  # a greyed format says which extra it needs
        self.export_actions = {kind: self._action(self.export_menu, lambda k=kind: self.export_dialog(k))
                               for kind in ("package", "po", "xliff", "csv", "jsonl", "parquet", "hf")}
        self.export_menu.addSeparator()
        self.act_export_all = self._action(self.export_menu, self.export_all_dialog)
        self.act_import = self._action(self.file_menu, self.import_dialog)
        self.act_tm_export = self._action(self.file_menu, self.tm_export_dialog)
        self.act_tm_import = self._action(self.file_menu, self.tm_import_dialog)
        self.file_menu.addSeparator()
        self.act_quit = self._action(self.file_menu, self.close, QKeySequence.Quit)
        self.edit_menu = bar.addMenu("")
        self.act_undo = self._action(self.edit_menu, self.undo, QKeySequence.Undo)
        self.act_redo = self._action(self.edit_menu, self.redo, QKeySequence.Redo)
        self.edit_menu.addSeparator()
        self.act_prefs = self._action(self.edit_menu, self.preferences, QKeySequence.Preferences)
        self.help_menu = bar.addMenu("")
        self.act_about = self._action(self.help_menu, self.about)

    def retranslate(self, *_args: Any) -> None:
        self.file_menu.setTitle(_("&File"))
        self.act_new.setText(_("&New corpus…"))
        self.act_open.setText(_("&Open corpus file…"))
        self.export_menu.setTitle(_("&Export"))
        for kind, text in (("package", _("Corpus &package (.eecpkg, with datasheet)…")),
                           ("po", _("For translators: &PO (Poedit, Weblate)…")),
                           ("xliff", _("For translators: &XLIFF 2.0…")),
                           ("csv", _("Sentences as &CSV…")), ("jsonl", _("Sentences as &JSON Lines…")),
                           ("parquet", _("Sentences as P&arquet…")),
                           ("hf", _("&Hugging Face dataset folder…"))):
            self.export_actions[kind].setText(text)
        grey_without("parquet", self.export_actions["parquet"])  # pyarrow: pip install 'eec-studio[parquet]'
        self.act_export_all.setText(_("E&very format into a folder…"))
        self.act_import.setText(_("&Import translations (PO, XLIFF)…"))
        self.act_tm_export.setText(_("Export translation &memory (TMX)…"))
        self.act_tm_import.setText(_("Import translation memory (&TMX)…"))
        self.recent_menu.setTitle(_("Open &recent"))
        self.act_translate.setText(_("&Translate into a new language…"))
        self.act_save.setText(_("&Save"))
        self.act_save_as.setText(_("Save &as…"))
        self.act_quit.setText(_("&Quit"))
        self.edit_menu.setTitle(_("&Edit"))
        self.act_undo.setText(_("&Undo"))
        self.act_redo.setText(_("&Redo"))
        self.act_prefs.setText(_("&Preferences…"))
        self.help_menu.setTitle(_("&Help"))
        self.act_about.setText(_("&About EEC Studio"))
        self._update_undo_actions()
        labels = [_("Corpora"), _("Workbench"), _("Audit"), _("Results")]
        for i, text in enumerate(labels):
            self.nav.item(i).setText(text)
        self.workbench_empty.setText(_("Open a corpus from the Corpora page, a definition file (File → Open), "
                                       "or drop a .toml file here."))
        self._update_title()
        self._update_counts()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        if not files:
            act = self.recent_menu.addAction(_("(no recent files)"))
            act.setEnabled(False)
        for path in files:
            act = self.recent_menu.addAction(path)
            act.triggered.connect(lambda _c=False, p=path: self.open_path(p))

    # -- pages ------------------------------------------------------------------
    def _show_page(self, row: int) -> None:
        if row == 2:
            self.audit_page()
        elif row == 3:
            self.results_page()
        self.stack.setCurrentIndex(max(row, 0))

    def show_page(self, name: str) -> None:
        self.nav.setCurrentRow(PAGES.index(name))

    def audit_page(self) -> Any:
        if self._audit is None:
            from gui.audit.page import AuditPage

            self._audit = AuditPage()
            self._audit.finished_result.connect(self._audit_finished)
            self.audit_holder.layout().addWidget(self._audit)
        return self._audit

    def results_page(self) -> Any:
        if self._results is None:
            from gui.results.page import ResultsPage

            self._results = ResultsPage()
            self.results_holder.layout().addWidget(self._results)
        return self._results

    def _audit_finished(self, result: Any) -> None:
        self.results_page().show_result(result)
        self.statusBar().showMessage(_("Audit finished: results are on the Results page."), 8000)

    # -- documents --------------------------------------------------------------
    def ask(self, title: str, text: str, buttons: QMessageBox.StandardButton,
            default: QMessageBox.StandardButton) -> QMessageBox.StandardButton:
        if self.auto_answer is not None:
            return self.auto_answer
        box = QMessageBox(QMessageBox.Question, title, text, buttons, self)
        box.setDefaultButton(default)
        return QMessageBox.StandardButton(box.exec())

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current document (saved, or the user said so)."""
        if self.doc is None or not self.doc.modified:
            return True
        answer = self.ask(_("Unsaved changes"),
                          _("{name} has unsaved changes. Save them first?").format(name=self.doc.display_name()),
                          QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save()
        if answer == QMessageBox.Discard:
            if self.workbench is not None:
                self.workbench.discard_recovery()
            return True
        return False

    def set_document(self, doc: "CorpusDocument") -> "WorkbenchPage":
        from gui.workbench.page import WorkbenchPage

        if self.workbench is not None:
            self.workbench.shutdown()
            self.workbench.setParent(None)
            self.workbench.deleteLater()
        if self.doc is not None:
            for sig in (self.doc.undo_stack.indexChanged, self.doc.undo_stack.cleanChanged):
                try:
                    sig.disconnect(self._update_undo_actions)
                except (RuntimeError, TypeError):
                    pass
        self.workbench_empty.hide()
        self.doc = doc
        self.workbench = WorkbenchPage(doc)
        self.workbench.counts_changed.connect(self._update_counts)
        self.workbench.title_changed.connect(self._update_title)
        self.workbench.message.connect(lambda text: self.statusBar().showMessage(text, 10000))
        for sig in (doc.undo_stack.indexChanged, doc.undo_stack.cleanChanged):
            sig.connect(self._update_undo_actions)
        self._holder_layout.addWidget(self.workbench)
        self._update_counts()
        self._update_title()
        self.show_page("workbench")
        return self.workbench

    def open_path(self, path: str | Path) -> "WorkbenchPage | None":
        """Open a built-in corpus id or a definition file in the workbench."""
        from gui.workbench.document import CorpusDocument

        if not self.confirm_discard():
            return None
        try:
            doc = CorpusDocument.open(path)
        except Exception as exc:
            show_error(self, exc, context=_("Opening {path}").format(path=isolated(path)))
            self.statusBar().showMessage(_("Could not open {path}").format(path=isolated(path)), 8000)
            return None
        if doc.path and not doc.is_builtin:
            settings.add_recent(doc.path)
            self.corpora.refresh_recent()
        return self.set_document(doc)

    def open_file_dialog(self) -> None:
        from engine.common.user_dirs import user_corpus_dir

        path, _f = QFileDialog.getOpenFileName(self, _("Open corpus definition"), str(user_corpus_dir()),
                                               _("Corpus definitions (*.toml)"))
        if path:
            self.open_path(path)

    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.workbench is not None:
            self.workbench.commit_pending()  # a name typed just before Ctrl+S counts as a change
        if self.doc.path is None or self.doc.is_builtin:
            return self.save_as_dialog()
        return self._save_to(self.doc.path)

    def _save_to(self, path: str | Path) -> bool:
        if self.workbench is not None:
            self.workbench.commit_pending()
        try:
            self.doc.save(path)
        except Exception as exc:
            show_error(self, exc, context=_("Saving {path}").format(path=isolated(path)))
            return False
        settings.add_recent(self.doc.path)
        self.corpora.refresh_recent()
        self.statusBar().showMessage(_("Saved {path}").format(path=isolated(self.doc.path)), 5000)
        self.corpora.refresh()
        return True

    def save_as(self, path: str | Path) -> bool:
        return self._save_to(path) if self.doc is not None else False

    def save_as_dialog(self) -> bool:
        if self.doc is None:
            return False
        suggested = self.doc.suggested_path()  # in the corpora folder, created on first use
        path, _f = QFileDialog.getSaveFileName(
            self, _("Save corpus definition — your corpora folder: {folder}").format(folder=isolated(suggested.parent)),
            str(suggested), _("Corpus definitions (*.toml)"))
        return self.save_as(path) if path else False

    def undo(self) -> None:
        if self.doc is not None:
            self.doc.undo_stack.undo()

    def redo(self) -> None:
        if self.doc is not None:
            self.doc.undo_stack.redo()

    def _update_undo_actions(self, *_args: Any) -> None:
        """Edit menu says what Undo and Redo will do ("Undo Edit form of angry"), greyed when nothing."""
        stack = self.doc.undo_stack if self.doc is not None else None
        try:
            can_undo, can_redo = bool(stack and stack.canUndo()), bool(stack and stack.canRedo())
        except RuntimeError:  # the stack is being destroyed with its document (window closing)
            return
        self.act_undo.setEnabled(can_undo)
        self.act_redo.setEnabled(can_redo)
        self.act_undo.setText(_("&Undo {action}").format(action=stack.undoText()) if can_undo else _("&Undo"))
        self.act_redo.setText(_("&Redo {action}").format(action=stack.redoText()) if can_redo else _("&Redo"))
        has_doc = self.doc is not None
        self.act_save.setEnabled(has_doc)
        self.act_save_as.setEnabled(has_doc)
        self.export_menu.setEnabled(has_doc)
        self.act_import.setEnabled(has_doc)

    # -- recovery ---------------------------------------------------------------
    def offer_recovery(self) -> "WorkbenchPage | None":
        """After a crash: offer to restore the newest autosaved document (others stay for later)."""
        from gui.workbench.recovery import pending_recoveries

        entries = pending_recoveries()
        if not entries:
            return None
        entry = entries[0]
        import datetime as dt

        when = dt.datetime.fromtimestamp(entry.saved_at).strftime("%H:%M:%S")
        answer = self.ask(_("Recover unsaved work?"),
                          _("EEC Studio closed unexpectedly while {name} had unsaved changes. "
                            "Restore the version autosaved at {time}?").format(
                              name=entry.original or entry.corpus_id, time=when),
                          QMessageBox.Yes | QMessageBox.Discard, QMessageBox.Yes)
        if answer == QMessageBox.Yes:
            return self.recover(entry)
        entry.discard()
        return None

    def recover(self, entry: "RecoveryEntry") -> "WorkbenchPage | None":
        from gui.workbench.document import CorpusDocument

        try:
            corpus = entry.load()
        except Exception as exc:
            show_error(self, exc, context=_("Reading the recovery file"))
            return None
        doc = CorpusDocument(corpus, entry.original or None)
        doc.mark_unsaved()
        page = self.set_document(doc)
        entry.discard()
        page.autosave()  # the recovered state is protected again under this process
        self.statusBar().showMessage(_("Recovered unsaved changes; save to keep them."), 10000)
        return page

    # -- window -----------------------------------------------------------------
    def _update_title(self) -> None:
        if self.doc is None:
            self.setWindowTitle("EEC Studio")
        else:
            star = "*" if self.doc.modified else ""
            self.setWindowTitle(f"{self.doc.corpus.id}{star} — EEC Studio")

    def _update_counts(self, *_args: Any) -> None:
        if self.workbench is None:
            self.counts_label.setText("")
            return
        errors, warnings = self.workbench.checks.counts()
        self.counts_label.setText(ngettext("{n} error", "{n} errors", errors).format(n=errors) + " · "
                                  + ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings))
        colour = "#b00020" if errors else "#8a5a00" if warnings else "#1b6e20"
        self.counts_label.setStyleSheet(f"QLabel {{ color: {colour}; font-weight: bold; padding: 0 6px; }}")
        self.counts_label.setToolTip(_("Problems found by the agreement checker; details on the Checks tab."))

    def preferences(self) -> None:
        from gui.dialogs import PreferencesDialog

        dlg = PreferencesDialog(self)
        if dlg.exec():
            dlg.apply()
            if self.workbench is not None:
                self.workbench.autosave_timer.setInterval(int(settings.autosave_seconds() * 1000))

    def about(self) -> None:
        QMessageBox.about(self, _("About EEC Studio"),
                          _("EEC Studio measures social bias in NLP systems across languages with equity "
                            "evaluation corpora."))

    def dragEnterEvent(self, event: Any) -> None:
        # accept any local file: a wrong one is then refused with a message rather than silently
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event: Any) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        toml = [p for p in paths if p.lower().endswith(".toml")]
        if toml:
            event.acceptProposedAction()
            # after the drop returns: a question (unsaved changes) must not run inside the drag
            QTimer.singleShot(0, lambda p=toml[0]: self.open_path(p))
            if len(toml) > 1:
                self.statusBar().showMessage(ngettext("Opened the first of {n} file; drop one file at a time.",
                                                      "Opened the first of {n} files; drop one file at a time.",
                                                      len(toml)).format(n=len(toml)), 8000)
        elif paths:
            event.ignore()
            self.statusBar().showMessage(
                _("{name} is not a corpus definition: drop a .toml file.").format(name=Path(paths[0]).name), 8000)

    def closeEvent(self, event: Any) -> None:
        if self._audit is not None and self._audit.running:
            self._audit.cancel()
            self._audit.wait(3000)
        if not self.confirm_discard():
            event.ignore()
            return
        if self.workbench is not None:
            self.workbench.shutdown()
            if self.doc is not None and not self.doc.modified:
                self.workbench.discard_recovery()
        event.accept()
