"""Best-effort line numbers for field paths in a TOML file.

tomllib reports line numbers only for syntax errors; for shape errors we know the
field path (``persons[3].gender``, ``axes.gender.reference``, ``expect.position.attr``).
Translators need a line to jump to, so we follow the path through the file: the n-th
``[[persons]]`` header, a ``[axes.gender]`` table header, then the key inside that table.
"""
from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")


def locate(text: str, path: str) -> int | None:
    lines = text.splitlines()
    headers = []  # (line index, dotted name without spaces, is an array-of-tables header)
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if m:
            headers.append((i, re.sub(r"\s+", "", m.group(2)).replace('"', ""), m.group(1) == "[["))
    parts = re.findall(r"([^.\[\]]+)(?:\[(\d+)\])?", path)
    start, prefix, pending = 0, "", []  # current line, dotted name of its table, names not placed yet
    placed = False
    for name, index in parts:
        dotted = ".".join([p for p in [prefix] if p] + pending + [name])
        if index != "":
            hits = [i for i, h, arr in headers if arr and h == dotted and i >= start]
            if len(hits) > int(index):
                start, prefix, pending, placed = hits[int(index)], dotted, [], True
                continue
        else:
            hit = next((i for i, h, arr in headers if not arr and h == dotted and i >= start), None)
            if hit is not None:
                start, prefix, pending, placed = hit, dotted, [], True
                continue
            if any(h.startswith(dotted + ".") for i, h, _ in headers if i >= start):
                pending.append(name)  # a table further down names this part and the next one
                continue
        found = _key_line(lines, start, _section_end(headers, start, lines), name)
        if found is None:  # not in the current table: the line we reached is the best we have
            return start + 1 if placed else None
        start, placed = found, True
    return start + 1 if placed else None


def _section_end(headers: list[tuple[int, str, bool]], start: int, lines: list[str]) -> int:
    return next((i for i, _, _ in headers if i > start), len(lines))


def _key_line(lines: list[str], start: int, end: int, key: str) -> int | None:
    pat = re.compile(r"^\s*(?:\"?" + re.escape(key) + r"\"?)\s*=|[{,]\s*\"?" + re.escape(key) + r"\"?\s*=")
    for i in range(start, end):
        if pat.search(lines[i]):
            return i
    return None


def syntax_error(exc: Exception, text: str) -> tuple[str, int | None]:
    """(message, line) of a ``tomllib.TOMLDecodeError``: its "(at line N, column M)" tail as a line
    number, and "(at end of document)" as the last line (the file is probably cut short)."""
    msg, line = str(exc), None
    if "(at line" in msg:
        try:
            line = int(msg.split("(at line", 1)[1].split(",", 1)[0])
        except ValueError:
            line = None
        msg = msg.split("(at line", 1)[0].strip()
    elif "(at end of document)" in msg:
        line = max(1, len(text.splitlines()))
        msg = msg.replace("(at end of document)", "at the end of the file (is it truncated?)").strip()
    return msg, line
