"""The audit screen (pytest-qt, offscreen): real audits in the worker, cancel, errors, UI stalls.

The audits run the way the app runs them: in their own process behind a QThread (see
gui/audit/worker.py), on a 462-sentence corpus with a tiny random BERT classifier and a
prediction file with a planted gender bias.
"""
from __future__ import annotations

import json
import time

import pandas as pd
import pytest

from testkit.audit_fixtures import PacedScorer, TickGaps, make_tiny_classifier, write_mini_corpus, write_predictions

pytest.importorskip("pytestqt")

from gui.audit.page import AuditPage, format_eta  # noqa: E402


@pytest.fixture(scope="module")
def assets(tmp_path_factory):
    root = tmp_path_factory.mktemp("audit_assets")
    corpus = write_mini_corpus(root)
    return {"root": root, "corpus": corpus, "pred": write_predictions(corpus, root / "system.tsv"),
            "tiny": make_tiny_classifier(root / "tiny-bert")}


@pytest.fixture
def page(qtbot, tmp_path):
    p = AuditPage()
    qtbot.addWidget(p)
    p.cache_dir = tmp_path / "cache"
    p.out_dir.setText(str(tmp_path / "out"))
    p.resize(1100, 760)
    p.show()
    yield p
    if p.running:
        p.cancel()
        p.wait(30000)


def _wait_done(qtbot, page, timeout=180_000):
    qtbot.waitUntil(lambda: page.outcome in ("finished", "failed", "cancelled") and not page.running, timeout=timeout)


def test_small_audit_with_tiny_model_and_prediction_file_runs_to_completion(qtbot, page, assets, tmp_path):
    page.add_corpus(str(assets["corpus"]))
    item = page.add_model_folder(assets["tiny"])
    assert item is not None and "local model" in item.text()
    page.add_prediction_file(assets["pred"])
    page.bootstrap.setValue(100)
    assert page.checked_scorers() == [f"hf-classifier:{assets['tiny']}", f"predictions:{assets['pred']}"]
    shown, steps = page._on_step, []
    page._on_step = lambda what, on: steps.append((what, on)) or shown(what, on)  # connected at start()
    with qtbot.waitSignal(page.finished_result, timeout=180_000) as sig:
        assert page.start()
        assert page.running and not page.run_button.isEnabled() and page.cancel_button.isEnabled()
    _wait_done(qtbot, page)
    result = sig.args[0]
    assert page.outcome == "finished", page.last_error
    assert page.progress.value() == page.progress.maximum()
    assert page.run_button.isEnabled() and not page.cancel_button.isEnabled()
    assert ("Beta regression", "gui-mini") in steps  # told across the audit process's pipe
    log = page.log.toPlainText()
    assert "gui-mini × tiny-bert: 430 scored, 32 from cache" in log and "Finished" in log  # 32: the speed probe
    # both systems were scored and analysed; the planted +0.05 for women is found in the prediction file
    paired = result.tables["paired"]
    assert set(paired.model) == {"tiny-bert", "system"}
    g = paired[(paired.model == "system") & (paired.emotion == "anger") & (paired.axis == "gender")
               & (paired.subset == "all")].iloc[0]
    assert g.verdict.startswith("F↑") and abs(g.mean_delta - 0.05) < 0.02
    beta = result.tables["beta"]
    # the planted gender gap is found by the person-level test (crossed, the default, asks more of a
    # 10-name mini corpus: its p-values are in crossed_p_value and may be larger)
    assert (beta[(beta.model == "system") & (beta.term == "gender")].person_p_value < 0.01).all()
    out = tmp_path / "out"
    for f in ["manifest.json", "scores/gui-mini.csv", "pairs/gui-mini.csv", "stats/paired.csv", "stats/beta.csv",
              "stats/counterfactual.csv"]:
        assert (out / f).is_file(), f
    man = json.loads((out / "manifest.json").read_text())
    assert man["corpora"]["gui-mini"]["sentences"] == 462
    assert set(man["scorers"]) == {"tiny-bert", "system"}
    scores = pd.read_csv(out / "scores" / "gui-mini.csv")
    assert scores["tiny-bert:expected_01"].between(0, 1).all() and scores["system:anger"].notna().all()


