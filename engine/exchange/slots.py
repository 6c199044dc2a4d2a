"""Source text written with the target's slots, so translators' tools can check slots.

Why: translate-toolkit's pofilter (the checks Weblate runs) compares the ``{...}``
placeholders of source and translation literally (``pythonbraceformat``, ``brackets``) and
flags ``<...>`` as XML tags (``xmltags``). The published source texts write slots as
``<person subject>`` and a source corpus writes ``{person role=subject}``, while the form
says ``{person case=nom}`` — every template would be flagged and a really lost slot would
be buried in the noise. So the source text shown to the translator (PO ``msgid``, XLIFF
``source``) carries the form's own slot texts: a slot of the source is replaced by the
target's slot of the same name (angle placeholders: ``person``/``emotion`` by the words in
them), target slots with no counterpart (a clitic, an article) are put in front of the next
matched slot (or open the text, when they open the target), and source slots the target
does not use are written as plain words. A clean corpus then gives no findings, and a slot deleted or renamed in the translation does.
The original source text stays in the read-only context.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_ANGLE = re.compile(r"<([^<>{}]{1,60})>")


@dataclass
class Placeholder:
    start: int
    end: int
    name: str  # slot name ('person', 'emotion', 'self', ...); '' when unknown
    text: str  # as written


def brace_slots(text: str) -> list[Placeholder]:
    """``{NAME[:SOURCE] ...}`` slots in order (``{{``/``}}`` are literal braces)."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("{{", i) or text.startswith("}}", i):
            i += 2
            continue
        if text[i] == "{":
            end = text.find("}", i)
            if end < 0:
                break
            body = text[i + 1:end].split()
            name = body[0].partition(":")[0] if body else ""
            out.append(Placeholder(i, end + 1, name, text[i:end + 1]))
            i = end + 1
            continue
        i += 1
    return out


def _angle_name(inner: str) -> str:
    words = inner.lower()
    if "person" in words:
        return "person"
    if "emotion" in words:
        return "emotion"
    return ""


def source_placeholders(text: str) -> list[Placeholder]:
    """Brace slots and ``<...>`` placeholders of a source text, in order."""
    found = brace_slots(text)
    taken = [(p.start, p.end) for p in found]
    for m in _ANGLE.finditer(text):
        if not any(s <= m.start() < e for s, e in taken):
            found.append(Placeholder(m.start(), m.end(), _angle_name(m.group(1)), m.group(0)))
    return sorted(found, key=lambda p: p.start)


def _plain(p: Placeholder) -> str:
    """An unmatched source slot as a plain word ('self', 'emotion word')."""
    return p.text[1:-1].strip() if p.text.startswith("<") else p.name


def _opens(target: str, tslots: list[Placeholder], ti: int) -> bool:
    """Whether target slot ``ti`` opens the text (only other slots before it)."""
    prefix = target[:tslots[ti].start]
    for t in tslots[:ti]:
        prefix = prefix.replace(t.text, "")
    return not prefix.strip()


def with_target_slots(source: str, target: str) -> str:
    """``source`` with its placeholders replaced by the slots of ``target`` (see module doc).

    A target without slots (or empty) leaves brace slots alone and turns recognised angle
    placeholders into ``{person}``/``{emotion}``, so a new translation starts from our syntax.
    """
    tslots = brace_slots(target)
    sslots = source_placeholders(source)
    if not sslots and not tslots:
        return source
    used: set[int] = set()
    match: dict[int, int] = {}  # source placeholder index -> target slot index
    for si, s in enumerate(sslots):
        for ti, t in enumerate(tslots):
            if ti not in used and s.name and s.name == t.name:
                used.add(ti)
                match[si] = ti
                break
    extra = [ti for ti in range(len(tslots)) if ti not in used]
    # an unmatched target slot goes in front of the source placeholder matched to the next target slot
    before: dict[int, list[int]] = {}
    tail: list[int] = []
    lead = [ti for ti in extra if _opens(target, tslots, ti)]
    for ti in extra:
        later = [(tj, si) for si, tj in match.items() if tj > ti]
        if ti in lead:
            continue
        if later:
            before.setdefault(min(later)[1], []).append(ti)
        else:
            tail.append(ti)
    out, pos = [], 0
    for si, s in enumerate(sslots):
        out.append(source[pos:s.start])
        for ti in before.get(si, []):
            out.append(tslots[ti].text + " ")
        if si in match:
            out.append(tslots[match[si]].text)
        elif not tslots:
            out.append(s.text if s.text.startswith("{") else (f"{{{s.name}}}" if s.name else _plain(s)))
        else:
            out.append(_plain(s))
        pos = s.end
    out.append(source[pos:])
    text = "".join(tslots[ti].text + " " for ti in lead) + "".join(out)
    if tail:
        text = text.rstrip() + " " + " ".join(tslots[ti].text for ti in tail)
    return text
