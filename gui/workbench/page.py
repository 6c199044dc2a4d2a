"""The workbench screen: entry tables, form editor, and the checks / preview / coverage panels.

Why one debounced analysis: every keystroke-level edit restarts a short timer; when typing
pauses, the engine's checker (and, if visible, the generator for preview and coverage) runs
once on a snapshot of the current definition, in a pool thread (the checker realises every
combination and counterfactual pair: up to a second on a large corpus). Only the newest
result is shown, so a slow check never overwrites a newer one.

Why the page computes little: its state and the answers it shows (heading, progress, tab
titles, filter, check and review results, the next item to translate) live in the Qt-free
``WorkbenchState`` (page_state.py), as the Audit page's plan lives in ``AuditSetup``; the page
builds the widgets, shows the state's answers and passes the user's actions on.
"""
from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QProgressBar,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.corpus.check.fixes import fix_for
from engine.corpus.translate.progress import CorpusProgress

from gui import settings
from gui.common.background import Latest
from gui.errors import _headless, friendly
from gui.i18n import _, connect_retranslate, isolated, ngettext

from .checks_panel import ChecksPanel
from .corpus_settings import CorpusSettings
from .coverage_view import CoverageView
from .document import LISTS, CorpusDocument
from .entry_tab import EntryTab
from .form_editor import FormEditor
from .glossary_view import GlossaryView
from .native_review import review_state
from .page_state import EntryFilter, WorkbenchState, run_check, run_generation, status_filter_choices
from .preview import PreviewPanel
from .recovery import remove_recovery, write_recovery
from .suggestions import SuggestionsPanel
from .table_model import ID_ROLE

DEBOUNCE_MS = 300


#: the reviewer's key: the selected entries reviewed (by the name in Preferences)
MARK_REVIEWED_KEYS = "Ctrl+Shift+R"
#: many items at once, one line each
BATCH_KEYS = "Ctrl+Shift+B"


