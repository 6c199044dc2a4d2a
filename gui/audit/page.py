"""The audit screen: corpora × scoring systems × statistics, run in a worker thread.

Why this layout: a researcher reads it left to right — *what* to score (corpora), *with what*
(local models, prediction files, lexicon systems, trained heads), *which numbers* (the papers'
statistics and association tests) — then presses Run and watches progress, the ETA and a log,
with Cancel always available.

Three parts: ``AuditSetup`` (setup_model.py, no Qt) holds the plan as data; ``AuditSetupView``
edits it; ``AuditRunView`` shows the run. This page wires them to ``AuditThread``, which runs
the one audit pipeline (``engine.audit.run_audit``) in its own process. Engine errors become a
readable banner with what to do; nothing here can end the app.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from engine.common.errors import UserError

from gui.common.collector import freeze_long_lived
from gui.errors import FriendlyError, friendly, last_errors
from gui.i18n import _, connect_retranslate, isolated, number

from .job import AuditJob
from .run_view import AuditRunView, format_elapsed, format_eta
from .setup_model import AuditSetup, Choice, SetupIncomplete, describe_model_folder
from .setup_view import AuditSetupView
from .worker import AuditThread

__all__ = ["AuditPage", "describe_model_folder", "format_elapsed", "format_eta"]


class AuditPage(QWidget):
    """Signals: ``finished_result(AuditResult)`` after a successful run; ``state_changed()``."""

    finished_result = Signal(object)
    state_changed = Signal()

    def __init__(self, parent: QWidget | None = None, setup: AuditSetup | None = None) -> None:
        super().__init__(parent)
        if setup is None:
            from gui import settings

            setup = AuditSetup.with_defaults()
            setup.jobs = max(0, int(settings.get("audit_jobs") or 0))
        self.setup = setup
        self.thread: AuditThread | None = None
        self.result: Any = None
        self.last_error: FriendlyError | None = None
        self.outcome = ""  # "", "running", "finished", "cancelled", "failed"
        #: run the audit in its own process (see gui/audit/worker.py); False: in the worker thread
        self.isolate = True
        self._started = 0.0
        self._phase = ""
        self._step_named = False
        self._eta: float | None = None

        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.RichText)
        self.setup_view = AuditSetupView(self.setup)
        self.setup_view.problem.connect(self._show_error)
        self.setup_view.cleared.connect(self._clear_error)
        # said before the run: a ticked system that cannot read a ticked corpus's language
        self.language_note = QLabel()
        self.language_note.setWordWrap(True)
        self.language_note.setStyleSheet("color: #8a4b00;")
        self.language_note.hide()
        self.setup_view.ticked.connect(lambda _group: self.check_languages())
        self.setup.listeners.append(lambda what: self.check_languages() if what in ("corpora", "scorers") else None)
        self.run_view = AuditRunView(self.setup, self._default_out_root)
        self.run_view.run_button.clicked.connect(self.start)
        self.run_view.cancel_button.clicked.connect(self.cancel)
        self.run_view.report_button.clicked.connect(self.export_report)
        # the widgets tests, tools and the main window reach for
        rv, sv = self.run_view, self.setup_view
        self.progress, self.log, self.error_banner, self.eta_label, self.phase_label = (
            rv.progress, rv.log, rv.error_banner, rv.eta_label, rv.phase_label)
        self.run_button, self.cancel_button, self.report_button, self.out_dir = (
            rv.run_button, rv.cancel_button, rv.report_button, rv.out_dir)
        self.bootstrap, self.batch_size, self.assoc_filter = sv.bootstrap, sv.batch_size, sv.assoc_filter

        split = QSplitter(Qt.Vertical)
        split.addWidget(self.setup_view)
        split.addWidget(self.run_view)
        split.setChildrenCollapsible(False)
        # the settings first: their statistics' column scrolls where the window is short (setup_view),
        # and at 1400 x 900 a 3 : 2 share gave it 550 px of the 597 it needs in English (4 : 1: 634)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.language_note)
        layout.addWidget(split, 1)

        self._clock = QTimer(self)
        self._clock.setInterval(500)
        self._clock.timeout.connect(self._tick)
        connect_retranslate(self)
        self.retranslate()
        self._set_running(False)
        freeze_long_lived()  # a collection during a run walks only newer objects (gui.common.collector)

    # -- the setup, for callers that add things (main window, tests) ------------------------
    @property
    def cache_dir(self) -> Path | None:
        """Score cache folder (None: the engine's default, ~/.cache/eec-studio); tests set their own."""
        return self.setup.cache_dir

    @cache_dir.setter
    def cache_dir(self, value: Path | None) -> None:
        self.setup.cache_dir = value

    def add_corpus(self, name_or_path: str | Path, checked: bool = True) -> Choice:
        return self.setup.add_corpus(name_or_path, checked)

    def add_scorer(self, spec: str, *, kind: str = "spec", checked: bool = True) -> Choice:
        return self.setup.add_scorer(spec, kind=kind, checked=checked)

    def add_model_folder(self, folder: str | Path) -> Any:
        """Add a model folder; returns its row in the list (None, with a message, when it is not a model)."""
        choice = self.setup_view.add_model_folder(folder)
        return None if choice is None else self.setup_view.item_for("scorers", choice.key)

    def add_prediction_file(self, path: str | Path, *, key: str = "auto") -> Choice:
        return self.setup_view.add_prediction_file(path, key=key)

    def add_assoc_test(self, name: str, checked: bool = True) -> Choice:
        return self.setup.add_assoc_test(name, checked)

    def set_statistics(self, keys: list[str]) -> None:
        self.setup.set_statistics(keys)

    def checked_corpora(self) -> list[str]:
        return self.setup.checked_corpora()

    def checked_scorers(self) -> list[str]:
        return self.setup.checked_scorers()

    def checked_assoc_tests(self) -> list[str]:
        return self.setup.checked_tests()

    # -- texts ----------------------------------------------------------------------------
    def retranslate(self, *_args: Any) -> None:
        self.intro.setText("<h2>%s</h2><p>%s</p>" % (
            _("Audit"),
            _("Score corpora with one or more systems and compute the papers' bias statistics. "
              "Scores are cached: a cancelled run resumes where it stopped.")))
        if hasattr(self, "language_note"):
            self.check_languages()
        self._show_state_text()

    def language_warnings(self) -> list[str]:
        """One sentence per ticked system that does not read a ticked corpus's language, saying what
        to choose instead (AuditSetup.language_mismatches)."""
        out = []
        for m in self.setup.language_mismatches():
            text = _("{system} reads {reads} but {corpus} is in {language}: its scores will not vary, and its "
                     "statistics will say “not tested” or show no bias.").format(
                system=m.scorer, reads=", ".join(m.reads), corpus=m.corpus, language=m.language)
            if m.instead:
                text += " " + _("Choose instead: {systems}.").format(systems=", ".join(m.instead))
            else:
                text += " " + _("Choose a system that reads {language}: a model trained for it, an LLM asked in "
                                "{language}, or a prediction file of such a system.").format(language=m.language)
            out.append(text)
        return out

    def check_languages(self) -> list[str]:
        """Show the language warnings above the setup (hidden when there are none); returns them."""
        warnings = self.language_warnings()
        self.language_note.setText("\n".join("⚠ " + w for w in warnings))
        self.language_note.setVisible(bool(warnings))
        return warnings

    def _show_state_text(self) -> None:
        if self.outcome == "running":
            return
        texts = {"": _("Ready."), "finished": _("Finished."), "cancelled": _("Cancelled."), "failed": _("Stopped.")}
        self.phase_label.setText(texts.get(self.outcome, ""))
        if self.last_error is not None:
            self._show_error(self.last_error)

    @staticmethod
    def _default_out_root() -> Path:
        from engine.common.user_dirs import user_home

        return user_home() / "audits"

    def _resolve_out_dir(self) -> Path:
        return self.setup.resolve_out_dir(self._default_out_root())

    # -- run ------------------------------------------------------------------------------
    def build_job(self) -> AuditJob:
        """The worker's job from the setup; UserError (translated) when something is missing."""
        out = self._resolve_out_dir()
        try:
            plan = self.setup.to_plan(out)
            scheduler = self.setup.scheduler_address()
        except SetupIncomplete as exc:
            raise UserError(exc.translated(_)) from None
        return AuditJob(plan=plan, out_dir=out, scheduler=scheduler)

    @property
    def running(self) -> bool:
        """True from start() until the UI has handled the worker's end (buttons re-enabled).

        Why not QThread.isRunning(): the thread stops running before its queued `finished`
        signal reaches the UI thread; in between, the page would claim to be idle while its
        Run button is still disabled."""
        return self.thread is not None

    def start(self) -> bool:
        """Start the audit in the worker thread; False (with a message) when it cannot start."""
        if self.running:
            return False
        try:
            job = self.build_job()
        except UserError as exc:  # the setup is incomplete or a setting is out of range: the user's to fix
            self._show_error(FriendlyError(_("Not ready to run"), exc.text_without_fix(), exc.fix))
            return False
        except Exception as exc:  # noqa: BLE001 - a bug: friendly() logs it and says so
            self._show_error(friendly(exc))
            return False
        self._clear_error()
        self.result = None
        self.outcome = "running"
        self.log.clear()
        for warning in self.check_languages():  # before anything runs, in the log the user reads
            self._append("⚠ " + warning)
        self._append(_("Results folder: {path}").format(path=isolated(job.out_dir)))
        self.thread = AuditThread(job, self, isolate=self.isolate)
        self.thread.progress.connect(self._on_progress)
        self.thread.step.connect(self._on_step)
        self.thread.log.connect(self._append)
        self.thread.succeeded.connect(self._on_succeeded)
        self.thread.failed.connect(self._on_failed)
        self.thread.cancelled.connect(self._on_cancelled)
        self.thread.finished.connect(self._on_thread_finished)
        self._started = time.monotonic()
        self._phase, self._eta = _("Preparing…"), None
        self._step_named = False  # the statistics phase shows the statistic running once told (_on_step)
        self.run_view.show_busy()
        self._set_running(True)
        self._tick()
        self._clock.start()
        self.thread.start()
        return True

    def cancel(self) -> None:
        """Ask the worker to stop at the next batch (cooperative); scores so far stay cached."""
        if self.running:
            self.thread.request_cancel()
            self.cancel_button.setEnabled(False)
            self._phase = _("Cancelling…")
            self._append(_("Cancelling: the current batch finishes first."))
            self._tick()

    def wait(self, msecs: int = 30000) -> bool:
        """Block until the worker thread has ended (window close, tests); a run in its own process
        that has not stopped by then is ended, so closing the window never leaves it behind."""
        if self.thread is None:
            return True
        if self.thread.wait(msecs):
            return True
        self.thread.kill_child()
        return bool(self.thread.wait(10000))

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.setup_view.setEnabled(not running)
        self.out_dir.setEnabled(not running)
        self.run_view.out_button.setEnabled(not running)
        self.report_button.setEnabled(not running and self.result is not None and self.result.out_dir is not None)
        if not running:
            self._clock.stop()
        self.state_changed.emit()

    def _on_progress(self, phase: str, done: int, total: int, eta: Any) -> None:
        if self.outcome != "running":
            return
        if phase == "scoring" and done >= total:
            self._phase, self._eta = _("Computing statistics…"), None
            self.run_view.show_busy()
        elif phase == "statistics":  # a step per statistic and corpus; _on_step names the one running
            if not self._step_named:
                self._phase = _("Computing statistics…")
            self._eta = eta
            self.run_view.show_counts(done, total)
        else:
            self._phase = {"scoring": _("Scoring sentences"), "sweep": _("Scoring on the Dask cluster")}.get(
                phase, _("Association tests"))
            self._eta = eta
            self.run_view.show_counts(done, total)
        self._tick()

    def _on_step(self, statistic: str, corpus: str) -> None:
        """The statistic that starts now (its registry label, translated here) and on which corpus."""
        if self.outcome != "running":
            return
        self._step_named = True
        self._phase = _("Computing statistics: {statistic} on {corpus}").format(statistic=_(statistic),
                                                                                corpus=corpus)
        self._tick()

    def _tick(self) -> None:
        if self.outcome != "running":
            return
        self.phase_label.setText(self._phase)
        elapsed = _("elapsed {t}").format(t=format_elapsed(time.monotonic() - self._started))
        eta = format_eta(self._eta)
        self.eta_label.setText(f"{elapsed} · {eta}" if eta else elapsed)

    def _append(self, line: str) -> None:
        self.run_view.append(line)

    def _on_succeeded(self, result: Any) -> None:
        self.result = result
        self.outcome = "finished"
        self.run_view.show_counts(1, 1)
        self.progress.setFormat("%p%")
        took = format_elapsed(time.monotonic() - self._started)
        self.eta_label.setText(_("finished in {t}").format(t=took))
        from gui.results.problem_text import problem_lines

        for p in problem_lines(getattr(result, "problems", []) or [], getattr(result, "manifest", None)):
            self._append(_("Note: {problem}").format(problem=p))
        self._append(_("Finished: the results are on the Results page."))
        self._show_state_text()
        self.finished_result.emit(result)

    def _on_failed(self, exc: BaseException) -> None:
        self.outcome = "failed"
        info = friendly(exc, context=_("The audit stopped."))
        last_errors.append(info)
        self._show_error(info)
        self._append(_("Error: {text}").format(text=info.text.replace("\n\n", " ")))
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.eta_label.setText("")
        self._show_state_text()

    def _on_cancelled(self, exc: Any) -> None:
        self.outcome = "cancelled"
        done, total = getattr(exc, "done", 0), getattr(exc, "total", 0)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.eta_label.setText("")
        if getattr(exc, "stage", "scoring") in ("statistics", "assoc"):
            self._append(_("Cancelled during the statistics. Every score is cached: "
                           "run again to compute the statistics without scoring again."))
        else:
            self._append(_("Cancelled after {done} of {total}. Scores computed so far are cached: "
                           "run again to continue from there.").format(done=number(done), total=number(total)))
        self._show_state_text()

    def _on_thread_finished(self) -> None:
        self._set_running(False)
        if self.thread is not None:
            self.thread.deleteLater()
            self.thread = None
            self.state_changed.emit()

    # -- errors ---------------------------------------------------------------------------
    def _show_error(self, info: FriendlyError) -> None:
        self.last_error = info
        self.run_view.show_error(info)

    def _clear_error(self) -> None:
        self.last_error = None
        self.run_view.clear_error()

    # -- report ---------------------------------------------------------------------------
    def export_report(self) -> Path | None:
        """The HTML report of the last audit (engine.report)."""
        if self.result is None or self.result.out_dir is None:
            return None
        from engine.report import build_report

        out = Path(self.result.out_dir) / "report"
        try:
            path = build_report(self.result.out_dir, out)
        except Exception as exc:
            self._show_error(friendly(exc, context=_("Writing the report")))
            return None
        self._append(_("Report written to {path}").format(path=isolated(path)))
        return Path(path) if path else out
