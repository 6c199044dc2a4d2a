"""TMX 1.4b as bytes: the writer and the streaming reader (the TMX format itself, without the store).

Why a module of its own: the store of imported pairs (engine.exchange.tmx_store) streams TMX files
through this reader, and engine.exchange.tmx_format — the memory's import and export — uses both;
with the reader here, no two files import each other (tests/test_architecture.py). The mapping of
``<tu>``s to memory units: engine.exchange.tmx_format.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.parsers import expat
from dataclasses import dataclass
from pathlib import Path

from engine.corpus.translate.memory import IMPORTED, MemoryUnit
from engine.corpus.definition.model import Form

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


_LANG_CODE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*")
_CHUNK = 1 << 20


_GOOD_LANGS: set[str] = set()


def _check_lang(code: str, file: str, line: int | None, where: str) -> str:
    """A language code as TMX tools write them (BCP-47: pt, pt-BR, zh-Hans); 'Portuguese' or
    '<script>' would be stored in the memory for good."""
    if code in _GOOD_LANGS:
        return code
    if _LANG_CODE.fullmatch(code):
        _GOOD_LANGS.add(code)
    else:
        raise TmxError(file, f"{where} {code[:40]!r} is not a language code", line=line,
                       fix='use a BCP-47 tag such as "pt" or "pt-BR"')
    return code


class _TmxStream:
    """A streaming TMX reader: expat with handlers that keep only the current <tu> (so a 50 MB
    memory is read in bounded memory), every DTD declaration refused at the parser (an ATTLIST
    default or an entity cannot slip past a text search), each problem one TmxError with its line.
    ``on_pair(pair)`` is called for every (source, target) pair in file order."""

    def __init__(self, file: str, on_pair) -> None:
        self.file, self.on_pair, self.stem = file, on_pair, Path(file).stem
        p = self.parser = expat.ParserCreate()  # no namespace processing: xml:lang stays an attribute so named
        p.buffer_text = True
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = self._start, self._end, self._text
        p.StartDoctypeDeclHandler = self._doctype
        for name in ("EntityDeclHandler", "AttlistDeclHandler", "ElementDeclHandler", "NotationDeclHandler",
                     "UnparsedEntityDeclHandler", "ExternalEntityRefHandler"):
            setattr(p, name, self._declaration)
        self.stack: list[str] = []
        self.root_line: int | None = None
        self.head_src = ""
        self.header = self.body = False
        self.n = 0
        self.tu: dict | None = None
        self.tuv: dict | None = None
        self.prop: list | None = None
        self.seg: list[str] | None = None

    # -- feeding -----------------------------------------------------------------------------------
    def feed(self, data: bytes, final: bool = False) -> None:
        try:
            self.parser.Parse(data, final)
        except expat.ExpatError as exc:
            raise TmxError(self.file, f"not well-formed XML ({expat.ErrorString(exc.code)}, column {exc.offset + 1})",
                           line=exc.lineno, fix="correct the XML there, or export the memory again from your tool") from None
        except RecursionError:
            raise TmxError(self.file, "not well-formed XML (nested too deeply)",
                           fix="export the memory again from your tool") from None
        if final and self.root_line is not None and not self.body:
            raise TmxError(self.file, "has no <body>", line=self.root_line, fix="export the memory again from your tool")

    def _line(self) -> int:
        return self.parser.CurrentLineNumber

    def _doctype(self, _name, _sysid, _pubid, has_internal_subset) -> None:
        if has_internal_subset:
            self._declaration()

    def _declaration(self, *_args) -> None:
        raise TmxError(self.file, "declares a DTD or entities, which EEC Studio does not read", line=self._line(),
                       fix="remove the <!DOCTYPE …> / <!ENTITY …> / <!ATTLIST …> declarations; TMX needs none")

    # -- elements --------------------------------------------------------------------------------
    def _start(self, name: str, attrs: dict[str, str]) -> None:
        if self.seg is not None:  # inline codes (<bpt>, <ph>, <hi>…) keep their text
            self.stack.append(name)
            return
        line = self.parser.CurrentLineNumber
        if not self.stack:
            self.root_line = line
            if name != "tmx":
                raise TmxError(self.file, f"not a TMX document (root <{name}>)", line=line,
                               fix="export the translation memory as TMX from your tool")
        elif self.stack == ["tmx"] and name == "header":
            self._header(attrs, line)
        elif self.stack == ["tmx"] and name == "body":
            if not self.header:
                raise TmxError(self.file, "has no <header>", line=self.root_line,
                               fix='add <header srclang="en" …/> (TMX needs the source language)')
            self.body = True
        elif self.body and name == "tu" and self.tu is None:
            self.n += 1
            self.tu = {"srclang": (attrs.get("srclang") or self.head_src).strip(), "line": line, "props": {}, "tuvs": []}
        elif self.tu is not None and name == "prop" and self.tuv is None:
            self.prop = [attrs.get("type", ""), []]
        elif self.tu is not None and name == "tuv":
            lang = (attrs.get("xml:lang") or attrs.get("lang") or "").strip()  # lang: TMX 1.1
            if not lang:
                raise TmxError(self.file, f"<tuv> of <tu> #{self.n} has no xml:lang", line=line,
                               fix='add xml:lang="…" (the language of that text) to the <tuv>')
            self.tuv = {"lang": _check_lang(lang, self.file, line, "xml:lang"), "line": line, "text": None}
        elif self.tuv is not None and name == "seg":
            self.seg = []
        self.stack.append(name)

    def _header(self, attrs: dict[str, str], line: int) -> None:
        self.header = True
        self.head_src = (attrs.get("srclang") or "").strip()
        if not self.head_src:
            raise TmxError(self.file, "the <header> has no srclang", line=line,
                           fix='add srclang="en" (the language the source texts are in) to the <header>')
        if self.head_src != "*all*":
            _check_lang(self.head_src, self.file, line, "srclang")

    def _text(self, data: str) -> None:
        if self.seg is not None:
            self.seg.append(data)
        elif self.prop is not None:
            self.prop[1].append(data)

    def _end(self, name: str) -> None:
        self.stack.pop()
        if self.seg is not None and name == "seg" and self.stack and self.stack[-1] == "tuv":
            self.tuv["text"], self.seg = "".join(self.seg), None
        elif self.seg is not None:
            return
        elif name == "prop" and self.prop is not None:
            self.tu["props"][self.prop[0]] = "".join(self.prop[1]).strip()
            self.prop = None
        elif name == "tuv" and self.tuv is not None:
            if self.tuv["text"] is None:
                raise TmxError(self.file, f"<tuv xml:lang=\"{self.tuv['lang']}\"> of <tu> #{self.n} has no <seg>",
                               line=self.tuv["line"], fix="put the text in a <seg> element")
            self.tu["tuvs"].append((self.tuv["lang"], self.tuv["text"].strip()))
            self.tuv = None
        elif name == "tu" and self.tu is not None:
            tu, self.tu = self.tu, None
            self._pairs(tu)

    def _pairs(self, tu: dict) -> None:
        tuvs, props, src_lang = tu["tuvs"], tu["props"], tu["srclang"]
        if src_lang == "*all*":  # any variant may be the source: take the first one's language
            src_lang = tuvs[0][0] if tuvs else src_lang
        if not tuvs:
            return
        if src_lang != "*all*":
            _check_lang(src_lang, self.file, tu["line"], "srclang")
        sources = [t for lang, t in tuvs if lang.casefold() == src_lang.casefold()]
        if not sources:
            raise TmxError(self.file, f"<tu> #{self.n} has no <tuv> in the source language {src_lang!r}",
                           line=tu["line"],
                           fix=f'add a <tuv xml:lang="{src_lang}">, or correct the srclang of the <tu> or <header>')
        source = sources[0]
        if not source:
            return
        for lang, text in tuvs:
            if lang.casefold() == src_lang.casefold() or not text:
                continue
            unit = MemoryUnit(props.get(P_LIST) or IMPORTED, source, [Form(text, _features(props.get(P_FEATURES, "")))],
                              props.get(P_CORPUS) or self.stem, props.get(P_ITEM, ""))
            self.on_pair(TmxPair(src_lang, lang, unit))


def _check_size(size: int, file: str) -> None:
    if size > MAX_BYTES:
        raise TmxError(file, f"is {size // 2**20} MiB, over the {MAX_BYTES // 2**20} MiB limit",
                       fix="split the memory into smaller TMX files")


def _stream(chunks, file: str, on_pair) -> None:
    """Parse TMX bytes arriving in ``chunks`` (the first holds the prolog: checked for encoding and NUL
    bytes as XLIFF's are); ``on_pair`` gets every pair."""
    reader = _TmxStream(file, on_pair)
    first = True
    for chunk in chunks:
        if first:
            _safe_bytes(_whole_characters(chunk[:65536]), file, kind="TMX", plain_doctype_ok=True)
            first = False
        if b"\x00" in chunk:
            raise TmxError(file, "contains NUL bytes (UTF-16?)", fix="save the TMX file as UTF-8")
        reader.feed(chunk)
    if first:
        raise TmxError(file, "is empty", fix="export the translation memory as TMX from your tool")
    reader.feed(b"", True)


def _whole_characters(data: bytes) -> bytes:
    """``data`` without a UTF-8 character cut at its end (a chunk boundary)."""
    for cut in range(4):
        try:
            (data[: len(data) - cut] if cut else data).decode("utf-8")
            return data[: len(data) - cut] if cut else data
        except UnicodeDecodeError as exc:
            if exc.start < len(data) - 4:
                return data  # a real error: _safe_bytes names it
    return data


def read_tmx_pairs(raw: bytes, file: str) -> list[TmxPair]:
    """Every (source, target) pair of a TMX 1.1–1.4b document; refuses what cannot be read right."""
    _check_size(len(raw), file)
    out: list[TmxPair] = []
    _stream((raw[i:i + _CHUNK] for i in range(0, len(raw), _CHUNK)), file, out.append)
    return out


def iter_tmx_units(path: Path, on_unit) -> None:
    """Stream a TMX file (bounded memory, however large): ``on_unit(pair)`` for each unit, the forms
    of one item (same corpus and item id, written one after another) grouped into one unit."""
    file = str(path)
    try:
        size = path.stat().st_size
        fh = open(path, "rb")
    except OSError as exc:
        raise TmxError(file, f"cannot be read ({(exc.strerror or str(exc)).lower()})", fix="check the path") from None
    _check_size(size, file)
    pending: list[TmxPair] = []

    def group(p: TmxPair) -> None:
        if pending and p.unit.item_id and _group_key(pending[0]) == _group_key(p):
            pending[0].unit.forms += p.unit.forms
            return
        if pending:
            on_unit(pending.pop())
        pending.append(p)

    with fh:
        _stream(iter(lambda: fh.read(_CHUNK), b""), file, group)
    if pending:
        on_unit(pending.pop())


def _group_key(p: TmxPair) -> tuple:
    u = p.unit
    return (p.source_lang, p.target_lang, u.list_name, u.source, u.corpus_id, u.item_id)


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
