"""The audit screen: corpora × scoring systems × statistics, run in a worker thread.

Why this layout: a researcher reads it left to right — *what* to score (corpora), *with what*
(local models, prediction files, lexicon systems, trained heads), *which numbers* (the papers'
statistics and association tests) — then presses Run and watches progress, the ETA and a log,
with Cancel always available. The engine does all the work (``engine.audit.run_audit``,
``engine.audit.assoc_step``) in ``AuditThread``; this page only turns widgets into an
``AuditPlan`` and shows what comes back. Engine errors become a readable banner with what
to do; nothing here can end the app.
"""
from __future__ import annotations

import datetime as _dt
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.audit import AssocStep, AuditPlan, association_tests, statistic_ids
from engine.stats.registry import get as statistic

from gui.errors import FriendlyError, friendly, last_errors
from gui.i18n import N_, _, connect_retranslate

from .job import AuditJob
from .worker import AuditThread

SPEC_ROLE = Qt.UserRole + 40
KIND_ROLE = Qt.UserRole + 41

#: statistic key -> (label, paper) marked for translation
SCORER_KINDS = {
    "lexicon": N_("lexicon system"),
    "hf-classifier": N_("local model"),
    "model": N_("trained model"),
    "heads": N_("trained heads"),
    "predictions": N_("prediction file"),
    "spec": N_("model spec"),
}


