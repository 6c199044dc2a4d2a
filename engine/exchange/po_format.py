"""gettext PO: one entry per form, written and read with babel.messages.pofile.

Mapping (docs/package.md has the full table):
  msgctxt            the unit key ``SECTION/ENTRY#INDEX FEATURES`` (entry id + grammatical features)
  msgid              source-language text (read-only in CAT tools)
  msgstr             the form's text in the corpus language
  ``#.`` comments    read-only context: what the item is, slots to keep, status at export
  ``#`` comments     the item's review note (editable; on the item's first form)
  ``#, fuzzy``       the item is ``new`` or ``machine-translated`` (needs a human)
  Project-Id-Version ``<corpus id> eec-exchange-1``; Language the corpus language
"""
from __future__ import annotations

import io

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from engine.corpus import CorpusDefinition

from .errors import ExchangeError
from .keys import parse_key
from .returned import PO, Returned, ReturnedFile
from .status_rules import exported_fuzzy
from .units import Unit

VERSION_TAG = "eec-exchange-1"
DEFAULT_TRANSLATOR = "FULL NAME <EMAIL@ADDRESS>"


def _locale(tag: str):
    try:
        from babel import Locale

        return Locale.parse(tag.replace("-", "_"))
    except Exception:  # babel raises several error types for tags it does not know
        return None


def write_po_bytes(corpus: CorpusDefinition, units: list[Unit], *, source_id: str = "") -> bytes:
    header = (f"EEC Studio translation file for corpus {corpus.id} ({corpus.name}).\n"
              "Translate msgstr; keep msgctxt as it is. Each entry is one grammatical form: the features\n"
              "after '#N' in the context say which (gender=f, role=object, ...). Templates must keep\n"
              "every {slot} in braces. Comments starting with '#.' explain the item; write your own notes\n"
              "as translator comments. Clear 'fuzzy' when a translation is done.\n"
              + (f"Source-language text from corpus {source_id}.\n" if source_id else ""))
    catalog = Catalog(locale=_locale(corpus.language), project=corpus.id, version=VERSION_TAG,
                      header_comment="\n".join(f"# {line}" if line else "#" for line in header.splitlines()),
                      charset="utf-8", fuzzy=False, language_team=corpus.language,
                      copyright_holder=None, msgid_bugs_address="")
    for u in units:
        catalog.add(u.source, string=u.target, context=str(u.key),
                    flags=("fuzzy",) if exported_fuzzy(u.status, u.target) else (),
                    auto_comments=u.context.splitlines(), user_comments=u.note.splitlines() if u.note else ())
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, omit_header=False, sort_output=False, include_previous=False)
    text = buf.getvalue()
    if not _locale(corpus.language):  # babel writes no Language header without a locale it knows
        text = text.replace(b'"MIME-Version: 1.0\\n"', f'"Language: {corpus.language}\\n"\n"MIME-Version: 1.0\\n"'.encode(), 1)
    return text


def read_po_bytes(raw: bytes, file: str) -> ReturnedFile:
    try:
        catalog = read_po(io.BytesIO(raw), abort_invalid=True, charset="utf-8")
        messages = [m for m in catalog if m.id]
    except Exception as exc:  # babel's parser raises many types on malformed input; one message for all
        raise ExchangeError(file, f"not a valid PO file ({exc.__class__.__name__}: {str(exc)[:200]})",
                            fix="open it in Poedit and save it again, or export a fresh file") from None
    units = []
    for m in messages:
        where = f"line {m.lineno}" if m.lineno else ""
        if not isinstance(m.id, str) or not isinstance(m.string, str):
            raise ExchangeError(file, "plural entries are not used by EEC Studio", entry=where,
                                fix="remove msgid_plural entries")
        key = parse_key(m.context or "")
        if key is None:
            raise ExchangeError(file, f"entry {m.context or m.id!r} has no EEC Studio context (msgctxt)", entry=where,
                                fix="keep msgctxt as exported; do not add entries")
        units.append(Returned(key=key, text=m.string, notes=[c for c in m.user_comments], fuzzy=m.fuzzy,
                              where=where))
    project = (catalog.project or "").strip()
    translator = catalog.last_translator or ""
    if translator.strip() == DEFAULT_TRANSLATOR:
        translator = ""
    lang = str(catalog.locale_identifier or "")
    return ReturnedFile(PO, project, lang.replace("_", "-"), units, translator.strip())
