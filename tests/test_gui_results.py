"""The results screen (pytest-qt, offscreen): every plot type from a real audit folder, drill-down
by mouse click, PNG/SVG/CSV export, clipboard, opening folders (and refusing wrong ones)."""
from __future__ import annotations

import pandas as pd
import pytest

from testkit.audit_fixtures import write_fise_test, write_mini_corpus, write_predictions

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from gui.results.page import ResultsPage  # noqa: E402


@pytest.fixture(scope="module")
def audit_dir(tmp_path_factory):
    """A finished audit: 462 sentences × (planted prediction file, VADER), all statistics, and
    WEAT T1, SEAT T1, WEAT T6 and an English FISE test on the packaged GloVe vectors."""
    from engine.audit import AuditPlan, run_audit
    import json

    from engine.audit.assoc_step import AssocStep, assoc_record, run_assoc_step
    from engine.results.writer import write_assoc_tables

    root = tmp_path_factory.mktemp("results")
    corpus = write_mini_corpus(root)
    pred = write_predictions(corpus, root / "system.tsv")
    out = root / "audit"
    run_audit(AuditPlan([str(corpus)], [f"predictions:{pred}", "vader"], out_dir=out, cache_dir=root / "cache",
                        settings={"n_resamples": 100}))
    step = AssocStep(["weat/T1", "seat:weat/T1", "weat/T6", str(write_fise_test(root))], permutations=1000)
    tables, problems, _objs = run_assoc_step(step)
    assert not problems
    # an LPBS row needs a masked LM (slow on CPU); the view draws it from its `kind`, so a relabelled
    # WEAT row stands in for it here
    lpbs = tables["assoc"].iloc[[0]].assign(kind="lpbs", test="weat/T1", effect_size=-0.4, p_value=0.3)
    tables["assoc"] = pd.concat([tables["assoc"], lpbs], ignore_index=True)
    write_assoc_tables(out, tables)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["assoc"] = assoc_record(step, problems)
    # the readers take only the files the manifest lists (issue 29): list the hand-written ones too
    manifest["files"] = sorted(set(manifest.get("files", [])) | {p.relative_to(out).as_posix()
                                                              for p in (out / "assoc").rglob("*") if p.is_file()})
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


@pytest.fixture
def page(qtbot, audit_dir):
    p = ResultsPage()
    qtbot.addWidget(p)
    p.resize(1200, 820)
    p.show()
    with qtbot.waitSignal(p.loaded, timeout=60_000):
        p.show_result(audit_dir)
    return p


def _texts(plot):
    import pyqtgraph as pg

    # a long label is wrapped onto lines (gui.results.plots.plot_label): read it as one line
    return [" ".join(i.textItem.toPlainText().split()) for i in plot.items if isinstance(i, pg.TextItem)]


def _click(qtbot, view, plot_index, x, y):
    """A real left click on the canvas at data point (x, y)."""
    pos = view.scene_point(plot_index, x, y)
    QTest.mouseClick(view.canvas.viewport(), Qt.LeftButton, Qt.NoModifier, pos)
    qtbot.waitUntil(lambda: view.drill_idle and view.detail.frame is not None, timeout=20_000)


