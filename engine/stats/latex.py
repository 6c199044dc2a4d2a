"""Render :class:`engine.stats.tables.Table` objects as LaTeX (booktabs).

Why these choices: booktabs rules and ``\\multicolumn`` headers match the seed papers'
tables; arrows, dashes and Greek letters are written as LaTeX commands so the output also
compiles with pdfLaTeX (no Unicode engine needed). Needs ``\\usepackage{booktabs}``.
"""
from __future__ import annotations

from .tables import Cell, Table

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_UNICODE = {"↑": r"$\uparrow$", "↓": r"$\downarrow$", "–": "--", "—": "---", "−": "-", "Δ": r"$\Delta$",
            "α": r"$\alpha$", "≤": r"$\leq$", "×": r"$\times$", "·": r"$\cdot$"}


def escape(text: str) -> str:
    """Escape LaTeX specials and spell out the Unicode symbols used in our labels."""
    out = "".join(_SPECIAL.get(ch, ch) for ch in str(text))
    for u, tex in _UNICODE.items():
        out = out.replace(u, tex)
    return out


def _cell(c: Cell) -> str:
    if c.numeric and c.text not in ("–", ""):
        body = c.text.replace("−", "-")
        if c.sup:
            return f"${body}^{{{c.sup}}}$"
        return f"${body}$" if body.startswith("-") else escape(body)
    text = escape(c.text)
    return text + (rf"\textsuperscript{{{c.sup}}}" if c.sup else "")


def render(table: Table, label: str | None = None) -> str:
    lines = [r"\begin{table}[ht]", r"\centering", rf"\begin{{tabular}}{{{table.align}}}", r"\toprule"]
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
    for i, row in enumerate(table.rows):
        if i in table.group_starts and i != 0:
            lines.append(r"\midrule")
        lines.append(" & ".join(_cell(c) for c in row) + r" \\")
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    cap = table.caption + ("" if not table.notes else " " + " ".join(table.notes))
    lines.append(rf"\caption{{{escape(cap)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines)


def render_all(tables: list[Table], label: str | None = None) -> str:
    return "\n\n".join(render(t, f"{label}-{i + 1}" if label and len(tables) > 1 else label)
                       for i, t in enumerate(tables))
