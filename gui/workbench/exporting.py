"""Export and import from the GUI, through the engine functions the CLI uses.

Why one place: every format a translator's work ends in — a corpus package (.eecpkg with its
datasheet), PO and XLIFF 2.0 for Poedit/Weblate, the generated sentences as CSV/JSONL/parquet,
a Hugging Face dataset folder — is written by the same engine call as its CLI twin
(``package export``, ``exchange export``, ``corpus export``, ``corpus hf-export``), on a
snapshot of the open document, so the GUI can never write something the CLI would not.
Returned PO/XLIFF files are merged into a copy first and shown as a list of changes; they are
applied (one undo step) only when the translator accepts.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QVBoxLayout, QWidget

from engine.common import extras
from engine.corpus import CorpusDefinition

from gui.i18n import _, isolated, list_separator, ngettext, number

from .document import LISTS, CorpusDocument


@dataclass(frozen=True)
class ExportKind:
    key: str
    suffix: str  # "" for a folder
    filter: str  # file dialog filter (format names need no translation)


KINDS = {
    "package": ExportKind("package", ".eecpkg", "EEC Studio package (*.eecpkg)"),
    "po": ExportKind("po", ".po", "gettext PO (*.po)"),
    "xliff": ExportKind("xliff", ".xlf", "XLIFF 2.0 (*.xlf *.xliff)"),
    "csv": ExportKind("csv", ".csv", "CSV (*.csv)"),
    "jsonl": ExportKind("jsonl", ".jsonl", "JSON Lines (*.jsonl)"),
    "parquet": ExportKind("parquet", ".parquet", "Parquet (*.parquet)"),
    "hf": ExportKind("hf", "", ""),
}


def export_all(doc: CorpusDocument, folder: str | Path) -> list[Path]:
    """Every format at once into ``folder`` (created if needed), each file named after the corpus
    id (``pt-my-eec.eecpkg``, ``….po``, ``….xlf``, ``….csv``, ``….jsonl``, ``….parquet`` and the
    Hugging Face folder ``pt-my-eec-hf``): the end of a translator's work in one action."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, spec in KINDS.items():
        if kind == "parquet" and not extras.available("parquet"):
            continue  # greyed in the menu, with the command that adds it
        out = folder / (f"{doc.corpus.id}{spec.suffix}" if spec.suffix else f"{doc.corpus.id}-hf")
        export_document(doc, kind, out)
        written.append(out)
    return written


def export_document(doc: CorpusDocument, kind: str, out: str | Path) -> str:
    """Write ``doc`` as ``kind`` to ``out`` (the user already agreed to replace it); returns a
    one-line summary for the status bar."""
    corpus: CorpusDefinition = doc.snapshot()
    out = Path(out)
    if kind == "package":
        from engine.package import export_package

        res = export_package(corpus, out, overwrite=True)
        return _("Package with {n} sentences written to {path}").format(n=number(res.manifest.sentences), path=isolated(res.path))
    if kind in ("po", "xliff"):
        from engine.exchange import export_exchange

        res = export_exchange(corpus, out, fmt=kind, source=doc.source, overwrite=True)
        summary = ngettext("{n} translation unit written to {path}", "{n} translation units written to {path}",
                           res.units).format(n=res.units, path=isolated(res.path))
        if res.missing:  # never their own text under the source language's header: left out, and said
            items = list(dict.fromkeys(m.split(" form ")[0] for m in res.missing))
            summary += " · " + ngettext(
                "{n} unit has no {language} source text and is left out: {items}",
                "{n} units have no {language} source text and are left out: {items}", len(res.missing)).format(
                n=len(res.missing), language=res.source_lang,
                items=list_separator().join(items[:6]) + ("…" if len(items) > 6 else ""))
        return summary
    if kind in ("csv", "jsonl", "parquet"):
        from engine.corpus import generate
        from engine.corpus.generate.export import export_table

        df = generate(corpus)
        export_table(df, out, kind)
        return ngettext("{n} sentence written to {path}", "{n} sentences written to {path}", len(df)).format(
            n=number(len(df)), path=isolated(out))
    if kind == "hf":
        from engine.package.hf_dataset import export_hf_dataset

        res = export_hf_dataset(corpus, out, overwrite=True)
        if res.data_format != "parquet":  # the 'parquet' extra is missing: JSON Lines data files
            return _("Hugging Face dataset ({n} sentences, JSON Lines data files; parquet needs the '{extra}' extra) "
                     "written to {path}").format(n=number(res.rows), extra="parquet", path=isolated(res.path))
        return _("Hugging Face dataset ({n} sentences) written to {path}").format(n=number(res.rows), path=isolated(res.path))
    raise ValueError(f"unknown export kind {kind!r}")


def merge_returned(doc: CorpusDocument, path: str | Path, translator: str = "") -> Any:
    """Read a returned PO/XLIFF file into a copy of the document (nothing changes yet)."""
    from engine.exchange import merge_exchange

    return merge_exchange(path, doc.snapshot(), translator=translator, allow_errors=True)


def apply_merged(doc: CorpusDocument, result: Any, file_name: str) -> int:
    """Take the merged corpus's lists into the document as one undo step; returns the changes."""
    stack = doc.undo_stack
    stack.beginMacro(_("Import translations from {file}").format(file=isolated(file_name)))
    try:
        for name in LISTS:
            doc.set((name,), getattr(result.corpus, name), name)
    finally:
        stack.endMacro()
    return len(result.changes)


class ImportPreview(QDialog):
    """What a returned file would change, before anything changes."""

    def __init__(self, result: Any, file_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Import translations from {file}").format(file=isolated(file_name)))
        n = len(result.changes)
        summary = QLabel(ngettext("{n} item changes:", "{n} items change:", n).format(n=n))
        self.changes = QListWidget()
        for c in result.changes:
            self.changes.addItem(str(c))
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(self.changes, 1)
        for w in result.warnings:
            layout.addWidget(QLabel(w))
        if result.new_errors:
            warn = QLabel(ngettext("The import adds {n} checker error, e.g. {example}",
                                   "The import adds {n} checker errors, e.g. {example}",
                                   len(result.new_errors)).format(n=len(result.new_errors),
                                                                  example=result.new_errors[0]))
            warn.setWordWrap(True)
            warn.setStyleSheet("QLabel { color: #b00020; }")
            layout.addWidget(warn)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText(_("Apply changes"))
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(bool(n))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.resize(640, 420)


Ask = Callable[[ImportPreview], bool]
