"""Which corpus a translation was made from, kept in the translation's own file.

Why in the file (``[meta] translated_from = "en-kiritchenko2018"``): the workbench knew the
source corpus only while the document that *Translate* created was open; after save and reopen
the header lost "translated from …" and *Export → PO* wrote the Italian text as msgid under a
source-language header. Kept in ``[meta]`` (which the loader and writer carry as it is), the
link survives save, reopen, packages and exchange round trips, and every export can pair each
unit with its real source text (``engine.exchange.units``).
"""
from __future__ import annotations

from engine.corpus.definition.model import CorpusDefinition

KEY = "translated_from"


def translated_from(corpus: CorpusDefinition) -> str:
    """The id (or file) of the corpus ``corpus`` was translated from; '' when none is recorded."""
    meta = corpus.extra.get("meta") if isinstance(corpus.extra, dict) else None
    value = meta.get(KEY) if isinstance(meta, dict) else None
    return value.strip() if isinstance(value, str) else ""


def set_translated_from(corpus: CorpusDefinition, source_id: str) -> None:
    """Record (or, with '', forget) the source corpus in ``corpus.extra['meta']``."""
    extra = corpus.extra if isinstance(corpus.extra, dict) else {}
    meta = dict(extra.get("meta") or {})
    if source_id:
        meta[KEY] = source_id
    else:
        meta.pop(KEY, None)
    if meta:
        extra["meta"] = meta
    else:
        extra.pop("meta", None)
    corpus.extra = extra


def load_source(corpus: CorpusDefinition) -> CorpusDefinition | None:
    """The recorded source corpus, loaded (built-in, or one of the user's corpora by id or file);
    None when none is recorded or it can no longer be found (the caller says so)."""
    from engine.corpus.definition.registry import load_corpus

    name = translated_from(corpus)
    if not name or name == corpus.id:
        return None
    try:
        return load_corpus(name)
    except Exception:  # noqa: BLE001 - a source deleted since: the translation still opens
        return None