def test_cancel_half_way(qtbot, page, assets, monkeypatch):
    page.add_corpus(str(assets["corpus"]))
    page.add_model_folder(assets["tiny"])
    page.batch_size.setValue(4)
    assert page.checked_scorers() == [f"hf-classifier:{assets['tiny']}?batch_size=4"]
    # the tiny model may finish in 0.2 s, faster than any click: the job the page built gets a
    # scorer with a known pace (116 batches of 4, 30 ms each), so Cancel lands half-way every time
    build = page.build_job

    def paced_job():
        job = build()
        job.plan.scorers = [PacedScorer(delay=0.03)]
        return job

    monkeypatch.setattr(page, "build_job", paced_job)
    seen = []

    def progress(phase, done, total, eta):
        seen.append((phase, done, total))
        if phase == "scoring" and done >= total // 2 and page.cancel_button.isEnabled():
            page.cancel()

    assert page.start()
    page.thread.progress.connect(progress)
    _wait_done(qtbot, page)
    assert page.outcome == "cancelled", page.log.toPlainText()
    done = max(d for ph, d, t in seen)
    total = seen[-1][2]
    assert total // 2 <= done < total  # stopped half-way, not at the end
    assert page.progress.value() < page.progress.maximum()
    assert "Cancelled after" in page.log.toPlainText() and "cached" in page.log.toPlainText()
    assert page.last_error is None and page.run_button.isEnabled() and not page.running
    assert not (page._resolve_out_dir() / "manifest.json").exists()  # nothing half-written


def test_engine_errors_are_readable_messages(qtbot, page, tmp_path, assets):
    # a folder that is not a model: refused when added, with what to do
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    assert page.add_model_folder(empty) is None
    text = page.error_banner.text()
    assert page.error_banner.isVisible() and "not a model folder" in text and "config.json" in text
    assert "What to do" in text and "Traceback" not in text
    # nothing ticked: the run does not start and says why
    assert not page.start()
    assert "Tick at least one corpus" in page.error_banner.text()
    # a broken model folder only fails inside the engine (in the audit process): readable, app alive
    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "config.json").write_text("{ not json", encoding="utf-8")
    page.add_corpus(str(assets["corpus"]))
    page.add_model_folder(broken)
    assert page.start()
    _wait_done(qtbot, page)
    assert page.outcome == "failed"
    info = page.last_error
    assert info is not None and "broken-model" in info.text and "Traceback" not in info.as_text()
    assert info.title == "Cannot continue"
    assert page.error_banner.isVisible() and page.run_button.isEnabled()
    assert "Error:" in page.log.toPlainText()


def test_missing_prediction_file_is_a_readable_message(qtbot, page, tmp_path, assets):
    page.add_corpus(str(assets["corpus"]))
    page.add_prediction_file(tmp_path / "gone.tsv")
    page.set_statistics(["paired"])
    assert page.start()
    _wait_done(qtbot, page)
    assert page.outcome == "failed"
    assert "gone.tsv" in page.last_error.text and "Traceback" not in page.error_banner.text()


def test_out_of_memory_is_explained(qtbot, page, assets, monkeypatch):
    """An OOM inside the engine (here simulated in the worker thread) says what to do."""
    import gui.audit.worker as worker

    def oom(*_a, **_k):
        raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(worker, "execute", oom)
    page.isolate = False
    page.add_corpus(str(assets["corpus"]))
    page.add_scorer("vader", kind="lexicon")
    assert page.start()
    _wait_done(qtbot, page)
    assert page.outcome == "failed" and page.last_error.title == "Out of memory"
    assert "smaller batch size" in page.error_banner.text()


def max_stall_during(qtbot, page, timeout=120_000) -> tuple[float, int]:
    """Worst gap between 10 ms timer ticks (seconds) while the page runs an audit, and the tick count."""
    ticks = TickGaps()
    ticks.start()
    assert page.start()
    _wait_done(qtbot, page, timeout)
    ticks.stop()
    return max(ticks.gaps), len(ticks.gaps)


def test_audit_runs_outside_the_ui_process_and_the_event_loop_keeps_ticking(qtbot, page, assets):
    """The design that keeps the window responsive: the audit runs in a child process (no GIL shared
    with the UI), and the UI's event loop keeps serving a 10 ms timer all through the run.

    The stall itself (target < 100 ms; 16–71 ms measured) is a timing, so it is measured by
    bench/bench_gui_stall.py, not asserted here: on a shared two-core CI machine the OS alone can
    keep a runnable thread waiting long enough to fail any tight bound by chance. This test prints
    the worst gap it saw (`-s`) for the curious."""
    import os

    page.add_corpus(str(assets["corpus"]))
    page.add_prediction_file(assets["pred"])
    page.add_scorer("vader", kind="lexicon")
    page.bootstrap.setValue(100)
    pids = []
    page.state_changed.connect(lambda: pids.append(page.thread.pid if page.thread is not None else None))
    worst, ticks = max_stall_during(qtbot, page)
    assert page.outcome == "finished", page.last_error
    child = [p for p in pids if p is not None]
    assert child and all(p != os.getpid() for p in child)  # scored and analysed in the audit process
    assert ticks > 50  # the event loop ran its timer throughout, not only before and after
    print(f"worst event-loop stall during the audit: {worst * 1000:.0f} ms over {ticks} ticks")


