"""Render :class:`engine.stats.present.tables.Table` objects as GitHub-flavoured Markdown.

Why flattened headers: Markdown tables have a single header row, so a spanning group
("Anger Coefficients") is joined to each column it covers ("Anger Coefficients: Gender").
Asterisks and pipes are escaped so stars show as stars instead of turning into emphasis.
"""
from __future__ import annotations

from engine.stats.present.tables import Cell, Table


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


def _grid(table: Table) -> str:
    head = _flat_header(table)
    lines = ["| " + " | ".join(escape(h) for h in head) + " |",
             "|" + "|".join("---:" if a == "r" else ":---" for a in table.align) + "|"]
    for row in table.rows:
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines) + "\n"


def _notes(notes: list[str]) -> str:
    """Table notes (abbreviations, warnings, why a statistic was not tested), each once, below the caption."""
    unique = list(dict.fromkeys(notes))
    return "".join(f"\n{escape(n)}\n" for n in unique)


def render(table: Table) -> str:
    return _grid(table) + "\n" + escape(table.caption) + "\n" + _notes(table.notes)


def _group(blocks: list[Table]) -> str:
    """Blocks of one logical table (see Table.continues): each under its title, one caption."""
    if len(blocks) == 1:
        return render(blocks[0])
    parts = [(f"*{escape(t.block_title)}*\n\n" if t.block_title else "") + _grid(t) for t in blocks]
    notes = [n for t in blocks for n in t.notes]
    return "\n".join(parts) + "\n" + escape(blocks[0].caption) + "\n" + _notes(notes)


def render_all(tables: list[Table]) -> str:
    from engine.stats.present.latex import floats_of

    return "\n".join(_group(g) for g in floats_of(tables))
