"""The results screen: the papers' plots over a finished audit, every table, and the run's notes.

Why tabs in the registry's order: a researcher checks one question at a time — Beta coefficients
(Câmara), paired differences (Kiritchenko & Mohammad), counterfactual confusion
(Goldfarb-Tarrant), any further statistic of the registry, then the association tests
(WEAT/SEAT/LPBS, FISE). The three papers' statistics have views of their own (``BESPOKE``); every
other statistic gets the forest plot of its registry entry's plot adapter (``ForestView``), so a new
statistic appears here with no GUI code. Every plot drills down
to the sentences behind a mark and exports PNG/SVG; every table copies and saves CSV. Results
come from the audit that just finished (``show_result``) or from any audit folder on disk
(``open_folder``, read in a pool thread so a large folder never freezes the window).
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Iterator

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui.common.background import Latest
from gui.common.collector import freeze_long_lived
from gui.common.frame_table import FrameTable
from gui.common.steps import Steps
from gui.errors import FriendlyError, friendly, last_errors
from engine.stats import registry
from gui.i18n import _, connect_retranslate, isolated, ngettext, number

from .assoc_view import AssocView
from .beta_view import BetaView
from .confusion_view import ConfusionView
from .data import ResultData
from .fise_view import FiseView
from .forest_view import ForestView
from .km_view import KMView
from .notes_view import NotesView
from .problem_text import problem_lines
from .widgets import fill_combo

#: statistic id -> (tab name, view): the papers' figures; any other statistic gets a ForestView
BESPOKE = {"beta": ("beta", BetaView), "paired": ("paired", KMView), "counterfactual": ("confusion", ConfusionView)}


class TablesView(QWidget):
    """Any table of the results (statistics, pairs, scores), copyable and saveable."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: ResultData | None = None
        self.which_label = QLabel()
        self.which = QComboBox()
        self.which.setMinimumContentsLength(30)
        self.which.currentIndexChanged.connect(self._show)
        self.table = FrameTable(name="table")
        self.table.view.horizontalHeader().setResizeContentsPrecision(60)
        row = QHBoxLayout()
        row.addWidget(self.which_label)
        row.addWidget(self.which, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.which_label.setText(_("Table:"))
        if self.data is not None:
            self.set_data(self.data)

    def set_data(self, data: ResultData) -> None:
        self.data = data
        self._frames = {key: frame for key, _label, frame in data.all_tables()}
        fill_combo(self.which, [(lab, key) for key, lab, _f in data.all_tables()])
        self._stale = True
        if self.isVisible():
            self._show()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if getattr(self, "_stale", False):
            self._show()

    def _show(self, *_a: Any) -> None:
        self._stale = False
        key = self.which.currentData()
        frame = self._frames.get(key) if self.data is not None else None
        self.table.name = str(key or "table").replace(":", "_")
        self.table.set_frame(frame)
        self.table.title.setText("" if frame is None else ngettext("{n} row", "{n} rows", len(frame)).format(
            n=number(len(frame))))

    def select(self, key: str) -> bool:
        idx = self.which.findData(key)
        if idx >= 0:
            self.which.setCurrentIndex(idx)
            self._show()
        return idx >= 0


class ResultsPage(QWidget):
    """``show_result(AuditResult | folder)``; ``loaded()`` after new results are on screen."""

    loaded = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: ResultData | None = None
        self.last_error: FriendlyError | None = None
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.RichText)
        self.heading.setWordWrap(True)
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self.ask_folder)
        self.report_button = QPushButton()
        self.report_button.clicked.connect(self.export_report)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.RichText)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.open_button)
        top.addWidget(self.report_button)

        self.beta = BetaView()
        self.km = KMView()
        self.confusion = ConfusionView()
        self.assoc = AssocView()
        self.fise = FiseView()
        self.tables = TablesView()
        # the run's summary (summary.txt) is made of text tables whose columns line up in a fixed-pitch
        # font only: in the interface's proportional font they drifted apart (as the audit log's would)
        self.notes = NotesView()
        self.views: dict[str, Any] = {"beta": self.beta, "paired": self.km, "confusion": self.confusion,
                                      "assoc": self.assoc, "fise": self.fise}
        self.tabs = QTabWidget()
        for w in (*self.views.values(), self.tables, self.notes):
            self.tabs.addTab(w, "")
        self._add_statistic_views()
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.tabs, 1)
        self._reader = Latest(self._read_done, self._read_failed, self)
        self._handing = Steps(self)  # the rest of a staged _set_data (see there)
        connect_retranslate(self)
        self.retranslate()
        # the page has imported and built what a large audit's drawing needs; from now on a full
        # collection of the garbage only walks newer objects (gui.common.collector)
        freeze_long_lived()

    def _add_statistic_views(self) -> None:
        """A forest-plot tab for every registry statistic without a view of its own (a statistic
        registered after the page was built gets its tab with the next results), before the
        association tests' tabs."""
        for stat in registry.statistics():
            if stat.id in BESPOKE or stat.id in self.views:
                continue
            view = ForestView(stat.id)
            self.tabs.insertTab(self.tabs.indexOf(self.assoc), view, view.title())
            views = list(self.views.items())
            at = [k for k, _v in views].index("assoc")
            self.views = dict(views[:at] + [(stat.id, view)] + views[at:])

    def retranslate(self, *_args: Any) -> None:
        titles = {"beta": _("Beta regression"), "paired": _("Paired differences"),
                  "confusion": _("Counterfactual confusion"), "assoc": _("Association tests"), "fise": _("FISE")}
        for name, view in self.views.items():
            self.tabs.setTabText(self.tabs.indexOf(view), titles[name] if name in titles else view.title())
        self.tabs.setTabText(self.tabs.indexOf(self.tables), _("Tables"))
        self.tabs.setTabText(self.tabs.indexOf(self.notes), _("Notes"))
        self.open_button.setText(_("Open audit folder…"))
        self.open_button.setToolTip(_("Show the results of an audit run earlier (the folder holding manifest.json)"))
        self.report_button.setText(_("Export report…"))
        self._update_heading()
        if self.data is not None:  # the notes' own sentences are in the interface language too
            self._show_notes(self.data)

    def _update_heading(self) -> None:
        if self.data is None:
            self.heading.setText("<h2>%s</h2><p>%s</p>" % (
                html.escape(_("Results")),
                html.escape(_("Run an audit on the Audit page, or open the folder of an earlier audit."))))
            self.report_button.setEnabled(False)
            return
        where = str(self.data.out_dir) if self.data.out_dir else _("(not saved)")
        self.heading.setText("<h2>%s</h2><p>%s<br><span style='color:#555'>%s</span></p>" % (
            html.escape(_("Results")), html.escape(self.data.title()), html.escape(where)))
        self.report_button.setEnabled(self.data.out_dir is not None)
        n = len(self.data.problems)
        self.status.setText("" if not n else "<span style='color:#8a4b00'>%s</span>" % html.escape(
            ngettext("{n} note from the run: see the Notes tab.", "{n} notes from the run: see the Notes tab.", n)
            .format(n=n)))

    # -- loading ------------------------------------------------------------------------
    def show_result(self, result: Any) -> None:
        """Show an AuditResult (fresh from the runner) or an audit folder (a path)."""
        if isinstance(result, (str, Path)):
            self.open_folder(result)
            return
        self._set_data(ResultData(result))

    def open_folder(self, folder: str | Path) -> None:
        from engine.results import read_audit

        self.status.setText(html.escape(_("Reading {path}…").format(path=isolated(folder))))
        self._reader.submit(lambda: read_audit(folder))

    @property
    def busy(self) -> bool:
        return not self._reader.idle or self._handing.running

    def _read_done(self, result: Any) -> None:
        self._set_data(ResultData(result))

    def _read_failed(self, exc: BaseException) -> None:
        info = friendly(exc, context=_("Opening the audit folder"))
        self.last_error = info
        last_errors.append(info)
        self.status.setText("<span style='color:#611a15'><b>%s</b> %s</span>" % (
            html.escape(info.title), html.escape(info.as_text()).replace("\n\n", " ")))

    def ask_folder(self) -> None:
        from engine.common.user_dirs import user_home

        start = user_home() / "audits"
        folder = QFileDialog.getExistingDirectory(self, _("Open an audit folder"), str(start if start.exists() else ""))
        if folder:
            self.open_folder(folder)

    def _set_data(self, data: ResultData) -> None:
        """Hand the results to every view, one view per step (``gui.common.steps``), then emit ``loaded``.

        Why staged: each view fills its selectors from tables of tens of thousands of rows and
        the visible one draws; done in one go on the UI thread that froze the window for
        0.4–1 s on a large audit under load (bench/bench_gui_stall.py). Between the steps the
        window repaints and answers clicks. A newer result drops the rest of an older one."""
        self.data = data
        self.last_error = None
        self._add_statistic_views()
        self._update_heading()
        self._handing.start(self._hand_over(data), self.loaded.emit)

    def _hand_over(self, data: ResultData) -> Iterator[None]:
        # the view on screen last: its drawing (prepared in a pool thread) then does not compete
        # with the other steps for the interpreter
        current = self.tabs.currentWidget()
        self.tables.set_data(data)
        yield
        self._show_notes(data)
        yield
        for view in sorted(self.views.values(), key=lambda v: v is current):
            view.set_data(data)
            yield
        self._show_first()

    def _show_first(self) -> None:
        first = next((v for v in self.views.values() if v.has_data()), None)
        self.tabs.setCurrentIndex(self.tabs.indexOf(first) if first is not None else 0)

    def _show_notes(self, data: ResultData) -> None:
        """The run's facts and problems in the interface's language, then summary.txt (NotesView)."""
        summary = data.out_dir / "summary.txt" if data.out_dir else None
        text = ""
        if summary is not None and summary.is_file():
            try:
                text = summary.read_text(encoding="utf-8")
            except OSError:
                pass
        self.notes.show_notes(self._notes_lines(data), text)

    def _notes_lines(self, data: ResultData) -> list[str]:
        lines = []
        if data.out_dir:
            lines.append(_("Folder: {path}").format(path=isolated(data.out_dir)))
        man = data.manifest
        if man.get("created"):
            lines.append(_("Created: {when}").format(when=isolated(man["created"])))
        for cid, info in (man.get("corpora") or {}).items():
            n_sent, n_pairs = int(info.get("sentences", 0) or 0), int(info.get("pairs", 0) or 0)
            # TRANSLATORS: {sentences} is "{n} sentences" and {pairs} is "{n} pairs" (translated below)
            lines.append(_("Corpus {id}: {sentences}, {pairs}").format(
                id=isolated(cid),
                sentences=ngettext("{n} sentence", "{n} sentences", n_sent).format(n=number(n_sent)),
                # TRANSLATORS: counterfactual sentence pairs of a corpus
                pairs=ngettext("{n} pair", "{n} pairs", n_pairs).format(n=number(n_pairs))))
        for name, info in (man.get("scorers") or {}).items():
            lines.append(_("System {name}: {spec}; dimensions {dims}").format(
                name=isolated(name), spec=isolated(info.get("spec", "")),
                dims=isolated(", ".join(info.get("dimensions", [])))))
        settings = (man.get("plan") or {}).get("settings")
        if settings:
            lines.append(_("Settings: {settings}").format(settings=isolated(json.dumps(settings, ensure_ascii=False))))
        if data.problems:
            lines.append("")
            lines.append(_("Notes from the run:"))
            lines += [f"  • {p}" for p in problem_lines(data.problems, data.manifest)]
        return lines

    # -- report -------------------------------------------------------------------------
    def export_report(self) -> Path | None:
        """The HTML report of the shown audit folder (engine.report), when that part is installed."""
        if self.data is None or self.data.out_dir is None:
            return None
        try:
            from engine.report import build_report
        except ImportError:
            self.status.setText(html.escape(_("This build of EEC Studio has no HTML report; save the plots and "
                                              "tables from their tabs.")))
            return None
        try:
            path = build_report(self.data.out_dir, self.data.out_dir / "report")
        except Exception as exc:
            self._read_failed(exc)
            return None
        self.status.setText(html.escape(_("Report written to {path}").format(path=isolated(path))))
        return Path(path) if path else None

    def show_tab(self, name: str) -> Any:
        """Bring a view to the front ('beta', 'paired', 'confusion', 'assoc', 'fise', 'tables', or the id of
        any other statistic of the registry: its forest plot) and
        return it drawn completely (scripts, tests). A click on the tab draws it in steps instead,
        the window staying responsive meanwhile."""
        widget = self.tables if name == "tables" else self.views[name]
        self.tabs.setCurrentWidget(widget)
        if widget is self.tables:
            widget.table.finish_sizing()
        elif widget._dirty:
            widget.redraw()
        else:
            widget.finish_drawing()
        return widget