def test_eta_and_labels():
    assert format_eta(None) == ""
    assert format_eta(42) == "about 42 s left"
    assert format_eta(125) == "about 2 min 5 s left"
    assert format_eta(7300) == "about 2 h 1 min left"


def test_the_statistics_phase_counts_and_names_each_statistic(page):
    """Issue 42: the statistics phase shows its steps (statistic × corpus) done of all, and which
    statistic runs on which corpus, in the interface language — not a still bar."""
    from gui import i18n

    page.outcome, page._step_named = "running", False
    page._on_progress("statistics", 0, 9, None)
    assert page.phase_label.text() == "Computing statistics…" and page.progress.maximum() == 9
    page._on_step("Beta regression", "en-kiritchenko2018")
    page._on_progress("statistics", 4, 9, 30.0)
    assert page.phase_label.text() == "Computing statistics: Beta regression on en-kiritchenko2018"
    assert page.progress.value() == 4 and "about 30 s left" in page.eta_label.text()
    try:
        i18n.set_language("de")
        page._on_step("Beta regression", "en-kiritchenko2018")
        assert page.phase_label.text() == "Statistiken werden berechnet: Beta-Regression für en-kiritchenko2018"
    finally:
        i18n.set_language("en")


def test_progress_counts_read_done_then_total_in_arabic_too(page):
    """The counts are one left-to-right isolate (U+2066 … U+2069): in a right-to-left layout the
    bidi algorithm would otherwise show "25,920 / 13,072" for 13,072 done of 25,920."""
    page.run_view.show_counts(13072, 25920)
    text = page.progress.text()
    assert text.startswith("\u206613,072 / 25,920\u2069") and text.endswith("(50%)")


def test_a_run_that_cannot_stop_itself_is_ended_on_close(qtbot, page, assets):
    """Closing the window while the audit process is busy importing torch (no batch boundary to
    check Cancel at): wait() gives it a moment, then ends the process; nothing is left running."""
    import os

    page.add_corpus(str(assets["corpus"]))
    page.add_model_folder(assets["tiny"])
    assert page.start()
    qtbot.waitUntil(lambda: page.thread is not None and page.thread.pid is not None, timeout=20_000)
    pid = page.thread.pid
    page.cancel()
    started = time.monotonic()
    assert page.wait(1000)
    assert time.monotonic() - started < 15
    qtbot.waitUntil(lambda: not page.running and page.outcome == "cancelled", timeout=20_000)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_cancel_in_the_statistics_says_every_score_is_cached(qtbot, page):
    from engine.common.progress import Cancelled

    exc = pickle_roundtrip(Cancelled(462, 462, stage="statistics"))  # as it crosses the audit process's pipe
    assert exc.stage == "statistics" and exc.done == 462
    page.outcome = "running"
    page._on_cancelled(exc)
    log = page.log.toPlainText()
    assert page.outcome == "cancelled" and "Cancelled during the statistics" in log and "Cancelled after" not in log


def pickle_roundtrip(obj):
    import pickle

    return pickle.loads(pickle.dumps(obj))


