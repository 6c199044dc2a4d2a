"""The Audit page's left half: what to score (corpora), with what (systems), which numbers
(statistics, association tests). A view of ``AuditSetup``: every tick and value goes straight
into the model; the model's changes (a corpus or model added by a file dialog, a test) redraw
the lists."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.stats.registry import get as statistic

from engine.common import extras
from gui.common.extras import grey_without, missing_text
from gui.common.flow_layout import FlowLayout, labelled_pair
from gui.common.wrapped_check import WrappedCheckBox
from gui.common.wrapped_height import keep_wrapped_height
from gui.errors import friendly
from gui.i18n import _, connect_retranslate, isolated, N_

from .settings_form import SettingsForm
from .setup_model import FAMILY_ORDER, AuditSetup, Choice, describe_model_folder

KEY_ROLE = Qt.UserRole + 40

SCORER_KINDS = {
    "lexicon": N_("lexicon system"),
    "hf-classifier": N_("local model"),
    "model": N_("trained model"),
    "heads": N_("trained heads"),
    "predictions": N_("prediction file"),
    "spec": N_("model spec"),
    "llm": N_("local LLM"),
}
FAMILY_LABELS = {"weat": "WEAT", "seat": "SEAT", "lpbs": "LPBS", "fise": "FISE", "file": N_("Test files")}


class _MinimumHeightColumn(QWidget):
    """The statistics' column inside its scroll area: sized by its minimum (the settings' wrapped
    height, kept by keep_wrapped_height) and the space there is. A scroll area whose widget's layout
    has a height for a width asks the widget for it, and the layout's answer counted the whole
    association tests' list: the column scrolled at 1400 x 900 in English."""

    def heightForWidth(self, _width: int) -> int:  # noqa: N802 - Qt's name
        return self.minimumSizeHint().height()


