"""A tiny document model (sections of paragraphs, bullet lists and tables) with a Markdown view.

Why not write Markdown directly: the same datasheet goes into a package as README.md and
into the HTML audit report; building it once as data and rendering it twice keeps the two
identical without parsing Markdown back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Bullets:
    items: list[str]


Block = Union[str, Bullets, Table]


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Document:
    title: str
    intro: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    def to_markdown(self) -> str:
        out = [f"# {_inline(self.title)}", ""]
        for block in self.intro:
            out += _block_md(block)
        for s in self.sections:
            out += [f"## {_inline(s.title)}", ""]
            for block in s.blocks:
                out += _block_md(block)
        return "\n".join(out).rstrip() + "\n"


def _inline(text: str) -> str:
    return " ".join(str(text).split())


def _cell(text: str) -> str:
    return _inline(text).replace("|", "\\|")


def _block_md(block: Block) -> list[str]:
    if isinstance(block, Table):
        lines = ["| " + " | ".join(_cell(h) for h in block.headers) + " |",
                 "|" + "|".join("---" for _ in block.headers) + "|"]
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in block.rows]
        return lines + [""]
    if isinstance(block, Bullets):
        return [f"- {_inline(item)}" for item in block.items] + [""]
    return [str(block).strip(), ""]
