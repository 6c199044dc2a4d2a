"""Render :class:`engine.stats.present.tables.Table` objects as LaTeX (booktabs), ready for pdfLaTeX.

Why these choices:

* booktabs rules and ``\\multicolumn`` headers match the seed papers' tables;
* every comparison sign and symbol is in math mode (``$<$0.001``, ``$\\Delta > 0$``,
  ``$\\uparrow$``): in text mode a default pdfLaTeX setup (OT1 encoding) prints ``<`` as ``¡``;
  quotes are TeX quotes (```no bias'``), never two closing ones;
* two widths (``tables.WIDTHS``): ``column`` tables (``table`` floats) are laid out to fit one
  column of a two-column paper (ACL, IEEE: 219 pt) at ≥ 0.9 scale in 10 and 11 pt — narrower layouts, abbreviations
  spelled out in the notes, long tables split into blocks per model — and ``page`` tables are
  ``table*`` floats across both columns. ``adjustbox``'s ``max width`` scales a table down only
  when a label is longer than any we test with (tests keep every table at ≥ 0.9 scale);
* one float per logical table (blocks the papers split, e.g. emotions or subsets, are stacked
  under one caption), split into floats of at most ``MAX_FLOAT_LINES`` lines so a float never
  outgrows a column;
* notes (abbreviations, warnings, why a statistic was not tested) are printed below the table in
  small type, never as columns: ``Table.notes`` is the one mechanism, for every layout;
* labels in a script pdfLaTeX cannot print (Arabic, Japanese...) are named in the file's header
  comment with the engine and fonts they need, or transliterated with ``transliterate=True``.

Needs ``\\usepackage{booktabs,array,adjustbox}`` (the file's first line says so).
"""
from __future__ import annotations

import re

import unicodedata

from engine.stats.present.tables import NOT_TESTED, Cell, Table

PREAMBLE = "% EEC Studio tables. Needs: \\usepackage{booktabs,array,adjustbox}"
#: Labels longer than this wrap in a column of WRAP_WIDTH (model ids, verdicts).
WRAP_AFTER = 22
WRAP_WIDTH = "3.2cm"
#: The most lines (header, body and block-title rows) one float holds: a column of an A4 paper
#: (24.7 cm) holds about 55 rows of \\small type, less the rules, the caption and the notes; a
#: ``table*`` float is as tall but its caption and notes take fewer lines. A label that wraps in its
#: WRAP_WIDTH column counts a line per WRAP_AFTER characters (``_lines``): the K&M summary of four
#: tasks with long group names counted 44 as rows but printed 64 lines, 105 pt taller than the page;
#: measured, 48 printed lines of it fit the page, 64 did not.
MAX_FLOAT_LINES = 30
MAX_WIDE_FLOAT_LINES = 50
#: Scripts pdfLaTeX prints with its default fonts (Latin and Latin-1/Extended-A accents: ¡, ¿, ñ, ü).
_PRINTABLE_UP_TO = 0x17F
#: What a script needs (xelatex or lualatex with fontspec and a font that has it).
SCRIPT_FONTS = {"ARABIC": "Noto Naskh Arabic or Amiri", "HEBREW": "Noto Sans Hebrew", "CJK": "Noto Serif CJK JP",
                "HIRAGANA": "Noto Serif CJK JP", "KATAKANA": "Noto Serif CJK JP", "HANGUL": "Noto Serif CJK KR",
                "CYRILLIC": "any Unicode font (e.g. Latin Modern with T2A, or Noto Serif)",
                "GREEK": "any Unicode font (e.g. Noto Serif)", "DEVANAGARI": "Noto Serif Devanagari"}

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"$<$", ">": r"$>$", "|": r"$|$"}
_BREAKS = {"/": r"/\allowbreak{}", "_": r"\_\allowbreak{}"}  # where a long label may wrap
_UNICODE = {"↑": r"$\uparrow$", "↓": r"$\downarrow$", "–": "--", "—": "---", "−": r"$-$", "Δ": r"$\Delta$",
            "α": r"$\alpha$", "≤": r"$\leq$", "≥": r"$\geq$", "×": r"$\times$", "·": r"$\cdot$", "±": r"$\pm$",
            "†": r"\dag{}", "‡": r"\ddag{}", "§": r"\S{}", "¶": r"\P{}",
            "“": "``", "”": "''", "‘": "`", "’": "'", "…": r"\dots{}"}
_JOIN_MATH = re.compile(r"(?<!\\)\$( ?)\$")
#: an opening quote: ' or " at the start or after a space or an opening bracket
_OPEN_QUOTE = re.compile(r"""(^|[\s(\[{])(["'])(?=\S)""")


def _tex_quotes(text: str) -> str:
    """'no bias' -> `no bias', "x" -> ``x'': TeX prints ' and " as closing quotes only."""
    text = _OPEN_QUOTE.sub(lambda m: m.group(1) + ("``" if m.group(2) == '"' else "`"), text)
    return text.replace('"', "''")