class WorkbenchPage(QWidget):
    """Edits one CorpusDocument. ``counts_changed(errors, warnings)`` feeds the status bar."""

    counts_changed = Signal(int, int)
    title_changed = Signal()
    message = Signal(str)  # a short note for the status bar (an edit that was refused, …)

    def __init__(self, doc: CorpusDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.state = WorkbenchState(doc)  # what the page shows, and the answers it gives (no Qt)
        self.analysis_runs = 0
        header = self._build_header()
        left = self._build_editor_column()
        self._build_side_panels()
        self._build_layout(header, left)
        self._start_timers()
        self._connect_document()
        self._add_shortcuts()
        connect_retranslate(self)
        self.retranslate()
        self._select_first(self.entry_tabs[LISTS[0]])
        self.analyse()

    # -- building (called once, in this order: it sets the widget tree and the focus chain) -------
    def _build_header(self) -> QHBoxLayout:
        """Corpus title, translation progress and native review; review filter, search, mark reviewed."""
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.RichText)
        self.status_filter = QComboBox()
        self.status_filter.setSizeAdjustPolicy(QComboBox.AdjustToContents)  # re-fits after a language switch
        self.status_filter.currentIndexChanged.connect(self._apply_filters)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._apply_filters)
        self.review_button = QPushButton()
        self.review_button.clicked.connect(self.mark_reviewed)
        self.batch_button = QPushButton()  # many items at once, one line each (issue 39)
        self.batch_button.clicked.connect(self.batch_dialog)
        self.filter_label = QLabel()
        self.progress = QLabel()
        self.progress.setTextFormat(Qt.RichText)
        # wraps too: a corpus typed in from nothing says what to add next ("next: add persons (Persons
        # tab, Add)"), and in German at 125 % that one line pushed the window past 1280 px
        self.progress.setWordWrap(True)
        # translated / total as a bar, as Weblate shows it (untranslated items are progress, not errors)
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setFixedHeight(8)
        self.progress_bar.setMaximumWidth(420)
        # the measured quality beside the progress: the error rate of a blind native-speaker review
        self.native_review = QLabel()
        self.native_review.setTextFormat(Qt.RichText)
        self.native_review.setWordWrap(True)  # a long line (German, a stale review) wraps instead of widening the window
        progress_row = QHBoxLayout()
        progress_row.setSpacing(12)
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.native_review, 1)
        heading_box = QVBoxLayout()
        heading_box.setSpacing(0)
        heading_box.addWidget(self.heading)
        heading_box.addWidget(self.progress_bar)
        heading_box.addLayout(progress_row)
        header = QHBoxLayout()
        header.addLayout(heading_box, 1)
        header.addWidget(self.filter_label)
        header.addWidget(self.status_filter)
        header.addWidget(self.search)
        header.addWidget(self.batch_button)
        header.addWidget(self.review_button)
        return header

    def _build_editor_column(self) -> QSplitter:
        """The left column: the entry tables (and corpus settings) over the form editor and suggestions."""
        doc = self.doc
        self.tabs = QTabWidget()
        self.entry_tabs: dict[str, EntryTab] = {}
        for name in LISTS:
            tab = EntryTab(doc, name)
            tab.current.connect(self._entry_selected)
            tab.model.notice.connect(self.message)
            self.entry_tabs[name] = tab
            self.tabs.addTab(tab, "")
        self.settings_tab = CorpusSettings(doc)
        self.tabs.addTab(self.settings_tab, "")
        self.tabs.currentChanged.connect(self._tab_changed)
        self.form_editor = FormEditor(doc)
        self.form_editor.notice.connect(self.message)
        self.suggestions = SuggestionsPanel(doc)
        self.suggestions.inserted.connect(lambda _l, _r: self.form_editor.show_entry(self.form_editor.list_name,
                                                                                   self.form_editor.row))
        editor_row = QSplitter(Qt.Horizontal)
        editor_row.addWidget(self.form_editor)
        editor_row.addWidget(self.suggestions)
        editor_row.setStretchFactor(0, 3)
        editor_row.setStretchFactor(1, 2)
        editor_row.setChildrenCollapsible(False)
        editor_row.setSizes([400, 260])
        self.editor_split = editor_row
        left = QSplitter(Qt.Vertical)
        left.addWidget(self.tabs)
        left.addWidget(editor_row)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)
        return left

    def _build_side_panels(self) -> None:
        """The right column's tabs: checks, preview, coverage, glossary."""
        doc = self.doc
        self.checks = ChecksPanel()
        self.checks.jump.connect(self.jump_to)
        self.checks.fix_for = lambda finding: fix_for(self.doc.corpus, finding)
        self.checks.fix_requested.connect(self.apply_fix)
        self.preview = PreviewPanel(doc)
        self.coverage = CoverageView()
        self.coverage.cell_chosen.connect(self._coverage_clicked)
        self.side = QTabWidget()
        self.side.addTab(self.checks, "")
        self.side.addTab(self.preview, "")
        self.side.addTab(self.coverage, "")
        self.glossary = GlossaryView(doc)
        self.side.addTab(self.glossary, "")
        self.side.currentChanged.connect(lambda _i: self._refresh_generation_if_visible())

    def _build_layout(self, header: QHBoxLayout, left: QSplitter) -> None:
        """The page: the disk banner, the header, and the two columns side by side."""
        split = QSplitter(Qt.Horizontal)
        split.addWidget(left)
        split.addWidget(self.side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        split.setSizes([660, 380])  # the tables get the room: they hold the text being translated
        left.setSizes([420, 260])
        left.setChildrenCollapsible(False)
        self.split, self.left_split = split, left
        self._build_disk_banner()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.disk_banner)
        layout.addLayout(header)
        layout.addWidget(split, 1)

    def _build_disk_banner(self) -> None:
        """The file changed on disk (another editor, a git pull): said here, never silently overwritten."""
        self.disk_banner = QWidget()
        self.disk_text = QLabel()
        self.disk_text.setWordWrap(True)
        self.reload_button = QPushButton()
        self.reload_button.clicked.connect(self.reload_from_disk)
        self.keep_button = QPushButton()
        self.keep_button.clicked.connect(self.keep_mine)
        banner = QHBoxLayout(self.disk_banner)
        banner.setContentsMargins(6, 4, 6, 4)
        banner.addWidget(self.disk_text, 1)
        banner.addWidget(self.reload_button)
        banner.addWidget(self.keep_button)
        self.disk_banner.setStyleSheet("QWidget { background: #fff4ce; }")
        self.disk_banner.hide()
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(lambda _p: QTimer.singleShot(200, self.check_disk))

    def _start_timers(self) -> None:
        """The debounced analysis, the periodic autosave, and the background runs they start."""
        self.analysis_timer = QTimer(self)
        self.analysis_timer.setSingleShot(True)
        self.analysis_timer.setInterval(DEBOUNCE_MS)
        self.analysis_timer.timeout.connect(self.analyse)
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(int(settings.autosave_seconds() * 1000))
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        self._checker = Latest(self._checked, self._check_failed, self)
        self._generator = Latest(self._generated, self._generate_failed, self)
        self._reviewer = Latest(self._reviewed, self._review_failed, self)

    def _connect_document(self) -> None:
        """Follow the document: edits, saves, its file (renamed, changed on disk) and its end."""
        doc = self.doc
        doc.changed.connect(self._on_changed)
        doc.undo_stack.cleanChanged.connect(self._on_clean_changed)
        # QObject emits destroyed() before deleting its children, so this is set before the
        # dying undo stack reports itself clean (which must not delete the recovery file)
        self._doc_gone = False
        doc.destroyed.connect(self._mark_doc_gone)
        doc.path_changed.connect(self._update_heading)
        doc.path_changed.connect(self._watch_file)
        self._watch_file()
        doc.path_changed.connect(self.check_review)  # the record lives beside the file (Save As)

    def _add_shortcuts(self) -> None:
        """Poedit's keys: the next (previous) item still to translate, the next item with a problem."""
        self.shortcuts = {}
        for name, keys, slot in (("next_untranslated", "Ctrl+Shift+Down", lambda: self.go_untranslated(1)),
                                 ("previous_untranslated", "Ctrl+Shift+Up", lambda: self.go_untranslated(-1)),
                                 ("next_problem", "Ctrl+Alt+Down", lambda: self.go_problem(1)),
                                 ("previous_problem", "Ctrl+Alt+Up", lambda: self.go_problem(-1)),
                                 ("mark_reviewed", MARK_REVIEWED_KEYS, lambda: self.mark_reviewed()),
                                 ("batch", BATCH_KEYS, lambda: self.batch_dialog()),
                                 ("commit_next", "Ctrl+Return", self.commit_and_next),
                                 ("commit_next_enter", "Ctrl+Enter", self.commit_and_next)):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.WindowShortcut)  # wherever the focus is in the window (tables, checks, editor)
            sc.activated.connect(slot)
            self.shortcuts[name] = sc

    # -- texts ------------------------------------------------------------------
    def retranslate(self, *_args: Any) -> None:
        self._update_tab_titles()
        self.tabs.setTabText(len(LISTS), _("Corpus"))
        self.side.setTabText(0, _("Checks"))
        self.side.setTabText(1, _("Preview"))
        self.side.setTabText(2, _("Coverage"))
        self.side.setTabText(3, _("Glossary"))
        self.filter_label.setText(_("Status:"))
        current = self.status_filter.currentData()
        self.status_filter.blockSignals(True)
        self.status_filter.clear()
        for label, value in status_filter_choices():
            self.status_filter.addItem(label, value)
        self.status_filter.setCurrentIndex(max(0, self.status_filter.findData(current)))
        self.status_filter.blockSignals(False)
        self.search.setPlaceholderText(_("Search…"))
        self.reload_button.setText(_("Reload"))
        self.keep_button.setText(_("Keep mine"))
        self.review_button.setText(_("Mark reviewed"))
        self.batch_button.setText(_("Translate many…"))
        self.batch_button.setToolTip(_("Translate many items at once: one line per item, its id or source text, then "
                                       "its forms; previewed with the checker, applied as one undo step")
                                     + f" ({QKeySequence(BATCH_KEYS).toString(QKeySequence.NativeText)})")
        self.review_button.setToolTip(_("Mark the selected entries as reviewed by you (a second native speaker)")
                                      + f" ({QKeySequence(MARK_REVIEWED_KEYS).toString(QKeySequence.NativeText)})")
        self._show_review()
        self._update_heading()

    def _update_heading(self) -> None:
        heading = self.state.heading()
        self.heading.setText(heading.html())
        self.heading.setToolTip(heading.tooltip)
        self._update_progress()
        self.title_changed.emit()

    def review_counts(self) -> dict[str, int]:
        """How many entries (templates, persons, emotion words, words) have each review status."""
        return self.state.review_counts()

    def progress_text(self) -> str:
        """"34% translated · 73 items left · 2 of 111 reviewed" (the bar's caption)."""
        return self.state.progress_text()

    def _update_tab_titles(self, p: CorpusProgress | None = None) -> None:
        """Each tab says how far it is: "Persons 12/60" (translated of total)."""
        for i, (title, tip) in enumerate(self.state.tab_titles(p)):
            self.tabs.setTabText(i, title)
            self.tabs.setTabToolTip(i, tip)

    def _update_progress(self) -> None:
        p = self.state.progress()  # once per update: the bar, its caption and the tab titles read it
        text = self.state.progress_text(p)
        self.progress_bar.setValue(self.state.progress_permille(p))
        self.progress_bar.setToolTip(text)
        self._update_tab_titles(p)
        self.progress.setText("<small>" + html.escape(text) + "</small>")
        self.progress.setToolTip(self.state.review_summary())

    # -- navigation -------------------------------------------------------------
    def _entry_selected(self, list_name: str, row: int) -> None:
        self.form_editor.show_entry(list_name, row)
        self.suggestions.show_entry(list_name, row)

    def _tab_changed(self, index: int) -> None:
        if index < len(LISTS):
            tab = self.entry_tabs[LISTS[index]]
            rows = tab.selected_rows()
            if not rows and self._select_first(tab):
                return
            self.form_editor.show_entry(LISTS[index], rows[0] if rows else -1)
            self.suggestions.show_entry(LISTS[index], rows[0] if rows else -1)

    def _select_first(self, tab: EntryTab) -> bool:
        """Select the first visible entry, so the form editor never starts empty."""
        index = tab.proxy.index(0, 0)
        if not index.isValid():
            return False
        return tab.select_id(index.data(ID_ROLE))

    def jump_to(self, list_name: str, item_id: str) -> bool:
        """Show the entry a finding is about: its tab, its row selected, its forms in the editor."""
        tab = self.entry_tabs.get(list_name)
        if tab is None:
            return False
        row = tab.model.row_of(item_id)
        if row >= 0 and not tab.proxy.mapFromSource(tab.model.index(row, 0)).isValid():
            # hidden by the status filter or the search: show everything again, visibly
            self.status_filter.setCurrentIndex(0)
            self.search.clear()
        self.tabs.setCurrentWidget(tab)
        return tab.select_id(item_id)

    def current_tab(self) -> EntryTab | None:
        w = self.tabs.currentWidget()
        return w if isinstance(w, EntryTab) else None

    def _apply_filters(self) -> None:
        self.state.filter = EntryFilter(self.status_filter.currentData() or "", self.search.text())
        for tab in self.entry_tabs.values():
            tab.proxy.set_filter(self.state.filter)

    def mark_reviewed(self, translator: str | None = None) -> int:
        """Mark the selected entries reviewed, recording who reviewed them (asked once, then remembered)."""
        tab = self.current_tab()
        if tab is None or not tab.selected_rows():
            self.message.emit(_("Select the entries you have reviewed first (Ctrl+click or Shift+click for several)."))
            return 0
        if translator is None:
            translator = settings.get("translator_id") or ""
            if not translator and not _headless():
                text, ok = QInputDialog.getText(self, _("Who is reviewing?"),
                                                _("Your translator id (initials or name), recorded with each entry you "
                                                  "mark reviewed. You can change it in Preferences."))
                if not ok:
                    return 0
                translator = text.strip()
                if translator:
                    settings.put("translator_id", translator)
        return tab.set_review("reviewed", translator)

    def batch_dialog(self) -> Any:
        """Open (or bring up) the batch translation dialog; returns it."""
        from .batch_translate import BatchTranslateDialog

        dlg = getattr(self, "_batch", None)
        if dlg is None:
            dlg = self._batch = BatchTranslateDialog(self.doc, self)
            dlg.applied.connect(lambda n: self.message.emit(
                ngettext("{n} item translated (one undo step)", "{n} items translated (one undo step)", n).format(n=n)))
        dlg.show()
        dlg.raise_()
        dlg.activateWindow()
        dlg.text.setFocus()
        return dlg

    # -- the file on disk ---------------------------------------------------------
    def _watch_file(self) -> None:
        if self._watcher.files():
            self._watcher.removePaths(self._watcher.files())
        if self.doc.path is not None and not self.doc.is_builtin and self.doc.path.exists():
            self._watcher.addPath(str(self.doc.path))

    def check_disk(self) -> bool:
        """Offer a reload when another program changed the open file (True: the banner is shown)."""
        self._watch_file()  # an editor that writes a new file and renames it drops the watch
        if not self.doc.changed_on_disk():
            return False
        text, can_reload = self.state.disk_notice()
        self.disk_text.setText(text)
        self.reload_button.setVisible(can_reload)
        self.disk_banner.show()
        return True

    def reload_from_disk(self) -> bool:
        try:
            self.doc.reload_from_disk()
        except Exception as exc:  # a half-written file: say why, keep the document as it is
            self.disk_text.setText(friendly(exc).text)
            return False
        self.disk_banner.hide()
        self.message.emit(_("Reloaded {file} from disk.").format(file=isolated(self.doc.path.name)))
        return True

    def keep_mine(self) -> None:  # the next Save replaces the file's version (not merged with it)
        self.doc.disk_hash, self.doc.disk_bytes = self.doc.hash_on_disk(), self.doc.read_disk()
        self.disk_banner.hide()

    def apply_fix(self, fix: Any) -> None:
        """A checker finding's mechanical fix, applied as one undo step (re-checked at once)."""
        from .checks_panel import fix_label

        label = fix_label(fix)
        self.doc.undo_stack.beginMacro(label)
        for path, value in fix.edits:
            self.doc.set(path, value, label)
        self.doc.undo_stack.endMacro()
        self.message.emit(label)

    def _coverage_clicked(self, template: str, emotion: str) -> None:
        self.preview.set_filter(template=template, emotion=emotion)
        self.side.setCurrentWidget(self.preview)

    # -- analysis ---------------------------------------------------------------
    def _on_changed(self, _path: tuple) -> None:
        self.state.generation_stale = True
        self._update_heading()
        self.analysis_timer.start()

    def analyse(self) -> None:
        """Check a snapshot of the definition in the background (and generate if on screen)."""
        self.analysis_runs += 1
        snapshot = self.doc.snapshot()
        self._checker.submit(lambda: run_check(snapshot))
        self.check_review()  # its own snapshot: the two workers never share objects
        self._refresh_generation_if_visible()

    # -- native review ----------------------------------------------------------
    def check_review(self) -> None:
        """Read the corpus's review record and whether its text has changed since (in the background)."""
        snapshot, path = self.doc.snapshot(), self.doc.path
        self._reviewer.submit(lambda: review_state(snapshot, path))

    def _reviewed(self, state: Any) -> None:
        self.state.take_review(state)
        self._show_review()

    def _review_failed(self, exc: BaseException) -> None:
        self.state.review_failed(friendly(exc).text)
        self._show_review()

    def _show_review(self) -> None:
        text, tip = self.state.review_line()
        self.native_review.setText("<small>" + html.escape(text) + "</small>")
        self.native_review.setToolTip(tip)

    def review_line(self) -> str:
        """The review line as the user reads it (plain text)."""
        return html.unescape(self.native_review.text().removeprefix("<small>").removesuffix("</small>"))

    def _checked(self, result: tuple[Any, list, list]) -> None:
        report, groups, untranslated = result
        self.state.take_check(report, groups)
        self.checks.show_report(report, groups=groups, untranslated=untranslated)
        for name, tab in self.entry_tabs.items():
            tab.model.set_problems(self.state.problems[name])
        errors, warnings = self.checks.counts()
        self.counts_changed.emit(errors, warnings)

    # -- Poedit-like navigation -------------------------------------------------
    def _current_item(self) -> tuple[str, str] | None:
        fe = self.form_editor
        return (fe.list_name, fe.entry.id) if fe.entry is not None else None

    def go_untranslated(self, step: int = 1) -> bool:
        """Jump to the next (or previous) item not translated yet (Ctrl+Shift+Down / Up)."""
        target = self.state.next_untranslated(self._current_item(), step)
        if target is None or not self.jump_to(*target):
            self.message.emit(_("Everything is translated."))
            return False
        self.edit_translation()
        return True

    def edit_translation(self) -> bool:
        """Put the cursor in the current item's translation: its table cell (a single form or a
        template text), else the form editor's first empty form — never the id column."""
        tab, fe = self.current_tab(), self.form_editor
        # an item with several forms (angry: gender=f, gender=m) is typed in the form editor, one
        # labelled row per form (Tab/Enter move on); a one-form item in its table cell
        several = fe.entry is not None and len(fe.rows()) + len(fe.missing()) > 1
        if not several and tab is not None and tab.edit_translation():
            return True
        return fe.edit_first_empty()

    def commit_and_next(self) -> bool:
        """Ctrl+Enter: take in what is being typed, then go to the next item still to translate."""
        from PySide6.QtWidgets import QApplication

        focus = QApplication.focusWidget()
        if focus is not None:
            self.tabs.setFocus()  # the open cell editor loses focus: its delegate commits the text
        self.commit_pending()
        return self.go_untranslated(1)

    def go_problem(self, step: int = 1) -> bool:
        """Jump to the next item the checker has a problem with (Ctrl+Alt+Down)."""
        target = self.state.next_problem(self._current_item(), step)  # errors first, then warnings
        if target is None or not self.jump_to(*target):
            self.message.emit(_("No problems found."))
            return False
        self.edit_translation()
        return True

    def _check_failed(self, exc: BaseException) -> None:
        # a half-typed definition must not break the panel: say what is wrong instead
        self.state.check_failed()
        self.checks.show_report(None, failure=friendly(exc).text)
        self.counts_changed.emit(0, 0)

    @property
    def report(self) -> Any:
        """The latest checker report (None before the first check, or when it failed)."""
        return self.state.report

    @property
    def generated(self) -> Any:
        """The latest generated sentences (preview and coverage)."""
        return self.state.generated

    @property
    def idle(self) -> bool:
        """No check or generation pending (tests wait for this)."""
        return (not self.analysis_timer.isActive() and self._checker.idle and self._generator.idle
                and self._reviewer.idle and self.suggestions.idle)

    def _refresh_generation_if_visible(self) -> None:
        if not self.state.generation_stale or self.side.currentWidget() is self.checks:
            return
        self.regenerate()

    def regenerate(self) -> None:
        """Generate the corpus (engine) in the background for the preview and the coverage matrix."""
        self.state.generation_stale = False
        snapshot, source = self.doc.snapshot(), self.doc.source
        self._generator.submit(lambda: run_generation(snapshot, source))

    def _generated(self, result: tuple[Any, Any, Any]) -> None:
        self.state.generated, pairs, coverage = result
        self.preview.show_generated(self.state.generated, pairs)
        self.coverage.show_coverage(coverage)

    def _generate_failed(self, exc: BaseException) -> None:
        self.preview.counts.setText(friendly(exc).text)

    def commit_pending(self) -> None:
        """Take in a field still being typed (corpus name, variant selection) before a save.

        Table cells and forms reach the document with every keystroke; these single-line
        fields commit when they lose focus, which Ctrl+S does not cause.
        """
        for key, edit in self.settings_tab.fields.items():
            if edit.hasFocus():
                self.settings_tab._commit(key, edit.text())
        if self.form_editor.select_edit.hasFocus():
            self.form_editor._commit_select()

    # -- autosave ---------------------------------------------------------------
    def autosave(self) -> bool:
        """Write the recovery file if anything changed since the last autosave."""
        self.commit_pending()
        if not self.state.autosave_due():
            return False
        try:
            write_recovery(self.doc.key, self.doc.corpus, self.doc.path)
        except Exception:  # a full disk must not interrupt typing; the next tick tries again
            return False
        self.state.autosaved()
        return True

    def _on_clean_changed(self, clean: bool) -> None:
        if self._doc_gone:
            return
        try:
            clean = self.doc.undo_stack.isClean()
        except RuntimeError:
            # the undo stack is being destroyed with its document (it reports "clean" while it
            # empties itself): that is no save, so the recovery file must stay
            return
        self._update_heading()
        if clean:
            remove_recovery(self.doc.key)
            self.state.autosaved()

    def _mark_doc_gone(self, *_args: Any) -> None:
        self._doc_gone = True

    def discard_recovery(self) -> None:
        remove_recovery(self.doc.key)

    def shutdown(self) -> None:
        self.autosave_timer.stop()
        self.analysis_timer.stop()
