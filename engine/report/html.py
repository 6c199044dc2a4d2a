"""HTML building blocks of the report: page shell, tables, datasheet documents.

Why hand-written HTML: the report must open from a USB stick with no network, so it has
no scripts, web fonts, style sheets or images from elsewhere — one file with its CSS inline
and its charts as inline SVG. Everything that comes from data is escaped here.
"""
from __future__ import annotations

import re
from html import escape
from typing import Iterable, Sequence

from engine.package.document import Bullets, Document, Table as DocTable
from engine.stats.present.tables import Table as StatTable

CSS = """
:root { --ink:#1d2733; --muted:#5f6b7a; --line:#d9dee5; --band:#f6f8fa; --accent:#3b6ea8; --sig:#b3261e; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 32px 64px; }
header.top { border-bottom: 3px solid var(--accent); padding-bottom: 12px; margin-bottom: 8px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 8px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 6px; }
h4 { font-size: 14px; margin: 16px 0 4px; }
p.sub, p.legend, .muted { color: var(--muted); }
nav.toc { background: var(--band); border: 1px solid var(--line); border-radius: 6px; padding: 8px 16px;
          margin: 16px 0; }
nav.toc ol { margin: 4px 0; padding-left: 20px; columns: 2; }
nav.toc a { color: var(--accent); text-decoration: none; }
table { border-collapse: collapse; margin: 8px 0 4px; font-size: 13px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; text-align: left; }
thead th { background: var(--band); border-bottom: 2px solid var(--ink); font-weight: 600; }
thead th.span { text-align: center; border-bottom: 1px solid var(--muted); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th.num { text-align: right; }
tr.group-start td { border-top: 2px solid var(--muted); }
tbody tr:nth-child(even) td { background: #fbfcfd; }
sup.stars { color: var(--sig); font-weight: 700; margin-left: 1px; line-height: 0; }
td.sig { color: var(--sig); font-weight: 600; }
.caption { color: var(--muted); font-size: 12.5px; max-width: 1000px; margin: 2px 0 14px; }
.tw { overflow-x: auto; max-width: 100%; }
td.nw { white-space: nowrap; }
code.hash { font-size: 11.5px; }
.block-title { font-style: italic; font-size: 12.5px; margin: 10px 0 0; }
.kv th { width: 210px; background: var(--band); font-weight: 600; }
.box { border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin: 12px 0; }
.warn { border-left: 4px solid #e8a33d; background: #fff8ec; padding: 8px 12px; margin: 8px 0; }
.chart { display: block; max-width: 100%; height: auto; margin: 8px 0; border: 1px solid var(--line);
         border-radius: 4px; }
pre { background: var(--band); border: 1px solid var(--line); padding: 10px; overflow-x: auto; font-size: 12px;
      white-space: pre-wrap; word-break: break-word; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
details summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
.datasheet { border: 1px solid var(--line); border-radius: 6px; padding: 4px 20px 12px; margin: 16px 0; }
.datasheet h3 { border: none; }
footer { margin-top: 48px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print {
  /* a printed report (a paper's supplement) keeps every column and every collapsed table */
  @page { size: A4; margin: 12mm 10mm; }
  body { font-size: 9pt; }
  main { max-width: none; padding: 0; }
  nav.toc { display: none; }
  h2 { break-before: page; }
  main > h2:first-of-type { break-before: auto; }
  .chart { break-inside: avoid; max-width: 100%; }
  .tw { overflow: visible; max-width: none; }
  table { width: 100%; font-size: 7.5pt; table-layout: auto; }
  th, td { padding: 2px 3px; }
  th, td.num { white-space: nowrap; }
  /* words never break inside ("textblo|b"): lines break at spaces, hyphens and the <wbr> after / _ :
     of long ids (breakable); a caption prints once per logical table (stat_tables) */
  td, td.nw { white-space: normal; overflow-wrap: normal; word-break: normal; hyphens: manual; }
  tr, .caption { break-inside: avoid; }
  .screen-only { display: none !important; }
  thead { display: table-header-group; }
  details > summary { list-style: none; color: var(--ink); font-weight: 600; }
  details::details-content { content-visibility: visible; display: block; }
  details:not([open]) > *:not(summary) { display: block; }
  pre { white-space: pre-wrap; }
}
"""

_CODE = re.compile(r"`([^`]+)`")


def esc(text: object) -> str:
    return escape("" if text is None else str(text), quote=True)