def escape(text: str, *, breaks: bool = False) -> str:
    """Escape LaTeX specials; comparison signs and the Unicode symbols of our labels go to math mode.

    Adjacent math pieces are joined (``Δ > 0`` → ``$\\Delta > 0$``) so spacing is math spacing.
    ``breaks``: allow a line break after '/' and '_' (long model ids in a wrapping column).
    """
    table = {**_SPECIAL, **_BREAKS} if breaks else _SPECIAL
    out = "".join(table.get(ch, _UNICODE.get(ch, ch)) for ch in _tex_quotes(str(text)))
    out = _JOIN_MATH.sub(lambda m: m.group(1), out)
    # a number right after a comparison joins it: "$>$ 0" -> "$> 0$"
    return re.sub(r"\$([^$]*[<>])\$ ?(-?\d+(?:\.\d+)?)", lambda m: f"${m.group(1)} {m.group(2)}$", out)


def _number(text: str) -> str:
    """A numeric cell's text in math mode: minus signs, ``<0.001``, intervals ``[a, b]``."""
    # "{<}" is an ordinary symbol: "<0.001" as the papers print it, without relation spacing
    return "$" + text.replace("−", "-").replace("<", "{<}").replace(">", "{>}") + "$"


def _cell(c: Cell) -> str:
    if c.text == NOT_TESTED:  # not tested: an em dash and the footnote mark of its reason
        return "---" + (rf"\textsuperscript{{{escape(c.sup)}}}" if c.sup else "")
    if c.numeric and c.text not in ("–", "") and (c.sup or any(ch in c.text for ch in "-−<>")):
        body = _number(c.text)
        return body[:-1] + f"^{{{c.sup}}}$" if c.sup else body
    if c.numeric:
        return c.text.replace("–", "--")
    text = escape(c.text, breaks=len(c.text) > WRAP_AFTER)
    return text + (rf"\textsuperscript{{{escape(c.sup)}}}" if c.sup else "")


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


