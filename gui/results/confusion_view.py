"""Confusion heatmaps of privileged vs minoritised scores (Goldfarb-Tarrant et al. 2023, figure 3).

Why a heatmap and not a mean: the mean difference hides *how* a system is biased — a few large
flips or many one-step changes. Rows are the privileged sentence's score, columns the
minoritised sentence's score; an unbiased system puts every pair on the (outlined) diagonal;
mass below it means the privileged side scored higher. Discrete scores (stars, labels) are used
as they are, continuous ones are binned (``engine.stats.present.plotdata.display_confusion``). A click on
a cell lists the pairs in it with both sentences and scores.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QGraphicsRectItem, QSpinBox

# imported with the page, not during the first drawing of a large audit (10 ms of import)
from engine.stats.present.plotdata import display_confusion
from gui.i18n import _, decimal, ngettext, number, percent

from .data import label
from .plots import PlotPanel, connect, new_plot, text_item
from .widgets import fill_combo

PRIV, MINO = ":privileged", ":minoritised"


def bin_labels(cm: Any) -> list[str]:
    if cm.kind == "bins":
        edges = list(cm.settings.get("bins", []))
        digits = 2 if max(abs(e) for e in edges) < 100 else 0
        return [f"{decimal(edges[i], digits)}–{decimal(edges[i + 1], digits)}" for i in range(len(edges) - 1)]
    return [str(v) for v in cm.matrix.index]


class ConfusionView(PlotPanel):
    name = "counterfactual_confusion"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.corpus, self.system, self.variable = QComboBox(), QComboBox(), QComboBox()
        self.system.setMinimumContentsLength(16)
        self.bins = QSpinBox()
        self.bins.setRange(2, 10)
        self.bins.setValue(5)
        self.corpus_label = self.add_control(self.corpus, redraw=False)
        self.corpus.currentIndexChanged.connect(self._corpus_changed)
        self.system_label, self.variable_label = self.add_control(self.system), self.add_control(self.variable)
        self.bins_label = self.add_control(self.bins)
        self.cm: Any = None
        connect(self)

    def retranslate(self, *_args: Any) -> None:
        self.corpus_label.setText(_("Corpus:"))
        self.system_label.setText(_("System:"))
        self.variable_label.setText(_("Pairs differing in:"))
        self.bins_label.setText(_("Bins (continuous scores):"))
        super().retranslate()

    def hint_text(self) -> str:
        return _("Rows: the privileged sentence's score; columns: the minoritised sentence's score. Cells below "
                 "the diagonal mean the privileged side scored higher. Click a cell to list its pairs.")

    def empty_text(self) -> str:
        return _("No counterfactual pairs in these results. Tick “Counterfactual pairs” on the Audit page "
                 "(the corpus must declare person pairs).")

    def has_data(self) -> bool:
        return any(self._systems(c) for c in self.data.pairs)

    def _systems(self, corpus: Any) -> list[str]:
        pairs = self.data.pairs.get(corpus) if self.data is not None else None
        if pairs is None:
            return []
        return [c[: -len(PRIV)] for c in pairs.columns if c.endswith(PRIV) and c[: -len(PRIV)] + MINO in pairs.columns]

    def fill_controls(self) -> None:
        corpora = [c for c in self.data.pairs if self._systems(c)]
        fill_combo(self.corpus, [(c, c) for c in corpora])
        self._corpus_changed(redraw=False)

    def _corpus_changed(self, *_a: Any, redraw: bool = True) -> None:
        corpus = self.corpus.currentData()
        systems = self._systems(corpus)
        fill_combo(self.system, [(s.replace(":", " · "), s) for s in systems])
        pairs = self.data.pairs.get(corpus) if self.data is not None else None
        variables = self.data.values(pairs, "variable") if pairs is not None else []
        fill_combo(self.variable, [(label(v), v) for v in variables])
        if redraw:
            self.schedule_redraw()

    @staticmethod
    def _groups(pairs: Any, variable: Any) -> tuple[str, str]:
        sel = pairs[pairs["variable"].astype(str) == str(variable)] if variable is not None else pairs
        if "privileged_group" in sel.columns and len(sel):
            return str(sel["privileged_group"].mode().iloc[0]), str(sel["minoritised_group"].mode().iloc[0])
        return "", ""  # translated as 'privileged' / 'minoritised' on the UI thread

    def selection(self) -> Any:
        return {"corpus": self.corpus.currentData(), "system": self.system.currentData(),
                "variable": self.variable.currentData(), "bins": self.bins.value()}

    @staticmethod
    def prepare(data: Any, sel: dict[str, Any]) -> Any:
        """The binned confusion matrix and the groups' names (pool thread)."""
        pairs = data.pairs.get(sel["corpus"])
        system, variable = sel["system"], sel["variable"]
        if pairs is None or system is None:
            return None
        cm = display_confusion(pairs, system + PRIV, system + MINO, variable=variable, bins=sel["bins"])
        return {"cm": cm, "groups": ConfusionView._groups(pairs, variable), **sel}

    def build(self, prep: Any) -> Any:
        """Header lines, then the cells and their counts a few per event-loop turn."""
        if prep is None:
            return
        cm, corpus, system, variable = prep["cm"], prep["corpus"], prep["system"], prep["variable"]
        self.cm = cm
        self.bins.setEnabled(cm.kind == "bins")
        counts = cm.matrix.to_numpy(dtype=float)
        k = counts.shape[0]
        names = bin_labels(cm)
        g_priv, g_min = prep["groups"]
        g_priv, g_min = g_priv or _("privileged"), g_min or _("minoritised")
        self.canvas.addLabel(
            ngettext("<b>{system}</b> · {corpus} · {n} pair differing in {variable}",
                     "<b>{system}</b> · {corpus} · {n} pairs differing in {variable}", int(cm.n)).format(
                system=system.replace(":", " · "), corpus=corpus, n=number(cm.n), variable=label(variable or "")),
            row=0, col=0)
        self.canvas.addLabel(
            _("below the diagonal ({priv} scored higher): {below} · above ({mino} scored higher): {above} · "
              "on the diagonal: {diag}").format(priv=label(g_priv), mino=label(g_min), below=percent(cm.share_below),
                                                above=percent(cm.share_above), diag=percent(cm.share_diagonal)),
            row=1, col=0, size="9pt")
        yield
        plot = new_plot()
        yield
        plot = self.add_plot(2, 0, plot)
        plot.showGrid(x=False, y=False)
        plot.invertY(True)
        plot.setXRange(0, k, padding=0)
        plot.setYRange(0, k, padding=0)
        plot.setMouseEnabled(x=False, y=False)
        yield
        top = counts.max() if counts.size and counts.max() > 0 else 1.0
        cmap = pg.ColorMap([0.0, 1.0], [(255, 255, 255), (8, 69, 148)])
        white = pg.mkPen("#ffffff", width=1)
        # one rectangle per cell (not an image): crisp in PNG and SVG at any size
        for i in range(k):
            for j in range(k):
                v = counts[i, j]
                cell = QGraphicsRectItem(j, i, 1, 1)
                cell.setBrush(pg.mkBrush(cmap.map(v / top, mode="qcolor")))
                cell.setPen(white)
                cell.setData(0, (i, j))
                plot.addItem(cell)
                share = v / cm.n if cm.n else 0.0
                dark = v / top > 0.55
                txt = text_item(f"{number(int(v))}\n{percent(share)}" if v else "0", "#fff" if dark else "#222", anchor=(0.5, 0.5))
                txt.setPos(j + 0.5, i + 0.5)
                plot.addItem(txt)
                yield
        diag_pen = pg.mkPen("#D55E00", width=2, style=Qt.DashLine)
        for i in range(k):
            diag = QGraphicsRectItem(i, i, 1, 1)
            diag.setPen(diag_pen)
            plot.addItem(diag)
        ticks = [(i + 0.5, n) for i, n in enumerate(names)]
        plot.getAxis("left").setTicks([ticks])
        plot.getAxis("bottom").setTicks([ticks])
        plot.getAxis("left").setWidth(min(150, 34 + 7 * max(len(n) for n in names)))
        plot.setLabel("left", _("score of the {group} sentence (privileged)").format(group=label(g_priv)))
        plot.setLabel("bottom", _("score of the {group} sentence (minoritised)").format(group=label(g_min)))
        self.canvas.ci.layout.setRowStretchFactor(2, 1)
        self.canvas.ci.layout.setColumnStretchFactor(0, 1)

    def clear_marks(self) -> None:
        self.cm = None

    def clicked(self, plot: Any, x: float, y: float) -> None:
        if self.cm is None:
            return
        k = self.cm.matrix.shape[0]
        row, col = int(np.floor(y)), int(np.floor(x))
        if 0 <= row < k and 0 <= col < k:
            self.highlight_rect(plot, col + 0.03, row + 0.03, 0.94, 0.94)
            self.drill_cell(row, col)

    def drill_cell(self, row: int, col: int) -> None:
        from engine.stats.present.plotdata import confusion_cell_pairs

        cm, corpus, system, variable = self.cm, self.corpus.currentData(), self.system.currentData(), \
            self.variable.currentData()
        pairs = self.data.pairs.get(corpus)
        names = bin_labels(cm)
        n_cell = int(cm.matrix.iat[row, col])
        title = ngettext("{system}: privileged {row}, minoritised {col} — {n} pair",
                         "{system}: privileged {row}, minoritised {col} — {n} pairs", n_cell).format(
            system=system.replace(":", " · "), row=names[row], col=names[col], n=number(n_cell))
        self.drill(title, lambda: confusion_cell_pairs(pairs, system + PRIV, system + MINO, cm, row, col,
                                                       variable=variable))
