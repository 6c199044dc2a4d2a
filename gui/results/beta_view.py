"""Coefficient plots of the Beta regression (Câmara et al. 2022), one panel per emotion.

Why this shape: the paper's question is "does the score move for the minority group, for women,
and for minority women beyond both?" — three coefficients per system and emotion. Each panel
shows them as points with their 95% interval and the paper's stars; systems are colour-coded
and offset so their intervals never overlap. Hollow points mark fits that were not tested
(constant scores) or did not converge. A click on a point lists the sentences the term
compares, with their scores.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg

from engine.common.errors import UserError
from engine.common import fmt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from gui.i18n import _, localized

from .data import TERM_LABELS, label
from .plots import (GREY, PlotPanel, colour, connect, is_number, legend_html, new_plot, plot_label, stars, stars_legend,
                    text_item, untested_text)
from .widgets import fill_combo

TERMS = ["race", "gender", "intersection"]  # top to bottom
COLUMNS = 4


class BetaView(PlotPanel):
    name = "beta_coefficients"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.corpus, self.value = QComboBox(), QComboBox()
        self.value.addItem("", "estimate")
        self.value.addItem("", "ame")
        self.corpus_label, self.value_label = self.add_control(self.corpus), self.add_control(self.value)
        self.marks: list[dict[str, Any]] = []  # every drawn point: plot index, x, y, row
        connect(self)

    def retranslate(self, *_args: Any) -> None:
        self.corpus_label.setText(_("Corpus:"))
        self.value_label.setText(_("Show:"))
        self.value.setItemText(0, _("coefficient (logit scale)"))
        self.value.setItemText(1, _("average marginal effect (score scale)"))
        super().retranslate()

    def hint_text(self) -> str:
        return _("Each point is a coefficient with its 95% interval; the reference group is the majority "
                 "group's men. Click a point to list the sentences it compares.")

    def empty_text(self) -> str:
        return _("No Beta regression in these results. Tick “Beta regression” on the Audit page "
                 "(it needs a corpus with a race/ethnicity axis).")

    def frame(self) -> Any:
        return self._names_frame(self.data)

    @staticmethod
    def _names_frame(data: Any) -> Any:
        t = data.table("beta") if data is not None else None
        if t is None:
            return None
        t = t[(t["term"].isin(TERMS)) & (t.get("subset", "names") == "names")]
        return t if len(t) else None

    def has_data(self) -> bool:
        return self.frame() is not None

    def fill_controls(self) -> None:
        t = self.frame()
        corpora = self.data.values(t, "corpus") if t is not None else []
        fill_combo(self.corpus, [(c, c) for c in corpora])

    def selection(self) -> Any:
        return {"corpus": self.corpus.currentData(), "ame": self.value.currentData() == "ame"}

    @staticmethod
    def prepare(data: Any, selection: Any) -> dict[str, Any]:
        """Every point of every panel (pool thread): position, interval, colour, stars, row."""
        t = BetaView._names_frame(data)
        if selection["corpus"] is not None:
            t = t[t["corpus"].astype(str) == selection["corpus"]]
        col, lo, hi = ("ame", "ame_ci_low", "ame_ci_high") if selection["ame"] else ("estimate", "ci_low", "ci_high")
        emotions = list(dict.fromkeys(t["emotion"].astype(str)))
        models = list(dict.fromkeys(t["model"].astype(str)))
        span = 0.7
        step = span / max(len(models), 1)
        groups = {key: g.to_dict("records") for key, g in t.groupby(["emotion", "model"], sort=False)}
        panels = []
        for emotion in emotions:
            points: list[dict[str, Any]] = []  # per model, in the order the items are added
            xs_all: list[float] = [0.0]
            for m_i, model in enumerate(models):
                for r in groups.get((emotion, model), []):
                    if r["term"] not in TERMS or not is_number(r[col]):
                        continue
                    y = len(TERMS) - TERMS.index(r["term"]) + (span / 2 - step / 2 - m_i * step)
                    x = float(r[col])
                    tested = str(r.get("status", "ok")) == "ok" and is_number(r.get("p_value"))
                    interval = None
                    end = x
                    if is_number(r.get(lo)) and is_number(r.get(hi)):
                        interval = (float(r[lo]), float(r[hi]))
                        xs_all += list(interval)
                        end = interval[1]
                    xs_all.append(x)
                    points.append({"model": m_i, "x": x, "y": y, "interval": interval, "end": end, "tested": tested,
                                   "stars": stars(r.get("p_value")) if tested else "", "row": r})
            panels.append({"emotion": emotion, "points": points, "x_range": (min(xs_all), max(xs_all))})
        return {"models": models, "panels": panels, "step": step, "ame": selection["ame"]}

    def build(self, prep: dict[str, Any]) -> Any:
        """One panel per emotion; per system one error-bar item and one scatter item (not one
        item per point: the same picture with far fewer items to create and paint)."""
        models, panels, step = prep["models"], prep["panels"], prep["step"]
        ncols = min(COLUMNS, len(panels))
        legend = [(m, colour(i)) for i, m in enumerate(models)]
        self.canvas.addLabel(legend_html(legend, stars_legend() + "   " + _("○ not tested or not converged")),
                             row=0, col=0, colspan=ncols)
        self.marks = []
        for e_i, panel in enumerate(panels):
            yield
            plot = new_plot()
            yield
            plot = self.add_plot(1 + e_i // ncols, e_i % ncols, plot)
            p_i = len(self.plots) - 1
            plot.setTitle(f"<b>{label(panel['emotion'])}</b>", size="11pt")
            plot.addLine(x=0, pen=pg.mkPen(GREY, style=Qt.DashLine))
            left = plot.getAxis("left")
            left.setTicks([[(len(TERMS) - k, label(term)) for k, term in enumerate(TERMS)]])
            if e_i % ncols:
                left.setStyle(showValues=False)
                left.setWidth(8)
            else:
                left.setWidth(110)
            plot.setLabel("bottom", _("effect on the score") if prep["ame"] else _("coefficient (logit)"))
            x_min, x_max = panel["x_range"]
            pad = (x_max - x_min) * 0.12 or 0.01
            plot.setXRange(x_min - pad, x_max + 2 * pad, padding=0)
            plot.setYRange(0.5, len(TERMS) + 0.5, padding=0)
            plot.setMouseEnabled(x=False, y=False)
            yield
            for m_i in range(len(models)):
                pts = [pt for pt in panel["points"] if pt["model"] == m_i]
                if not pts:
                    continue
                c = colour(m_i)
                bars = [pt for pt in pts if pt["interval"] is not None]
                if bars:
                    x = np.array([pt["x"] for pt in bars])
                    plot.addItem(pg.ErrorBarItem(x=x, y=np.array([pt["y"] for pt in bars]),
                                                 left=x - np.array([pt["interval"][0] for pt in bars]),
                                                 right=np.array([pt["interval"][1] for pt in bars]) - x,
                                                 beam=step * 0.5, pen=pg.mkPen(c, width=1.6)))
                filled, hollow = pg.mkBrush(c), pg.mkBrush("w")
                plot.addItem(pg.ScatterPlotItem(x=[pt["x"] for pt in pts], y=[pt["y"] for pt in pts], size=9,
                                                symbol="o", pen=pg.mkPen(c, width=1.6),
                                                brush=[filled if pt["tested"] else hollow for pt in pts]))
                for k, pt in enumerate(pts):
                    if pt["stars"]:
                        txt = text_item(pt["stars"], c, anchor=(0, 0.5), bold=True)
                        txt.setPos(pt["end"], pt["y"])
                        plot.addItem(txt)
                    elif not pt["tested"]:  # a hollow point says so, and why, beside itself
                        why = untested_text(pt["row"].get("status"), pt["row"].get("note"), pt["row"].get("reason"))
                        # beside the point on the side with room: a label right of a point near the
                        # plot's right edge ran off it
                        right_half = pt["x"] > (x_min + x_max) / 2
                        txt = text_item(plot_label(why), GREY, anchor=(1, 0.5) if right_half else (0, 0.5),
                                        italic=True, tooltip=why)
                        txt.setPos(pt["x"] - pad * 0.15 if right_half else pt["end"], pt["y"])
                        plot.addItem(txt)
                    self.marks.append({"plot": p_i, "x": pt["x"], "y": pt["y"], "row": pt["row"]})
                    if k % 4 == 3:
                        yield
        for r in range(1, 1 + (len(panels) - 1) // ncols + 1):
            self.canvas.ci.layout.setRowStretchFactor(r, 1)

    def clear_marks(self) -> None:
        self.marks = []

    def clicked(self, plot: Any, x: float, y: float) -> None:
        p_i = self.plots.index(plot)
        (x0, x1), _yr = plot.vb.viewRange()
        best, dist = None, 1e9
        for m in self.marks:
            if m["plot"] != p_i:
                continue
            d = ((m["x"] - x) / max(x1 - x0, 1e-12)) ** 2 + ((m["y"] - y) / 3.0) ** 2
            if d < dist:
                best, dist = m, d
        if best is None or dist > 0.004:
            return
        self.highlight_point(plot, best["x"], best["y"])
        self.drill_row(best["row"])

    def drill_row(self, r: Any) -> None:
        from engine.stats.present.plotdata import beta_groups, beta_term_sentences

        model, emotion, term, corpus = str(r["model"]), str(r["emotion"]), str(r["term"]), str(r["corpus"])
        p = localized(fmt.p_phrase(r.get("p_value")))
        title = _("{term}, {model} · {emotion}: β = {est} [{lo}, {hi}] {stars}, AME {ame}, {p}").format(
            term=label(term), model=model, emotion=label(emotion), est=_num(r.get("estimate")),
            lo=_num(r.get("ci_low")), hi=_num(r.get("ci_high")), stars=stars(r.get("p_value")),
            ame=_num(r.get("ame"), signed=True), p=p)
        scores = self.data.scores.get(corpus)
        column = f"{model}:{emotion}"
        minority, majority, female, male = beta_groups(r.get("settings", "{}"))

        def rows() -> Any:
            if scores is None or column not in scores.columns:
                raise UserError(_("The scored sentences of {corpus} are not in these results "
                                   "(scores/{corpus}.csv is missing).").format(corpus=corpus))
            return beta_term_sentences(scores, column, term, minority=minority, majority=majority,
                                       female=female, male=male)

        self.drill(title, rows)


def _num(v: Any, signed: bool = False) -> str:
    return localized(fmt.number(v, 3, signed=signed))


__all__ = ["BetaView", "TERM_LABELS"]
