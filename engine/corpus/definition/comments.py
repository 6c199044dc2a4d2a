"""Carry a definition file's `#` comments over to its re-written text.

Why: the workbench and `exchange import --out` save a corpus by writing it out afresh
(engine.corpus.definition.writer), and a TOML parser keeps no comments. Translators and maintainers
write notes in these files ("corrected word order, see README", "Table 14"); a save that
silently deleted them would lose their work. Each comment is anchored to what follows it
in the old file — the file's header, a section (`[axes.race]`), an entry of a list of tables
(`[[templates]]` with `id = "T05"`), or a key inside either — and put back before the same
anchor in the new text. A comment at the end of a line (`text = "…"  # note`) goes back to the
end of the same key's line. When its anchor is gone (the entry was deleted), a comment moves
to the next anchor that still exists, so a section heading survives deleting its first entry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*=")
_ID = re.compile(r"^\s*id\s*=\s*\"((?:[^\"\\]|\\.)*)\"")

#: the first line engine.corpus.definition.writer puts in every file; a file's own opening comment replaces it
WRITER_HEADER = "# EEC Studio corpus definition"

Anchor = tuple  # ("top",) | ("table", name, id_or_index) | ("key", table_anchor, key) | ("end",)


@dataclass
class _Line:
    text: str
    kind: str  # "comment", "blank", "header", "key", "other"
    table: Anchor = ("top",)
    key: str = ""
    inline: str = ""  # a trailing comment, with its leading spaces


def _outside_strings(line: str) -> Iterator[tuple[int, str]]:
    """(index, character) of every character of `line` that is not inside a quoted string."""
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        else:
            yield i, ch
        i += 1


def _split_inline(line: str) -> tuple[str, str]:
    """(code, comment) of one line: `#` outside a quoted string starts a comment."""
    for i, ch in _outside_strings(line):
        if ch == "#":
            code = line[:i].rstrip()
            return code, line[len(code):]
    return line, ""


def _parse(text: str) -> list[_Line]:
    raw = text.splitlines()
    out: list[_Line] = []
    table: Anchor = ("top",)
    counts: dict[str, int] = {}
    in_multiline = False
    depth = 0  # open brackets of a multi-line array or inline table
    for n, line in enumerate(raw):
        if in_multiline:
            out.append(_Line(line, "other", table))
            if line.count('"""') % 2 or line.count("'''") % 2:
                in_multiline = False
            continue
        stripped = line.strip()
        if stripped.startswith("#"):  # inside a multi-line value too: it moves out, before the next anchor
            out.append(_Line(stripped if depth else line, "comment", table))
            continue
        if not stripped:
            out.append(_Line(line, "blank", table))
            continue
        code, inline = _split_inline(line)
        m = _HEADER.match(code) if depth == 0 else None
        if m:
            name = m.group(2)
            if m.group(1) == "[[":
                counts[name] = counts.get(name, 0) + 1
                table = ("table", name, _entry_id(raw, n + 1) or f"#{counts[name]}")
            else:
                table = ("table", name, "")
            out.append(_Line(line, "header", table, inline=inline))
            continue
        k = _KEY.match(code) if depth == 0 else None
        if k:
            out.append(_Line(line, "key", table, key=k.group(1).strip('"'), inline=inline))
        else:
            out.append(_Line(line, "other", table, inline=inline))
        if code.count('"""') % 2 or code.count("'''") % 2:
            in_multiline = True
        depth = max(0, depth + _bracket_balance(code))
    return out


def _bracket_balance(code: str) -> int:
    """Open minus closed brackets outside strings (multi-line arrays span several lines)."""
    return sum((ch in "[{") - (ch in "]}") for _, ch in _outside_strings(code))


def _entry_id(raw: list[str], start: int) -> str:
    """The `id = "…"` of the list entry whose header is just above `start` (before the next header)."""
    for line in raw[start:]:
        if _HEADER.match(_split_inline(line)[0]):
            return ""
        m = _ID.match(line)
        if m:
            return m.group(1)
    return ""


def _anchor(line: _Line) -> Anchor:
    if line.kind == "header":
        return line.table
    return ("key", line.table, line.key)


def carry_comments(old_text: str, new_text: str) -> str:
    """`new_text` with the comments of `old_text` put back before (or at the end of) the same anchors.

    The new text's own comments stay, unless the carried block already contains them (the
    writer's standard first line), so nothing is doubled when a file is saved again and again."""
    old = _parse(old_text)
    new = _parse(new_text)
    present = {_anchor(l) for l in new if l.kind in ("header", "key")}
    order = [(_anchor(l), i) for i, l in enumerate(old) if l.kind in ("header", "key")]

    before: dict[Anchor, list[str]] = {}
    inline: dict[Anchor, str] = {}
    pending: list[str] = []
    for i, line in enumerate(old):
        if line.kind == "comment":
            pending.append(line.text)
            continue
        if line.kind == "blank":
            if pending:
                pending.append("")
            continue
        if pending:  # the block belongs to the first anchor from here on that the new text still has
            target = next((a for a, j in order if j >= i and a in present), ("end",))
            block = before.setdefault(target, [])
            block.extend(([""] if block else []) + _trim(pending, keep_last_blank=True))
            pending = []
        if line.kind in ("header", "key") and line.inline:
            inline[_anchor(line)] = line.inline
        elif line.inline:  # the end of a line inside a multi-line value: before the next anchor
            pending.append(line.inline.strip())
    trailing = _trim(pending)

    out: list[str] = []
    for line in new:
        if line.kind in ("header", "key"):
            a = _anchor(line)
            block = before.pop(a, [])
            if block:
                k = len(out)
                while k > 0 and out[k - 1].lstrip().startswith("#"):
                    k -= 1
                if all(c in block or c.startswith(WRITER_HEADER) for c in out[k:]):
                    del out[k:]  # the new text's comments are in the block already (or are the writer's header)
                out.extend(block)
            text = line.text
            if a in inline and not line.inline:
                text = text.rstrip() + inline[a]
            out.append(text)
        else:
            out.append(line.text)
    rest = before.pop(("end",), []) + trailing
    if rest:
        if out and out[-1].strip():
            out.append("")
        out.extend(rest)
    return "\n".join(out).rstrip("\n") + "\n"


def _trim(lines: list[str], *, keep_last_blank: bool = False) -> list[str]:
    """Drop blank lines at the ends of a comment block (one blank line before its anchor may stay)."""
    a, b = 0, len(lines)
    while a < b and not lines[a].strip():
        a += 1
    while b > a and not lines[b - 1].strip():
        b -= 1
    return lines[a:b] + ([""] if keep_last_blank and b < len(lines) else [])