def test_every_plot_type_draws(qtbot, page):
    import pyqtgraph as pg

    assert "gui-mini" in page.heading.text() and "system" in page.heading.text()
    beta = page.show_tab("beta")
    assert [p.titleLabel.text for p in beta.plots] == ["<b>anger</b>", "<b>fear</b>", "<b>joy</b>", "<b>sadness</b>",
                                                       "<b>valence</b>"]
    assert len(beta.marks) == 4 * 3 + 1 * 3  # system: 4 emotions × 3 terms; VADER: valence × 3
    assert {"**", "***"} & set(_texts(beta.plots[0]))  # the planted gender effect is starred (crossed default: **)
    km = page.show_tab("paired")
    assert [b["row"]["system"] for b in km.boxes] == ["system:anger", "system:fear", "system:joy", "system:sadness",
                                                      "vader:valence"]
    assert any("F↑–M↓ significant ***" in t for t in _texts(km.plots[0]))
    km.axis.setCurrentIndex(km.axis.findData("race"))
    assert km.drawing  # a selector redraws in steps (the window stays live), not inside the click
    qtbot.waitUntil(lambda: not km.drawing, timeout=20_000)
    assert len(km.boxes) == 5 and km.plots[0].titleLabel.text.startswith("Score difference per pair: Δ = African")
    conf = page.show_tab("confusion")
    assert conf.cm.n == 63 and conf.cm.kind == "bins" and conf.cm.matrix.shape == (5, 5)
    cells = [i for i in conf.plots[0].items if i.data(0) is not None]
    assert len(cells) == 25 and cells[0].brush().color().name() != cells[1].brush().color().name()
    conf.system.setCurrentIndex(conf.system.findData("vader:valence"))
    qtbot.waitUntil(lambda: not conf.drawing, timeout=20_000)
    assert conf.cm.n == 63
    assoc = page.show_tab("assoc")
    assert [b["row"]["kind"] for b in assoc.bars] == ["weat", "seat", "weat", "lpbs"]
    assert any(t.startswith("+1.08 ***") for t in _texts(assoc.plots[0]))
    assoc.kind.setCurrentIndex(assoc.kind.findData("seat"))
    qtbot.waitUntil(lambda: not assoc.drawing, timeout=20_000)
    assert [b["row"]["test"] for b in assoc.bars] == ["seat/T1"]
    fise = page.show_tab("fise")
    assert len(fise.points) == 50
    labels = _texts(fise.plots[0])
    assert any(t.startswith("men white") for t in labels) and any(t.startswith("women black") for t in labels)
    assert sum(t in set(fise.words.word) for t in labels) >= 8  # top words labelled
    tables = page.show_tab("tables")
    assert tables.select("paired_pairs") and len(tables.table.frame) > 0


def test_drill_down_by_clicking(qtbot, page):
    km = page.show_tab("paired")
    box = km.boxes[0]  # system:anger, gender
    _click(qtbot, km, 0, box["row"]["median"], box["y"])
    pairs = km.detail.frame
    assert len(pairs) == box["row"]["n"] == 84
    assert {"sentence_a", "sentence_b", "score_a", "score_b", "delta"} <= set(pairs.columns)
    np_pair = pairs[pairs.kind == "noun_phrase"].iloc[0]
    assert np_pair.sentence_a.lower().startswith(("she ", "i made her", "the conversation with her", "my mother",
                                                   "my sister", "i saw her", "i made my", "the conversation with my",
                                                   "i saw my"))
    assert pairs.sentence_a.str.startswith("mean of 8:").any()  # name pairs: the 8 female vs the 8 male names
    # double-click a pair: every sentence behind it, with its score
    row = int(pairs.index[pairs.kind == "name_average"][0])
    km.detail.view.doubleClicked.emit(km.detail.model.index(row, 0))
    qtbot.waitUntil(lambda: km.drill_idle and "side" in km.detail.frame.columns, timeout=20_000)
    assert len(km.detail.frame) == 16 and km.detail.frame.score.notna().all()

    conf = page.show_tab("confusion")
    cm = conf.cm.matrix.to_numpy()
    i, j = divmod(int(cm.argmax()), cm.shape[1])
    _click(qtbot, conf, 0, j + 0.5, i + 0.5)
    cell = conf.detail.frame
    assert len(cell) == cm[i, j] > 0
    assert {"privileged", "minoritised", "score_privileged", "score_minoritised"} <= set(cell.columns)

    beta = page.show_tab("beta")
    mark = next(m for m in beta.marks if m["row"]["term"] == "gender" and m["row"]["model"] == "system")
    _click(qtbot, beta, mark["plot"], mark["x"], mark["y"])
    sents = beta.detail.frame
    assert set(sents.group) == {"European female", "European male"} and len(sents) == 2 * 4 * 21
    assert "β =" in beta.detail.title.text()

    assoc = page.show_tab("assoc")
    _click(qtbot, assoc, 0, 0.5, assoc.bars[0]["y"])
    words = assoc.detail.frame
    assert set(words.set) == {"X", "Y"} and "aster" in set(words.word)

    fise = page.show_tab("fise")
    x, y = fise.points[0]
    _click(qtbot, fise, 0, x, y)
    assert (fise.detail.frame.quadrant == fise.words.quadrant.iloc[0]).all()