def test_llm_dialog_shows_edits_and_adds_the_prompts(qtbot, page, tmp_path):
    """*Add local LLM…*: the prompts' wording is shown; an edit is saved and used (prompt_file=)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialog

    from gui.audit.llm_dialog import LLMDialog
    from testkit.tiny_models import make_tiny_causal_lm

    folder = make_tiny_causal_lm(tmp_path / "tiny-llama")
    from gui.audit.setup_model import describe_model_folder

    assert describe_model_folder(folder)[0] == "llm"  # a causal LM folder is not taken for a classifier
    dialog = LLMDialog(page.setup, page)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(folder))
    dialog.language.setCurrentIndex(dialog.language.findData("es"))
    for i in range(dialog.tasks.count()):
        item = dialog.tasks.item(i)
        item.setCheckState(Qt.Checked if item.text() == "joy" else Qt.Unchecked)
    assert dialog.chosen_ids() == ["joy-es"] and "{text}" in dialog.text.toPlainText()
    dialog.text.setPlainText(dialog.text.toPlainText().replace("version = 1", "version = 7"))
    dialog.accept()
    assert dialog.result() == QDialog.Accepted and dialog.added is not None
    spec = dialog.added.key
    assert spec.startswith(f"llm:{folder}?prompt=joy-es&prompt_file=")
    row = page.setup_view.item_for("scorers", spec)
    assert row is not None and "local LLM" in row.text()


@pytest.mark.slow
def test_run_on_a_dask_scheduler_from_the_audit_page(qtbot, page, assets):
    """*Run on: a Dask scheduler at …*: the audit process scores on the cluster (engine.sweep)
    and the results are those of a local audit; the manifest names the scheduler."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", scheduler_port=0,
                                  dashboard_address=None) as cluster:
        page.add_corpus(str(assets["corpus"]))
        page.add_scorer("vader", kind="lexicon")
        page.set_statistics(["paired"])
        page.bootstrap.setValue(0)
        page.run_view.run_on.setCurrentIndex(page.run_view.run_on.findData("dask"))
        assert page.run_view.scheduler.isVisibleTo(page)
        page.run_view.scheduler.setText(cluster.scheduler_address)
        assert page.start()
        _wait_done(qtbot, page)
        assert page.outcome == "finished", page.log.toPlainText()
    man = json.loads((page.result.out_dir / "manifest.json").read_text())
    assert man["sweep"]["scheduler"] == cluster.scheduler_address
    assert len(page.result.tables["paired"]) > 0


def test_processes_preference_is_remembered(qtbot, page, tmp_path):
    page.setup_view.jobs.setValue(3)
    assert page.setup.jobs == 3
    again = AuditPage()
    qtbot.addWidget(again)
    assert again.setup.jobs == 3 and again.setup_view.jobs.value() == 3


def test_a_system_that_cannot_read_the_corpus_language_is_said_before_running(qtbot, page):
    """VADER (English) ticked with a Spanish corpus: the page says so before the run, with what to choose
    instead; unticking VADER clears it (issue 28, part 9)."""
    from PySide6.QtCore import Qt

    page.add_corpus("es-camara2022")
    page.add_scorer("vader", kind="lexicon")
    assert page.language_note.isVisible()
    text = page.language_note.text()
    assert "VADER reads en but es-camara2022 is in es" in text and "Choose a system that reads es" in text
    page.add_scorer("llm:/models/qwen?language=es&name=qwen-es", kind="llm", checked=False)  # listed, reads es
    assert "Choose instead: qwen-es." in page.language_note.text()
    vader = next(page.setup_view.scorers.item(i) for i in range(page.setup_view.scorers.count())
                 if page.setup_view.scorers.item(i).data(Qt.UserRole + 1) == "vader"
                 or page.setup_view.scorers.item(i).text().startswith("VADER"))
    vader.setCheckState(Qt.Unchecked)  # a tick in the list, as a user clicks it
    assert not page.language_note.isVisible() and page.language_warnings() == []
    page.add_corpus("en-kiritchenko2018")
    page.add_scorer("vader", kind="lexicon")
    assert page.language_note.isVisible() and "en-kiritchenko2018" not in page.language_note.text()


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt", "de", "it", "ar"])
def test_the_audit_page_fits_a_1280_by_800_screen_with_every_choice_whole(qtbot, tmp_path, lang):
    """In French the one-line pickle check box and the row of device, batch and processes made the
    window at least 1,573 px wide (Spanish 1,482, Portuguese 1,438), and the statistics' column made
    it 863 px tall; at 1280 px even English showed "persons, template…" and "pooled, as in the p…".
    Now the long sentence wraps, the row wraps, a setting whose label and choice do not fit side by
    side puts the choice under its label, and the statistics' column scrolls where the window is short."""
    from PySide6.QtWidgets import QComboBox

    from gui import i18n
    from gui.audit.setup_view import AuditSetupView

    i18n.set_language(lang)
    try:
        p = AuditPage()
        qtbot.addWidget(p)
        p.resize(1280 - 150, 800 - 60)  # the main window's page list and menu bar take the rest
        p.show()
        qtbot.waitExposed(p)
        view = p.findChild(AuditSetupView)
        assert p.minimumSizeHint().width() <= 1280 - 150, p.minimumSizeHint()
        assert p.minimumSizeHint().height() <= 800 - 60, p.minimumSizeHint()
        for combo in view.settings_form.widgets.values():
            if isinstance(combo, QComboBox):
                assert combo.width() >= combo.sizeHint().width(), (combo.currentText(), combo.width())
        assert view.allow_pickle.minimumSizeHint().width() < 300  # the sentence wraps
    finally:
        i18n.set_language("en")
