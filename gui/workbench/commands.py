"""Undoable edits of a corpus definition (one QUndoCommand per user action).

Why paths instead of closures: an edit names *where* it changes the definition
(``("persons", 3, "review", "status")``) and keeps a deep copy of the old and new value,
so undo/redo are exact even after other edits replaced sibling objects, and every kind of
edit — a cell, a form list, a status, a new row — goes through the same two commands.
"""
from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand

from engine.corpus.definition.paths import Path, assign, resolve


class SetValue(QUndoCommand):
    """Replace the value at ``path`` (a text, a status, a whole form list).

    ``merge_key`` names a typing session (one open cell editor): the checks run while the
    translator types, so every keystroke is an edit, but consecutive edits of the same value
    with the same key merge into one undo step, as in any text editor.
    """

    MERGE_ID = 7001

    def __init__(self, doc: "CorpusDocumentLike", path: Path, value: Any, text: str, merge_key: Any = None) -> None:
        super().__init__(text)
        self.doc = doc
        self.path = tuple(path)
        self.merge_key = merge_key
        self.old = copy.deepcopy(resolve(doc.corpus, path))
        self.new = copy.deepcopy(value)

    def id(self) -> int:  # noqa: A003 - Qt's name
        return self.MERGE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, SetValue) or other.merge_key != self.merge_key or other.path != self.path:
            return False
        self.new = copy.deepcopy(other.new)
        if self.new != self.old and _same_text(self.new, self.old):
            # typed and deleted back to the text the item had: its review (reviewed, by whom) is about
            # that text and stands again — the keystrokes had made it "translated" (issue 39)
            self.new = copy.deepcopy(self.old)
            assign(self.doc.corpus, self.path, copy.deepcopy(self.old))
            self.doc.notify(self.path)
        if self.new == self.old:  # typed and deleted back: nothing left to undo
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        assign(self.doc.corpus, self.path, copy.deepcopy(self.new))
        self.doc.notify(self.path)

    def undo(self) -> None:
        assign(self.doc.corpus, self.path, copy.deepcopy(self.old))
        self.doc.notify(self.path)


def _same_text(a: Any, b: Any) -> bool:
    """Two versions of an entry that differ at most in their review (status, translator)."""
    if not (hasattr(a, "review") and hasattr(b, "review")) or type(a) is not type(b):
        return False
    a2 = copy.copy(a)
    a2.review = b.review
    return a2 == b


class InsertItem(QUndoCommand):
    """Insert an entry (person, emotion word, template, word) into one of the corpus lists."""

    def __init__(self, doc: "CorpusDocumentLike", list_name: str, index: int, item: Any, text: str) -> None:
        super().__init__(text)
        self.doc, self.list_name, self.index, self.item = doc, list_name, index, copy.deepcopy(item)

    def redo(self) -> None:
        getattr(self.doc.corpus, self.list_name).insert(self.index, copy.deepcopy(self.item))
        self.doc.notify((self.list_name,), structure=True)

    def undo(self) -> None:
        del getattr(self.doc.corpus, self.list_name)[self.index]
        self.doc.notify((self.list_name,), structure=True)


class RemoveItem(QUndoCommand):
    """Remove an entry; undo puts the identical entry back at the same place."""

    def __init__(self, doc: "CorpusDocumentLike", list_name: str, index: int, text: str) -> None:
        super().__init__(text)
        self.doc, self.list_name, self.index = doc, list_name, index
        self.item = copy.deepcopy(getattr(doc.corpus, list_name)[index])

    def redo(self) -> None:
        del getattr(self.doc.corpus, self.list_name)[self.index]
        self.doc.notify((self.list_name,), structure=True)

    def undo(self) -> None:
        getattr(self.doc.corpus, self.list_name).insert(self.index, copy.deepcopy(self.item))
        self.doc.notify((self.list_name,), structure=True)


class CorpusDocumentLike:  # pragma: no cover - typing aid only
    corpus: Any

    def notify(self, path: Path, structure: bool = False) -> None: ...
