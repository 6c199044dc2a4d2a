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

Imported pairs are kept in one store, ``$EEC_STUDIO_HOME/memory/imported.tmx`` (written by this
module, every ``<tu>`` with its own srclang), so the memory survives a restart and can be
exported again. Parsing is defensive as for XLIFF (``xliff_format._safe_bytes``): no entity
declarations, no internal DTD subset, UTF-8 only; every problem is one line with file and line.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from xml.parsers import expat
from dataclasses import dataclass
from pathlib import Path

from engine.common.languages import base_language
from engine.corpus.translate.memory import IMPORTED, MemoryUnit, TranslationMemory
from engine.corpus.definition.model import CorpusDefinition, Form

from .errors import ExchangeError
from .xliff_format import _safe_bytes

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
P_LIST, P_FEATURES, P_CORPUS, P_ITEM = "x-eec-list", "x-eec-features", "x-eec-corpus", "x-eec-item"
MAX_BYTES = 200 * 1024 * 1024
CREATOR = "EEC Studio"


@dataclass
class TmxError(ExchangeError):
    """An exchange error with the line of the TMX file it points at."""

    line: int | None = None  # type: ignore[assignment]


@dataclass
class TmxPair:
    source_lang: str
    target_lang: str
    unit: MemoryUnit  # one form per pair as read; grouped into units by ``read_tmx_units``


def _features_text(features: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(features.items()))


def _features(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split() if "=" in part)


def write_tmx_bytes(units: list[MemoryUnit], source_lang: str, target_lang: str) -> bytes:
    """One TMX 1.4b document: every form of every unit as a ``<tu>`` (module docstring)."""
    root = ET.Element("tmx", {"version": "1.4"})
    ET.SubElement(root, "header", {
        "creationtool": CREATOR, "creationtoolversion": "1", "segtype": "phrase", "o-tmf": "eec-studio",
        "adminlang": "en", "srclang": source_lang, "datatype": "plaintext"})
    body = ET.SubElement(root, "body")
    for u in units:
        for f in u.forms:
            tu = ET.SubElement(body, "tu")
            for ptype, value in ((P_LIST, u.list_name), (P_FEATURES, _features_text(f.features)),
                                 (P_CORPUS, u.corpus_id), (P_ITEM, u.item_id)):
                if value:
                    ET.SubElement(tu, "prop", {"type": ptype}).text = value
            for lang, text in ((source_lang, u.source), (target_lang, f.text)):
                ET.SubElement(ET.SubElement(tu, "tuv", {XML_LANG: lang}), "seg").text = text
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _parse(raw: bytes, file: str) -> tuple[ET.Element, dict[int, int]]:
    """The document and each element's line (id(element) -> line), for one-line errors."""
    if len(raw) > MAX_BYTES:
        raise TmxError(file, f"is {len(raw) // 2**20} MiB, over the {MAX_BYTES // 2**20} MiB limit",
                       fix="split the memory into smaller TMX files")
    _safe_bytes(raw, file, kind="TMX", plain_doctype_ok=True)
    lines: dict[int, int] = {}
    stack: list[ET.Element] = []
    roots: list[ET.Element] = []
    parser = expat.ParserCreate()  # no namespace processing: xml:lang stays an attribute named so
    parser.buffer_text = True

    def start(name: str, attrs: dict[str, str]) -> None:
        el = ET.Element(name, attrs)
        lines[id(el)] = parser.CurrentLineNumber
        (stack[-1].append(el) if stack else roots.append(el))
        stack.append(el)

    def text(data: str) -> None:
        if not stack:
            return
        el = stack[-1]
        if len(el):
            el[-1].tail = (el[-1].tail or "") + data
        else:
            el.text = (el.text or "") + data

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda name: stack.pop()
    parser.CharacterDataHandler = text
    try:
        parser.Parse(raw, True)
    except expat.ExpatError as exc:
        raise TmxError(file, f"not well-formed XML ({expat.ErrorString(exc.code)}, column {exc.offset + 1})",
                       line=exc.lineno,
                       fix="correct the XML there, or export the memory again from your tool") from None
    except RecursionError:
        raise TmxError(file, "not well-formed XML (nested too deeply)", fix="export the memory again from your tool") from None
    root = roots[0]
    return root, lines