def inline(text: object) -> str:
    """Escape, then show `code` spans as <code> (the datasheet's only Markdown)."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", esc(text))


def page(title: str, body: Iterable[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"generator\" content=\"EEC Studio\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
            + "\n".join(body) + "\n</main>\n</body>\n</html>\n")


def breakable(text: object) -> str:
    """Escaped text where a long id may break: after / _ and : (a model id, a spec, a file path)."""
    return re.sub(r"([/_:])(?=\S)", r"\1<wbr>", esc(text))


def simple_table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, numeric: Sequence[int] = (),
                 raw: Sequence[int] = (), cls: str = "") -> str:
    """A one-header table; columns in ``numeric`` are right-aligned, those in ``raw`` are trusted HTML."""
    num = set(numeric)
    out = ['<div class="tw">', f'<table class="{esc(cls)}">' if cls else "<table>", "<thead><tr>"]
    out += [f'<th class="num">{esc(h)}</th>' if i in num else f"<th>{esc(h)}</th>" for i, h in enumerate(headers)]
    out.append("</tr></thead><tbody>")
    for row in rows:
        cells = []
        for i, c in enumerate(row):
            body = str(c) if i in raw else breakable(c)
            cells.append(f'<td class="num">{body}</td>' if i in num else f"<td{_nw(c, i in raw)}>{body}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _nw(text: object, raw: bool = False) -> str:
    """Short labels (ids, group names) never break inside: 'en-kiritchenko2018' stays one word."""
    return ' class="nw"' if not raw and len(str(text)) <= 28 else ""


def kv_table(pairs: Iterable[tuple[str, object]]) -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{inline(v)}</td></tr>" for k, v in pairs)
    return f'<table class="kv"><tbody>{rows}</tbody></table>'


def stars_html(stars: str) -> str:
    return f'<sup class="stars">{esc(stars)}</sup>' if stars else ""


def stat_tables(tables: list[StatTable]) -> list[str]:
    """Paper tables as HTML, one caption per logical table: the blocks of a table that ``continues``
    (the subsets of one corpus × axis) sit under their block titles, and the caption with every note
    follows the last block once — as one LaTeX float prints it (a printed report repeated each caption
    once per block)."""
    from engine.stats.present.latex import floats_of

    out = []
    for group in floats_of(tables):
        titled = len(group) > 1
        for t in group:
            if titled and t.block_title:
                out.append(f'<p class="block-title">{esc(t.block_title)}</p>')
            out.append(stat_table(t, caption=False))
        notes = list(dict.fromkeys(n for t in group for n in t.notes))
        cap = group[0].caption + ("" if not notes else " " + " ".join(notes))
        out.append(f'<p class="caption">{esc(cap)}</p>')
    return out


def stat_table(table: StatTable, *, caption: bool = True) -> str:
    """An engine.stats Table (a paper layout) as HTML, stars as superscripts; its caption below it
    unless ``caption`` is False (``stat_tables`` gives a logical table's caption once)."""
    out = ['<div class="tw"><table>', "<thead>"]
    for hi, hrow in enumerate(table.header):
        cells, col = [], 0
        for text, span in hrow:
            align = table.align[col] if col < len(table.align) else "l"
            cls = "span" if span > 1 else ("num" if align == "r" else "")
            attrs = (f' colspan="{span}"' if span > 1 else "") + (f' class="{cls}"' if cls else "")
            cells.append(f"<th{attrs}>{esc(text)}</th>")
            col += span
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</thead><tbody>")
    starts = set(table.group_starts)
    for i, row in enumerate(table.rows):
        tr = '<tr class="group-start">' if i in starts and i else "<tr>"
        cells = []
        for j, c in enumerate(row):
            num = c.numeric or (j < len(table.align) and table.align[j] == "r")
            body = (esc(c.text) if num else breakable(c.text)) + stars_html(c.sup)
            cells.append(f'<td class="num">{body}</td>' if num else f"<td{_nw(c.text)}>{body}</td>")
        out.append(tr + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    if caption:
        cap = table.caption + ("" if not table.notes else " " + " ".join(table.notes))
        out.append(f'<p class="caption">{esc(cap)}</p>')
    return "\n".join(out)


def document(doc: Document, level: int = 3, anchor: str = "") -> str:
    """A datasheet (engine.package.document.Document) as HTML: the same content as README.md."""
    h, hs = f"h{level}", f"h{min(level + 1, 6)}"
    idattr = f' id="{esc(anchor)}"' if anchor else ""
    out = [f'<section class="datasheet"{idattr}>', f"<{h}>{inline(doc.title)}</{h}>"]
    out += [_block(b) for b in doc.intro]
    for s in doc.sections:
        out.append(f"<{hs}>{inline(s.title)}</{hs}>")
        out += [_block(b) for b in s.blocks]
    out.append("</section>")
    return "\n".join(out)


def _block(block) -> str:
    if isinstance(block, DocTable):
        numeric = [i for i, h in enumerate(block.headers) if i and all(_numberish(r[i]) for r in block.rows
                                                                        if i < len(r))]
        out = ['<div class="tw"><table><thead><tr>']
        out += [f'<th class="num">{inline(x)}</th>' if i in numeric else f"<th>{inline(x)}</th>"
                for i, x in enumerate(block.headers)]
        out.append("</tr></thead><tbody>")
        for r in block.rows:
            out.append("<tr>" + "".join(f'<td class="num">{inline(c)}</td>' if i in numeric else f"<td>{inline(c)}</td>"
                                        for i, c in enumerate(r)) + "</tr>")
        out.append("</tbody></table></div>")
        return "\n".join(out)
    if isinstance(block, Bullets):
        return "<ul>" + "".join(f"<li>{inline(i)}</li>" for i in block.items) + "</ul>"
    return f"<p>{inline(block)}</p>"


def _numberish(text: object) -> bool:
    return bool(re.fullmatch(r"[-−]?[\d,.]+%?", str(text).strip()))