def test_export_png_svg_csv_and_clipboard(qtbot, page, tmp_path):
    import re

    import pyqtgraph as pg

    for name in ("beta", "paired", "confusion", "assoc", "fise"):
        view = page.show_tab(name)
        png = view.export_png(tmp_path / f"{name}.png", width=1200)
        img = QImage(str(png))
        assert not img.isNull() and img.width() == 1200 and img.height() > 200
        svg = view.export_svg(tmp_path / f"{name}.svg").read_text(encoding="utf-8")
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg and len(svg) > 5000
    assert "anger" in (tmp_path / "beta.svg").read_text(encoding="utf-8")
    # the SVG is geometrically right, even when exported right after a redraw (before any paint):
    # the darkest heatmap cell sits where the screen draws it
    conf = page.show_tab("confusion")
    conf.bins.setValue(4)
    conf.export_svg(tmp_path / "confusion.svg")
    cm = conf.cm.matrix.to_numpy()
    i, j = divmod(int(cm.argmax()), cm.shape[1])
    top_left = conf.plots[0].vb.mapViewToScene(pg.Point(j, i))
    bottom_right = conf.plots[0].vb.mapViewToScene(pg.Point(j + 1, i + 1))
    svg = (tmp_path / "confusion.svg").read_text(encoding="utf-8")
    darkest = re.search(r'fill="#084594".*?<path[^>]* d="([^"]+)"', svg, re.S).group(1)
    xs = [float(a) for a in re.findall(r"(-?[\d.]+),", darkest)]
    ys = [float(b) for b in re.findall(r",(-?[\d.]+)", darkest)]
    assert abs(min(xs) - top_left.x()) < 2 and abs(max(xs) - bottom_right.x()) < 2
    assert abs(min(ys) - top_left.y()) < 2 and abs(max(ys) - bottom_right.y()) < 2
    km = page.show_tab("paired")
    km.drill_box(km.boxes[0]["row"])
    qtbot.waitUntil(lambda: km.drill_idle and km.detail.frame is not None, timeout=20_000)
    saved = km.detail.save_csv(tmp_path / "pairs.csv")
    back = pd.read_csv(saved)
    assert len(back) == 84 and list(back.columns[:2]) == ["pair_id", "template_id"]
    text = km.detail.copy_to_clipboard()
    assert text.startswith("pair_id\t") and QGuiApplication.clipboard().text() == text
    tables = page.show_tab("tables")
    tables.select("beta")
    out = tables.table.save_csv(tmp_path / "beta.csv")
    assert pd.read_csv(out).shape == page.data.tables["beta"].shape


def test_shows_a_fresh_result_and_refuses_a_wrong_folder(qtbot, audit_dir, tmp_path):
    from engine.results import read_audit

    p = ResultsPage()
    qtbot.addWidget(p)
    p.show()
    with qtbot.waitSignal(p.loaded, timeout=20_000):  # handed to the views in steps (the window stays live)
        p.show_result(read_audit(audit_dir))  # an AuditResult object, as the audit page hands it over
    assert p.data is not None and p.beta.has_data() and p.tabs.currentWidget() is p.beta
    (tmp_path / "random").mkdir()
    p.open_folder(tmp_path / "random")
    qtbot.waitUntil(lambda: not p.busy, timeout=20_000)
    assert p.last_error is not None and "no audit results here" in p.last_error.text
    assert "Traceback" not in p.status.text() and "manifest.json" in p.status.text()
    assert p.data is not None  # the previous results stay on screen


def test_empty_views_say_what_to_do(qtbot, tmp_path):
    from engine.audit import AuditResult

    p = ResultsPage()
    qtbot.addWidget(p)
    p.show()
    with qtbot.waitSignal(p.loaded, timeout=20_000):
        p.show_result(AuditResult(None, tables={"paired": pd.DataFrame({"corpus": ["x"]})}))
    view = p.show_tab("beta")
    assert view.stack.currentWidget() is view.empty and "Audit page" in view.empty.text()
    assert not view.png_button.isEnabled()


def test_language_switch_redraws(qtbot, page):
    from gui import i18n

    view = page.show_tab("paired")
    tabs = page.tabs.count()  # every view (one per registry statistic), the tables and the notes
    try:
        i18n.set_language("ar")
        assert view.boxes and page.tabs.count() == tabs == len(page.views) + 2
    finally:
        i18n.set_language("en")
    assert view.plots and view.png_button.text() == "Save PNG…"


