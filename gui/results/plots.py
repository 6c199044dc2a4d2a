"""What every results plot shares: a pyqtgraph canvas, PNG/SVG export, and a drill-down table.

Why one base: each plot must answer "which sentences are behind this mark?" the same way
(click → the pairs, listed below the plot, copyable and saveable as CSV) and leave the app
the same way (PNG and SVG through ``pyqtgraph.exporters``). Subclasses only draw and say what
a click at a data position means; the drill-down tables come from ``engine.stats.present.plotdata``
and are computed in a pool thread, so a click never freezes the window.

Drawing is staged the same way: a view's ``prepare`` (the pandas work: boxes, groups, the
confusion matrix) runs in a pool thread on a snapshot of the selection, and its ``build`` adds
the pyqtgraph items a few per event-loop turn (``gui.common.steps``), so a large audit's plots
never hold the window for more than a few milliseconds at a time.
"""
from __future__ import annotations

import html
import math
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401 - registers ImageExporter / SVGExporter
from engine.common import fmt

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gui.common.background import Latest
from gui.common.flow_layout import FlowLayout, labelled_pair
from gui.common.frame_table import FrameTable
from gui.common.steps import Steps
from gui.errors import friendly, show_error
from gui.i18n import _, connect_retranslate, isolated, localized, ngettext, number

# Plots are documents (printed, pasted into papers): dark text on white, smooth lines.
pg.setConfigOptions(background="w", foreground="k", antialias=True)

#: Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
GREY = "#7f7f7f"


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


# the engine's one formatter (engine.common.fmt): the same text as the tables and the report
stars = fmt.stars


def is_number(v: Any) -> bool:
    try:
        return not math.isnan(float(v))
    except (TypeError, ValueError):
        return False


def stars_legend() -> str:
    return _("*** p ≤ .01 · ** p ≤ .05 · * p ≤ .10")


def untested_text(status: Any = "", note: Any = "", reason: Any = "") -> str:
    """What a plot prints beside the hollow marker of a row without a test: "not tested" and why, in
    the interface language, so the reason is on the plot itself, not only in the Notes tab.

    The reason is rendered from the row's ``reason`` cell (a key and its fields: engine.stats.reasons)
    by the catalog's interface sentence — never by translating the engine's English note, which may be
    reworded at any time. A file without reasons (written by an older version) gets its status's
    short reason (engine.stats.present.tables.untested_status), as does a row whose reason explains
    another status than its own."""
    from engine.stats.present.tables import untested_status
    from engine.stats.reasons import STATUSES, read_reason, reason_text, status_of

    said = read_reason(reason)
    st = "" if not isinstance(status, str) else status
    if said is not None and st not in ("", "ok") and status_of(said) != st:
        said = None  # a status changed without its reason (an edited file): the status decides
    if said is not None:
        why = reason_text(said, _)
    else:
        st = untested_status(None, status, note, reason)
        why = _(STATUSES[st]) if st in STATUSES else st.replace("_", " ")
    # TRANSLATORS: beside a hollow marker on a results plot; {reason} e.g. "the scores do not vary"
    return _("not tested: {reason}").format(reason=why) if why else _("not tested")


#: a "not tested: …" label on a plot is wrapped to lines of about this many characters
PLOT_LABEL_CHARS = 48


def plot_label(text: str, width: int = PLOT_LABEL_CHARS) -> str:
    """A "not tested: …" sentence as a plot prints it: its first clause, wrapped (the whole sentence
    ran off the plot's edge: "…differ from the rest of the"); the caller keeps the whole sentence
    as the tooltip. The first clause ends at the first ': ', '; ', '؛ ' or ' (' after the
    "not tested" prefix (a parenthesis holding numbers is kept); a short sentence stays whole."""
    import textwrap

    if len(text) > 2 * width:
        start = text.find(": ") + 2 if ": " in text[:40] else 0  # the "not tested: " prefix in any language
        cuts = [i for i in (text.find(sep, start) for sep in (": ", "; ", "؛ ", " (", "، ")) if i > start]
        if cuts:
            end = min(cuts)
            close = text.find(")", end)
            if text.startswith(" (", end) and 0 < close - end < 48 and any(ch.isdigit() for ch in text[end:close]):
                end = close + 1  # a parenthesis with the row's numbers ("(1 of the 50 compared)") stays
            text = text[:end].rstrip() + " …"
    return "\n".join(textwrap.wrap(text, width, break_long_words=False)[:3])


