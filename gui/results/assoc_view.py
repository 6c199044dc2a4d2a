"""Effect sizes of the association tests (WEAT, SEAT, LPBS) as bars with their significance.

Why bars of d: the effect size is the number the papers compare across tests and
representations (Caliskan et al.; Lauscher & Glavaš; May et al.; Kurita et al.); the
permutation p-value decides the stars. Bars are coloured by kind; a click on a bar lists the
per-word associations s(w, A, B) behind it.
"""
from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from engine.common.errors import UserError
from engine.common import fmt

from gui.i18n import _, decimal, localized, ngettext, number

from .plots import GREY, PlotPanel, colour, connect, is_number, legend_html, stars, stars_legend, text_item
from .widgets import fill_combo, relabel_combo

KIND_COLOURS = {"weat": colour(0), "seat": colour(2), "lpbs": colour(1)}


def short(text: str, n: int = 46) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class AssocView(PlotPanel):
    name = "association_tests"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.kind, self.effect = QComboBox(), QComboBox()
        self.effect.addItem("", "effect_size")
        self.effect.addItem("", "effect_size_ddof0")
        self.kind_label, self.effect_label = self.add_control(self.kind), self.add_control(self.effect)
        self.bars: list[dict[str, Any]] = []
        connect(self)

    def retranslate(self, *_args: Any) -> None:
        self.kind_label.setText(_("Tests:"))
        self.effect_label.setText(_("Effect size:"))
        self.effect.setItemText(0, _("d (sample SD, ddof = 1)"))
        self.effect.setItemText(1, _("d (XWEAT's np.std, ddof = 0)"))
        relabel_combo(self.kind, {"": _("all kinds")})
        super().retranslate()

    def hint_text(self) -> str:
        return _("Bars show the effect size d; stars the permutation test's p-value. Click a bar to list the "
                 "association of every word with the two attribute sets.")

    def empty_text(self) -> str:
        return _("No association tests in these results. Tick tests under “Association tests” on the Audit page.")

    def frame(self) -> Any:
        return self.data.table("assoc") if self.data is not None else None

    def has_data(self) -> bool:
        return self.frame() is not None

    def fill_controls(self) -> None:
        kinds = self.data.values(self.frame(), "kind")
        fill_combo(self.kind, [(_("all kinds"), "")] + [(k.upper(), k) for k in kinds])

    def draw(self) -> None:
        t = self.frame()
        kind = self.kind.currentData()
        if kind:
            t = t[t["kind"].astype(str) == kind]
        col = self.effect.currentData() or "effect_size"
        if col not in t.columns:
            col = "effect_size"
        kinds = list(dict.fromkeys(t["kind"].astype(str)))
        self.canvas.addLabel(legend_html([(k.upper(), KIND_COLOURS.get(k, GREY)) for k in kinds], stars_legend()),
                             row=0, col=0)
        plot = self.add_plot(1, 0)
        rep = ", ".join(dict.fromkeys(t["representation"].astype(str))) if "representation" in t.columns else ""
        plot.setTitle(_("Association tests on {representation}").format(representation=rep), size="11pt")
        plot.setLabel("bottom", _("effect size d"))
        plot.addLine(x=0, pen=pg.mkPen(GREY, style=Qt.DashLine))
        n = len(t)
        ticks, self.bars = [], []
        vals = [float(v) for v in t[col] if is_number(v)] + [0.0]
        lo, hi = min(vals), max(vals)
        width = (hi - lo) or 1.0
        for i, (_idx, r) in enumerate(t.iterrows()):
            y = n - 1 - i
            title = str(r.get("title", "") or "")
            name = str(r["test"])
            kind_ = str(r.get("kind", ""))
            if kind_ and not name.startswith(kind_ + "/"):
                name += f" ({kind_.upper()})"  # e.g. a WEAT test run as LPBS keeps its id
            ticks.append((y, short(f"{name}  {title}" if title and title != "nan" else name)))
            if not is_number(r[col]):
                continue
            d = float(r[col])
            c = KIND_COLOURS.get(str(r["kind"]), GREY)
            plot.addItem(pg.BarGraphItem(x0=[min(0.0, d)], x1=[max(0.0, d)], y=[y], height=0.62,
                                         brush=pg.mkBrush(c), pen=pg.mkPen(pg.mkColor(c).darker(130))))
            txt = text_item(f"{decimal(d, 2, signed=True)} {stars(r.get('p_value'))}  {localized(fmt.p_phrase(r.get('p_value')))}", "#222",
                            anchor=(0, 0.5) if d >= 0 else (1, 0.5))
            txt.setPos(d + (0.02 if d >= 0 else -0.02) * width, y)
            plot.addItem(txt)
            self.bars.append({"y": y, "d": d, "row": r})
        left = plot.getAxis("left")
        left.setTicks([ticks])
        left.setWidth(min(330, 12 + 7 * max((len(t[1]) for t in ticks), default=8)))
        plot.setXRange(min(lo, 0) - width * (0.45 if lo < 0 else 0.05), max(hi, 0) + width * 0.45, padding=0)
        plot.setYRange(-0.6, n - 0.4, padding=0)
        plot.setMouseEnabled(x=False, y=False)
        self.canvas.ci.layout.setRowStretchFactor(1, 1)

    def clicked(self, plot: Any, x: float, y: float) -> None:
        for bar in self.bars:
            if abs(bar["y"] - y) <= 0.35:
                d = bar["d"]
                self.highlight_rect(plot, min(0.0, d), bar["y"] - 0.36, abs(d), 0.72)
                self.drill_test(bar["row"])
                return

    def drill_test(self, r: Any) -> None:
        test = str(r["test"])
        words = self.data.table("assoc_words")
        n_perm = int(r["n_evaluated"]) if is_number(r.get("n_evaluated")) else None
        # an unknown count ("?") takes the general plural form (100: "other" in every language)
        title = ngettext("{test}: d = {d}, {p} ({n} permutation, {method})",
                         "{test}: d = {d}, {p} ({n} permutations, {method})",
                         100 if n_perm is None else n_perm).format(
            test=test, d=decimal(float(r["effect_size"]), 3, signed=True), p=localized(fmt.p_phrase(r.get("p_value"))),
            n="?" if n_perm is None else number(n_perm), method=r.get("p_method", ""))

        def rows() -> Any:
            if words is None:
                raise UserError(_("The per-word scores are not in these results (assoc/word_scores.csv)."))
            sel = words[words["test"].astype(str) == test]
            if "kind" in sel.columns:
                sel = sel[sel["kind"].astype(str) == str(r.get("kind", ""))]
            return sel.sort_values(["set", "s"], ascending=[True, False]).reset_index(drop=True)

        self.drill(title, rows)
