"""Misspelt words underlined in the workbench's texts, as Poedit and Weblate show them.

Why the engine's Speller: the red wavy line must mark exactly the words the check reports as
W113 (the language's Hunspell dictionary, the corpus's own word list ``[spelling] accept``, its
names exempt), so there is one judge, engine.corpus.check.spelling — never a second checker.

Where: the translation cells of the entry tables and the form texts of the form editor, drawn
through a QSyntaxHighlighter on the cell's text document; an open cell editor (a QLineEdit,
which has no text document) gets the same format through an input-method event. A right-click
on a marked word offers the dictionary's suggestions and "Add “word” to the corpus word list",
an undoable edit of ``[spelling] accept`` (the CLI twin: ``main.py corpus spelling-add``).
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QInputMethodEvent
from PySide6.QtWidgets import QLineEdit, QMenu

from engine.corpus.check.spelling import Misspelling, Speller, accept_words

from gui.i18n import _, ngettext

from .document import CorpusDocument
from .markup import markup_position, underline_format

#: the corpus fields a word's verdict depends on (its word list, its names, its language)
_SPELLING_FIELDS = {"spelling_accept", "persons", "language"}
_CACHE_LIMIT = 4000


class SpellingMarks(QObject):
    """The misspelt words of one document's texts; ``changed`` when the verdicts may differ (a word
    added to the list, a name typed, the language changed), so views repaint."""

    changed = Signal()

    def __init__(self, doc: CorpusDocument) -> None:
        super().__init__(doc)
        self.doc = doc
        self._speller: Speller | None = None
        self._cache: dict[str, list[Misspelling]] = {}
        doc.changed.connect(self._on_changed)

    def _on_changed(self, path: tuple) -> None:
        if not path or path[0] in _SPELLING_FIELDS:
            self._speller = None
            self._cache.clear()
            self.changed.emit()

    @property
    def speller(self) -> Speller:
        if self._speller is None:
            self._speller = Speller(self.doc.corpus)
        return self._speller

    def spans(self, text: str) -> list[Misspelling]:
        """Where ``text`` has words the W113 check reports ([] without a dictionary)."""
        if not text:
            return []
        found = self._cache.get(text)
        if found is None:
            if len(self._cache) > _CACHE_LIMIT:
                self._cache.clear()
            found = self._cache[text] = self.speller.misspelt(text)
        return found

    def word_at(self, text: str, position: int) -> str:
        """The misspelt word of ``text`` at character ``position`` ('' when there is none)."""
        return next((m.word for m in self.spans(text) if m.start <= position <= m.end), "")

    def suggestions(self, word: str) -> list[str]:
        return self.speller.suggest(word, 5)

    def add_words(self, words: list[str]) -> list[str]:
        """Add ``words`` to the corpus word list as one undo step; returns the words added. (The
        words come from the underline, so each is one word; anything else is the engine's
        DefinitionError, shown as one line by the app's error handler.)"""
        new, added = accept_words(self.doc.corpus.spelling_accept, words, self.doc.path.name if self.doc.path else "")
        if added:
            label = ngettext("Add {words} to the corpus word list", "Add {words} to the corpus word list",
                             len(added)).format(words=", ".join(f"“{w}”" for w in added))
            self.doc.set(("spelling_accept",), new, label)
        return added


def marks_for(doc: CorpusDocument) -> SpellingMarks:
    """The document's one SpellingMarks (made on first use, a child of the document)."""
    marks = getattr(doc, "_spelling_marks", None)
    if marks is None:
        marks = doc._spelling_marks = SpellingMarks(doc)
    return marks


class _LineEditUnderline(QObject):
    """Keeps an open cell editor's misspelt words underlined while the translator types.

    A QLineEdit has no text document for a highlighter; an input-method event whose only content
    is text formats lays formats over its text (no text, cursor or selection change, no undo
    step). While an input method is composing (Japanese, Chinese), nothing is sent: an event of
    ours would end the composition."""

    def __init__(self, editor: QLineEdit, marks: SpellingMarks) -> None:
        super().__init__(editor)  # goes with the editor, and so do its connections
        self.editor, self.marks = editor, marks
        self.composing = self._sending = False
        editor.installEventFilter(self)
        editor.textChanged.connect(self.apply)
        marks.changed.connect(self.apply)
        self.apply()

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.InputMethod and not self._sending:
            self.composing = bool(event.preeditString())
        return False

    def apply(self, *_args: Any) -> None:
        if self.composing:
            return
        editor = self.editor
        spans = self.marks.spans(editor.text())
        editor.setProperty("spelling_words", [m.word for m in spans])
        cursor = editor.cursorPosition()
        attrs = [QInputMethodEvent.Attribute(QInputMethodEvent.TextFormat, m.start - cursor, m.end - m.start,
                                             underline_format()) for m in spans]
        self._sending = True
        try:
            QCoreApplication.sendEvent(editor, QInputMethodEvent("", attrs))
        finally:
            self._sending = False


def add_spelling_actions(menu: QMenu, marks: SpellingMarks, word: str,
                         replace: Callable[[str], None] | None, before: Any = None) -> list[QAction]:
    """Put the dictionary's suggestions (each replaces the word, when ``replace`` is given) and
    "Add “word” to the corpus word list" into ``menu``, before the action ``before`` if given."""
    actions = []
    if replace is not None:
        for s in marks.suggestions(word):
            act = QAction(s, menu)
            act.triggered.connect(lambda _checked=False, s=s: replace(s))
            actions.append(act)
        if not actions:
            actions.append(QAction(_("(no suggestions)"), menu))
            actions[-1].setEnabled(False)
        actions.append(QAction(menu))
        actions[-1].setSeparator(True)
    add = QAction(_("Add “{word}” to the corpus word list").format(word=word), menu)
    add.setToolTip(_("The spelling check then accepts it in this corpus ([spelling] accept in the file)"))
    add.triggered.connect(lambda _checked=False: marks.add_words([word]))
    actions.append(add)
    if before is None:
        menu.addActions(actions)
    else:
        menu.insertActions(before, actions)
        menu.insertSeparator(before)
    return actions


def replace_word(text: str, span: Misspelling, new: str) -> str:
    return text[:span.start] + new + text[span.end:]


def cell_menu(view: Any, index: Any, pos: Any, marks: SpellingMarks, rtl: bool,
              set_text: Callable[[str], None] | None) -> QMenu | None:
    """The spelling menu for a right-click at ``pos`` (viewport coordinates) on a drawn cell, or
    None when no misspelt word is under the pointer. ``set_text`` replaces the cell's text (None:
    the cell is not edited in place, so suggestions are not offered)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    text = index.data(Qt.DisplayRole)
    if not isinstance(text, str) or not marks.spans(text):
        return None
    opt = QStyleOptionViewItem()
    view.initViewItemOption(opt)
    opt.rect = view.visualRect(index)
    view.itemDelegateForIndex(index).initStyleOption(opt, index)
    drawn, at = markup_position(opt, text, rtl, pos)
    spans = marks.spans(drawn)  # the drawn text may hold isolate marks around slots
    hit = next((m for m in spans if m.start <= at <= m.end), None) if at >= 0 else None
    if hit is None:
        return None
    replace = None
    same = [m for m in marks.spans(text) if m.word == hit.word]
    nth = sum(1 for m in spans if m.word == hit.word and m.start < hit.start)
    if set_text is not None and nth < len(same):
        replace = lambda new, span=same[nth]: set_text(replace_word(text, span, new))  # noqa: E731
    menu = QMenu(view)
    add_spelling_actions(menu, marks, hit.word, replace)
    return menu


def line_edit_menu(editor: QLineEdit, marks: SpellingMarks, pos: Any) -> QMenu:
    """The editor's standard menu with the spelling actions on top, for the word under ``pos``."""
    menu = editor.createStandardContextMenu()
    at = editor.cursorPositionAt(pos)
    span = next((m for m in marks.spans(editor.text()) if m.start <= at <= m.end), None)
    if span is not None and menu.actions():
        first = menu.actions()[0]

        def replace(new: str, span: Misspelling = span) -> None:
            editor.setSelection(span.start, span.end - span.start)
            editor.insert(new)  # as typed: one undo step in the editor, textEdited reaches the document

        add_spelling_actions(menu, marks, span.word, replace, before=first)
    return menu


def install_line_edit(editor: QLineEdit, marks: SpellingMarks) -> None:
    """Underline and right-click menu for one cell editor."""
    _LineEditUnderline(editor, marks)
    editor.setContextMenuPolicy(Qt.CustomContextMenu)
    editor.customContextMenuRequested.connect(
        lambda pos: line_edit_menu(editor, marks, pos).exec(editor.mapToGlobal(pos)))