def _float(blocks: list[Table], label: str | None, *, wide: bool = False, notes: list[str] | None = None,
           continued: bool = False) -> str:
    env = "table*" if wide else "table"
    lines = [rf"\begin{{{env}}}[htbp]", r"\centering", r"\small", r"\setlength{\tabcolsep}{3pt}"]
    titled = len(blocks) > 1 or bool(blocks[0].block_title and continued)
    for k, t in enumerate(blocks):
        if k:
            lines.append(r"\par\medskip")
        if titled and t.block_title:
            lines.append(rf"{{\footnotesize\itshape {escape(t.block_title, breaks=True)}}}\par\smallskip")
        lines += _tabular(t)
    notes = list(dict.fromkeys(notes if notes is not None else [n for t in blocks for n in t.notes]))
    if notes:  # below the table, in small type: never a column, never crowding the caption
        lines.append(r"\par\smallskip{\footnotesize\raggedright " + r" \\ ".join(escape(n) for n in notes)
                     + r"\par}")
    cap = blocks[0].caption + (" (continued)" if continued else "")
    lines.append(rf"\caption{{{escape(cap)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines.append(rf"\end{{{env}}}")
    return "\n".join(lines)


def floats_of(tables: list[Table]) -> list[list[Table]]:
    """Tables grouped into logical tables: a table that ``continues`` joins the one before."""
    groups: list[list[Table]] = []
    for t in tables:
        if t.continues and groups:
            groups[-1].append(t)
        else:
            groups.append([t])
    return groups


def _wrapping(t: Table) -> list[bool]:
    """Which columns wrap (``column_spec``'s p columns)."""
    return [a == "l" and max((len(row[j].text) for row in t.rows if j < len(row)), default=0) > WRAP_AFTER
            for j, a in enumerate(t.align)]


def _row_lines(row: list, wrapping: list[bool]) -> int:
    """Printed lines of one row: a label in a wrapping column takes a line per WRAP_AFTER characters."""
    return max([1] + [-(-len(c.text) // WRAP_AFTER) for c, w in zip(row, wrapping) if w])


def _lines(t: Table) -> int:
    wrapping = _wrapping(t)
    return len(t.header) + sum(_row_lines(r, wrapping) for r in t.rows) + (1 if t.block_title else 0) + 1


def _row_chunks(t: Table, room: int) -> list[tuple[int, int]]:
    """(start, end) of consecutive rows that print in at most ``room`` lines each (at least one row)."""
    wrapping, chunks, start, used = _wrapping(t), [], 0, 0
    for i, row in enumerate(t.rows):
        n = _row_lines(row, wrapping)
        if used and used + n > room:
            chunks.append((start, i))
            start, used = i, 0
        used += n
    chunks.append((start, len(t.rows)))
    return chunks


def split_float(blocks: list[Table], max_lines: int = MAX_FLOAT_LINES) -> list[list[Table]]:
    """One logical table in floats of at most ``max_lines`` lines, cut between blocks; a single
    block longer than that is cut between rows, its header repeated."""
    from dataclasses import replace

    pieces: list[Table] = []
    for t in blocks:
        room = max(4, max_lines - len(t.header) - 2)
        if _lines(t) - len(t.header) - 2 <= room:
            pieces.append(t)
            continue
        for i, end in _row_chunks(t, room):  # rows whose labels wrap take more than one line each
            starts = [s - i for s in t.group_starts if i <= s < end]
            pieces.append(replace(t, rows=t.rows[i:end], group_starts=starts,
                                  block_title=t.block_title + (" (continued)" if i else "")))
    out: list[list[Table]] = [[]]
    used = 0
    for t in pieces:
        if out[-1] and used + _lines(t) > max_lines:
            out.append([])
            used = 0
        out[-1].append(t)
        used += _lines(t)
    return out


def _non_latin(tables: list[Table]) -> dict[str, str]:
    """{script: an example} of the labels pdfLaTeX cannot print."""
    found: dict[str, str] = {}
    for t in tables:
        texts = [t.caption, t.block_title, *t.notes] + [x for h in t.header for x, _ in h] + [c.text for r in t.rows for c in r]
        for text in texts:
            for ch in str(text):
                if ord(ch) > _PRINTABLE_UP_TO and ch not in _UNICODE and ch not in "–—−" and ch.isalpha():
                    script = unicodedata.name(ch, "UNKNOWN").split()[0]
                    found.setdefault(script, str(text)[:40])
    return found


def header_comment(tables: list[Table], *, wide: bool) -> str:
    """The file's first lines: the packages, the layout, and what non-Latin labels need."""
    lines = [PREAMBLE,
             ("% Layout: full-width table* floats (both columns of a two-column paper)." if wide else
              "% Layout: table floats for one column of a two-column paper (ACL, IEEE: 219 pt), at >= 0.9 scale in 10 and 11 pt;"
              " the -wide.tex file has table* floats across the page.")]
    scripts = _non_latin(tables)
    if scripts:
        names = ", ".join(f"{s.title()} (e.g. {ex!r})" for s, ex in scripts.items())
        fonts = "; ".join(f"{s.title()}: {SCRIPT_FONTS.get(s, 'a font that has it')}" for s in scripts)
        lines += [f"% Labels in {names}: pdflatex cannot print them.",
                  "% Compile with xelatex or lualatex and \\usepackage{fontspec} with a font that has these scripts",
                  f"% ({fonts}), e.g. \\setmainfont{{Noto Serif}} plus \\newfontfamily for the script; "
                  "or render with transliterate=True for ASCII labels."]
    return "\n".join(lines)


def transliterated(tables: list[Table]) -> list[Table]:
    """Copies of ``tables`` whose labels in scripts pdfLaTeX cannot print are transliterated to ASCII
    (anyascii: فلان -> flan, 日本 -> RiBen)."""
    from dataclasses import replace

    from anyascii import anyascii

    def tr(text: str) -> str:
        return "".join(anyascii(ch) if ord(ch) > _PRINTABLE_UP_TO and ch not in _UNICODE and ch.isalpha() else ch
                       for ch in str(text))

    out = []
    for t in tables:
        out.append(replace(t, caption=tr(t.caption), block_title=tr(t.block_title), notes=[tr(n) for n in t.notes],
                           header=[[(tr(x), span) for x, span in h] for h in t.header],
                           rows=[[replace(c, text=tr(c.text)) for c in r] for r in t.rows]))
    return out


def render(table: Table, label: str | None = None, *, wide: bool = False) -> str:
    """One table as its own float."""
    return _float([table], label, wide=wide)


def render_all(tables: list[Table], label: str | None = None, *, preamble: bool = True, wide: bool = False,
               transliterate: bool = False) -> str:
    """Every table: one float per logical table (cut into floats of at most MAX_FLOAT_LINES lines);
    ``wide``: ``table*`` floats across a two-column page; ``transliterate``: ASCII for labels in
    scripts pdfLaTeX cannot print."""
    if transliterate:
        tables = transliterated(tables)
    floats: list[tuple[list[Table], list[str], bool]] = []
    for group in floats_of(tables):
        notes = [n for t in group for n in t.notes]
        parts = split_float(group, MAX_WIDE_FLOAT_LINES if wide else MAX_FLOAT_LINES)
        for k, part in enumerate(parts):
            floats.append((part, notes, k > 0))
    body = "\n\n".join(_float(part, f"{label}-{i + 1}" if label and len(floats) > 1 else label, wide=wide,
                              notes=notes, continued=cont)
                       for i, (part, notes, cont) in enumerate(floats))
    return (header_comment(tables, wide=wide) + "\n" + body) if preamble else body
