"""One open corpus definition: the model, its file, its undo history and change signals.

Why a document object: every view (tables, form editor, checks, preview, coverage) reads
the same CorpusDefinition and every edit goes through its QUndoStack, so undo/redo work for
every edit, "modified" is simply "undo stack not clean", and autosave knows what changed.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from engine.common.errors import UserError
from engine.corpus import CorpusDefinition, load_corpus
from engine.corpus.definition.paths import resolve
from engine.common.user_dirs import user_corpus_dir
from engine.corpus.definition.registry import BUILTIN_DIR, remember_corpus
from engine.corpus.definition.shared_file import write_unless_changed
from engine.corpus.translate.progress import LISTS  # the four lists, one definition (the views import it from here)
from engine.corpus.translate.source_link import load_source

from .commands import InsertItem, RemoveItem, SetValue


class CorpusDocument(QObject):
    """The corpus being edited. ``changed(path)`` after every edit, undo and redo."""

    changed = Signal(object)  # the path that changed, e.g. ("persons", 3, "forms")
    structure_changed = Signal(str)  # a list gained or lost entries
    path_changed = Signal()

    def __init__(self, corpus: CorpusDefinition, path: str | Path | None = None, *,
                 source: CorpusDefinition | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.corpus = corpus
        self.path: Path | None = Path(path) if path else None
        # the corpus this one is translated from, if any: given by Translate, else the one its file
        # records ([meta] translated_from), so the Source column, the header and every export keep
        # the real source text after save and reopen (issue 39)
        self.source = source if source is not None else load_source(corpus)
        self.undo_stack = QUndoStack(self)
        self.revision = 0  # bumps on every change; autosave compares it
        self._key = hashlib.sha1(f"{self.path or ''}|{corpus.id}|{id(self)}".encode()).hexdigest()[:12]
        self.disk_hash = self.hash_on_disk()  # what the file held when read or written (external changes)
        self.disk_bytes = self.read_disk()  # the same bytes: a Save merges others' changes made since

    # -- identity ---------------------------------------------------------------
    @classmethod
    def open(cls, name_or_path: str | Path, parent: QObject | None = None) -> "CorpusDocument":
        """Open a built-in corpus by id or a definition file (raises DefinitionError)."""
        corpus = load_corpus(name_or_path)
        doc = cls(corpus, corpus.path or name_or_path, parent=parent)
        if not doc.is_builtin and doc.path is not None:
            remember_corpus(doc.path)  # listed on the Corpora page, in the Audit list and the memory
        return doc

    @property
    def key(self) -> str:
        """Stable name of this document's recovery file while it is open."""
        return self._key

    @property
    def is_builtin(self) -> bool:
        if self.path is None:
            return False
        try:
            return self.path.resolve().is_relative_to(BUILTIN_DIR.resolve())
        except OSError:
            return False

    def mark_unsaved(self) -> None:
        """A document that differs from its file without an undo step (recovered, new translation)."""
        self.undo_stack.resetClean()

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def rtl(self) -> bool:
        return self.corpus.direction == "rtl" or self.corpus.language.split("-")[0] in {"ar", "he", "fa", "ur"}

    def display_name(self) -> str:
        return self.path.name if self.path else f"{self.corpus.id}.toml"

    def suggested_path(self) -> Path:
        """Where Save As proposes to write: the user corpora folder (created on first use, so the
        file dialog opens there and not in the working directory), never the built-in one."""
        folder = user_corpus_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # the dialog still proposes it; saving says why it cannot write there
        return folder / f"{self.corpus.id}.toml"

    # -- the file on disk ---------------------------------------------------------
    def hash_on_disk(self) -> str:
        data = self.read_disk()
        return hashlib.sha1(data).hexdigest() if data is not None else ""

    def read_disk(self) -> bytes | None:
        try:
            return self.path.read_bytes() if self.path else None
        except OSError:
            return None

    def changed_on_disk(self) -> bool:
        """Whether another program rewrote (or deleted) the file since this document read or saved it."""
        return self.path is not None and not self.is_builtin and self.hash_on_disk() != self.disk_hash

    def reload_from_disk(self) -> None:
        """Replace the definition with the file's as ONE undo step, then call that state saved: the
        unsaved edits stay one Undo away instead of being thrown away."""
        fresh = load_corpus(self.path)
        self.undo_stack.beginMacro(f"Reload {self.path.name} from disk")
        for f in dataclasses.fields(fresh):
            if f.name != "path":
                self.set((f.name,), getattr(fresh, f.name), f"Reload {f.name}")
        self.undo_stack.endMacro()
        self.disk_hash, self.disk_bytes = self.hash_on_disk(), self.read_disk()
        self.undo_stack.setClean()
        for name in LISTS:
            self.structure_changed.emit(name)

    # -- edits ------------------------------------------------------------------
    def notify(self, path: Sequence[Any], structure: bool = False) -> None:
        self.revision += 1
        if structure:
            self.structure_changed.emit(str(path[0]))
        self.changed.emit(tuple(path))

    def get(self, path: Sequence[Any]) -> Any:
        return resolve(self.corpus, path)

    def set(self, path: Sequence[Any], value: Any, text: str, merge_key: Any = None) -> bool:
        """Change one value as an undoable edit; no-op (and no undo step) when nothing changes.

        Edits with the same ``merge_key`` (one typing session in one cell) become one undo step.
        """
        if self.get(path) == value:
            return False
        self.undo_stack.push(SetValue(self, path, value, text, merge_key))
        return True

    def insert(self, list_name: str, index: int, item: Any, text: str) -> None:
        self.undo_stack.push(InsertItem(self, list_name, index, item, text))

    def remove(self, list_name: str, index: int, text: str) -> None:
        self.undo_stack.push(RemoveItem(self, list_name, index, text))

    def index_of(self, list_name: str, item_id: str) -> int:
        for i, entry in enumerate(getattr(self.corpus, list_name)):
            if entry.id == item_id:
                return i
        return -1

    def source_entry(self, list_name: str, item_id: str) -> Any:
        if self.source is None:
            return None
        return next((e for e in getattr(self.source, list_name) if e.id == item_id), None)

    # -- files ------------------------------------------------------------------
    def save(self, path: str | Path | None = None) -> Path:
        """Atomic save (temp file + fsync + rename), then mark the undo stack clean."""
        target = Path(path) if path else self.path
        if target is None:
            raise UserError("this corpus has no file yet", fix="use Save As to choose one")
        # the file it was opened from lends its # comments (also to a Save As under a new name)
        target.parent.mkdir(parents=True, exist_ok=True)  # the corpora folder, on first use
        # under the file's lock; changes another program made since this document read the file are
        # merged in (or the save is refused, nothing written, when both changed the same item)
        base = self.disk_bytes if target == self.path else None
        written = write_unless_changed(self.corpus, target, base=base, comments_from=self.path)
        remember_corpus(target)  # a file kept elsewhere is still one of the user's corpora
        if written is not self.corpus:
            self._take(written, "Merge changes made on disk")
        if target != self.path:
            self.path = target
            self.path_changed.emit()
        self.disk_hash, self.disk_bytes = self.hash_on_disk(), self.read_disk()
        self.undo_stack.setClean()
        return target

    def _take(self, fresh: CorpusDefinition, text: str) -> None:
        """Every field of ``fresh`` as ONE undo step."""
        self.undo_stack.beginMacro(text)
        for f in dataclasses.fields(fresh):
            if f.name != "path":
                self.set((f.name,), getattr(fresh, f.name), text)
        self.undo_stack.endMacro()
        for name in LISTS:
            self.structure_changed.emit(name)

    def snapshot(self) -> CorpusDefinition:
        return copy.deepcopy(self.corpus)