class AuditSetupView(QWidget):
    """Signals: ``problem(FriendlyError)`` when a chosen file is not usable, ``cleared()`` when it is."""

    problem = Signal(object)
    cleared = Signal()
    ticked = Signal(str)  # a corpus or system was ticked or unticked ("corpora", "scorers")

    def __init__(self, setup: AuditSetup, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setup = setup
        self._syncing = False
        self._build_corpora()
        self._build_scorers()
        self._build_statistics()
        self._build_assoc_tests()
        right = _MinimumHeightColumn()
        rlay = QVBoxLayout(right)
        rlay.setContentsMargins(0, 0, 0, 0)
        # the settings keep the height their wrapped rows need; the association tests' list gives way
        keep_wrapped_height(self.stats_box)
        rlay.addWidget(self.stats_box)
        rlay.addWidget(self.assoc_box, 1)

        # the statistics' column scrolls where the window is short, rather than making it taller: its
        # rows wrap in the longer languages and need more height than the other columns
        column = self.stats_column = QScrollArea()
        column.setWidget(right)
        column.setWidgetResizable(True)
        column.setFrameShape(QFrame.NoFrame)
        column.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)  # as wide as its contents (retranslate)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.corpora_box)
        split.addWidget(self.scorers_box)
        split.addWidget(column)
        split.setChildrenCollapsible(False)
        split.setSizes([270, 400, 450])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

        setup.listeners.append(self._on_model_changed)
        self.refresh_options()
        self.refresh_list("corpora")
        self.refresh_list("scorers")
        self.refresh_tests()
        connect_retranslate(self)
        self.retranslate()

    # -- building the widgets (texts come from retranslate) ----------------------------------
    def _build_corpora(self) -> None:
        """The corpora's list and the button that adds a corpus file."""
        self.corpora_box = QGroupBox()
        self.corpora = QListWidget()
        self.corpora.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.corpora.itemChanged.connect(lambda item: self._ticked("corpora", item))
        self.add_corpus_button = QPushButton()
        self.add_corpus_button.clicked.connect(self.ask_corpus_file)
        lay = QVBoxLayout(self.corpora_box)
        lay.addWidget(self.corpora, 1)
        lay.addWidget(self.add_corpus_button)

    def _build_scorers(self) -> None:
        """The systems' list, the buttons that add one, and how they run (device, batch, processes)."""
        setup = self.setup
        self.scorers_box = QGroupBox()
        self.scorers = QListWidget()
        self.scorers.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.scorers.itemChanged.connect(lambda item: self._ticked("scorers", item))
        self.add_model_button = QPushButton()
        self.add_model_button.clicked.connect(self.ask_model_folder)
        self.add_heads_button = QPushButton()
        self.add_heads_button.clicked.connect(self.ask_heads_folder)
        self.add_predictions_button = QPushButton()
        self.add_predictions_button.clicked.connect(self.ask_prediction_file)
        self.add_spec_button = QPushButton()
        self.add_spec_button.clicked.connect(self.ask_spec)
        self.add_llm_button = QPushButton()
        self.add_llm_button.clicked.connect(self.ask_llm)
        self.remove_scorer_button = QPushButton()
        self.remove_scorer_button.clicked.connect(self.remove_selected_scorers)
        self.device = QComboBox()
        self.device.addItems(["auto", "cpu", "cuda"])
        self.device.currentTextChanged.connect(lambda t: setup.set_option("device", t))
        self.batch_size = QSpinBox()
        self.batch_size.setRange(0, 4096)
        self.batch_size.valueChanged.connect(lambda v: setup.set_option("batch_size", int(v)))
        self.allow_pickle = WrappedCheckBox()  # a long sentence: wrapped, not widening the window
        self.allow_pickle.toggled.connect(lambda on: setup.set_option("allow_pickle", bool(on)))
        self.jobs_label = QLabel()
        self.jobs = QSpinBox()
        self.jobs.setRange(0, 256)
        self.jobs.valueChanged.connect(self._jobs_changed)
        self.policy_label = QLabel()
        self.policy = QComboBox()
        for key in ("error", "drop", "keep"):
            self.policy.addItem("", key)
        self.policy.currentIndexChanged.connect(
            lambda _i: setup.set_option("prediction_policy", self.policy.currentData() or "error"))
        grid = QGridLayout()
        grid.addWidget(self.add_model_button, 0, 0)
        grid.addWidget(self.add_heads_button, 0, 1)
        grid.addWidget(self.add_predictions_button, 1, 0)
        grid.addWidget(self.add_spec_button, 1, 1)
        grid.addWidget(self.add_llm_button, 2, 0)
        grid.addWidget(self.remove_scorer_button, 2, 1)
        self.device_label, self.batch_label = QLabel(), QLabel()
        # device, batch size and processes wrap onto a second line where the column is narrow: on one
        # line they made the window 1,396 px wide at least in Spanish (with the pickle box wrapped)
        opts_row = QWidget()
        opts = FlowLayout(opts_row)
        opts.setContentsMargins(0, 0, 0, 0)
        for label, field in ((self.device_label, self.device), (self.batch_label, self.batch_size),
                             (self.jobs_label, self.jobs)):
            opts.addWidget(labelled_pair(label, field))
        self.models_note = QLabel()  # shown when the 'models' extra is missing (gui/common/extras.py)
        lay = QVBoxLayout(self.scorers_box)
        lay.addWidget(self.scorers, 1)
        lay.addLayout(grid)
        lay.addWidget(self.models_note)
        lay.addWidget(opts_row)
        lay.addWidget(self.allow_pickle)
        lay.addWidget(self.policy_label)  # label above: the choices are long sentences in some languages
        lay.addWidget(self.policy)

    def _build_statistics(self) -> None:
        """A tick per statistic, then their settings."""
        setup = self.setup
        self.stats_box = QGroupBox()
        self.stat_checks: dict[str, QCheckBox] = {}
        stats_lay = QVBoxLayout(self.stats_box)
        for key in setup.stats:
            cb = QCheckBox()
            cb.toggled.connect(lambda on, k=key: self._stat_toggled(k, on))
            self.stat_checks[key] = cb
            stats_lay.addWidget(cb)
        # one row per setting the statistics declare (engine.stats.settings), none written here
        self.settings_form = SettingsForm(setup)
        self.bootstrap = self.settings_form.widgets.get("n_resamples")  # the page and tests reach for it
        stats_lay.addLayout(self.settings_form)

    def _build_assoc_tests(self) -> None:
        """Association tests: grouped by family and language, with a search box."""
        setup = self.setup
        self.assoc_box = QGroupBox()
        self.assoc_box.setCheckable(True)
        self.assoc_box.toggled.connect(lambda on: setup.set_option("assoc_enabled", bool(on)))
        self.assoc_filter = QLineEdit()
        self.assoc_filter.setClearButtonEnabled(True)
        self.assoc_filter.textChanged.connect(self.filter_tests)
        self.assoc_list = QTreeWidget()
        self.assoc_list.setHeaderHidden(True)
        self.assoc_list.itemChanged.connect(self._test_ticked)
        self.vectors = QLineEdit()
        self.vectors.textChanged.connect(lambda t: setup.set_option("vectors", t))
        self.vectors_button = QPushButton()
        self.vectors_button.clicked.connect(self.ask_vectors)
        self.permutations = QSpinBox()
        self.permutations.setRange(100, 1_000_000)
        self.permutations.setSingleStep(1000)
        self.permutations.valueChanged.connect(lambda v: setup.set_option("permutations", int(v)))
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

    # -- model -> widgets ------------------------------------------------------------------
    def _on_model_changed(self, what: str) -> None:
        if what in ("corpora", "scorers"):
            self.refresh_list(what)
        elif what == "tests":
            self.refresh_tests()
            self.refresh_options()
        else:
            self.refresh_options()

    def refresh_options(self) -> None:
        s = self.setup
        self._syncing = True
        try:
            for key, cb in self.stat_checks.items():
                cb.setChecked(s.stats.get(key, False))
            self.settings_form.refresh()
            self.device.setCurrentText(s.device)
            self.batch_size.setValue(s.batch_size)
            self.allow_pickle.setChecked(s.allow_pickle)
            self.jobs.setValue(s.jobs)
            self.policy.setCurrentIndex(max(0, self.policy.findData(s.prediction_policy)))
            self.assoc_box.setChecked(s.assoc_enabled)
            if self.vectors.text() != s.vectors:
                self.vectors.setText(s.vectors)
            self.permutations.setValue(s.permutations)
        finally:
            self._syncing = False

    def refresh_list(self, group: str) -> None:
        widget: QListWidget = getattr(self, group)
        self._syncing = True
        try:
            widget.clear()
            for c in getattr(self.setup, group):
                item = QListWidgetItem()
                item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
                item.setCheckState(Qt.Checked if c.checked else Qt.Unchecked)
                item.setData(KEY_ROLE, c.key)
                self._label(group, item, c)
                widget.addItem(item)
        finally:
            self._syncing = False

    def _label(self, group: str, item: QListWidgetItem, c: Choice) -> None:
        if group == "scorers":
            item.setText(f"{c.name}  ({_(SCORER_KINDS.get(c.kind, c.kind))})")
            item.setToolTip(c.key)
        else:
            item.setText(c.name)
            item.setToolTip(c.title or c.key)

    def refresh_tests(self) -> None:
        self._syncing = True
        try:
            self.assoc_list.clear()
            groups: dict[tuple[str, str], QTreeWidgetItem] = {}
            for c in self.setup.tests:
                fam = c.kind if c.kind in FAMILY_ORDER else "file"
                head = groups.get((fam, c.language))
                if head is None:
                    head = QTreeWidgetItem([self._group_label(fam, c.language)])
                    head.setFlags(head.flags() & ~Qt.ItemIsUserCheckable & ~Qt.ItemIsSelectable)
                    self.assoc_list.addTopLevelItem(head)
                    groups[(fam, c.language)] = head
                item = QTreeWidgetItem([f"{c.key} — {c.title}" if c.title and c.title != c.key else Path(c.key).name])
                item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
                item.setCheckState(0, Qt.Checked if c.checked else Qt.Unchecked)
                item.setData(0, KEY_ROLE, c.key)
                item.setToolTip(0, f"{c.kind.upper()} · {c.language} · {c.title}" if c.language else c.key)
                head.addChild(item)
                if c.checked:
                    head.setExpanded(True)
            first = self.assoc_list.topLevelItem(0)
            if first is not None and not any(c.checked for c in self.setup.tests):
                first.setExpanded(True)
        finally:
            self._syncing = False
        self.filter_tests(self.assoc_filter.text())

    @staticmethod
    def _group_label(family: str, language: str) -> str:
        from babel import Locale

        fam = _(FAMILY_LABELS.get(family, family))
        if not language:
            return fam
        try:
            name = Locale.parse(language).get_display_name(Locale.parse(_current_locale())) or language
        except Exception:  # an unknown code is shown as it is
            name = language
        return f"{fam} · {name}"

    def filter_tests(self, text: str) -> None:
        """Show the tests whose id or title contains the text (groups with none are hidden)."""
        needle = text.strip().lower()
        for i in range(self.assoc_list.topLevelItemCount()):
            head = self.assoc_list.topLevelItem(i)
            shown = 0
            for j in range(head.childCount()):
                item = head.child(j)
                hide = bool(needle) and needle not in item.text(0).lower() and needle not in head.text(0).lower()
                item.setHidden(hide)
                shown += not hide
            head.setHidden(shown == 0)
            if needle and shown:
                head.setExpanded(True)

    def item_for(self, group: str, key: str) -> QListWidgetItem | None:
        """The list row that shows a corpus or system (what the user sees of it)."""
        widget: QListWidget = getattr(self, group)
        return next((widget.item(i) for i in range(widget.count()) if widget.item(i).data(KEY_ROLE) == key), None)

    def visible_tests(self) -> list[str]:
        return [self.assoc_list.topLevelItem(i).child(j).data(0, KEY_ROLE)
                for i in range(self.assoc_list.topLevelItemCount())
                for j in range(self.assoc_list.topLevelItem(i).childCount())
                if not self.assoc_list.topLevelItem(i).isHidden()
                and not self.assoc_list.topLevelItem(i).child(j).isHidden()]

    # -- widgets -> model ------------------------------------------------------------------
    def _ticked(self, group: str, item: QListWidgetItem) -> None:
        if not self._syncing:
            self.setup.set_checked(group, item.data(KEY_ROLE), item.checkState() == Qt.Checked)
            self.ticked.emit(group)

    def _test_ticked(self, item: QTreeWidgetItem, _col: int) -> None:
        key = item.data(0, KEY_ROLE)
        if not self._syncing and key:
            self.setup.set_checked("tests", key, item.checkState(0) == Qt.Checked)

    def _stat_toggled(self, key: str, on: bool) -> None:
        if not self._syncing:
            self.setup.stats[key] = bool(on)

    def _jobs_changed(self, value: int) -> None:
        if self._syncing:
            return
        from gui import settings

        self.setup.set_option("jobs", int(value))
        settings.put("audit_jobs", int(value))  # a preference: the next audit starts with it

    def remove_selected_scorers(self) -> None:
        self.setup.remove_scorers([item.data(KEY_ROLE) for item in self.scorers.selectedItems()])

    # -- texts -----------------------------------------------------------------------------
    def retranslate(self, *_args: Any) -> None:
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
        self.add_llm_button.setText(_("Add local LLM…"))
        self.add_llm_button.setToolTip(_("A causal language model folder or a .gguf file, asked through prompts "
                                         "you can read and edit"))
        grey_without("models", self.add_model_button, self.add_heads_button, self.add_llm_button,
                     note=self.models_note)
        self.remove_scorer_button.setText(_("Remove"))
        self.device_label.setText(_("Device:"))
        self.batch_label.setText(_("Batch size:"))
        self.batch_size.setSpecialValueText(_("auto"))
        self.jobs_label.setText(_("Processes:"))
        self.jobs.setSpecialValueText(_("all cores"))
        for box, special in ((self.jobs, _("all cores")), (self.batch_size, _("auto"))):  # never clip the word
            box.setMinimumWidth(box.fontMetrics().horizontalAdvance(special) + 36)
        self.jobs.setToolTip(_("Processes that score lexicon, SVM and fastText systems in parallel (the scores are "
                               "the same); models on torch use one process"))
        self.allow_pickle.setText(_("Allow pickled weights (runs code from the model file: only for files you trust)"))
        self.policy_label.setText(_("Prediction files with missing or bad scores:"))
        for i, text in enumerate([_("stop with an error (file and line)"), _("leave those sentences out"),
                                  _("keep them as missing values")]):
            self.policy.setItemText(i, text)
        self.policy.setToolTip(_("What a prediction file's missing sentences and empty, non-numeric or infinite "
                                 "scores do; whatever you choose is reported in the results"))
        self.stats_box.setTitle(_("3. Statistics"))
        for key, cb in self.stat_checks.items():
            stat = statistic(key)
            cb.setText(_(stat.label))
            cb.setToolTip(_(stat.paper))
        self.settings_form.retranslate()
        self.assoc_box.setTitle(_("Association tests (WEAT, SEAT, LPBS, FISE)"))
        self.assoc_filter.setPlaceholderText(_("Filter tests…"))
        self.vectors_label.setText(_("Vectors:"))
        self.vectors.setToolTip(_("glove-6b-50d, a vectors file (.bin, .vec, .txt, .npy) or hf:FOLDER for a local "
                                  "model (LPBS needs a masked language model)")
                                + ("" if extras.available("vectors") else "\n" + missing_text("vectors")))  # glove-6b-50d
        self.vectors_button.setText(_("Browse…"))
        self.permutations_label.setText(_("Permutations:"))
        self.refresh_list("scorers")
        self.refresh_tests()
        # never narrower than the statistics' widest row in this language (it scrolls only up and down)
        self.stats_column.setMinimumWidth(self.stats_column.widget().minimumSizeHint().width())

    # -- file choosers ---------------------------------------------------------------------
    def ask_corpus_file(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Add corpus definition"), "", _("Corpus definitions (*.toml)"))
        if path:
            self.setup.add_corpus(path)

    def ask_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose a model folder"))
        if folder:
            self.add_model_folder(folder)

    def add_model_folder(self, folder: str | Path) -> Choice | None:
        """Add a local model folder; a folder that is not a model gives a readable message."""
        try:
            kind, spec = describe_model_folder(folder)
        except Exception as exc:
            self.problem.emit(friendly(exc, context=_("Adding the model folder {path}").format(path=isolated(folder))))
            return None
        self.cleared.emit()
        return self.setup.add_scorer(spec, kind=kind)

    def ask_heads_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose a folder of trained heads"))
        if not folder:
            return
        choice = self.add_model_folder(folder)
        if choice is None:
            return
        try:
            from engine.models.manifest import read_manifest

            man = read_manifest(folder)
        except Exception:
            return
        enc = man.get("encoder_path") or man.get("model_id") or ""
        if man.get("system") == "encoder-head" and enc and not Path(enc).exists():
            chosen = QFileDialog.getExistingDirectory(
                self, _("The encoder {path} is not on this computer: choose its folder").format(path=isolated(enc)))
            if chosen:
                self.setup.replace_scorer_spec(choice, choice.key + ("&" if "?" in choice.key else "?")
                                               + f"encoder={chosen}")

    def ask_prediction_file(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Add a prediction file"), "",
                                               _("Prediction files (*.csv *.tsv *.txt *.jsonl *.parquet);;All files (*)"))
        if path:
            self.add_prediction_file(path)

    def add_prediction_file(self, path: str | Path, *, key: str = "auto") -> Choice:
        spec = f"predictions:{path}" + (f"?key={key}" if key != "auto" else "")
        return self.setup.add_scorer(spec, kind="predictions")

    def ask_spec(self) -> None:
        text, ok = QInputDialog.getText(self, _("Add a system by spec"),
                                        _("Model spec (e.g. hf-classifier:DIR?batch_size=16, predictions:FILE?key=id):"))
        if ok and text.strip():
            self.setup.add_scorer(text.strip(), kind="spec")

    def ask_llm(self) -> None:
        from .llm_dialog import LLMDialog

        dialog = LLMDialog(self.setup, self)
        dialog.exec()

    def ask_vectors(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, _("Choose word vectors"), "",
                                               _("Vectors (*.bin *.vec *.txt *.gz *.npy);;All files (*)"))
        if path:
            self.setup.set_option("vectors", path)
            self.vectors.setText(path)


def _current_locale() -> str:
    from gui.i18n import current_language

    return current_language() or "en"
