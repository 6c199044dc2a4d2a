"""Render :class:`engine.stats.tables.Table` objects as LaTeX (booktabs), ready for pdfLaTeX.

Why these choices:

* booktabs rules and ``\\multicolumn`` headers match the seed papers' tables;
* every comparison sign and symbol is in math mode (``$<$0.001``, ``$\\Delta > 0$``,
  ``$\\uparrow$``): in text mode a default pdfLaTeX setup (OT1 encoding) prints ``<`` as ``¡``;
* a table fits the text width: blocks the papers split (emotions, subsets, the two halves of
  the counterfactual table) are stacked in one float under one caption, long labels (model
  ids, verdicts) wrap in a fixed-width column, and ``adjustbox``'s ``max width`` scales a
  table down only when it is still wider than the line (tests keep that scale ≥ 0.8);
* one float per logical table, so a file of many tables does not overflow LaTeX's float queue.

Needs ``\\usepackage{booktabs,array,adjustbox}`` (the file's first line says so).
"""
from __future__ import annotations

import re

from .tables import Cell, Table

PREAMBLE = "% EEC Studio tables. Needs: \\usepackage{booktabs,array,adjustbox}"
#: Labels longer than this wrap in a column of WRAP_WIDTH (model ids, verdicts).
WRAP_AFTER = 22
WRAP_WIDTH = "3.2cm"

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"$<$", ">": r"$>$", "|": r"$|$"}
_BREAKS = {"/": r"/\allowbreak{}", "_": r"\_\allowbreak{}"}  # where a long label may wrap
_UNICODE = {"↑": r"$\uparrow$", "↓": r"$\downarrow$", "–": "--", "—": "---", "−": r"$-$", "Δ": r"$\Delta$",
            "α": r"$\alpha$", "≤": r"$\leq$", "≥": r"$\geq$", "×": r"$\times$", "·": r"$\cdot$", "±": r"$\pm$"}
_JOIN_MATH = re.compile(r"(?<!\\)\$( ?)\$")


def escape(text: str, *, breaks: bool = False) -> str:
    """Escape LaTeX specials; comparison signs and the Unicode symbols of our labels go to math mode.

    Adjacent math pieces are joined (``Δ > 0`` → ``$\\Delta > 0$``) so spacing is math spacing.
    ``breaks``: allow a line break after '/' and '_' (long model ids in a wrapping column).
    """
    table = {**_SPECIAL, **_BREAKS} if breaks else _SPECIAL
    out = "".join(table.get(ch, _UNICODE.get(ch, ch)) for ch in str(text))
    out = _JOIN_MATH.sub(lambda m: m.group(1), out)
    # a number right after a comparison joins it: "$>$ 0" -> "$> 0$"
    return re.sub(r"\$([^$]*[<>])\$ ?(-?\d+(?:\.\d+)?)", lambda m: f"${m.group(1)} {m.group(2)}$", out)


def _number(text: str) -> str:
    """A numeric cell's text in math mode: minus signs, ``<0.001``, intervals ``[a, b]``."""
    # "{<}" is an ordinary symbol: "<0.001" as the papers print it, without relation spacing
    return "$" + text.replace("−", "-").replace("<", "{<}").replace(">", "{>}") + "$"


def _cell(c: Cell) -> str:
    if c.numeric and c.text not in ("–", "") and (c.sup or any(ch in c.text for ch in "-−<>")):
        body = _number(c.text)
        return body[:-1] + f"^{{{c.sup}}}$" if c.sup else body
    if c.numeric:
        return c.text.replace("–", "--")
    text = escape(c.text, breaks=len(c.text) > WRAP_AFTER)
    return text + (rf"\textsuperscript{{{c.sup}}}" if c.sup else "")


def column_spec(table: Table) -> str:
    """``l`` columns whose labels are long become wrapping ``p`` columns."""
    spec = []
    for j, a in enumerate(table.align):
        longest = max((len(row[j].text) for row in table.rows if j < len(row)), default=0)
        spec.append(rf">{{\raggedright\arraybackslash}}p{{{WRAP_WIDTH}}}" if a == "l" and longest > WRAP_AFTER else a)
    return "".join(spec)


def _tabular(table: Table) -> list[str]:
    lines = [r"\begin{adjustbox}{max width=\linewidth}", rf"\begin{{tabular}}{{{column_spec(table)}}}", r"\toprule"]
    for hi, hrow in enumerate(table.header):
        cells, col, rules = [], 1, []
        for text, span in hrow:
            t = escape(text)
            if span > 1:
                cells.append(rf"\multicolumn{{{span}}}{{c}}{{{t}}}")
                if text and hi < len(table.header) - 1:
                    rules.append(rf"\cmidrule(lr){{{col}-{col + span - 1}}}")
            else:
                cells.append(t)
            col += span
        lines.append(" & ".join(cells) + r" \\")
        if rules:
            lines.append(" ".join(rules))
    lines.append(r"\midrule")
    above = None
    for i, row in enumerate(table.rows):
        if i in table.group_starts and i != 0:
            lines.append(r"\midrule")
        cells = [_cell(c) for c in row]
        if row and not row[0].numeric and row[0].text == above:
            cells[0] = ""  # the first column names a group: print it once, as the papers do
        above = row[0].text if row else None
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{adjustbox}"]
    return lines


def _float(blocks: list[Table], label: str | None) -> str:
    lines = [r"\begin{table}[htbp]", r"\centering", r"\small", r"\setlength{\tabcolsep}{4pt}"]
    titled = len(blocks) > 1
    for k, t in enumerate(blocks):
        if k:
            lines.append(r"\par\medskip")
        if titled and t.block_title:
            lines.append(rf"{{\footnotesize\itshape {escape(t.block_title)}}}\par\smallskip")
        lines += _tabular(t)
    notes = [n for t in blocks for n in t.notes]
    cap = blocks[0].caption + ("" if not notes else " " + " ".join(notes))
    lines.append(rf"\caption{{{escape(cap)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines)


def floats_of(tables: list[Table]) -> list[list[Table]]:
    """Tables grouped into floats: a table that ``continues`` joins the one before."""
    groups: list[list[Table]] = []
    for t in tables:
        if t.continues and groups:
            groups[-1].append(t)
        else:
            groups.append([t])
    return groups


def render(table: Table, label: str | None = None) -> str:
    """One table as its own float."""
    return _float([table], label)


def render_all(tables: list[Table], label: str | None = None, *, preamble: bool = True) -> str:
    groups = floats_of(tables)
    body = "\n\n".join(_float(g, f"{label}-{i + 1}" if label and len(groups) > 1 else label)
                       for i, g in enumerate(groups))
    return (PREAMBLE + "\n" + body) if preamble else body
