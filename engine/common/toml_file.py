"""Reading the project's TOML files (corpus definitions, sweep plans, prompt files) with lines.

One home for what every reader needs: UTF-8 decoding that names the line of a bad byte, a
byte-order mark dropped, a syntax error with its line, and best-effort line numbers for
field paths.

Why field lines:

tomllib reports line numbers only for syntax errors; for shape errors we know the
field path (``persons[3].gender``, ``axes.gender.reference``, ``expect.position.attr``).
Translators need a line to jump to, so we follow the path through the file: the n-th
``[[persons]]`` header, a ``[axes.gender]`` table header, then the key inside that table.
"""
from __future__ import annotations

import re
import tomllib
from typing import Any, Callable

#: makes the caller's error: (message, line, fix) -> an exception to raise
Fail = Callable[[str, "int | None", str], Exception]

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


def parse_toml(raw: bytes | str, fail: Fail) -> tuple[dict[str, Any], str]:
    """(data, text) of a TOML document; ``fail(message, line, fix)`` makes the error to raise.

    Bytes are decoded as UTF-8 (a bad byte is reported with its line), a leading byte-order
    mark (Windows editors write one) is dropped, syntax errors carry their line.
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})", raw[: exc.start].count(b"\n") + 1,
                       "save the file as UTF-8") from None
    else:
        text = raw
    text = text.removeprefix("\ufeff")
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        msg, line = syntax_error(exc, text)
        raise fail(f"TOML syntax error: {msg}", line,
                   "fix the syntax at that line (quotes, brackets, '=' between key and value)") from None
    except RecursionError:
        raise fail("nesting too deep", 1, "use at most a few levels of tables") from None
