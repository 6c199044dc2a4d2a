"""XLIFF 2.0: one ``<unit>`` per form, written and read with the standard library only.

Mapping (docs/packages.md has the full table):
  unit/@name                 the unit key ``SECTION/ENTRY#INDEX FEATURES`` (unit ids are u1, u2, …)
  segment/source, target     source-language text, the form's text
  segment/@state, @subState  review status: new/machine-translated/untranslatable -> initial,
                             translated -> translated, reviewed -> reviewed; subState keeps the
                             exact status as ``eec:<status>``
  note category=eec:context  read-only explanation for the translator
  other notes                the item's review note (editable)
  file/@original             the corpus id; xliff/@trgLang the corpus language

Parsing is defensive: files over the size limit, with a DOCTYPE or entity declarations, in
an encoding other than UTF-8, or with NUL bytes are refused before the XML parser sees them,
so entity expansion and external entities cannot happen.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from engine.corpus import CorpusDefinition

from .errors import ExchangeError
from .keys import SECTIONS, parse_key
from .returned import XLIFF, Returned, ReturnedFile
from .status_rules import exported_state, sub_state
from .units import Unit

NS = "urn:oasis:names:tc:xliff:document:2.0"
NAMESPACES = (NS, "urn:oasis:names:tc:xliff:document:2.2")
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
CONTEXT = "eec:context"
_DECL_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']", re.I)


def _q(tag: str, ns: str = NS) -> str:
    return f"{{{ns}}}{tag}"


def write_xliff_bytes(corpus: CorpusDefinition, units: list[Unit], *, source_lang: str = "",
                      source_id: str = "") -> bytes:
    ET.register_namespace("", NS)
    root = ET.Element(_q("xliff"), {"version": "2.0", "srcLang": source_lang or corpus.language, "trgLang": corpus.language})
    fattrs = {"id": "f1", "original": corpus.id, "canResegment": "no", XML_SPACE: "preserve"}
    if corpus.direction == "rtl":
        fattrs["trgDir"] = "rtl"
    f = ET.SubElement(root, _q("file"), fattrs)
    notes = ET.SubElement(f, _q("notes"))
    about = ET.SubElement(notes, _q("note"), {"category": CONTEXT})
    about.text = (f"EEC Studio translation file for corpus {corpus.id} ({corpus.name})"
                  + (f"; source-language text from {source_id}" if source_id else "")
                  + ". Each unit is one grammatical form; its name says which (features after '#N'). "
                    "Templates must keep every {slot} in braces.")
    groups: dict[str, ET.Element] = {}
    for n, u in enumerate(units, 1):
        section = u.key.section
        if section not in groups:
            groups[section] = ET.SubElement(f, _q("group"), {"id": f"g{SECTIONS.index(section) + 1}", "name": section})
        unit = ET.SubElement(groups[section], _q("unit"), {"id": f"u{n}", "name": str(u.key)})
        un = ET.SubElement(unit, _q("notes"))
        ctx = ET.SubElement(un, _q("note"), {"category": CONTEXT, "appliesTo": "source"})
        ctx.text = u.context
        if u.note:
            ET.SubElement(un, _q("note")).text = u.note
        state = exported_state(u.status, u.target)
        seg = ET.SubElement(unit, _q("segment"), {"id": "s1", "state": state, "subState": sub_state(u.status)}
                            if sub_state(u.status) else {"id": "s1", "state": state})
        ET.SubElement(seg, _q("source")).text = u.source
        if u.target or state != "initial":
            ET.SubElement(seg, _q("target")).text = u.target
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _safe_bytes(raw: bytes, file: str) -> None:
    if b"\x00" in raw:
        raise ExchangeError(file, "contains NUL bytes (UTF-16?)", fix="save the XLIFF file as UTF-8")
    m = _DECL_ENCODING.match(raw)
    if m and m.group(1).decode().lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise ExchangeError(file, f"declared encoding {m.group(1).decode()!r}", fix="save the XLIFF file as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExchangeError(file, f"not valid UTF-8 (byte {exc.start})", fix="save the XLIFF file as UTF-8") from None
    low = text.lower()
    if "<!doctype" in low or "<!entity" in low:
        raise ExchangeError(file, "declares a DTD or entities, which EEC Studio does not read",
                            fix="remove the <!DOCTYPE …> / <!ENTITY …> declarations; XLIFF 2 needs none")


def _text(el: ET.Element | None) -> str:
    return "".join(el.itertext()) if el is not None else ""


def read_xliff_bytes(raw: bytes, file: str) -> ReturnedFile:
    _safe_bytes(raw, file)
    try:
        root = ET.fromstring(raw)
    except (ET.ParseError, RecursionError, ValueError) as exc:
        raise ExchangeError(file, f"not well-formed XML ({exc})", fix="open it in your CAT tool and export again") from None
    ns = next((n for n in NAMESPACES if root.tag == _q("xliff", n)), None)
    if ns is None or not str(root.get("version", "")).startswith("2."):
        raise ExchangeError(file, f"not an XLIFF 2 document (root {root.tag!r}, version {root.get('version')!r})",
                            fix="export XLIFF 2.0 from your CAT tool (XLIFF 1.2 is not read)")
    files = root.findall(_q("file", ns))
    originals = {fe.get("original", "") for fe in files} - {""}
    if len(originals) > 1:
        raise ExchangeError(file, f"holds several corpora ({', '.join(sorted(originals))})", fix="import one at a time")
    units = []
    for unit in root.iter(_q("unit", ns)):
        where = f"unit {unit.get('id', '?')}"
        key = parse_key(unit.get("name", ""))
        if key is None:
            raise ExchangeError(file, f"unit name {unit.get('name')!r} is not an EEC Studio key", entry=where,
                                fix="keep the units' name attributes as exported; do not add units")
        segments = unit.findall(_q("segment", ns))
        if not segments:
            raise ExchangeError(file, "unit has no segment", entry=where, fix="export the file again from your tool")
        text = "".join(_text(s.find(_q("target", ns))) for s in segments)
        notes = [_text(n) for n in unit.iter(_q("note", ns)) if n.get("category") != CONTEXT and _text(n).strip()]
        units.append(Returned(key=key, text=text, notes=notes, state=segments[0].get("state", "initial"),
                              sub_state=segments[0].get("subState", ""), where=where))
    return ReturnedFile(XLIFF, next(iter(originals), ""), str(root.get("trgLang", "")), units)
