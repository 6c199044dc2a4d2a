"""Template markup drawn as coloured chips, so right-to-left templates stay readable.

Why: in an Arabic template such as ``{person} شعر بـ{emotion kind=state gender=person.gender}``
the bidi algorithm scatters the Latin slot text (braces, ``=`` and dots) across the sentence.
Each ``{…}`` is drawn as one left-to-right *isolate* (U+2066 … U+2069) on a tinted background:
the slot stays in one piece, in its place in the sentence, and is told apart from the words.
"""
from __future__ import annotations

import html
import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QPalette, QTextDocument, QTextOption
from PySide6.QtWidgets import QApplication, QStyle

SLOT_RX = re.compile(r"\{[^{}]*\}")
CHIP = "background-color:#e1eaf7; color:#1a4d8f;"


def has_markup(text: str) -> bool:
    return bool(SLOT_RX.search(text or ""))


def markup_html(text: str) -> str:
    """The text as HTML: plain words escaped, each slot an isolated, tinted span."""
    out, last = [], 0
    for m in SLOT_RX.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        out.append(f"<span style='{CHIP}'>\u2066{html.escape(m.group(0))}\u2069</span>")
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def markup_document(text: str, rtl: bool, font: Any) -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultFont(font)
    opt = QTextOption()
    opt.setTextDirection(Qt.RightToLeft if rtl else Qt.LeftToRight)
    opt.setWrapMode(QTextOption.NoWrap)
    opt.setAlignment(Qt.AlignRight if rtl else Qt.AlignLeft)
    doc.setDefaultTextOption(opt)
    doc.setDocumentMargin(0)
    doc.setHtml(markup_html(text))
    return doc


def paint_markup(painter: Any, option: Any, text: str, rtl: bool) -> None:
    """Draw a cell (background, selection) and then ``text`` with chips, right-aligned when rtl."""
    style = option.widget.style() if option.widget is not None else QApplication.style()
    opt = type(option)(option)
    opt.text = ""
    style.drawControl(QStyle.CE_ItemViewItem, opt, painter, option.widget)
    rect = style.subElementRect(QStyle.SE_ItemViewItemText, opt, option.widget).adjusted(2, 0, -2, 0)
    doc = markup_document(text, rtl, option.font)
    ideal = doc.idealWidth()
    # too long for the cell: keep the sentence's *start* in view (the right end in right-to-left)
    doc.setTextWidth(max(ideal, rect.width()))
    shift = rect.width() - doc.textWidth() if rtl else 0.0
    ctx = QAbstractTextDocumentLayout.PaintContext()
    selected = bool(option.state & QStyle.State_Selected)
    ctx.palette.setColor(QPalette.Text, option.palette.color(QPalette.HighlightedText if selected else QPalette.Text))
    painter.save()
    painter.setClipRect(rect)
    painter.translate(rect.left() + shift, rect.top() + max(0.0, (rect.height() - doc.size().height()) / 2))
    doc.documentLayout().draw(painter, ctx)
    painter.restore()
