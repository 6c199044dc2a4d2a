"""A statistic added at run time with a setting of its own reaches every place that shows one.

The statistic is two things, its computation and its registry entry (with the declared setting), as
a newcomer would write them in engine/stats/<id>.py and engine/stats/entries/<id>.py. Nothing else
is written for it: the command line, the sweep plan file, the GUI's settings form, the audit folder,
the Results page and the HTML report must all pick it up from the registry."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import pytest

from engine.common.errors import UsageError
from engine.stats import registry
from engine.stats.registry import KeyRow, PlotSpec, Statistic
from engine.stats.settings import Setting

# -- the toy statistic's module -----------------------------------------------------------------------


@dataclass
class LevelResult:
    frame: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.frame

    def summary(self) -> str:
        return "\n".join(f"{r.model}:{r.emotion}: share above {r.level:g} = {r.share_above:.3f}"
                         for r in self.frame.itertuples())


def share_above(scores: pd.DataFrame, score_cols: dict, corpus: str, level: float) -> LevelResult:
    rows = []
    for col, (model, emotion) in score_cols.items():
        values = pd.to_numeric(scores[col], errors="coerce").dropna()
        rows.append({"corpus": corpus, "model": model, "emotion": emotion, "test": "share_above", "level": level,
                     "share_above": float((values > level).mean()), "n": len(values)})
    return LevelResult(pd.DataFrame(rows))


# -- its registry entry ------------------------------------------------------------------------------
LEVEL = Setting("toy_level", "float", 0.5, low=0.0, high=1.0, label="Toy threshold:", fix="e.g. 0.5",
                help="toy statistic: the score the share above is counted from")


def _compute(ctx) -> list:
    return [share_above(ctx.scores, ctx.score_cols, ctx.corpus_id, ctx.setting("toy_level"))]


def _plot(frame: pd.DataFrame) -> PlotSpec:
    from engine.common.svg import Row

    return PlotSpec("Share above the toy threshold", "share of sentences",
                    [Row(f"{r.corpus} · {r.model}:{r.emotion}", r.share_above, level="untested") for r in frame.itertuples()])


def _key_rows(frame: pd.DataFrame) -> list[KeyRow]:
    return [KeyRow("toy", r.corpus, r.model, r.emotion, f"share above {r.level:g}", r.share_above, float("nan"),
                   float("nan"), float("nan")) for r in frame.itertuples()]


TOY = Statistic(id="toy", label="Toy share", title="Toy share above a threshold (test only)",
                paper="a statistic registered by a test", compute=_compute,
                needs=("corpus", "model", "emotion", "test", "share_above"), plot=_plot, key_rows=_key_rows,
                settings=(LEVEL,))


@pytest.fixture
def toy():
    registry.register(TOY)
    try:
        yield TOY
    finally:
        registry.unregister("toy")


# -- the five places ---------------------------------------------------------------------------------


def test_the_command_line_takes_its_setting_and_checks_it(toy, capsys):
    from engine.audit.cli import plan_from_args
    from main import build_parser

    base = ["audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--out", "o"]
    plan = plan_from_args(build_parser("audit").parse_args(base + ["--toy-level", "0.25"]))
    assert plan.settings["toy_level"] == 0.25 and "toy" in plan.stats
    assert plan_from_args(build_parser("audit").parse_args(base)).settings["toy_level"] == 0.5  # the default
    with pytest.raises(SystemExit):
        build_parser("audit").parse_args(base + ["--toy-level", "high"])
    assert "argument --toy-level: must be a number, got 'high'" in capsys.readouterr().err
    plan = plan_from_args(build_parser("audit").parse_args(base + ["--toy-level", "2"]))
    with pytest.raises(UsageError) as err:  # the range: checked before any work, as for a plan built in code
        plan.validate()
    assert str(err.value) == "[--toy-level]: must be between 0 and 1, got 2.0 — e.g. 0.5"


def test_the_sweep_plan_takes_its_setting_and_names_the_line_of_a_bad_one():
    from engine.sweep import SweepError, parse_sweep_plan

    registry.register(TOY)
    try:
        head = '[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nstats = ["toy"]\n'
        assert parse_sweep_plan(head + "toy_level = 0.75\n").audit.settings["toy_level"] == 0.75
        with pytest.raises(SweepError) as err:
            parse_sweep_plan(head + "\ntoy_level = 3\n", "plan.toml")
        assert str(err.value) == "plan.toml:6 [sweep.toy_level]: must be between 0 and 1, got 3.0 — e.g. 0.5"
    finally:
        registry.unregister("toy")


def test_the_gui_settings_form_shows_it_and_the_plan_gets_it(toy, qtbot, tmp_path):
    pytest.importorskip("pytestqt")
    from gui.audit.setup_model import AuditSetup
    from gui.audit.setup_view import AuditSetupView

    setup = AuditSetup.with_defaults()
    view = AuditSetupView(setup)
    qtbot.addWidget(view)
    assert "toy" in view.stat_checks and view.stat_checks["toy"].text() == "Toy share"
    spin = view.settings_form.widgets["toy_level"]
    assert view.settings_form.labels["toy_level"].text() == "Toy threshold:"
    assert (spin.minimum(), spin.maximum(), spin.value()) == (0.0, 1.0, 0.5)
    spin.setValue(0.3)
    setup.add_corpus("en-kiritchenko2018")
    setup.add_scorer("vader", kind="lexicon")
    assert setup.to_plan(tmp_path / "out").settings["toy_level"] == pytest.approx(0.3)


def test_an_audit_writes_it_and_the_results_page_and_report_show_it(toy, qtbot, tmp_path):
    pytest.importorskip("pytestqt")
    from engine.audit import AuditPlan, run_audit
    from gui.results.page import ResultsPage
    from testkit.audit_fixtures import write_mini_corpus, write_predictions

    corpus = write_mini_corpus(tmp_path)
    pred = write_predictions(corpus, tmp_path / "system.tsv")
    out = tmp_path / "audit"
    run_audit(AuditPlan([str(corpus)], [f"predictions:{pred}?name=sys"], stats=["toy"], out_dir=out,
                        cache_dir=tmp_path / "cache", settings={"toy_level": 0.4, "jobs": 1}, report=True))
    table = pd.read_csv(out / "stats" / "toy.csv")
    assert set(table["level"]) == {0.4} and table["share_above"].between(0, 1).all() and len(table) >= 1
    html = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert "Toy share above a threshold (test only)" in html  # its section
    assert "share above 0.4" in html and "tables/toy.csv" in html  # its key results (with the setting), its files

    page = ResultsPage()
    qtbot.addWidget(page)
    with qtbot.waitSignal(page.loaded, timeout=60_000):
        page.show_result(out)
    tables = page.show_tab("tables")
    keys = [tables.which.itemData(i) for i in range(tables.which.count())]
    assert "toy" in keys
    assert tables.which.itemText(keys.index("toy")) == "Toy share above a threshold (test only)"

    # its plot: the entry's plot adapter drawn on a tab of its own (no GUI code was written for it)
    import pyqtgraph as pg

    view = page.show_tab("toy")
    assert page.tabs.tabText(page.tabs.indexOf(view)) == "Toy share"  # its label, English where untranslated
    assert len(view.plots) == 1 and view.stack.currentWidget() is view.canvas
    plot = view.plots[0]
    points = [p for item in plot.items if isinstance(item, pg.ScatterPlotItem) for p in item.points()]
    assert sorted(round(p.pos().x(), 6) for p in points) == sorted(round(v, 6) for v in table["share_above"])
    texts = [item.toPlainText() for item in plot.items if isinstance(item, pg.TextItem)]
    assert texts.count("not tested") == len(table)  # its rows have no p-value: said on the plot itself
    assert "Share above the toy threshold" in plot.titleLabel.text
    first = view.marks[0]
    view.click_data(0, first["x"], first["y"])
    qtbot.waitUntil(lambda: view.drill_idle and view.detail.frame is not None, timeout=10_000)
    assert view.detail.frame.iloc[0]["share_above"] == pytest.approx(first["x"])
