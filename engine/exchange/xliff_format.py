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
so entity expansion and external entities cannot happen. XInclude elements are refused wherever
they stand (their content would be another file's, and silently dropping them lost units).

Inline elements in a target (a CAT tool protects a ``{slot}`` as a placeholder) are never dropped:
``<ph>``/``<sc>``/``<ec>`` stand for their ``equiv`` text (also read: ``equiv-text``, or a ``disp``
that is a slot such as ``{person}``); ``<pc>`` and ``<mrk>`` keep their content (with ``equivStart``
and ``equivEnd`` around it when given); ``<cp hex>`` is its character. Anything else — an inline
code with no text to stand for, an element of another vocabulary — is refused by name, unit and
the fix, because a target read without it would lose words or a slot.
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


def _safe_bytes(raw: bytes, file: str, kind: str = "XLIFF", plain_doctype_ok: bool = False) -> None:
    """Refuse what could make the XML parser expand entities or read other files (module docstring).

    ``plain_doctype_ok``: TMX tools write ``<!DOCTYPE tmx SYSTEM "tmx14.dtd">``; a DOCTYPE without an
    internal subset declares no entity and the parser never fetches the DTD, so it may stay."""
    fix_utf8 = f"save the {kind} file as UTF-8"
    if b"\x00" in raw:
        raise ExchangeError(file, "contains NUL bytes (UTF-16?)", fix=fix_utf8)
    m = _DECL_ENCODING.match(raw)
    if m and m.group(1).decode().lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise ExchangeError(file, f"declared encoding {m.group(1).decode()!r}", fix=fix_utf8)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExchangeError(file, f"not valid UTF-8 (byte {exc.start})", fix=fix_utf8) from None
    low = text.lower()
    doctype = low.find("<!doctype")
    internal = doctype >= 0 and "[" in _doctype_text(low, doctype)  # a '>' inside a quoted id does not end it
    declared = any(k in low for k in ("<!entity", "<!attlist", "<!element", "<!notation"))
    if declared or (doctype >= 0 and (internal or not plain_doctype_ok)):
        raise ExchangeError(file, "declares a DTD or entities, which EEC Studio does not read",
                            fix=f"remove the <!DOCTYPE …> / <!ENTITY …> declarations; "
                                f"{'XLIFF 2' if kind == 'XLIFF' else kind} needs none")


def _doctype_text(low: str, start: int) -> str:
    """The <!DOCTYPE …> declaration starting at ``start``, up to its own '>' (quoted ids skipped)."""
    quote = ""
    for i in range(start, len(low)):
        c = low[i]
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == ">":
            return low[start:i + 1]
    return low[start:]


def _text(el: ET.Element | None) -> str:
    return "".join(el.itertext()) if el is not None else ""


XINCLUDE = "http://www.w3.org/2001/XInclude"
_SLOT = re.compile(r"\{[^{}]+\}")


def _local(tag: str) -> tuple[str, str]:
    """(namespace, local name) of an element tag."""
    return (tag[1:].split("}", 1)[0], tag.split("}", 1)[1]) if tag.startswith("{") else ("", tag)


def _shown(el: ET.Element) -> str:
    """An element as the user's file has it: <ph id="1" disp="name">, without namespace noise."""
    ns, name = _local(el.tag)
    prefix = "xi:" if ns == XINCLUDE else ""
    attrs = " ".join(f'{_local(k)[1]}="{v}"' for k, v in list(el.attrib.items())[:3])
    return f"<{prefix}{name}{' ' + attrs if attrs else ''}>"


def _target_text(el: ET.Element | None, ns: str, file: str, where: str) -> str:
    """The text of a target with its inline elements mapped (module docstring); never drops one."""
    if el is None:
        return ""
    out = [el.text or ""]
    for child in el:
        out.append(_inline(child, ns, file, where))
        out.append(child.tail or "")
    return "".join(out)


def _inline(el: ET.Element, ns: str, file: str, where: str) -> str:
    el_ns, name = _local(el.tag)
    if el_ns == ns and name in ("ph", "sc", "ec"):
        for attr in ("equiv", "equiv-text", "equivText"):
            if el.get(attr):
                return str(el.get(attr))
        if _SLOT.fullmatch(el.get("disp", "") or ""):
            return str(el.get("disp"))
        raise ExchangeError(file, f"inline code {_shown(el)} in the target stands for no text (no equiv, and its "
                                  f"disp is not a {{slot}})", entry=where,
                            fix="write the slot as text ({person}), or let the CAT tool export the placeholder "
                                "with equiv=\"{person}\"")
    if el_ns == ns and name in ("pc", "mrk"):
        inner = _target_text(el, ns, file, where)
        return (el.get("equivStart", "") if name == "pc" else "") + inner + (el.get("equivEnd", "") if name == "pc" else "")
    if el_ns == ns and name == "cp":
        try:
            ch = chr(int(el.get("hex", ""), 16))
        except (ValueError, OverflowError):
            ch = ""
        if ch.isprintable() and ch:
            return ch
        raise ExchangeError(file, f"{_shown(el)} in the target is a control character, not text", entry=where,
                            fix="remove it from the translation")
    what = "an XInclude element" if el_ns == XINCLUDE else "an element EEC Studio does not read"
    raise ExchangeError(file, f"{_shown(el)} in the target is {what}; reading the target without it would lose "
                              f"text", entry=where,
                        fix="replace it with the text it stands for (a slot as {person}), or export the file "
                            "again without it")


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
        text = "".join(_target_text(s.find(_q("target", ns)), ns, file, where) for s in segments)
        notes = [_text(n) for n in unit.iter(_q("note", ns)) if n.get("category") != CONTEXT and _text(n).strip()]
        units.append(Returned(key=key, text=text, notes=notes, state=segments[0].get("state", "initial"),
                              sub_state=segments[0].get("subState", ""), where=where))
    for el in root.iter():
        if _local(el.tag)[0] == XINCLUDE:  # the content would come from another file: never read, never dropped
            raise ExchangeError(file, f"XInclude element {_shown(el)}: EEC Studio does not read content from other "
                                      f"files", fix="paste the included units into the file itself, or export it "
                                                    "again from your CAT tool")
    return ReturnedFile(XLIFF, next(iter(originals), ""), str(root.get("trgLang", "")), units)
