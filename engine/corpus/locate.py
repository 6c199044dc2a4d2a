"""Best-effort line numbers for field paths in a TOML file.

tomllib reports line numbers only for syntax errors; for shape errors we know the
field path (``persons[3].gender``). Translators need a line to jump to, so we scan the
text for the n-th ``[[persons]]`` header and the key after it.
"""
from __future__ import annotations

import re


def locate(text: str, path: str) -> int | None:
    lines = text.splitlines()
    parts = re.findall(r"([^.\[\]]+)(?:\[(\d+)\])?", path)
    start = 0
    for name, index in parts:
        found = None
        if index != "":
            header = re.compile(r"^\s*\[\[\s*" + re.escape(name) + r"\s*\]\]")
            count = -1
            for i in range(start, len(lines)):
                if header.match(lines[i]):
                    count += 1
                    if count == int(index):
                        found = i
                        break
            if found is None:  # maybe an inline array: fall back to the key line
                found = _key_line(lines, start, name)
        else:
            found = _key_line(lines, start, name)
            if found is None:
                header = re.compile(r"^\s*\[\s*(?:[^\]]*\.)?" + re.escape(name) + r"\s*\]")
                found = next((i for i in range(start, len(lines)) if header.match(lines[i])), None)
        if found is None:
            return start + 1 if start else None
        start = found
    return start + 1


def _key_line(lines: list[str], start: int, key: str) -> int | None:
    pat = re.compile(r"^\s*(?:\"?" + re.escape(key) + r"\"?)\s*=|[{,]\s*\"?" + re.escape(key) + r"\"?\s*=")
    for i in range(start, len(lines)):
        if pat.search(lines[i]):
            return i
    return None
