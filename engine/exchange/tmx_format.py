"""TMX 1.4b: the translation memory written for, and read from, other CAT tools (Poedit, OmegaT, Trados…).

Why: translators keep their memories in TMX; one written here can seed another tool, and one
from another tool feeds the suggestions beside the form editor (engine.corpus.translate.memory).

Mapping, one ``<tu>`` per (source, target form) pair:
  header/@srclang           the source language (``--source-lang``; EEC-derived corpora: en)
  tuv/@xml:lang             the source language, then the target corpus language
  prop x-eec-list           templates | persons | emotion_words | words | glossary
  prop x-eec-features       the form's features (``gender=f number=sg``)
  prop x-eec-corpus/-item   where the pair came from
A TMX from another tool has none of these props: each ``<tu>`` becomes one unit of the list
``imported`` (offered for every list, as glossary terms are). ``<prop>``s and ``<note>``s of
other tools are read past; inline codes (``<bpt>``, ``<ph>``…) keep their text content.

Imported pairs are kept in one store, ``$EEC_STUDIO_HOME/memory/imported.sqlite``
(engine.exchange.tmx_store: indexed, streamed into), so the memory survives a restart and can be
exported again. Parsing streams (bounded memory) and is defensive as for XLIFF
(``xliff_format._safe_bytes``), and more: the parser itself refuses every DTD declaration (entity,
ATTLIST, element), language codes must be codes, UTF-8 only; every problem is one line with file
and line.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.corpus.translate.memory import MemoryUnit, TranslationMemory
from engine.corpus.definition.model import CorpusDefinition

# the format's reader and writer live in engine.exchange.tmx_reader (the store reads through it too)
from .tmx_reader import (  # noqa: F401 - re-exported for callers of the TMX format
    MAX_BYTES, TmxError, TmxPair, iter_tmx_units, read_tmx_pairs, read_tmx_units, write_tmx_bytes)


def store_path() -> Path:
    """The store of imported pairs (SQLite, engine.exchange.tmx_store)."""
    from engine.exchange.tmx_store import store_path as path

    return path()


def imported_units(language: str) -> list[MemoryUnit]:
    """The imported pairs whose target is ``language`` (its base language: pt-BR uses pt too).
    An unreadable store is skipped (suggestions must not fail), as an unreadable corpus is."""
    from engine.exchange.tmx_store import iter_units

    return [u for _src, _tgt, u in iter_units(language)]

def translation_memory(language: str, *, exclude: set[str] | None = None,
                       extra: list[CorpusDefinition] | None = None) -> TranslationMemory:
    """The memory of ``language`` the workbench suggests from and ``tm-export`` writes: every corpus
    in it (``TranslationMemory.for_language``: ``exclude``, ``extra``) and the imported pairs, indexed."""
    from engine.exchange.tmx_store import ImportedIndex

    return TranslationMemory.for_language(language, exclude=exclude, extra=extra, imported=ImportedIndex(language))



@dataclass
class TmxImport:
    path: Path
    added: int  # new units (items with all their forms) in the memory
    skipped: int  # already there
    languages: list[str]  # target languages read


def import_tmx(path: str | os.PathLike) -> TmxImport:
    """Add a TMX file's pairs to the memory's store; pairs already there are not added twice. The
    file is streamed into the store in one transaction: a problem anywhere changes nothing."""
    from engine.exchange.tmx_store import import_file

    p = Path(path)
    res = import_file(p)
    return TmxImport(p, res.added, res.skipped, res.languages)


def export_tmx(out: str | os.PathLike, language: str, *, source_lang: str = "en",
               extra: list[CorpusDefinition] | None = None, exclude: set[str] | None = None,
               corpus: CorpusDefinition | None = None, without_source: list[str] | None = None) -> int:
    """Write the memory for ``language`` (every corpus in it, glossaries and imported pairs), or only
    ``corpus``'s own pairs, to ``out`` as TMX; returns the number of ``<tu>`` written. With ``corpus``,
    its items without a recorded source text (left out) are named in ``without_source``."""
    from engine.common.io import atomic_write_bytes
    from engine.corpus.translate.memory import units_of

    if corpus is not None:
        units = units_of(corpus, without_source)
        language = corpus.language
    else:
        units = translation_memory(language, extra=extra, exclude=exclude).all_units()
    path = Path(out)
    if not path.parent.is_dir():
        raise TmxError(str(path), f"folder {path.parent} does not exist", fix="choose an existing folder")
    atomic_write_bytes(path, write_tmx_bytes(units, source_lang, language))
    return sum(len(u.forms) for u in units)
