"""Template markup drawn as coloured chips, so right-to-left templates stay readable.

Why: in an Arabic template such as ``{person} شعر بـ{emotion kind=state gender=person.gender}``
the bidi algorithm scatters the Latin slot text (braces, ``=`` and dots) across the sentence.
Each ``{…}`` is drawn as one left-to-right *isolate* (U+2066 … U+2069) on a tinted background:
the slot stays in one piece, in its place in the sentence, and is told apart from the words.
"""
from __future__ import annotations

import html
import re
from typing import Any, Callable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (QAbstractTextDocumentLayout, QColor, QPalette, QSyntaxHighlighter, QTextBlockFormat, QTextCharFormat,
                           QTextCursor, QTextDocument, QTextOption)
from PySide6.QtWidgets import QApplication, QStyle

from engine.corpus.check.spelling import Misspelling

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


def markup_document(text: str, rtl: bool, font: Any, spelling: Callable[[str], list] | None = None) -> QTextDocument:
    """The cell's text as a document; ``spelling(text)`` gives its misspelt words, underlined.
    Slots are chips right to left only, where the bidi algorithm needs them; a left-to-right cell
    drawn here (for its underlines) looks like its neighbours."""
    doc = QTextDocument()
    doc.setDefaultFont(font)
    opt = QTextOption()
    opt.setTextDirection(Qt.RightToLeft if rtl else Qt.LeftToRight)
    opt.setWrapMode(QTextOption.NoWrap)
    opt.setAlignment(Qt.AlignRight if rtl else Qt.AlignLeft)
    doc.setDefaultTextOption(opt)
    doc.setDocumentMargin(0)
    if rtl:
        doc.setHtml(markup_html(text))
        # the HTML import gives each block an explicit left alignment, over the default option
        block = QTextBlockFormat()
        block.setAlignment(Qt.AlignRight | Qt.AlignAbsolute)
        block.setLayoutDirection(Qt.RightToLeft)
        cursor = QTextCursor(doc)
        cursor.select(QTextCursor.Document)
        cursor.mergeBlockFormat(block)
    else:
        doc.setPlainText(text)
    if spelling is not None:
        SpellingHighlighter(doc, spelling).rehighlight()  # now: a highlighter otherwise waits a turn
    return doc


def _cell_layout(option: Any, text: str, rtl: bool, spelling: Callable[[str], list] | None) -> tuple:
    """(style, option without text, text rectangle, document, where the document's origin goes)."""
    style = option.widget.style() if option.widget is not None else QApplication.style()
    opt = type(option)(option)
    opt.text = ""
    rect = style.subElementRect(QStyle.SE_ItemViewItemText, opt, option.widget).adjusted(2, 0, -2, 0)
    doc = markup_document(text, rtl, option.font, spelling)
    ideal = doc.idealWidth()
    # too long for the cell: keep the sentence's *start* in view (the right end in right-to-left)
    doc.setTextWidth(max(ideal, rect.width()))
    shift = rect.width() - doc.textWidth() if rtl else 0.0
    origin = QPointF(rect.left() + shift, rect.top() + max(0.0, (rect.height() - doc.size().height()) / 2))
    return style, opt, rect, doc, origin


def paint_markup(painter: Any, option: Any, text: str, rtl: bool,
                 spelling: Callable[[str], list] | None = None) -> None:
    """Draw a cell (background, selection) and then ``text`` with chips, right-aligned when rtl,
    its misspelt words underlined when ``spelling`` is given."""
    style, opt, rect, doc, origin = _cell_layout(option, text, rtl, spelling)
    style.drawControl(QStyle.CE_ItemViewItem, opt, painter, option.widget)
    ctx = QAbstractTextDocumentLayout.PaintContext()
    selected = bool(option.state & QStyle.State_Selected)
    ctx.palette.setColor(QPalette.Text, option.palette.color(QPalette.HighlightedText if selected else QPalette.Text))
    painter.save()
    painter.setClipRect(rect)
    painter.translate(origin)
    doc.documentLayout().draw(painter, ctx)
    painter.restore()


def markup_position(option: Any, text: str, rtl: bool, point: Any) -> tuple[str, int]:
    """(the drawn text, the index of its character under ``point``) for a cell drawn by
    paint_markup; the index is -1 off the text. The drawn text has the slots' isolate marks."""
    _style, _opt, _rect, doc, origin = _cell_layout(option, text, rtl, None)
    at = doc.documentLayout().hitTest(QPointF(point) - origin, Qt.ExactHit)
    return doc.toPlainText(), at


def underline_format() -> QTextCharFormat:
    """The platform's spell-check underline (a red wavy line)."""
    fmt = QTextCharFormat()
    fmt.setUnderlineStyle(QTextCharFormat.SpellCheckUnderline)
    fmt.setUnderlineColor(QColor("#d40000"))
    return fmt


class SpellingHighlighter(QSyntaxHighlighter):
    """Underlines the misspelt words of a text document (a cell's drawn text)."""

    def __init__(self, document: QTextDocument, spans: Callable[[str], list[Misspelling]]) -> None:
        super().__init__(document)
        self._spans = spans
        self._format = underline_format()

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt's name
        for m in self._spans(text):
            self.setFormat(m.start, m.end - m.start, self._format)
