"""Parse template text such as ``{person role=subject} found {self gender=person.gender} in
{a initial=next.initial} {emotion kind=situation} situation.``

A slot is ``{NAME[:SOURCE] key=value ...}``. SOURCE defaults to NAME and is ``person``,
``emotion`` or the id of a small word. A value is a literal (``role=object``) or a
reference to another slot's chosen form (``gender=person.gender``; ``next``/``prev``
mean the neighbouring slot). ``{{`` and ``}}`` are literal braces.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from engine.common.errors import UserError

GENERATING_SOURCES = ("person", "emotion")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


class TemplateSyntaxError(UserError, ValueError):
    """A template text that cannot be parsed; the checker turns it into finding E010, and where it
    reaches a user directly (a notebook, an exchange file) it reads as one line like every UserError."""


@dataclass(frozen=True)
class Ref:
    slot: str
    feature: str


@dataclass
class Slot:
    name: str
    source: str
    fixed: dict[str, str] = field(default_factory=dict)
    refs: dict[str, Ref] = field(default_factory=dict)

    @property
    def generating(self) -> bool:
        return self.source in GENERATING_SOURCES


@dataclass
class ParsedTemplate:
    pieces: list[str | Slot]  # literal strings and slots, in order

    @property
    def slots(self) -> list[Slot]:
        return [p for p in self.pieces if isinstance(p, Slot)]

    def slot(self, name: str) -> Slot | None:
        return next((s for s in self.slots if s.name == name), None)

    def literal_before(self, slot: Slot) -> str:
        """The literal text between the previous slot (or the start) and ``slot``: what governs its
        case (a preposition) or whose feeling it names (a clitic before a feel verb)."""
        out = ""
        for piece in self.pieces:
            if piece is slot:
                return out
            out = piece if isinstance(piece, str) else ""
        return out


def parse_template(text: str) -> ParsedTemplate:
    pieces: list[str | Slot] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "{" and text.startswith("{{", i):
            buf.append("{")
            i += 2
        elif ch == "}" and text.startswith("}}", i):
            buf.append("}")
            i += 2
        elif ch == "{":
            end = text.find("}", i)
            if end < 0:
                raise TemplateSyntaxError(f"unclosed '{{' at character {i + 1}")
            if buf:
                pieces.append("".join(buf))
                buf = []
            pieces.append(_parse_slot(text[i + 1 : end], i + 1))
            i = end + 1
        elif ch == "}":
            raise TemplateSyntaxError(f"stray '}}' at character {i + 1} (write '}}}}' for a literal brace)")
        else:
            buf.append(ch)
            i += 1
    if buf:
        pieces.append("".join(buf))
    parsed = ParsedTemplate(pieces)
    _resolve_neighbours(parsed)
    names = [s.name for s in parsed.slots]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        raise TemplateSyntaxError(f"slot name used twice: {', '.join(sorted(dup))} (give each slot a unique NAME:source)")
    return parsed


def _parse_slot(body: str, pos: int) -> Slot:
    parts = body.split()
    if not parts:
        raise TemplateSyntaxError(f"empty slot '{{}}' at character {pos}")
    head, *constraints = parts
    name, _, source = head.partition(":")
    source = source or name
    for label, value in (("slot name", name), ("slot source", source)):
        if not _NAME.match(value):
            raise TemplateSyntaxError(f"bad {label} {value!r} at character {pos}")
    slot = Slot(name=name, source=source)
    for c in constraints:
        key, eq, value = c.partition("=")
        if not eq or not key or not value:
            raise TemplateSyntaxError(f"slot {name!r}: expected key=value, got {c!r}")
        if "." in value:
            ref_slot, _, feat = value.partition(".")
            if not ref_slot or not feat:
                raise TemplateSyntaxError(f"slot {name!r}: bad reference {value!r} (use slot.feature)")
            slot.refs[key] = Ref(ref_slot, feat)
        else:
            slot.fixed[key] = value
    return slot


def _resolve_neighbours(parsed: ParsedTemplate) -> None:
    slots = parsed.slots
    for i, s in enumerate(slots):
        for key, ref in list(s.refs.items()):
            if ref.slot in ("next", "prev"):
                j = i + 1 if ref.slot == "next" else i - 1
                if not 0 <= j < len(slots):
                    raise TemplateSyntaxError(f"slot {s.name!r}: there is no {ref.slot} slot")
                s.refs[key] = Ref(slots[j].name, ref.feature)


def placeholder_text(parsed: ParsedTemplate) -> str:
    """A readable template string (``<person> feels <emotion>.``) for the Template column."""
    out = []
    for p in parsed.pieces:
        out.append(p if isinstance(p, str) else f"<{p.name}>")
    return "".join(out)


def readable_slots(templates) -> Iterator[tuple[Any, Any, Slot]]:
    """(template, variant, slot) for every slot of every template variant that parses.

    Why one home: the agreement checker, the forms a word needs and the words a subset keeps all
    walk the same templates; a variant with a syntax error is the checker's own finding (E0xx),
    so these walks skip it rather than fail."""
    for t in templates:
        for v in t.variants:
            try:
                slots = parse_template(v.text).slots
            except TemplateSyntaxError:
                continue
            for s in slots:
                yield t, v, s
