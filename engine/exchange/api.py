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
from engine.corpus.translate.source_link import load_source, translated_from

from .units import check_source_links, extract_units, missing_source_warning, source_language
from .xliff_format import read_xliff_bytes, write_xliff_bytes

MAX_BYTES = 16 * 1024 * 1024  # the largest built-in corpus exports to about 120 KB


@dataclass
class ExchangeExport:
    path: Path
    fmt: str
    units: int
    warnings: list[str] = field(default_factory=list)  # e.g. templates paired with their source by id
    missing: list[str] = field(default_factory=list)  # units left out: no source-language text ("persons[jude]")
    source_lang: str = ""


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
                   source_lang: str | None = None, missing: list[str] | None = None) -> tuple[bytes, int]:
    if source is not None:
        check_source_links(corpus, source)  # refuses a link to a missing template or one with other slots
    units = extract_units(corpus, source, missing)
    lang = source_lang or source_language(corpus, source)
    if fmt == PO:
        return write_po_bytes(corpus, units, source_id=source.id if source else "", source_lang=lang), len(units)
    return write_xliff_bytes(corpus, units, source_lang=lang, source_id=source.id if source else ""), len(units)


def source_for(corpus: CorpusDefinition, source: CorpusDefinition | str | os.PathLike | None,
               recorded: bool = True) -> tuple[CorpusDefinition | None, list[str]]:
    """The source corpus to pair units with: the one given, else the one recorded in the translation's
    file (``[meta] translated_from``), with a warning when the recorded one cannot be found."""
    if source is not None:
        return _as_corpus(source), []
    if not recorded or not translated_from(corpus):
        return None, []
    src = load_source(corpus)
    if src is None:
        return None, [f"{corpus.id} was translated from {translated_from(corpus)!r}, which cannot be found: the "
                      f"file is monolingual ({corpus.language} text as the source); pass --source to pair it"]
    return src, []


def export_exchange(corpus: CorpusDefinition | str | os.PathLike, out: str | os.PathLike, *, fmt: str | None = None,
                    source: CorpusDefinition | str | os.PathLike | None = None, source_lang: str | None = None,
                    overwrite: bool = False, confirm: Confirm = None, recorded_source: bool = True) -> ExchangeExport:
    """Write ``corpus`` as PO or XLIFF. The source text of each unit comes from ``source``, else from
    the corpus it was translated from (recorded in its file; ``recorded_source=False``: monolingual);
    units without a source-language text are left out and named in the warnings."""
    out = Path(out)
    fmt = format_of(out, fmt)
    c = _as_corpus(corpus)
    src, warnings = source_for(c, source, recorded_source)
    if src is not None:
        warnings += check_source_links(c, src)
    may_replace(out, overwrite=overwrite, confirm=confirm)
    missing: list[str] = []
    data, n = exchange_bytes(c, fmt, src, source_lang, missing)
    if missing:
        warnings.append(missing_source_warning(missing, c, src))
    atomic_write_bytes(out, data)
    return ExchangeExport(out, fmt, n, warnings, missing, source_lang or source_language(c, src))


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
    from engine.corpus.definition.shared_file import corpus_file_lock, write_unless_changed

    out, definition = Path(out), _definition_file(into)
    in_place = definition is not None and definition.exists() and out.exists() and out.samefile(definition)
    with corpus_file_lock(out):  # one writer at a time; an import into its own file merges others' changes
        base = definition.read_bytes() if in_place else None
        result = merge_exchange(path, into, fmt=fmt, translator=translator, allow_errors=allow_errors,
                                allow_slot_changes=allow_slot_changes)
        may_replace(out, overwrite=overwrite, confirm=confirm)
        if in_place and result.changes:
            result.corpus = write_unless_changed(result.corpus, out, base=base, locked=True)
        else:
            atomic_write_bytes(out, _merged_bytes(result, definition))
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