def test_notes_keep_paths_dates_and_ids_whole_in_arabic(qtbot, page):
    """A left-to-right value put into a right-to-left sentence is bidi-isolated: the Arabic Notes tab
    showed the creation time 2026-11-28T03:50:17+00:00 as "28T03:50:17+00:00-11-2026"."""
    from gui import i18n

    data = page.data
    man = data.manifest
    try:
        i18n.set_language("ar")
        text = page.notes.toPlainText()  # the open result's notes, redone in the new language
        created = i18n._("Created: {when}")
    finally:
        i18n.set_language("en")
    assert created != "Created: {when}" and created.replace("{when}", "").strip() in text
    assert f"\u2068{man['created']}\u2069" in text
    for cid in man["corpora"]:
        assert f"\u2068{cid}\u2069" in text
    assert f"\u2068{data.out_dir}\u2069" in text
    assert "\u2068{" in text  # the settings' JSON
    assert "Created: " in page.notes.toPlainText()  # back in English


def test_main_window_hands_a_finished_audit_to_the_results_page(qtbot, audit_dir):
    from engine.results import read_audit
    from gui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    audit = win.audit_page()
    audit.finished_result.emit(read_audit(audit_dir))
    results = win.results_page()
    assert results.data is not None and results.data.out_dir == audit_dir
    assert "Results page" in win.statusBar().currentMessage()
    assert not audit.running


def test_a_result_is_handed_over_in_steps_and_a_newer_one_wins(qtbot, audit_dir):
    from engine.results import read_audit
    from engine.audit import AuditResult

    p = ResultsPage()
    qtbot.addWidget(p)
    p.show()
    p.show_result(read_audit(audit_dir))
    assert p.busy and p.beta.data is None  # nothing heavy ran inside show_result itself
    newer = AuditResult(None, tables={"paired": pd.DataFrame({"corpus": ["x"]})})
    with qtbot.waitSignal(p.loaded, timeout=20_000):
        p.show_result(newer)
    qtbot.wait(50)  # the older hand-over's remaining steps must not run afterwards
    assert not p.busy and p.data.result is newer and p.beta.data is p.data and not p.beta.has_data()


def test_a_plot_is_prepared_off_the_ui_thread_and_built_over_several_turns(qtbot, page, monkeypatch):
    import threading

    import pyqtgraph as pg

    from gui.results.km_view import KMView

    km = page.show_tab("paired")  # drawn in one go (scripts): the reference picture
    want_boxes = [(b["y"], b["row"]["system"]) for b in km.boxes]
    want_texts = sorted(_texts(km.plots[0]))
    threads = []
    prepare = KMView.prepare
    monkeypatch.setattr(KMView, "prepare", staticmethod(
        lambda data, sel: threads.append(threading.current_thread()) or prepare(data, sel)))
    km._building.budget_s = 0  # one step per event-loop turn
    km.schedule_redraw()
    assert km.drawing and not km.png_button.isEnabled()
    qtbot.waitUntil(lambda: not km.drawing, timeout=20_000)
    assert threads and threads[0] is not threading.main_thread()
    assert km._building.turns > 2 and km.png_button.isEnabled() and km.canvas.updatesEnabled()
    assert [(b["y"], b["row"]["system"]) for b in km.boxes] == want_boxes
    assert sorted(_texts(km.plots[0])) == want_texts
    # one bar item per system's colour, not one per box
    bars = [i for i in km.plots[0].items if isinstance(i, pg.BarGraphItem)]
    assert len(bars) == 2 and sum(len(b.opts["x0"]) for b in bars) == len(want_boxes)


def test_a_newer_selection_drops_the_rest_of_an_older_drawing(qtbot, page):
    km = page.show_tab("paired")
    km._building.budget_s = 0
    km.schedule_redraw()  # gender
    qtbot.waitUntil(lambda: km._building.running and km._building.turns >= 1, timeout=20_000)
    km.axis.setCurrentIndex(km.axis.findData("race"))
    qtbot.waitUntil(lambda: not km.drawing, timeout=20_000)
    qtbot.wait(50)
    assert len(km.plots) == 1 and km.plots[0].titleLabel.text.startswith("Score difference per pair: Δ = African")
    got = ([(b["y"], b["row"]["system"], b["row"]["n"], b["row"]["mean"]) for b in km.boxes],
           sorted(_texts(km.plots[0])))
    km.redraw()  # the race selection drawn in one go
    assert got == ([(b["y"], b["row"]["system"], b["row"]["n"], b["row"]["mean"]) for b in km.boxes],
                   sorted(_texts(km.plots[0])))
    assert len(got[0]) == 5 and sum("n = " in t for t in got[1]) == 5  # nothing left from the gender drawing


