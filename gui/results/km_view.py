"""Box plots of per-pair score differences per system (Kiritchenko & Mohammad 2018, figure 2).

Why horizontal boxes: system names ("model · emotion") are long; on the vertical axis they stay
readable for any number of systems. Each box is the distribution of Δ over the pairs of one
system (Δ = female − male, or minority − majority, as in the paper), whiskers at 1.5 × IQR,
outliers as dots, the mean as a diamond; the paired t-test's verdict and stars sit at the right.
A click on a box lists its pairs with the sentences and both scores; double-click a pair in
that list to see every sentence averaged into it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from engine.common import fmt

# imported with the page, not during the first drawing of a large audit (10 ms of import)
from engine.stats.present.plotdata import km_boxes
from gui.i18n import N_, _, decimal, localized, ngettext, number

from .data import label
from .plots import (GREY, PlotPanel, colour, connect, is_number, legend_html, new_plot, plot_label, stars, stars_legend,
                    text_item, untested_text)
from .widgets import fill_combo, relabel_combo

AXES = {"gender": N_("gender"), "race": N_("race/ethnicity")}
VERDICT_WORDS = [N_("not significant"), N_("significant"), N_("not tested"), N_("no person-level test")]  # the engine's verdict endings
SUBSETS = {"all": N_("all templates"), "emotional": N_("emotional templates"), "neutral": N_("neutral templates")}


def verdict_text(v: Any) -> str:
    """The paper's verdict ('F↑–M↓ significant') with its words translated."""
    text = str(v) if isinstance(v, str) else ""
    for word in ("not significant", "significant", "not tested", "no person-level test"):
        if text == word:  # a verdict without group labels ("not tested", "no person-level test")
            return _(word)
        if text.endswith(" " + word):
            return text[: -len(word)] + _(word)
    return text