def _seg_text(seg: ET.Element) -> str:
    """A segment's text; inline codes of other tools (<bpt>, <ph>, <hi>…) keep their text."""
    return "".join(seg.itertext())


def read_tmx_pairs(raw: bytes, file: str) -> list[TmxPair]:
    """Every (source, target) pair of a TMX 1.1–1.4b document; refuses what cannot be read right."""
    root, lines = _parse(raw, file)
    if root.tag != "tmx":
        raise TmxError(file, f"not a TMX document (root <{root.tag}>)", line=lines.get(id(root)),
                       fix="export the translation memory as TMX from your tool")
    header = root.find("header")
    if header is None:
        raise TmxError(file, "has no <header>", line=lines.get(id(root)),
                       fix='add <header srclang="en" …/> (TMX needs the source language)')
    head_src = (header.get("srclang") or "").strip()
    if not head_src:
        raise TmxError(file, "the <header> has no srclang", line=lines.get(id(header)),
                       fix='add srclang="en" (the language the source texts are in) to the <header>')
    body = root.find("body")
    if body is None:
        raise TmxError(file, "has no <body>", line=lines.get(id(root)), fix="export the memory again from your tool")
    stem = Path(file).stem
    out: list[TmxPair] = []
    for n, tu in enumerate(body.iter("tu"), 1):
        line = lines.get(id(tu))
        src_lang = (tu.get("srclang") or head_src).strip()
        props = {p.get("type", ""): (p.text or "").strip() for p in tu.findall("prop")}
        tuvs: list[tuple[str, str]] = []
        for tuv in tu.findall("tuv"):
            lang = (tuv.get("xml:lang") or tuv.get("lang") or "").strip()  # lang: TMX 1.1
            if not lang:
                raise TmxError(file, f"<tuv> of <tu> #{n} has no xml:lang", line=lines.get(id(tuv)),
                               fix='add xml:lang="…" (the language of that text) to the <tuv>')
            seg = tuv.find("seg")
            if seg is None:
                raise TmxError(file, f"<tuv xml:lang=\"{lang}\"> of <tu> #{n} has no <seg>", line=lines.get(id(tuv)),
                               fix="put the text in a <seg> element")
            tuvs.append((lang, _seg_text(seg).strip()))
        if src_lang == "*all*":  # any variant may be the source: take the first one's language
            src_lang = tuvs[0][0] if tuvs else src_lang
        sources = [t for lang, t in tuvs if lang.casefold() == src_lang.casefold()]
        if not tuvs:
            continue
        if not sources:
            raise TmxError(file, f"<tu> #{n} has no <tuv> in the source language {src_lang!r}", line=line,
                           fix=f'add a <tuv xml:lang="{src_lang}">, or correct the srclang of the <tu> or <header>')
        source = sources[0]
        if not source:
            continue
        for lang, text in tuvs:
            if lang.casefold() == src_lang.casefold() or not text:
                continue
            unit = MemoryUnit(props.get(P_LIST) or IMPORTED, source, [Form(text, _features(props.get(P_FEATURES, "")))],
                              props.get(P_CORPUS) or stem, props.get(P_ITEM, ""))
            out.append(TmxPair(src_lang, lang, unit))
    return out


def read_tmx_units(raw: bytes, file: str) -> list[TmxPair]:
    """The pairs with the forms of one item (same corpus and item id) grouped back into one unit."""
    grouped: dict[tuple, TmxPair] = {}
    for i, p in enumerate(read_tmx_pairs(raw, file)):
        u = p.unit
        key = (p.source_lang, p.target_lang, u.list_name, u.source, u.corpus_id, u.item_id) if u.item_id else (i,)
        if key in grouped:
            grouped[key].unit.forms += u.forms
        else:
            grouped[key] = p
    return list(grouped.values())


# ---- the store of imported pairs and the memory as a whole -------------------------------------------

def store_path() -> Path:
    from engine.common.user_dirs import user_home

    return user_home() / "memory" / "imported.tmx"