def has_italics(text: str) -> bool:
    """Whether the text's script has an italic style: Latin, Greek, Cyrillic. Arabic, Hebrew and CJK
    have none, and an oblique font without their glyphs drew boxes (the Arabic reason on a plot)."""
    return all(ord(ch) < 0x0590 for ch in text if ch.isalpha())


def legend_html(entries: list[tuple[str, str]], extra: str = "") -> str:
    """One line of coloured markers and names, for a LabelItem above a plot."""
    parts = [f"<span style='color:{c}; font-size:14pt'>■</span>&nbsp;{html.escape(name)}" for name, c in entries]
    text = "&nbsp;&nbsp;&nbsp;".join(parts)
    if extra:
        extra_html = html.escape(extra).replace("   ", "&nbsp;&nbsp;&nbsp;")
        text += ("&nbsp;&nbsp;&nbsp;&nbsp;" if text else "") + f"<span style='color:#555'>{extra_html}</span>"
    return text


def text_item(text: str, colour_: str = "#000", anchor: tuple[float, float] = (0, 0.5), *, bold: bool = False,
              size: int | None = None, italic: bool = False, tooltip: str = "") -> pg.TextItem:
    item = pg.TextItem(color=colour_, anchor=anchor)
    if tooltip:
        item.setToolTip(tooltip)
    style = (("font-weight:bold;" if bold else "") + (f"font-size:{size}pt;" if size else "")
             + ("font-style:italic;" if italic and has_italics(text) else ""))
    body = html.escape(text).replace("\n", "<br>")
    if "\n" in text and anchor[0] == 0.5:  # centred block: give the text a width so lines centre
        item.setHtml(f"<span style='{style}'>{body}</span>")
        item.textItem.setTextWidth(item.textItem.boundingRect().width())
        item.setHtml(f"<div align='center' style='{style}'>{body}</div>")
    else:
        item.setHtml(f"<span style='{style}'>{body}</span>")
    return item


def new_plot(**kw: Any) -> pg.PlotItem:
    """A plot panel, not yet placed: making one takes 7 ms, a step of a staged drawing of its own."""
    kw.setdefault("enableMenu", False)  # no context menus to build: drawing stays fast
    kw.setdefault("axisItems", {name: _LocalAxis(orientation=name) for name in ("left", "bottom")})
    return pg.PlotItem(**kw)


class _LocalAxis(pg.AxisItem):
    """A numeric axis whose tick labels use the interface language's decimal sign (0,05 in Italian),
    as the values written on the plot do (``i18n.localized``); ticks a view sets itself (category
    labels) are its own."""

    def tickStrings(self, values: Any, scale: float, spacing: float) -> list[str]:
        return [localized(s) for s in super().tickStrings(values, scale, spacing)]


def style_plot(plot: pg.PlotItem) -> None:
    for name in ("left", "bottom"):
        ax = plot.getAxis(name)
        ax.setPen(pg.mkPen("#444"))
        ax.setTextPen(pg.mkPen("#222"))
        ax.enableAutoSIPrefix(False)  # "(x0.001)" beside a label confuses readers of score differences
    plot.showGrid(x=True, y=False, alpha=0.15)
    plot.setMenuEnabled(False)
    plot.hideButtons()


