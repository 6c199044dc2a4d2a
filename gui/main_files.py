"""The main window's document actions: new corpus, translate, export and import.

Why a mixin of its own: the main window navigates between pages and keeps files and
recovery; starting documents and moving them in and out of other formats is a separate
concern, and each of these calls the engine function of a CLI twin (``corpus new``,
``corpus translate``, ``package export``, ``exchange export|import``, ``corpus export``,
``corpus hf-export``, ``corpus tm-export|tm-import``). Uses the MainWindow's ``doc``, ``workbench``, ``corpora``,
``confirm_discard``, ``set_document`` and ``statusBar``.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QFileDialog, QMessageBox

from gui import settings
from gui.errors import show_error
from gui.i18n import _, isolated, ngettext

if TYPE_CHECKING:
    from gui.workbench.page import WorkbenchPage


class FileActions:
    def translate_from(self, source_path: str | Path, language: str, new_id: str = "", name: str = "",
                       subset: Any = None) -> "WorkbenchPage | None":
        """Start a new language from a corpus (same ids, empty target forms, source shown)."""
        from engine.corpus import load_corpus
        from gui.workbench.document import CorpusDocument
        from engine.corpus.translate.new_language import translate_from

        if not self.confirm_discard():
            return None
        try:
            source = load_corpus(source_path)
            corpus = translate_from(source, language, new_id, name, subset)
        except Exception as exc:
            show_error(self, exc, context=_("Starting a translation of {path}").format(path=isolated(source_path)))
            return None
        doc = CorpusDocument(corpus, None, source=source)
        doc.mark_unsaved()
        return self.set_document(doc)

    def translate_dialog(self, source_path: str = "") -> None:
        from engine.corpus import load_corpus
        from gui.dialogs import TranslateDialog

        source_path = source_path or self.corpora.selected_path()
        if not source_path:
            return
        try:
            source = load_corpus(source_path)
        except Exception as exc:
            show_error(self, exc, context=_("Opening {path}").format(path=isolated(source_path)))
            return
        dlg = TranslateDialog(source.id, self, source=source)
        if dlg.exec():
            self.translate_from(dlg.source_path() or source_path, **dlg.values())

    def new_corpus(self, language: str, corpus_id: str = "", name: str = "",
                   features: dict[str, list[str]] | None = None) -> "WorkbenchPage | None":
        """An empty corpus in ``language`` with its family's features (engine.corpus.definition.new_corpus)."""
        from engine.corpus.definition.new_corpus import new_corpus
        from gui.workbench.document import CorpusDocument

        if not self.confirm_discard():
            return None
        try:
            corpus = new_corpus(language, corpus_id, name, features)
        except Exception as exc:
            show_error(self, exc, context=_("Starting a new corpus"))
            return None
        doc = CorpusDocument(corpus, None)
        doc.mark_unsaved()
        return self.set_document(doc)

    def new_corpus_dialog(self) -> None:
        from gui.dialogs import NewCorpusDialog

        dlg = NewCorpusDialog(self)
        if dlg.exec():
            self.new_corpus(**dlg.values())

    # -- export / import (the CLI's engine functions, on the open document) ---------
    def export_to(self, kind: str, path: str | Path) -> bool:
        from gui.workbench.exporting import export_document

        if self.doc is None:
            return False
        if self.workbench is not None:
            self.workbench.commit_pending()
        try:
            summary = export_document(self.doc, kind, path)
        except Exception as exc:
            show_error(self, exc, context=_("Exporting to {path}").format(path=isolated(path)))
            return False
        self.statusBar().showMessage(summary, 10000)
        return True

    def export_folder(self) -> Path:
        """Where exports are proposed: beside the corpus file, else the corpora folder (never the
        working directory or the bare home folder)."""
        from engine.common.user_dirs import user_corpus_dir

        if self.doc is not None and self.doc.path is not None and not self.doc.is_builtin:
            return Path(self.doc.path).parent
        folder = user_corpus_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def export_all_to(self, folder: str | Path, confirm: Any = None) -> list[Path]:
        """Every export format into ``folder`` (one action); asks before replacing files there."""
        from gui.workbench.exporting import KINDS, export_all

        if self.doc is None:
            return []
        if self.workbench is not None:
            self.workbench.commit_pending()
        folder = Path(folder)
        existing = [folder / f"{self.doc.corpus.id}{k.suffix or '-hf'}" for k in KINDS.values()]
        existing = [p for p in existing if p.exists()]
        if existing:
            ask = confirm or (lambda names: self.ask(
                _("Replace files?"), _("{folder} already holds {files}. Replace them?").format(
                    folder=folder, files=", ".join(names)), QMessageBox.Yes | QMessageBox.No,
                QMessageBox.No) == QMessageBox.Yes)
            if not ask([p.name for p in existing]):
                return []
        try:
            written = export_all(self.doc, folder)
        except Exception as exc:
            show_error(self, exc, context=_("Exporting to {path}").format(path=isolated(folder)))
            return []
        self.statusBar().showMessage(ngettext("{n} export written to {folder}", "{n} exports written to {folder}",
                                              len(written)).format(n=len(written), folder=isolated(folder)), 10000)
        return written

    def export_all_dialog(self) -> list[Path]:
        if self.doc is None:
            self.statusBar().showMessage(_("Open a corpus first."), 5000)
            return []
        folder = QFileDialog.getExistingDirectory(self, _("Export every format into a folder"), str(self.export_folder()))
        return self.export_all_to(folder) if folder else []

    def export_dialog(self, kind: str) -> bool:
        from gui.workbench.exporting import KINDS

        if self.doc is None:
            self.statusBar().showMessage(_("Open a corpus first."), 5000)
            return False
        spec = KINDS[kind]
        start = str(self.export_folder() / f"{self.doc.corpus.id}{spec.suffix}")
        if kind == "hf":
            path = QFileDialog.getSaveFileName(self, _("Hugging Face dataset folder"), start)[0]
        else:
            path = QFileDialog.getSaveFileName(self, _("Export"), start, spec.filter)[0]
        return self.export_to(kind, path) if path else False

    def import_translations(self, path: str | Path, accept: Any = None) -> int:
        """Preview what a returned PO/XLIFF file changes, then apply it as one undo step.

        ``accept(preview) -> bool`` answers the preview in scripts and tests; returns the number
        of changed items applied (0 when cancelled or nothing changes)."""
        from gui.workbench.exporting import ImportPreview, apply_merged, merge_returned

        if self.doc is None:
            return 0
        try:
            result = merge_returned(self.doc, path, translator=settings.get("translator_id") or "")
        except Exception as exc:
            show_error(self, exc, context=_("Importing {path}").format(path=isolated(path)))
            return 0
        preview = ImportPreview(result, Path(path).name, self)
        ok = accept(preview) if accept is not None else bool(preview.exec())
        preview.deleteLater()
        if not ok or not result.changes:
            return 0
        n = apply_merged(self.doc, result, Path(path).name)
        self.statusBar().showMessage(ngettext("{n} item updated from {file}", "{n} items updated from {file}", n)
                                     .format(n=n, file=isolated(Path(path).name)), 10000)
        return n

    def import_dialog(self) -> int:
        if self.doc is None:
            self.statusBar().showMessage(_("Open a corpus first."), 5000)
            return 0
        path, _f = QFileDialog.getOpenFileName(self, _("Import translations"), str(Path.home()),
                                               _("Translations (*.po *.xlf *.xliff)"))
        return self.import_translations(path) if path else 0

    def tm_export_to(self, path: str | Path) -> int:
        """The translation memory of the open corpus's language (this corpus as edited included) as
        TMX; returns the number of pairs written (0 on error, shown)."""
        from engine.exchange.tmx_format import export_tmx

        if self.doc is None:
            return 0
        if self.workbench is not None:
            self.workbench.commit_pending()
        corpus = self.doc.corpus
        try:
            n = export_tmx(path, corpus.language, extra=[corpus], exclude={corpus.id})
        except Exception as exc:
            show_error(self, exc, context=_("Exporting to {path}").format(path=isolated(path)))
            return 0
        self.statusBar().showMessage(ngettext("{n} translation unit written to {file}",
                                              "{n} translation units written to {file}", n)
                                     .format(n=n, file=isolated(Path(path).name)), 10000)
        return n

    def tm_export_dialog(self) -> int:
        if self.doc is None:
            self.statusBar().showMessage(_("Open a corpus first."), 5000)
            return 0
        start = str(self.export_folder() / f"memory-{self.doc.corpus.language}.tmx")
        path = QFileDialog.getSaveFileName(self, _("Export translation memory"), start,
                                           _("Translation memory (*.tmx)"))[0]
        return self.tm_export_to(path) if path else 0

    def tm_import_from(self, path: str | Path) -> int:
        """Add a TMX file's pairs to the translation memory; the suggestions are read again."""
        from engine.exchange.tmx_format import import_tmx

        try:
            res = import_tmx(path)
        except Exception as exc:
            show_error(self, exc, context=_("Importing {path}").format(path=isolated(path)))
            return 0
        if self.workbench is not None:
            self.workbench.suggestions.reload()
        self.statusBar().showMessage(
            ngettext("{n} pair added to the translation memory from {file} ({skipped} already there)",
                     "{n} pairs added to the translation memory from {file} ({skipped} already there)",
                     res.added).format(n=res.added, file=isolated(Path(path).name), skipped=res.skipped), 10000)
        return res.added

    def tm_import_dialog(self) -> int:
        path, _f = QFileDialog.getOpenFileName(self, _("Import translation memory"), str(Path.home()),
                                               _("Translation memory (*.tmx)"))
        return self.tm_import_from(path) if path else 0