def _store() -> list[TmxPair]:
    """Every pair imported so far (the store is written by ``_write_store``: each tu has its srclang)."""
    path = store_path()
    try:
        raw = path.read_bytes()
    except OSError:
        return []
    return read_tmx_units(raw, str(path))


def _write_store(rows: list[TmxPair]) -> None:
    from engine.common.io import atomic_write_bytes

    root = ET.Element("tmx", {"version": "1.4"})
    ET.SubElement(root, "header", {"creationtool": CREATOR, "creationtoolversion": "1", "segtype": "phrase",
                                   "o-tmf": "eec-studio", "adminlang": "en", "srclang": "*all*",
                                   "datatype": "plaintext"})
    body = ET.SubElement(root, "body")
    for r in rows:
        one = ET.fromstring(write_tmx_bytes([r.unit], r.source_lang, r.target_lang))
        for tu in one.iter("tu"):
            tu.set("srclang", r.source_lang)
            body.append(tu)
    ET.indent(root, space=" ")
    path = store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n")


def imported_units(language: str) -> list[MemoryUnit]:
    """The imported pairs whose target is ``language`` (its base language: pt-BR uses pt too).
    An unreadable store is skipped (suggestions must not fail), as an unreadable corpus is."""
    want = base_language(language)
    try:
        rows = _store()
    except ExchangeError:
        return []
    return [r.unit for r in rows if base_language(r.target_lang) == want]


def translation_memory(language: str, *, exclude: set[str] | None = None,
                       extra: list[CorpusDefinition] | None = None) -> TranslationMemory:
    """The memory of ``language`` the workbench suggests from and ``tm-export`` writes: every corpus
    in it (``TranslationMemory.for_language``: ``exclude``, ``extra``) and the imported pairs."""
    return TranslationMemory.for_language(language, exclude=exclude, extra=extra, imported=imported_units(language))


def _unit_key(p: TmxPair) -> tuple:
    forms = tuple((f.text, tuple(sorted(f.features.items()))) for f in p.unit.forms)
    return (p.source_lang.casefold(), p.target_lang.casefold(), p.unit.list_name, p.unit.source, forms)


@dataclass
class TmxImport:
    path: Path
    added: int  # new units (items with all their forms) in the memory
    skipped: int  # already there
    languages: list[str]  # target languages read


def import_tmx(path: str | os.PathLike) -> TmxImport:
    """Add a TMX file's pairs to the memory's store; pairs already there are not added twice."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise TmxError(str(p), f"cannot be read ({exc.strerror or exc})", fix="check the path") from None
    pairs = read_tmx_units(raw, str(p))  # validates the whole file before the store changes
    rows = _store()
    seen = {_unit_key(r) for r in rows}
    added = skipped = 0
    langs: list[str] = []
    for pair in pairs:
        key = _unit_key(pair)
        if key in seen:
            skipped += 1
            continue
        seen.add(key)
        rows.append(pair)
        added += 1
        if pair.target_lang not in langs:
            langs.append(pair.target_lang)
    if added:
        _write_store(rows)
    return TmxImport(p, added, skipped, langs)


def export_tmx(out: str | os.PathLike, language: str, *, source_lang: str = "en",
               extra: list[CorpusDefinition] | None = None, exclude: set[str] | None = None,
               corpus: CorpusDefinition | None = None) -> int:
    """Write the memory for ``language`` (every corpus in it, glossaries and imported pairs), or only
    ``corpus``'s own pairs, to ``out`` as TMX; returns the number of ``<tu>`` written."""
    from engine.common.io import atomic_write_bytes
    from engine.corpus.translate.memory import units_of

    if corpus is not None:
        units = units_of(corpus)
        language = corpus.language
    else:
        units = translation_memory(language, extra=extra, exclude=exclude).units
    path = Path(out)
    if not path.parent.is_dir():
        raise TmxError(str(path), f"folder {path.parent} does not exist", fix="choose an existing folder")
    atomic_write_bytes(path, write_tmx_bytes(units, source_lang, language))
    return sum(len(u.forms) for u in units)