class PlotPanel(QWidget):
    """A plot with its controls, export buttons and the drill-down table below it.

    Subclasses set ``controls`` (a QHBoxLayout they fill), implement ``draw()`` and
    ``clicked(plot, x, y)`` (data coordinates of a click inside ``plot``), and call
    ``drill(title, fn)`` with a function that returns the DataFrame behind the mark.

    A view with a lot to draw splits ``draw`` in two instead: ``prepare(data, selection)``
    (no widgets: it runs in a pool thread on the ``selection()`` read when the drawing was asked
    for) and ``build(prepared)``, a generator that yields between small groups of items."""

    drilled = Signal(str)
    name = "plot"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: Any = None
        self.plots: list[pg.PlotItem] = []
        self._dirty = True
        # the selectors wrap onto a second line where the view is narrow: on one line the
        # counterfactual view's four (corpus, system, pairs, bins) made the window at least 1,303 px
        # wide in French, and its corpus box showed "en-cama"
        controls_row = QWidget()
        self.controls = FlowLayout(controls_row)
        self.controls.setContentsMargins(0, 0, 0, 0)
        self.png_button = QPushButton()
        self.png_button.clicked.connect(lambda: self.ask_export("png"))
        self.svg_button = QPushButton()
        self.svg_button.clicked.connect(lambda: self.ask_export("svg"))
        top = QHBoxLayout()
        top.addWidget(controls_row, 1)
        top.addWidget(self.png_button)
        top.addWidget(self.svg_button)

        self.canvas = pg.GraphicsLayoutWidget()
        self.canvas.setBackground("w")
        self.canvas.scene().sigMouseClicked.connect(self._scene_clicked)
        self.canvas.setMinimumHeight(260)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color: #555; font-size: 12pt;")
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.canvas)

        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #555;")
        self.detail = FrameTable(name=self.name + "_pairs")
        self.detail.view.horizontalHeader().setResizeContentsPrecision(60)
        lower = QWidget()
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.hint)
        ll.addWidget(self.detail, 1)
        self.split = QSplitter(Qt.Vertical)
        self.split.addWidget(self.stack)
        self.split.addWidget(lower)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.split, 1)
        self._drill = Latest(self._drill_done, self._drill_failed, self)
        self._prep = Latest(self._prepared, self._prepare_failed, self)
        self._pending: tuple[Any, Any] | None = None  # (data, selection) being prepared in the pool
        self._building = Steps(self)
        self._drill_title = ""
        self.drill_error = ""
        self._highlight: Any = None

    # -- data -------------------------------------------------------------------------------

    def add_control(self, widget: QWidget, *, redraw: bool = True) -> QLabel:
        """Put a selector (and a label for it, returned for retranslate()) in the controls row;
        changing it redraws the plot unless ``redraw`` is False (the view connects it itself)."""
        label = QLabel()
        self.controls.addWidget(labelled_pair(label, widget))  # a label and its selector wrap together
        if redraw:
            changed = widget.currentIndexChanged if isinstance(widget, QComboBox) else widget.valueChanged
            changed.connect(lambda *_a: self.schedule_redraw())
        return label

    def set_data(self, data: Any) -> None:
        self.data = data
        self.detail.set_frame(None)
        self.detail.title.setText("")
        self.fill_controls()
        self._dirty = True
        if self.isVisible():
            self.schedule_redraw()

    def fill_controls(self) -> None:  # pragma: no cover - overridden
        """Refill the selectors from ``self.data`` (keep the current choice when it still exists)."""

    def has_data(self) -> bool:  # pragma: no cover - overridden
        return False

    def empty_text(self) -> str:  # pragma: no cover - overridden
        return _("Nothing to show.")

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._dirty:
            self.schedule_redraw()

    def redraw(self) -> None:
        """Draw the current selection now, completely (scripts, tests, export)."""
        self.schedule_redraw()
        self.finish_drawing()

    def schedule_redraw(self) -> None:
        """Draw the current selection in steps (tabs draw when first shown, selectors on change):
        ``prepare`` in a pool thread, then ``build`` a few items per event-loop turn. A newer
        request drops what is left of an older one."""
        self._dirty = False
        self._building.cancel()
        self._prep.drop()
        self._pending = None
        self._enable_export(False)
        if self.data is None or not self.has_data():
            self._clear_canvas()
            self.empty.setText(self.empty_text())
            self.stack.setCurrentWidget(self.empty)
            return
        if type(self).prepare is PlotPanel.prepare:  # nothing to compute: build straight away
            self._start_build(None)
            return
        data, selection = self.data, self.selection()
        self._pending = (data, selection)
        self._prep.submit(lambda: self.prepare(data, selection))

    @property
    def drawing(self) -> bool:
        """True while a drawing is being prepared or built."""
        return self._pending is not None or self._building.running

    def finish_drawing(self) -> None:
        """Complete the drawing in progress now (its preparation too, on this thread)."""
        if self._pending is not None:
            data, selection = self._pending
            self._prep.drop()
            self._pending = None
            self._start_build(self.prepare(data, selection))
        self._building.finish()

    def selection(self) -> Any:
        """What ``prepare`` needs of the selectors, read on the UI thread (override with ``prepare``)."""
        return None

    def prepare(self, data: Any, selection: Any) -> Any:
        """The plot's data, computed in a pool thread: no widgets here (override with ``build``)."""
        return None

    def build(self, prepared: Any) -> Any:
        """Add the items; a generator yields between small groups of them. Default: ``draw()``."""
        return self.draw()

    def _prepared(self, prepared: Any) -> None:
        self._pending = None
        self._start_build(prepared)

    def _prepare_failed(self, exc: BaseException) -> None:
        self._pending = None
        info = friendly(exc)  # shown where the plot would be, as the drill-down shows its errors
        self._clear_canvas()
        self.empty.setText(info.text)
        self.stack.setCurrentWidget(self.empty)

    def _clear_canvas(self) -> None:
        self._highlight = None
        self.canvas.clear()
        self.plots = []
        self.canvas.setUpdatesEnabled(True)  # a cancelled build may have left it off
        self.clear_marks()

    def clear_marks(self) -> None:
        """Forget what the last drawing recorded for clicks (its points, boxes, cells)."""

    def _start_build(self, prepared: Any) -> None:
        self._clear_canvas()
        self.stack.setCurrentWidget(self.canvas)
        # no paint of a half-built plot: the previous picture stays until the new one is complete
        self.canvas.setUpdatesEnabled(False)
        self._building.start(self._build_steps(prepared), self._built)

    def _build_steps(self, prepared: Any) -> Iterator[None]:
        steps = self.build(prepared)
        if steps is not None:
            yield from steps
        yield
        # lay the panels out and place every item now, a step of its own: otherwise the first
        # paint does it, and what it moves asks for a second paint
        self.canvas.ci.layout.activate()
        yield
        for plot in self.plots:
            plot.vb.prepareForPaint()

    def _built(self) -> None:
        self.canvas.setUpdatesEnabled(True)
        self._enable_export(True)

    def draw(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _enable_export(self, on: bool) -> None:
        self.png_button.setEnabled(on)
        self.svg_button.setEnabled(on)

    def add_plot(self, row: int, col: int, plot: pg.PlotItem | None = None, **kw: Any) -> pg.PlotItem:
        """Put a plot (``new_plot()``'s, or a new one) in the canvas at (row, col)."""
        plot = plot if plot is not None else new_plot(**kw)
        self.canvas.addItem(plot, row=row, col=col)
        style_plot(plot)
        self.plots.append(plot)
        return plot

    def retranslate(self, *_args: Any) -> None:
        self.png_button.setText(_("Save PNG…"))
        self.svg_button.setText(_("Save SVG…"))
        self.hint.setText(self.hint_text())
        if self.data is not None:
            self._dirty = True
            if self.isVisible():
                self.schedule_redraw()

    def hint_text(self) -> str:  # pragma: no cover - overridden
        return ""

    # -- clicks and drill-down ------------------------------------------------------------
    def _scene_clicked(self, event: Any) -> None:
        if event.button() != Qt.LeftButton:
            return
        pos = event.scenePos()
        for plot in self.plots:
            if plot.vb.sceneBoundingRect().contains(pos):
                p = plot.vb.mapSceneToView(pos)
                self.clicked(plot, p.x(), p.y())
                return

    def clicked(self, plot: pg.PlotItem, x: float, y: float) -> None:  # pragma: no cover - overridden
        """A left click at data position (x, y) inside ``plot``."""

    def click_data(self, plot_index: int, x: float, y: float) -> None:
        """Simulate a click at data coordinates (scripts and tests; same path as the mouse)."""
        self.clicked(self.plots[plot_index], x, y)

    def scene_point(self, plot_index: int, x: float, y: float) -> Any:
        """Where data point (x, y) of a plot is on the canvas widget (for a real mouse click)."""
        plot = self.plots[plot_index]
        scene = plot.vb.mapViewToScene(pg.Point(x, y))
        return self.canvas.mapFromScene(scene)

    def highlight(self, plot: pg.PlotItem, item: Any) -> None:
        """Outline the clicked mark (replacing the previous outline), so the list below has a visible owner."""
        if self._highlight is not None:
            old_plot, old = self._highlight
            try:
                old_plot.removeItem(old)
            except (RuntimeError, ValueError):
                pass
        item.setZValue(50)
        plot.addItem(item)
        self._highlight = (plot, item)

    def highlight_rect(self, plot: pg.PlotItem, x0: float, y0: float, w: float, h: float) -> None:
        from PySide6.QtWidgets import QGraphicsRectItem

        rect = QGraphicsRectItem(x0, y0, w, h)
        rect.setPen(pg.mkPen("#000000", width=2.5))
        self.highlight(plot, rect)

    def highlight_point(self, plot: pg.PlotItem, x: float, y: float) -> None:
        ring = pg.ScatterPlotItem(x=[x], y=[y], size=18, symbol="o", pen=pg.mkPen("#000000", width=2),
                                  brush=pg.mkBrush(0, 0, 0, 0))
        self.highlight(plot, ring)

    def drill(self, title: str, fn: Callable[[], Any]) -> None:
        """Compute the rows behind a mark in a pool thread and list them below the plot."""
        self._drill_title = title
        self.drill_error = ""
        self.detail.title.setText(title + " — " + _("loading…"))
        self._drill.submit(fn)

    @property
    def drill_idle(self) -> bool:
        return self._drill.idle

    def _drill_done(self, frame: Any) -> None:
        self.detail.set_frame(frame)
        n = 0 if frame is None else len(frame)
        self.detail.title.setText(f"<b>{html.escape(self._drill_title)}</b> — " +
                                  ngettext("{n} row", "{n} rows", n).format(n=number(n)))
        self.drilled.emit(self._drill_title)

    def _drill_failed(self, exc: BaseException) -> None:
        info = friendly(exc, context=self._drill_title)
        self.drill_error = info.text
        self.detail.set_frame(None)
        self.detail.title.setText(html.escape(info.text.replace("\n\n", " ")))

    # -- export ---------------------------------------------------------------------------
    def export_png(self, path: str | Path, width: int = 1600) -> Path:
        self.finish_drawing()
        exp = pg.exporters.ImageExporter(self.canvas.scene())
        exp.parameters()["width"] = int(width)
        exp.export(str(path))
        return Path(path)

    def export_svg(self, path: str | Path) -> Path:
        # the SVG exporter reads each item's transform without painting: bring the views'
        # (lazily updated) data-to-pixel matrices up to date first, as a paint would
        for plot in self.plots:
            plot.vb.prepareForPaint()
        with _svg_fixes():
            exp = pg.exporters.SVGExporter(self.canvas.scene())
            exp.export(str(path))
        return Path(path)

    def ask_export(self, kind: str) -> None:
        if self._dirty:
            self.redraw()
        self.finish_drawing()
        filt = _("PNG images (*.png)") if kind == "png" else _("SVG drawings (*.svg)")
        path, _f = QFileDialog.getSaveFileName(self, _("Save plot"), f"{self.name}.{kind}", filt)
        if not path:
            return
        try:
            (self.export_png if kind == "png" else self.export_svg)(path)
        except Exception as exc:  # shown, never raised into Qt
            show_error(self, exc, context=_("Saving {path}").format(path=isolated(path)))


@contextmanager
def _svg_fixes() -> Iterator[None]:
    """Make pyqtgraph 0.14's SVG exporter work with the SVG that Qt 6 writes.

    pyqtgraph bakes each group's transform into the coordinates of its ``<path>`` and
    ``<polyline>`` children, so that lines keep their width, and then drops the transform. Qt 6
    also writes ``<rect>`` (bars, boxes, heatmap cells), closes paths with a bare ``Z`` (which
    pyqtgraph's parser rejects) and draws scatter symbols as ``<image>``; dropping the transform
    would misplace those. During our export only, every group is first normalised: rectangles
    become paths, ``Z`` becomes a line back to the start, images move to a sibling group that keeps
    the transform. Then pyqtgraph's own code runs unchanged."""
    import importlib
    import xml.dom.minidom as xml

    mod = importlib.import_module("pyqtgraph.exporters.SVGExporter")
    original = mod.correctCoordinates

    def normalise(node: Any) -> None:
        doc = node.ownerDocument
        for grp in list(node.getElementsByTagName("g")):
            for ch in [c for c in grp.childNodes if isinstance(c, xml.Element) and c.tagName == "rect"]:
                try:
                    x, y, w, h = (float(ch.getAttribute(a) or 0) for a in ("x", "y", "width", "height"))
                except ValueError:
                    continue
                path = doc.createElement("path")
                for name, value in list(ch.attributes.items()):
                    if name not in ("x", "y", "width", "height", "rx", "ry"):
                        path.setAttribute(name, value)
                path.setAttribute("d", f"M{x},{y} L{x + w},{y} L{x + w},{y + h} L{x},{y + h} L{x},{y}")
                grp.replaceChild(path, ch)
            for ch in [c for c in grp.childNodes if isinstance(c, xml.Element) and c.tagName == "path"]:
                tokens = ch.getAttribute("d").split()
                if "Z" not in tokens and "z" not in tokens:
                    continue
                out, first = [], None
                for tok in tokens:
                    if tok in ("Z", "z"):
                        if first is not None:
                            out.append("L" + first)
                        continue
                    if tok[:1] in ("M", "m"):
                        first = tok[1:]
                    out.append(tok)
                ch.setAttribute("d", " ".join(out))
            kids = [c for c in grp.childNodes if isinstance(c, xml.Element)]
            images = [c for c in kids if c.tagName == "image"]
            if images and any(c.tagName in ("path", "polyline") for c in kids) and grp.parentNode is not None:
                keep = grp.cloneNode(False)
                for im in images:
                    grp.removeChild(im)
                    keep.appendChild(im)
                grp.parentNode.insertBefore(keep, grp.nextSibling)

    def fixed(node: Any, defs: Any, item: Any, options: Any) -> Any:
        normalise(node)
        return original(node, defs, item, options)

    mod.correctCoordinates = fixed
    try:
        yield
    finally:
        mod.correctCoordinates = original


def connect(panel: PlotPanel) -> None:
    connect_retranslate(panel)
    panel.retranslate()