def test_a_newer_result_drops_the_rest_of_an_older_drawing(qtbot, audit_dir):
    from engine.audit import AuditResult
    from engine.results import read_audit

    p = ResultsPage()
    qtbot.addWidget(p)
    p.show()
    p.beta._building.budget_s = 0  # one step per event-loop turn: the drawing is still going on below
    with qtbot.waitSignal(p.loaded, timeout=20_000):
        p.show_result(read_audit(audit_dir))
    qtbot.waitUntil(lambda: p.beta._building.running, timeout=20_000)  # the Beta panels are being built
    newer = AuditResult(None, tables={"paired": pd.DataFrame({"corpus": ["x"]})})
    with qtbot.waitSignal(p.loaded, timeout=20_000):
        p.show_result(newer)
    qtbot.wait(50)
    assert not p.beta.drawing and p.beta.plots == [] and p.beta.marks == []
    assert p.beta.stack.currentWidget() is p.beta.empty and p.beta.canvas.updatesEnabled()


def test_untested_rows_say_not_tested_and_why_on_the_plot(qtbot, audit_dir):
    """A system whose scores do not vary (VADER on a language it cannot read) has no test: its marks
    are hollow and the plot itself says "not tested" and why — not only the Notes tab (issue 28, 9)."""
    from engine.results import read_audit

    result = read_audit(audit_dir)
    for name in ("beta", "paired"):
        frame = result.tables[name].copy()
        vader = frame["model"].astype(str) == "vader"
        frame.loc[vader, "p_value"] = float("nan")
        frame.loc[vader, "status"] = "constant"
        if name == "paired":
            frame.loc[vader, "verdict"] = "not tested"
        result.tables[name] = frame
    p = ResultsPage()
    qtbot.addWidget(p)
    p.show()
    with qtbot.waitSignal(p.loaded, timeout=60_000):
        p.show_result(result)
    why = "not tested: the scores do not vary (every sentence scored alike)"
    beta = p.show_tab("beta")
    assert why in [t for plot in beta.plots for t in _texts(plot)]
    km = p.show_tab("paired")
    texts = [t for plot in km.plots for t in _texts(plot)]
    assert any(t.startswith(why) and t.endswith(")") and "(n = " in t for t in texts), texts
    assert not any("(, n" in t for t in texts)


@pytest.mark.parametrize("lang, written, not_written", [
    ("en", "8,040", "8.040"), ("it", "8.040", "8,040"), ("de", "8.040", "8,040"), ("pt", "8.040", "8,040"),
    ("fr", "8\u202f040", "8,040"), ("ar", "8,040", "8.040")])
def test_counts_in_the_notes_are_written_as_the_interface_language_writes_numbers(qtbot, page, lang, written,
                                                                                 not_written):
    """"8,040 frasi" read as eight point zero four sentences in the Italian Notes tab (Python's
    grouping in every language); a count now follows the language's own (CLDR) grouping."""
    from gui import i18n

    cid = next(iter(page.data.manifest["corpora"]))
    page.data.manifest["corpora"][cid].update(sentences=8040, pairs=1340)
    try:
        i18n.set_language(lang)  # the notes are redone in the new language
        line = next(x for x in page.notes.toPlainText().splitlines() if cid in x and "1" in x)
    finally:
        i18n.set_language("en")
    assert written in line and not_written not in line
    assert ("1,340" if lang in ("en", "ar") else "1\u202f340" if lang == "fr" else "1.340") in line


def test_the_notes_summary_tables_line_up_in_a_fixed_pitch_font(qtbot, page):
    """summary.txt's text tables (the Beta regression's terms, the paired table) drifted apart in the
    interface's proportional font; the Notes tab shows them in the system's fixed-pitch font."""
    from PySide6.QtGui import QFontDatabase, QFontInfo, QFontMetrics

    fixed = QFontDatabase.systemFont(QFontDatabase.FixedFont)
    if not QFontInfo(fixed).fixedPitch():
        pytest.skip("this host has no fixed-pitch font for Qt to give")
    assert page.notes.font() == fixed and QFontInfo(page.notes.font()).fixedPitch()
    metrics = QFontMetrics(page.notes.font())
    assert metrics.horizontalAdvance("intercept") == metrics.horizontalAdvance("-" * len("intercept"))


