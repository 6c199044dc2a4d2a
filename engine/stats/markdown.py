"""Render :class:`engine.stats.tables.Table` objects as GitHub-flavoured Markdown.

Why flattened headers: Markdown tables have a single header row, so a spanning group
("Anger Coefficients") is joined to each column it covers ("Anger Coefficients: Gender").
Asterisks and pipes are escaped so stars show as stars instead of turning into emphasis.
"""
from __future__ import annotations

from .tables import Cell, Table


def escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def _flat_header(table: Table) -> list[str]:
    names = [[] for _ in range(table.ncols)]
    for hrow in table.header:
        col = 0
        for text, span in hrow:
            for k in range(col, min(col + span, table.ncols)):
                if text:
                    names[k].append(text)
            col += span
    return [": ".join(n) for n in names]


def _cell(c: Cell) -> str:
    return escape(c.text + c.sup)


def render(table: Table) -> str:
    head = _flat_header(table)
    lines = ["| " + " | ".join(escape(h) for h in head) + " |",
             "|" + "|".join("---:" if a == "r" else ":---" for a in table.align) + "|"]
    for row in table.rows:
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    cap = table.caption + ("" if not table.notes else " " + " ".join(table.notes))
    return "\n".join(lines) + "\n\n" + escape(cap) + "\n"


def render_all(tables: list[Table]) -> str:
    return "\n".join(render(t) for t in tables)