def format_eta(seconds: float | None) -> str:
    """'about 2 min 5 s left' (translated); '' when unknown."""
    if seconds is None or seconds != seconds or seconds < 0:
        return ""
    s = int(round(seconds))
    if s < 60:
        return _("about {s} s left").format(s=s)
    if s < 3600:
        return _("about {m} min {s} s left").format(m=s // 60, s=s % 60)
    return _("about {h} h {m} min left").format(h=s // 3600, m=(s % 3600) // 60)


def format_elapsed(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{(s % 3600) // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def describe_model_folder(folder: str | Path) -> tuple[str, str]:
    """(kind, spec) for a model folder: trained by EEC Studio (manifest) or a Hugging Face model.

    Raises ModelError (readable) when the folder is neither."""
    from engine.models.errors import ModelError
    from engine.models.manifest import MANIFEST_NAME, read_manifest

    p = Path(folder)
    if (p / MANIFEST_NAME).is_file():
        man = read_manifest(p)
        return ("heads" if man.get("system") == "encoder-head" else "model"), f"model:{p}"
    if (p / "config.json").is_file():
        return "hf-classifier", f"hf-classifier:{p}"
    raise ModelError(str(p), "not a model folder: it has neither config.json (a Hugging Face model saved with "
                     "save_pretrained) nor manifest.json (a model trained with EEC Studio)",
                     fix="choose the folder that contains config.json and the weights, or a folder written by "
                         "`main.py train`")


class AuditPage(QWidget):
    """Signals: ``finished_result(AuditResult)`` after a successful run; ``state_changed()``."""

    finished_result = Signal(object)
    state_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.thread: AuditThread | None = None
        self.result: Any = None
        self.last_error: FriendlyError | None = None
        self.outcome = ""  # "", "running", "finished", "cancelled", "failed"
        #: score cache folder (None: the engine's default, ~/.cache/eec-studio); tests set their own
        self.cache_dir: Path | None = None
        #: run the audit in its own process (see gui/audit/worker.py); False: in the worker thread
        self.isolate = True
        self._started = 0.0
        self._phase = ""
        self._eta: float | None = None

        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.RichText)

        # -- corpora ------------------------------------------------------------------
        self.corpora_box = QGroupBox()
        self.corpora = QListWidget()
        self.corpora.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.add_corpus_button = QPushButton()
        self.add_corpus_button.clicked.connect(self.ask_corpus_file)
        lay = QVBoxLayout(self.corpora_box)
        lay.addWidget(self.corpora, 1)
        lay.addWidget(self.add_corpus_button)

        # -- scorers ------------------------------------------------------------------
        self.scorers_box = QGroupBox()
        self.scorers = QListWidget()
        self.scorers.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.add_model_button = QPushButton()
        self.add_model_button.clicked.connect(self.ask_model_folder)
        self.add_heads_button = QPushButton()
        self.add_heads_button.clicked.connect(self.ask_heads_folder)
        self.add_predictions_button = QPushButton()
        self.add_predictions_button.clicked.connect(self.ask_prediction_file)
        self.add_spec_button = QPushButton()
        self.add_spec_button.clicked.connect(self.ask_spec)
        self.remove_scorer_button = QPushButton()
        self.remove_scorer_button.clicked.connect(self.remove_selected_scorers)
        self.device = QComboBox()
        self.device.addItems(["auto", "cpu", "cuda"])
        self.batch_size = QSpinBox()
        self.batch_size.setRange(0, 4096)
        self.batch_size.setSpecialValueText("auto")
        self.allow_pickle = QCheckBox()
        grid = QGridLayout()
        grid.addWidget(self.add_model_button, 0, 0)
        grid.addWidget(self.add_heads_button, 0, 1)
        grid.addWidget(self.add_predictions_button, 1, 0)
        grid.addWidget(self.add_spec_button, 1, 1)
        self.device_label, self.batch_label = QLabel(), QLabel()
        opts = QHBoxLayout()
        opts.addWidget(self.device_label)
        opts.addWidget(self.device)
        opts.addWidget(self.batch_label)
        opts.addWidget(self.batch_size)
        opts.addStretch(1)
        opts.addWidget(self.remove_scorer_button)
        lay = QVBoxLayout(self.scorers_box)
        lay.addWidget(self.scorers, 1)
        lay.addLayout(grid)
        lay.addLayout(opts)
        lay.addWidget(self.allow_pickle)

        # -- statistics ---------------------------------------------------------------
        self.stats_box = QGroupBox()
        self.stat_checks: dict[str, QCheckBox] = {}
        stats_lay = QVBoxLayout(self.stats_box)
        for key in statistic_ids():
            cb = QCheckBox()
            cb.setChecked(True)
            self.stat_checks[key] = cb
            stats_lay.addWidget(cb)
        form = QFormLayout()
        self.alpha = QDoubleSpinBox()
        self.alpha.setRange(0.001, 0.5)
        self.alpha.setDecimals(3)
        self.alpha.setSingleStep(0.01)
        self.alpha.setValue(0.05)
        self.correction = QComboBox()
        for key in ("", "holm", "bh"):
            self.correction.addItem("", key)
        self.bootstrap = QSpinBox()
        self.bootstrap.setRange(0, 100_000)
        self.bootstrap.setSingleStep(500)
        self.bootstrap.setValue(1000)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.alpha_label, self.correction_label, self.bootstrap_label, self.seed_label = (QLabel() for _i in range(4))
        form.addRow(self.alpha_label, self.alpha)
        form.addRow(self.correction_label, self.correction)
        form.addRow(self.bootstrap_label, self.bootstrap)
        form.addRow(self.seed_label, self.seed)
        stats_lay.addLayout(form)

        self.assoc_box = QGroupBox()
        self.assoc_box.setCheckable(True)
        self.assoc_box.setChecked(False)
        self.assoc_filter = QLineEdit()
        self.assoc_filter.setClearButtonEnabled(True)
        self.assoc_filter.textChanged.connect(self._filter_assoc)
        self.assoc_list = QListWidget()
        self.vectors = QLineEdit("glove-6b-50d")
        self.vectors_button = QPushButton()
        self.vectors_button.clicked.connect(self.ask_vectors)
        self.permutations = QSpinBox()
        self.permutations.setRange(100, 1_000_000)
        self.permutations.setSingleStep(1000)
        self.permutations.setValue(10_000)
        self.vectors_label, self.permutations_label = QLabel(), QLabel()
        vec_row = QHBoxLayout()
        vec_row.addWidget(self.vectors_label)
        vec_row.addWidget(self.vectors, 1)
        vec_row.addWidget(self.vectors_button)
        perm_row = QHBoxLayout()
        perm_row.addWidget(self.permutations_label)
        perm_row.addWidget(self.permutations)
        perm_row.addStretch(1)
        lay = QVBoxLayout(self.assoc_box)
        lay.addWidget(self.assoc_filter)
        lay.addWidget(self.assoc_list, 1)
        lay.addLayout(vec_row)
        lay.addLayout(perm_row)
        right = QWidget()
        rlay = QVBoxLayout(right)
        rlay.setContentsMargins(0, 0, 0, 0)
        rlay.addWidget(self.stats_box)
        rlay.addWidget(self.assoc_box, 1)

        choose = QSplitter(Qt.Horizontal)
        choose.addWidget(self.corpora_box)
        choose.addWidget(self.scorers_box)
        choose.addWidget(right)
        choose.setChildrenCollapsible(False)
        choose.setSizes([300, 420, 380])

        # -- output and run -----------------------------------------------------------
        self.out_label = QLabel()
        self.out_dir = QLineEdit()
        self.out_button = QPushButton()
        self.out_button.clicked.connect(self.ask_out_dir)
        self.run_button = QPushButton()
        self.run_button.setDefault(True)
        bold = QFont(self.run_button.font())
        bold.setBold(True)
        self.run_button.setFont(bold)
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancel)
        self.report_button = QPushButton()
        self.report_button.clicked.connect(self.export_report)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_label)
        out_row.addWidget(self.out_dir, 1)
        out_row.addWidget(self.out_button)
        out_row.addSpacing(16)
        out_row.addWidget(self.run_button)
        out_row.addWidget(self.cancel_button)
        out_row.addWidget(self.report_button)

        self.phase_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.eta_label = QLabel()
        self.eta_label.setMinimumWidth(220)
        prog_row = QHBoxLayout()
        prog_row.addWidget(self.phase_label)
        prog_row.addWidget(self.progress, 1)
        prog_row.addWidget(self.eta_label)

        self.error_banner = QLabel()
        self.error_banner.setWordWrap(True)
        self.error_banner.setTextFormat(Qt.RichText)
        self.error_banner.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.error_banner.setFrameShape(QFrame.StyledPanel)
        self.error_banner.setStyleSheet("QLabel { background: #fdecea; color: #611a15; border: 1px solid #f5c6cb;"
                                        " border-radius: 4px; padding: 8px; }")
        self.error_banner.hide()
        self.log_label = QLabel()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.log.setFont(QFont("monospace"))
        bottom = QWidget()
        blay = QVBoxLayout(bottom)
        blay.setContentsMargins(0, 0, 0, 0)
        blay.addLayout(out_row)
        blay.addLayout(prog_row)
        blay.addWidget(self.error_banner)
        blay.addWidget(self.log_label)
        blay.addWidget(self.log, 1)

        split = QSplitter(Qt.Vertical)
        split.addWidget(choose)
        split.addWidget(bottom)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(split, 1)

        self._clock = QTimer(self)
        self._clock.setInterval(500)
        self._clock.timeout.connect(self._tick)

        self._fill_corpora()
        self._fill_scorers()
        self._fill_assoc()
        connect_retranslate(self)
        self.retranslate()
        self._set_running(False)

    # -- texts ----------------------------------------------------------------------------
    def retranslate(self, *_args: Any) -> None:
        self.intro.setText("<h2>%s</h2><p>%s</p>" % (
            _("Audit"),
            _("Score corpora with one or more systems and compute the papers' bias statistics. "
              "Scores are cached: a cancelled run resumes where it stopped.")))
        self.corpora_box.setTitle(_("1. Corpora"))
        self.corpora.setToolTip(_("Tick the corpora to score; add your own definition files below."))
        self.add_corpus_button.setText(_("Add corpus file…"))
        self.scorers_box.setTitle(_("2. Systems to audit"))
        self.scorers.setToolTip(_("Tick the systems to score the corpora with."))
        self.add_model_button.setText(_("Add model folder…"))
        self.add_model_button.setToolTip(_("A local Hugging Face classifier (a folder with config.json) or a "
                                           "model trained with EEC Studio"))
        self.add_heads_button.setText(_("Add trained heads…"))
        self.add_heads_button.setToolTip(_("Regression heads trained on an encoder (`main.py train`)"))
        self.add_predictions_button.setText(_("Add prediction file…"))
        self.add_predictions_button.setToolTip(_("A CSV/TSV of a black-box system's scores, keyed by sentence or ID"))
        self.add_spec_button.setText(_("Add by spec…"))
        self.remove_scorer_button.setText(_("Remove"))
        self.device_label.setText(_("Device:"))
        self.batch_label.setText(_("Batch size:"))
        self.batch_size.setSpecialValueText(_("auto"))
        self.allow_pickle.setText(_("Allow pickled weights (runs code from the model file: only for files you trust)"))
        self.stats_box.setTitle(_("3. Statistics"))
        for key, cb in self.stat_checks.items():
            stat = statistic(key)
            cb.setText(_(stat.label))
            cb.setToolTip(_(stat.paper))
        self.alpha_label.setText(_("Significance level α:"))
        self.correction_label.setText(_("Multiple-comparison correction:"))
        for i, text in enumerate([_("none"), _("Holm"), _("Benjamini–Hochberg")]):
            self.correction.setItemText(i, text)
        self.bootstrap_label.setText(_("Bootstrap resamples:"))
        self.seed_label.setText(_("Random seed:"))
        self.assoc_box.setTitle(_("Association tests (WEAT, SEAT, LPBS, FISE)"))
        self.assoc_filter.setPlaceholderText(_("Filter tests…"))
        self.vectors_label.setText(_("Vectors:"))
        self.vectors.setToolTip(_("glove-6b-50d, a vectors file (.bin, .vec, .txt, .npy) or hf:FOLDER for a local "
                                  "model (LPBS needs a masked language model)"))
        self.vectors_button.setText(_("Browse…"))
        self.permutations_label.setText(_("Permutations:"))
        self.out_label.setText(_("Results folder:"))
        self.out_dir.setPlaceholderText(_("a new folder under {path}").format(path=self._default_out_root()))
        self.out_button.setText(_("Choose…"))
        self.run_button.setText(_("Run audit"))
        self.cancel_button.setText(_("Cancel"))
        self.report_button.setText(_("Export report…"))
        self.report_button.setToolTip(_("Write an HTML report of the last finished audit"))
        self.log_label.setText(_("Log"))
        for i in range(self.scorers.count()):
            self._label_scorer(self.scorers.item(i))
        self._show_state_text()

    def _show_state_text(self) -> None:
        if self.outcome == "running":
            return
        texts = {"": _("Ready."), "finished": _("Finished."), "cancelled": _("Cancelled."), "failed": _("Stopped.")}
        self.phase_label.setText(texts.get(self.outcome, ""))
        if self.last_error is not None:
            self._show_error(self.last_error)

    # -- lists ----------------------------------------------------------------------------
    def _fill_corpora(self) -> None:
        from engine.corpus import list_corpora

        self.corpora.clear()
        for entry in list_corpora():
            item = QListWidgetItem(entry.id)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked)
            item.setData(SPEC_ROLE, entry.id if entry.builtin else str(entry.path))
            item.setToolTip(str(entry.path))
            self.corpora.addItem(item)

    def add_corpus(self, name_or_path: str | Path, checked: bool = True) -> QListWidgetItem:
        """Add (or tick) a corpus: a built-in id or a definition file."""
        key = str(name_or_path)
        for i in range(self.corpora.count()):
            item = self.corpora.item(i)
            if item.data(SPEC_ROLE) == key or item.text() == key:
                item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
                return item
        item = QListWidgetItem(Path(key).stem if key.endswith(".toml") else key)
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
        item.setData(SPEC_ROLE, key)
        item.setToolTip(key)
        self.corpora.addItem(item)
        return item

    def checked_corpora(self) -> list[str]:
        return [self.corpora.item(i).data(SPEC_ROLE) for i in range(self.corpora.count())
                if self.corpora.item(i).checkState() == Qt.Checked]

    def _fill_scorers(self) -> None:
        for spec in ("vader", "textblob"):
            self.add_scorer(spec, kind="lexicon", checked=False)

    def add_scorer(self, spec: str, *, kind: str = "spec", checked: bool = True) -> QListWidgetItem:
        """Add a scoring system by its spec (see engine/models/specs.py); ticked by default."""
        for i in range(self.scorers.count()):
            item = self.scorers.item(i)
            if item.data(SPEC_ROLE) == spec:
                item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
                return item
        item = QListWidgetItem()
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
        item.setData(SPEC_ROLE, spec)
        item.setData(KIND_ROLE, kind)
        self._label_scorer(item)
        self.scorers.addItem(item)
        return item

    def _label_scorer(self, item: QListWidgetItem) -> None:
        spec, kind = item.data(SPEC_ROLE), item.data(KIND_ROLE) or "spec"
        if kind == "lexicon":
            name = {"vader": "VADER", "textblob": "TextBlob"}.get(spec, spec)
        else:
            from engine.models.specs import parse_spec

            try:
                _kind, target, opts = parse_spec(spec)
            except Exception:  # shown as typed; the engine explains the problem when it runs
                target, opts = spec, {}
            name = opts.get("name") or Path(target).name or spec
        item.setText(f"{name}  ({_(SCORER_KINDS.get(kind, kind))})")
        item.setToolTip(spec)

    def checked_scorers(self) -> list[str]:
        specs = []
        for i in range(self.scorers.count()):
            item = self.scorers.item(i)
            if item.checkState() == Qt.Checked:
                specs.append(self._with_options(item.data(SPEC_ROLE), item.data(KIND_ROLE)))
        return specs

    def _with_options(self, spec: str, kind: str | None) -> str:
        """Add the device and batch size to specs of models that take them."""
        if kind not in ("hf-classifier", "model", "heads"):
            return spec
        opts = []
        if self.device.currentText() != "auto" and "device=" not in spec:
            opts.append(f"device={self.device.currentText()}")
        if self.batch_size.value() and "batch_size=" not in spec:
            opts.append(f"batch_size={self.batch_size.value()}")
        if not opts:
            return spec
        return spec + ("&" if "?" in spec else "?") + "&".join(opts)

    def remove_selected_scorers(self) -> None:
        for item in self.scorers.selectedItems():
            if item.data(KIND_ROLE) != "lexicon":
                self.scorers.takeItem(self.scorers.row(item))

    def _fill_assoc(self) -> None:
        entries = association_tests()
        for e in entries:
            item = QListWidgetItem(f"{e.id} — {e.title}")
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked)
            item.setData(SPEC_ROLE, e.id)
            item.setToolTip(f"{e.kind.upper()} · {e.language} · {e.title}")
            self.assoc_list.addItem(item)

    def _filter_assoc(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.assoc_list.count()):
            item = self.assoc_list.item(i)
            item.setHidden(bool(needle) and needle not in item.text().lower())

    def add_assoc_test(self, name: str, checked: bool = True) -> QListWidgetItem:
        """Tick a library test, or add a test file."""
        self.assoc_box.setChecked(True)
        for i in range(self.assoc_list.count()):
            item = self.assoc_list.item(i)
            if item.data(SPEC_ROLE) == name:
                item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
                return item
        item = QListWidgetItem(Path(name).name)
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
        item.setData(SPEC_ROLE, name)
        item.setToolTip(name)
        self.assoc_list.addItem(item)
        return item

    def checked_assoc_tests(self) -> list[str]:
        if not self.assoc_box.isChecked():
            return []
        return [self.assoc_list.item(i).data(SPEC_ROLE) for i in range(self.assoc_list.count())
                if self.assoc_list.item(i).checkState() == Qt.Checked]

    def set_statistics(self, keys: list[str]) -> None:
        for key, cb in self.stat_checks.items():
            cb.setChecked(key in keys)

    # -- file choosers --------------------------------------------------------------------
    def ask_corpus_file(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Add corpus definition"), "", _("Corpus definitions (*.toml)"))
        if path:
            self.add_corpus(path)

    def ask_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose a model folder"))
        if folder:
            self.add_model_folder(folder)

    def add_model_folder(self, folder: str | Path) -> QListWidgetItem | None:
        """Add a local model folder; a folder that is not a model gives a readable message."""
        try:
            kind, spec = describe_model_folder(folder)
        except Exception as exc:
            self._show_error(friendly(exc, context=_("Adding the model folder {path}").format(path=folder)))
            return None
        self._clear_error()
        return self.add_scorer(spec, kind=kind)

    def ask_heads_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose a folder of trained heads"))
        if not folder:
            return
        item = self.add_model_folder(folder)
        if item is None:
            return
        try:
            from engine.models.manifest import read_manifest

            man = read_manifest(folder)
        except Exception:
            return
        enc = man.get("encoder_path") or man.get("model_id") or ""
        if man.get("system") == "encoder-head" and enc and not Path(enc).exists():
            chosen = QFileDialog.getExistingDirectory(
                self, _("The encoder {path} is not on this computer: choose its folder").format(path=enc))
            if chosen:
                spec = item.data(SPEC_ROLE)
                item.setData(SPEC_ROLE, spec + ("&" if "?" in spec else "?") + f"encoder={chosen}")
                self._label_scorer(item)

    def ask_prediction_file(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Add a prediction file"), "",
                                               _("Prediction files (*.csv *.tsv *.txt *.jsonl *.parquet);;All files (*)"))
        if path:
            self.add_prediction_file(path)

    def add_prediction_file(self, path: str | Path, *, key: str = "auto") -> QListWidgetItem:
        spec = f"predictions:{path}" + (f"?key={key}" if key != "auto" else "")
        return self.add_scorer(spec, kind="predictions")

    def ask_spec(self) -> None:
        text, ok = QInputDialog.getText(self, _("Add a system by spec"),
                                        _("Model spec (e.g. hf-classifier:DIR?batch_size=16, predictions:FILE?key=id):"))
        if ok and text.strip():
            self.add_scorer(text.strip(), kind="spec")

    def ask_vectors(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Choose word vectors"), "",
                                               _("Vectors (*.bin *.vec *.txt *.gz *.npy);;All files (*)"))
        if path:
            self.vectors.setText(path)

    def ask_out_dir(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose the results folder"), str(self._default_out_root()))
        if folder:
            self.out_dir.setText(folder)

    @staticmethod
    def _default_out_root() -> Path:
        from engine.corpus.registry import user_home

        return user_home() / "audits"

    def _resolve_out_dir(self) -> Path:
        text = self.out_dir.text().strip()
        if text:
            return Path(text).expanduser()
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        return self._default_out_root() / f"audit-{stamp}"

    # -- run ------------------------------------------------------------------------------
    def build_job(self) -> AuditJob:
        """The worker's job from the widgets; ValueError (translated) when something is missing."""
        corpora, scorers, tests = self.checked_corpora(), self.checked_scorers(), self.checked_assoc_tests()
        stats = [k for k, cb in self.stat_checks.items() if cb.isChecked()]
        if not tests:
            if not corpora:
                raise ValueError(_("Tick at least one corpus (or add a corpus file)."))
            if not scorers:
                raise ValueError(_("Tick at least one system to audit, or add a model folder or a prediction file."))
            if not stats:
                raise ValueError(_("Tick at least one statistic."))
        elif (corpora or scorers) and not (corpora and scorers):
            raise ValueError(_("To score corpora, tick at least one corpus and one system "
                               "(or untick them to run the association tests only)."))
        out = self._resolve_out_dir()
        assoc = AssocStep(tests, vectors=self.vectors.text().strip() or "glove-6b-50d",
                          permutations=self.permutations.value(), seed=self.seed.value()) if tests else None
        scoring = bool(corpora and scorers)
        plan = AuditPlan(corpora=corpora if scoring else [], scorers=scorers if scoring else [],
                         stats=(stats or ["paired"]) if scoring else [], out_dir=out,
                         cache_dir=self.cache_dir, allow_pickle=self.allow_pickle.isChecked(),
                         settings={"alpha": self.alpha.value(), "correction": self.correction.currentData() or None,
                                   "n_resamples": self.bootstrap.value(), "seed": self.seed.value()},
                         assoc=assoc)
        return AuditJob(plan=plan, out_dir=out)

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
        except Exception as exc:
            self._show_error(friendly(exc) if not isinstance(exc, ValueError) else
                             FriendlyError(_("Not ready to run"), str(exc), ""))
            return False
        self._clear_error()
        self.result = None
        self.outcome = "running"
        self.log.clear()
        self._append(_("Results folder: {path}").format(path=job.out_dir))
        self.thread = AuditThread(job, self, isolate=self.isolate)
        self.thread.progress.connect(self._on_progress)
        self.thread.log.connect(self._append)
        self.thread.succeeded.connect(self._on_succeeded)
        self.thread.failed.connect(self._on_failed)
        self.thread.cancelled.connect(self._on_cancelled)
        self.thread.finished.connect(self._on_thread_finished)
        self._started = time.monotonic()
        self._phase, self._eta = _("Preparing…"), None
        self.progress.setRange(0, 0)
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
        for w in (self.corpora_box, self.scorers_box, self.stats_box, self.assoc_box, self.out_dir, self.out_button):
            w.setEnabled(not running)
        self.report_button.setEnabled(not running and self.result is not None and self.result.out_dir is not None)
        if not running:
            self._clock.stop()
        self.state_changed.emit()

    def _on_progress(self, phase: str, done: int, total: int, eta: Any) -> None:
        if self.outcome != "running":
            return
        if phase == "scoring" and done >= total:
            self._phase, self._eta = _("Computing statistics…"), None
            self.progress.setRange(0, 0)
        else:
            self._phase = _("Scoring sentences") if phase == "scoring" else _("Association tests")
            self._eta = eta
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)
            self.progress.setFormat(f"{done:,} / {total:,}  (%p%)")
        self._tick()

    def _tick(self) -> None:
        if self.outcome != "running":
            return
        self.phase_label.setText(self._phase)
        elapsed = _("elapsed {t}").format(t=format_elapsed(time.monotonic() - self._started))
        eta = format_eta(self._eta)
        self.eta_label.setText(f"{elapsed} · {eta}" if eta else elapsed)

    def _append(self, line: str) -> None:
        self.log.appendPlainText(f"[{_dt.datetime.now().strftime('%H:%M:%S')}] {line}")

    def _on_succeeded(self, result: Any) -> None:
        self.result = result
        self.outcome = "finished"
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self.progress.setFormat("%p%")
        took = format_elapsed(time.monotonic() - self._started)
        self.eta_label.setText(_("finished in {t}").format(t=took))
        for p in getattr(result, "problems", []) or []:
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
        if getattr(exc, "stage", "scoring") == "statistics":
            self._append(_("Cancelled during the statistics. Every score is cached: "
                           "run again to compute the statistics without scoring again."))
        else:
            self._append(_("Cancelled after {done:,} of {total:,}. Scores computed so far are cached: "
                           "run again to continue from there.").format(done=done, total=total))
        self._show_state_text()

    def _on_thread_finished(self) -> None:
        self._set_running(False)
        if self.thread is not None:
            self.thread.deleteLater()
            self.thread = None
            self.state_changed.emit()

    # -- errors ---------------------------------------------------------------------------
    def _show_error(self, info: FriendlyError) -> None:
        import html

        self.last_error = info
        body = html.escape(info.text).replace("\n", "<br>")
        extra = info.as_text()[len(info.text):].strip()
        tip = f"<br><br><b>{html.escape(_('What to do:'))}</b> {html.escape(extra).replace(chr(10), '<br>')}" if extra else ""
        self.error_banner.setText(f"<b>{html.escape(info.title)}</b><br>{body}{tip}")
        self.error_banner.show()

    def _clear_error(self) -> None:
        self.last_error = None
        self.error_banner.hide()
        self.error_banner.clear()

    # -- report ---------------------------------------------------------------------------
    def export_report(self) -> Path | None:
        """The HTML report of the last audit (engine.report), when that part is installed."""
        if self.result is None or self.result.out_dir is None:
            return None
        try:
            from engine.report import build_report
        except ImportError:
            self._show_error(FriendlyError(_("Report not available"),
                                           _("This build of EEC Studio has no HTML report."),
                                           _("The tables and plots are on the Results page; save them from there.")))
            return None
        out = Path(self.result.out_dir) / "report"
        try:
            path = build_report(self.result.out_dir, out)
        except Exception as exc:
            self._show_error(friendly(exc, context=_("Writing the report")))
            return None
        self._append(_("Report written to {path}").format(path=path))
        return Path(path) if path else out