def test_the_notes_own_lines_take_the_interface_s_direction_and_the_summary_stays_left_to_right(qtbot, page):
    """In Arabic the page's own lines ("Folder: …", the notes from the run) are right-to-left
    paragraphs at the right edge, also one that begins with a corpus ID; summary.txt's English text
    tables stay left to right at the left edge. A plain-text view gave the whole text one direction:
    the Arabic lines stood at the left edge."""
    from PySide6.QtCore import Qt

    from gui import i18n

    def directions():
        out, block = [], page.notes.document().begin()
        while block.isValid():
            out.append((block.text(), block.blockFormat().layoutDirection(), block.blockFormat().alignment()))
            block = block.next()
        return out

    summary = (page.data.out_dir / "summary.txt").read_text(encoding="utf-8").splitlines()
    assert summary and len(summary) > 3
    try:
        i18n.set_language("ar")
        blocks = directions()
    finally:
        i18n.set_language("en")
    own = blocks[:len(blocks) - len(summary)]
    assert [text for text, *_ in blocks[len(own):]] == summary
    assert own[0][0].startswith("المجلد") and all(d == Qt.RightToLeft for _t, d, _a in own)
    assert not own[0][2] & Qt.AlignAbsolute  # leading edge: the right one
    assert all(d == Qt.LeftToRight and a & Qt.AlignAbsolute and a & Qt.AlignLeft for _t, d, a in blocks[len(own):])
    assert all(d == Qt.LeftToRight for _t, d, _a in directions())  # back in English: every line


def test_values_on_the_plots_use_the_interface_language_s_decimal_sign(qtbot, page):
    """The Italian paired plot wrote "p < 0.001, n = 1584" under a translated legend reading
    "p ≤ 0,01": the values, counts and tick labels now follow the language, in English as before."""
    import re

    from gui import i18n

    def drawn() -> tuple[list[str], list[str]]:
        km = page.show_tab("paired")
        texts = [t for t in _texts(km.plots[0]) if " p " in f" {t}" or "n = " in t]
        return texts, km.plots[0].getAxis("bottom").tickStrings([-0.05, 0.0, 0.05], 1.0, 0.05)

    english, english_ticks = drawn()
    try:
        i18n.set_language("it")
        italian, italian_ticks = drawn()
    finally:
        i18n.set_language("en")
    assert english and len(italian) == len(english)
    assert english_ticks == ["-0.05", "0", "0.05"] and italian_ticks == ["-0,05", "0", "0,05"]
    numbers = re.compile(r"p [<=] (\d[.,]\d+)")
    assert all("." in m for t in english for m in numbers.findall(t))
    assert all("," in m and "." not in m for t in italian for m in numbers.findall(t))
    assert any(numbers.search(t) for t in italian)


@pytest.mark.parametrize("lang", ["fr", "es", "pt", "de", "it", "ar"])
def test_every_results_view_fits_1280_pixels_with_its_selectors_whole(qtbot, page, lang):
    """A view's selectors wrap onto a second line where it is narrow: on one line the counterfactual
    view's four made the window at least 1,303 px wide in French, and its corpus box showed "en-cama"."""
    from PySide6.QtWidgets import QComboBox

    from gui import i18n

    i18n.set_language(lang)
    try:
        page.resize(1280 - 150, 740)  # the main window's page list takes the rest
        qtbot.wait(50)
        assert page.minimumSizeHint().width() <= 1280 - 150, page.minimumSizeHint()
        for name, view in page.views.items():
            page.tabs.setCurrentWidget(view)
            qtbot.wait(20)
            row = view.controls
            items = [row.itemAt(i) for i in range(row.count()) if not row.itemAt(i).isEmpty()]
            if len(items) >= 2:  # the row asks only for its widest selector: the rest wraps
                assert row.minimumSize().width() < sum(item.sizeHint().width() for item in items), name
            for combo in view.findChildren(QComboBox):
                if combo.isVisible():
                    assert combo.width() >= min(combo.sizeHint().width(), 300), (name, combo.currentText(), combo.width())
    finally:
        i18n.set_language("en")
