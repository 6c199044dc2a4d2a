"""Export a corpus for translators and bring their work back, with the corpus checks.

    export_exchange("es-camara2022", "es.po", source="en-camara2022-latino")
    import_exchange("es.po", into="es-camara2022", out="es-camara2022.toml")

Why import writes a new definition file instead of editing in place: the result is checked
(the agreement checker runs on it, and errors it did not have before are refused unless
``allow_errors``) and saved atomically to ``out``; an existing ``out`` is replaced only with
``overwrite`` or a yes from ``confirm`` — pass the corpus's own path to update it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.corpus import CheckReport, CorpusDefinition, check_corpus
from engine.common.io import atomic_write_bytes
from engine.corpus.definition.registry import load_corpus
from engine.corpus.definition.writer import to_toml_keeping_comments
from engine.common.overwrite import Confirm, may_replace

from .apply import Change, apply_returned
from .errors import ExchangeError
from .po_format import read_po_bytes, write_po_bytes
from .returned import FORMATS, PO, XLIFF, ReturnedFile
from .units import check_source_links, extract_units, source_language
from .xliff_format import read_xliff_bytes, write_xliff_bytes

MAX_BYTES = 16 * 1024 * 1024  # the largest built-in corpus exports to about 120 KB


@dataclass
class ExchangeExport:
    path: Path
    fmt: str
    units: int
    warnings: list[str] = field(default_factory=list)  # e.g. templates paired with their source by id


@dataclass
class ExchangeImport:
    path: Path
    corpus: CorpusDefinition
    changes: list[Change]
    report: CheckReport
    new_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _as_corpus(c: CorpusDefinition | str | os.PathLike) -> CorpusDefinition:
    return c if isinstance(c, CorpusDefinition) else load_corpus(c)


def format_of(path: Path, fmt: str | None) -> str:
    if fmt:
        if fmt not in FORMATS:
            raise ExchangeError(str(path), f"unknown format {fmt!r}", fix=f"choose one of {', '.join(FORMATS)}")
        return fmt
    suffix = path.suffix.lower()
    if suffix in (".po", ".pot"):
        return PO
    if suffix in (".xlf", ".xliff", ".xlf2", ".xml"):
        return XLIFF
    raise ExchangeError(str(path), f"cannot tell the format from the suffix {suffix or '(none)'!r}",
                        fix="name the file .po or .xlf, or pass --format po|xliff")


def exchange_bytes(corpus: CorpusDefinition, fmt: str, source: CorpusDefinition | None = None,
                   source_lang: str | None = None) -> tuple[bytes, int]:
    if source is not None:
        check_source_links(corpus, source)  # refuses a link to a missing template or one with other slots
    units = extract_units(corpus, source)
    lang = source_lang or source_language(corpus, source)
    if fmt == PO:
        return write_po_bytes(corpus, units, source_id=source.id if source else "", source_lang=lang), len(units)
    return write_xliff_bytes(corpus, units, source_lang=lang, source_id=source.id if source else ""), len(units)


def export_exchange(corpus: CorpusDefinition | str | os.PathLike, out: str | os.PathLike, *, fmt: str | None = None,
                    source: CorpusDefinition | str | os.PathLike | None = None, source_lang: str | None = None,
                    overwrite: bool = False, confirm: Confirm = None) -> ExchangeExport:
    out = Path(out)
    fmt = format_of(out, fmt)
    c = _as_corpus(corpus)
    src = _as_corpus(source) if source is not None else None
    warnings = check_source_links(c, src) if src is not None else []
    may_replace(out, overwrite=overwrite, confirm=confirm)
    data, n = exchange_bytes(c, fmt, src, source_lang)
    atomic_write_bytes(out, data)
    return ExchangeExport(out, fmt, n, warnings)


def read_exchange(path: str | os.PathLike, fmt: str | None = None) -> ReturnedFile:
    path = Path(path)
    fmt = format_of(path, fmt)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ExchangeError(str(path), f"file is {size:,} bytes, over the {MAX_BYTES:,}-byte limit",
                                fix="check you chose the right file")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ExchangeError(str(path), "file not found", fix="check the path") from None
    except IsADirectoryError:
        raise ExchangeError(str(path), "is a folder", fix="give the .po or .xlf file") from None
    except OSError as exc:
        raise ExchangeError(str(path), f"cannot read file ({exc.strerror or exc})") from None
    return read_po_bytes(raw, str(path)) if fmt == PO else read_xliff_bytes(raw, str(path))


def _key(f) -> tuple:
    return (f.code, f.item, f.template, f.slot, f.person, f.emotion_word, f.message)


def merge_exchange(path: str | os.PathLike, into: CorpusDefinition | str | os.PathLike, *, fmt: str | None = None,
                   translator: str = "", allow_errors: bool = False, allow_slot_changes: bool = False) -> ExchangeImport:
    """Read ``path``, apply it to ``into`` and check the result (nothing is written)."""
    file = str(path)
    returned = read_exchange(path, fmt)
    target = _as_corpus(into)
    warnings: list[str] = []
    if returned.corpus_id and returned.corpus_id != target.id:
        raise ExchangeError(file, f"was exported from corpus {returned.corpus_id!r}, not {target.id!r}",
                            fix=f"use --into {returned.corpus_id} (or its definition file)")
    if returned.language and returned.language.lower() != target.language.lower():
        warnings.append(f"the file's language is {returned.language!r}, the corpus's {target.language!r}")
    corpus, changes = apply_returned(target, returned, file=file, translator=translator,
                                     allow_slot_changes=allow_slot_changes)
    before = {_key(f) for f in check_corpus(target).errors}
    report = check_corpus(corpus)
    new_errors = [str(f) for f in report.errors if _key(f) not in before]
    if new_errors and not allow_errors:
        raise ExchangeError(file, f"the translation introduces {len(new_errors)} checker error(s), e.g. {new_errors[0]}",
                            fix="fix those entries in your CAT tool and import again, or pass --allow-errors")
    return ExchangeImport(Path(""), corpus, changes, report, new_errors, warnings)


def _definition_file(into: CorpusDefinition | str | os.PathLike) -> Path | None:
    """The definition file behind ``into`` (its comments go into the merged file), if there is one."""
    if isinstance(into, CorpusDefinition):
        return None
    try:
        from engine.corpus.definition.registry import resolve_path

        return Path(resolve_path(str(into)))
    except Exception:  # an unknown id was already reported by merge_exchange; nothing to carry
        return None


def import_exchange(path: str | os.PathLike, into: CorpusDefinition | str | os.PathLike, out: str | os.PathLike, *,
                    fmt: str | None = None, translator: str = "", allow_errors: bool = False,
                    allow_slot_changes: bool = False, overwrite: bool = False, confirm: Confirm = None) -> ExchangeImport:
    """merge_exchange, then save the definition atomically to ``out`` (never replacing it unasked)."""
    result = merge_exchange(path, into, fmt=fmt, translator=translator, allow_errors=allow_errors,
                            allow_slot_changes=allow_slot_changes)
    out = Path(out)
    may_replace(out, overwrite=overwrite, confirm=confirm)
    atomic_write_bytes(out, _merged_bytes(result, _definition_file(into)))
    result.path = out
    return result


def _merged_bytes(result: ExchangeImport, definition: Path | None) -> bytes:
    """The merged definition's file: the definition file's own bytes when nothing changed (an import
    without edits must not reorder a hand-written file), else the corpus written with its comments."""
    if not result.changes and definition is not None:
        try:
            return definition.read_bytes()
        except OSError:
            pass
    return to_toml_keeping_comments(result.corpus, definition)