class KMView(PlotPanel):
    name = "paired_differences"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.corpus, self.axis, self.subset = QComboBox(), QComboBox(), QComboBox()
        for k in SUBSETS:
            self.subset.addItem("", k)
        self.corpus_label, self.axis_label, self.subset_label = (self.add_control(c) for c in
                                                                 (self.corpus, self.axis, self.subset))
        self.boxes: list[dict[str, Any]] = []
        self.detail.view.doubleClicked.connect(self._pair_members)
        self._pair_context: dict[str, Any] = {}
        connect(self)

    def retranslate(self, *_args: Any) -> None:
        self.corpus_label.setText(_("Corpus:"))
        self.axis_label.setText(_("Compare:"))
        self.subset_label.setText(_("Pairs:"))
        relabel_combo(self.axis, {k: _(v) for k, v in AXES.items()})
        relabel_combo(self.subset, {k: _(v) for k, v in SUBSETS.items()})
        super().retranslate()

    def hint_text(self) -> str:
        return _("Each box shows the score differences of one system over all its sentence pairs. "
                 "Click a box to list its pairs; double-click a pair to see every sentence behind it.")

    def empty_text(self) -> str:
        return _("No paired analysis in these results. Tick “Paired differences” on the Audit page.")

    def pairs_table(self) -> Any:
        return self.data.table("paired_pairs") if self.data is not None else None

    def has_data(self) -> bool:
        return self.pairs_table() is not None

    def fill_controls(self) -> None:
        pp = self.pairs_table()
        fill_combo(self.corpus, [(c, c) for c in self.data.values(pp, "corpus")])
        fill_combo(self.axis, [(_(AXES.get(a, a)), a) for a in self.data.values(pp, "axis")])

    def selection(self) -> Any:
        return {"corpus": self.corpus.currentData(), "axis": self.axis.currentData() or "gender",
                "subset": self.subset.currentData()}

    @staticmethod
    def _tests(data: Any, sel: dict[str, Any]) -> Any:
        t = data.table("paired")
        if t is None:
            return None
        chosen = (t["corpus"].astype(str) == str(sel["corpus"])) & (t["axis"] == sel["axis"]) \
            & (t["subset"] == sel["subset"])
        return t[chosen]

    @staticmethod
    def prepare(data: Any, sel: dict[str, Any]) -> dict[str, Any]:
        """The boxes (quartiles, whiskers, outliers) and each system's test (pool thread)."""
        pp = data.table("paired_pairs")
        axis, subset = sel["axis"], sel["subset"]
        boxes = km_boxes(pp, corpus=sel["corpus"], axis=axis, subset=subset or "all")
        tests = KMView._tests(data, sel)
        la, lb = ("F", "M") if axis == "gender" else ("", "")
        if tests is not None and len(tests):
            la, lb = str(tests["label_a"].iloc[0]), str(tests["label_b"].iloc[0])
            ga, gb = str(tests["a"].iloc[0]), str(tests["b"].iloc[0])
        else:
            sub = pp[pp["axis"] == axis]
            ga, gb = (str(sub["a"].iloc[0]), str(sub["b"].iloc[0])) if len(sub) else ("", "")
        by_system = {} if tests is None else {(str(r["model"]), str(r["emotion"])): r
                                               for r in tests.to_dict("records")}
        rows = [b for _i, b in boxes.iterrows()]
        return {"rows": rows, "models": list(dict.fromkeys(boxes["model"].astype(str))), "by_system": by_system,
                "labels": (la, lb), "groups": (ga, gb), "axis": axis, "subset": subset}

    def build(self, prep: dict[str, Any]) -> Any:
        """Per system colour one bar item (the boxes), one line item (whiskers and medians) and
        two scatter items (outliers, means) — not five items per box; then the verdicts."""
        rows, models, subset = prep["rows"], prep["models"], prep["subset"]
        (la, lb), (ga, gb) = prep["labels"], prep["groups"]
        self.canvas.addLabel(legend_html([(m, colour(i)) for i, m in enumerate(models)],
                                         _("◆ mean") + "   " + stars_legend()), row=0, col=0)
        yield
        plot = new_plot()
        yield
        plot = self.add_plot(1, 0, plot)
        plot.setTitle(_("Score difference per pair: Δ = {a} − {b} ({subset})").format(
            a=label(ga), b=label(gb), subset=_(SUBSETS.get(subset, subset))), size="11pt")
        plot.setLabel("bottom", _("Δ = score({a}) − score({b})").format(a=la, b=lb))
        plot.addLine(x=0, pen=pg.mkPen(GREY, style=Qt.DashLine))
        yield
        n = len(rows)
        h = 0.6
        self.boxes = []
        ticks = []
        xs = [0.0]
        by_colour: dict[int, list[tuple[float, Any]]] = {}
        for i, b in enumerate(rows):
            y = n - 1 - i
            ticks.append((y, f"{b['model']} · {label(b['emotion'])}"))
            if not b["n"]:
                continue
            by_colour.setdefault(models.index(str(b["model"])), []).append((y, b))
            out = np.asarray(b["outliers"], dtype=float)
            if out.size:
                xs += [float(out.min()), float(out.max())]
            xs += [float(b["whisker_low"]), float(b["whisker_high"])]
            self.boxes.append({"y": y, "row": b})
        for m_i, group in by_colour.items():
            c = colour(m_i)
            ys = np.array([y for y, _b in group], dtype=float)
            plot.addItem(pg.BarGraphItem(x0=[b["q1"] for _y, b in group], x1=[b["q3"] for _y, b in group], y=ys,
                                         height=h, brush=pg.mkBrush(pg.mkColor(c).lighter(160)),
                                         pen=pg.mkPen(c, width=1.4)))
            seg_x, seg_y = [], []
            for y, b in group:
                seg_x += [b["whisker_low"], b["q1"], b["q3"], b["whisker_high"], b["median"], b["median"],
                          b["whisker_low"], b["whisker_low"], b["whisker_high"], b["whisker_high"]]
                seg_y += [y, y, y, y, y - h / 2, y + h / 2, y - h / 4, y + h / 4, y - h / 4, y + h / 4]
            plot.addItem(pg.PlotDataItem(np.asarray(seg_x, dtype=float), np.asarray(seg_y, dtype=float),
                                         connect="pairs", pen=pg.mkPen(c, width=1.6)))
            outliers = [np.asarray(b["outliers"], dtype=float) for _y, b in group]
            out_y = [np.full(o.size, y) for o, (y, _b) in zip(outliers, group)]
            if sum(o.size for o in outliers):
                plot.addItem(pg.ScatterPlotItem(x=np.concatenate(outliers), y=np.concatenate(out_y), size=5,
                                                symbol="o", pen=pg.mkPen(c), brush=pg.mkBrush(255, 255, 255, 0)))
            plot.addItem(pg.ScatterPlotItem(x=[b["mean"] for _y, b in group], y=ys, size=9, symbol="d",
                                            pen=pg.mkPen("k"), brush=pg.mkBrush(c)))
            yield
        x_min, x_max = min(xs), max(xs)
        width = (x_max - x_min) or 1e-3
        plot.getAxis("left").setTicks([ticks])
        plot.getAxis("left").setWidth(min(260, 12 + 7 * max((len(t[1]) for t in ticks), default=8)))
        plot.setXRange(x_min - width * 0.05, x_max + width * 0.75, padding=0)
        plot.setYRange(-0.6, n - 0.4, padding=0)
        plot.setMouseEnabled(x=True, y=False)
        self.canvas.ci.layout.setRowStretchFactor(1, 1)
        for k, box in enumerate(self.boxes):
            b = box["row"]
            r = prep["by_system"].get((str(b["model"]), str(b["emotion"])))
            if r is None:
                continue
            if is_number(r.get("p_value")):
                txt = text_item(f"{verdict_text(r.get('verdict'))} {stars(r.get('p_value'))}  "
                                f"({localized(fmt.p_phrase(r.get('p_value')))}, n = {number(int(r['n']))})", "#222", anchor=(0, 0.5))
            else:  # no test: say why on the plot, never "not tested (, n = 72)"
                why = untested_text(r.get('status'), r.get('note'), r.get('reason'))
                txt = text_item(f"{plot_label(why)}  (n = {number(int(r['n']))})", GREY, anchor=(0, 0.5), italic=True,
                                tooltip=why)
            txt.setPos(x_max + width * 0.04, box["y"])
            plot.addItem(txt)
            if k % 4 == 3:
                yield

    def clear_marks(self) -> None:
        self.boxes = []

    def clicked(self, plot: Any, x: float, y: float) -> None:
        for box in self.boxes:
            if abs(box["y"] - y) <= 0.35:
                (x0, x1), _yr = plot.vb.viewRange()
                b = box["row"]
                lo = min(b["whisker_low"], *(list(b["outliers"]) or [b["whisker_low"]]))
                hi = max(b["whisker_high"], *(list(b["outliers"]) or [b["whisker_high"]]))
                pad = (x1 - x0) * 0.01
                self.highlight_rect(plot, lo - pad, box["y"] - 0.42, hi - lo + 2 * pad, 0.84)
                self.drill_box(box["row"])
                return

    def drill_box(self, b: Any) -> None:
        from engine.stats.present.plotdata import km_pair_sentences, km_pairs_for

        corpus, model, emotion = str(b["corpus"]), str(b["model"]), str(b["emotion"])
        axis, subset = self.axis.currentData(), self.subset.currentData() or "all"
        pp = self.pairs_table()
        scores = self.data.scores.get(corpus)
        self._pair_context = {"scores": scores, "column": f"{model}:{emotion}"}
        n_box = int(b["n"])
        title = ngettext("{model} · {emotion}, {axis}: {n} pair, mean Δ = {mean}, median {median}",
                         "{model} · {emotion}, {axis}: {n} pairs, mean Δ = {mean}, median {median}", n_box).format(
            model=model, emotion=label(emotion), axis=_(AXES.get(axis, axis)), n=number(n_box),
            mean=decimal(b["mean"], 4, signed=True), median=decimal(b["median"], 4, signed=True))

        def rows() -> Any:
            sel = km_pairs_for(pp, corpus=corpus, model=model, emotion=emotion, axis=axis, subset=subset)
            out = km_pair_sentences(sel, scores)
            return out.assign(axis=axis) if len(out) else out

        self.drill(title, rows)

    def _pair_members(self, index: Any) -> None:
        """Double-click on a pair: every sentence behind it (names are averaged in K&M)."""
        from engine.stats.present.plotdata import km_pair_members

        frame = self.detail.frame
        scores = self._pair_context.get("scores")
        if frame is None or scores is None or "pair_id" not in frame.columns:
            return
        row = frame.iloc[index.row()].to_dict()
        column = self._pair_context["column"]
        title = _("Sentences behind pair {pair}").format(pair=row.get("pair_id"))
        self.drill(title, lambda: km_pair_members(row, scores, column))
