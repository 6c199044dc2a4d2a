"""Train scorers on task data, per language × dimension, and save them with a manifest.

Protocol (Câmara et al. §4–5.1): each emotion (anger, fear, joy, sadness; valence too)
gets its own regressor trained on SemEval-2018 Task 1 data of one language; quality is
the official metric, Pearson r on the test-gold split. Splits used for fitting:
* svm-tfidf, fasttext-mlp: train+dev (the MLP's own early stopping holds out 10%);
* encoder-head: train, with dev for early stopping.
(`fit_on` overrides.) Seeds are fixed; the output folder holds the weights (safetensors /
skops), `manifest.json` (data sha256, base model id + fingerprint, seed, settings,
metrics, package versions) and is loadable with `load_scorer(folder)`.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.common.progress import check_cancel
from engine.models.training.datasets import LabeledData, TaskSplits
from engine.models.errors import ModelError
from engine.models.manifest import write_manifest
from engine.models.preprocess import get_preprocessor

REGRESSION_SYSTEMS = ("svm-tfidf", "fasttext-mlp", "encoder-head")
SYSTEMS = REGRESSION_SYSTEMS + ("classifier",)

#: Câmara et al. 2022, Table 2 (Pearson r on SemEval-2018 test-gold), by (language, row) then emotion.
#: Note: the Arabic fastText row repeats the Spanish one digit for digit in the paper.
CAMARA_TABLE2: dict[tuple[str, str], dict[str, float]] = {
    ("en", "BERT+"): {"anger": 0.592, "fear": 0.561, "joy": 0.596, "sadness": 0.559},
    ("en", "mBERT"): {"anger": 0.369, "fear": 0.476, "joy": 0.507, "sadness": 0.397},
    ("en", "XLM-RoBERTa"): {"anger": 0.412, "fear": 0.388, "joy": 0.432, "sadness": 0.489},
    ("en", "fastText"): {"anger": 0.535, "fear": 0.467, "joy": 0.495, "sadness": 0.452},
    ("en", "SVM-tfidf"): {"anger": 0.533, "fear": 0.523, "joy": 0.538, "sadness": 0.504},
    ("es", "BERT+"): {"anger": 0.391, "fear": 0.460, "joy": 0.555, "sadness": 0.459},
    ("es", "mBERT"): {"anger": 0.279, "fear": 0.192, "joy": 0.510, "sadness": 0.367},
    ("es", "XLM-RoBERTa"): {"anger": 0.136, "fear": 0.358, "joy": 0.329, "sadness": 0.145},
    ("es", "fastText"): {"anger": 0.401, "fear": 0.478, "joy": 0.560, "sadness": 0.563},
    ("es", "SVM-tfidf"): {"anger": 0.398, "fear": 0.638, "joy": 0.551, "sadness": 0.598},
    ("ar", "BERT+"): {"anger": 0.435, "fear": 0.362, "joy": 0.470, "sadness": 0.543},
    ("ar", "mBERT"): {"anger": 0.223, "fear": 0.111, "joy": 0.296, "sadness": 0.384},
    ("ar", "XLM-RoBERTa"): {"anger": 0.211, "fear": 0.254, "joy": 0.212, "sadness": 0.139},
    ("ar", "fastText"): {"anger": 0.401, "fear": 0.478, "joy": 0.560, "sadness": 0.563},
    ("ar", "SVM-tfidf"): {"anger": 0.366, "fear": 0.381, "joy": 0.475, "sadness": 0.456},
}
_ENCODER_ROWS = {
    "bert-base-uncased": "BERT+", "dccuchile/bert-base-spanish-wwm-uncased": "BERT+", "asafaya/bert-base-arabic": "BERT+",
    "bert-base-multilingual-cased": "mBERT", "google-bert/bert-base-multilingual-cased": "mBERT",
    "xlm-roberta-base": "XLM-RoBERTa", "FacebookAI/xlm-roberta-base": "XLM-RoBERTa",
}


def paper_row(system: str, encoder: str | None = None) -> str | None:
    """Which Table 2 row corresponds to a system (None when the paper has no such model)."""
    if system == "svm-tfidf":
        return "SVM-tfidf"
    if system == "fasttext-mlp":
        return "fastText"
    if system == "encoder-head" and encoder:
        return _ENCODER_ROWS.get(encoder.rstrip("/"))
    return None


def pearson_r(pred: Any, gold: Any) -> float | None:
    """Pearson correlation (None when either side is constant)."""
    import numpy as np

    p, g = np.asarray(pred, dtype=np.float64), np.asarray(gold, dtype=np.float64)
    if len(p) < 2 or np.std(p) == 0 or np.std(g) == 0:
        return None
    return float(np.corrcoef(p, g)[0, 1])


@dataclass
class TrainSettings:
    """Everything that defines a training run (stored in the manifest)."""

    system: str
    out_dir: str | Path
    language: str = ""
    seed: int = 13
    fit_on: str = "auto"  # auto | train | train+dev
    preprocess: str = "tweet-clean"
    name: str | None = None
    # encoder-head
    encoder: str | None = None
    pooling: str = "cls"
    max_length: int = 128
    batch_size: int = 64
    device: str | None = None
    precision: str = "auto"
    embedding_cache: str | Path | None = None  # folder for the persistent embedding store
    # fasttext-mlp
    vectors: str | None = None
    max_words: int = 200_000
    allow_pickle: bool = False


@dataclass
class DimensionResult:
    dimension: str
    n_train: int
    n_test: int
    metric: str = "pearson_r"
    value: float | None = None
    paper: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class TrainReport:
    system: str
    out_dir: Path
    results: list[DimensionResult]
    seconds: float = 0.0

    def table(self) -> str:
        """Plain-text table for terminals."""
        rows = [f"{'dimension':<10} {'n_train':>7} {'n_test':>6} {'metric':<10} {'value':>7} {'paper':>7}"]
        for r in self.results:
            v = "-" if r.value is None else f"{r.value:.3f}"
            p = "-" if r.paper is None else f"{r.paper:.3f}"
            rows.append(f"{r.dimension:<10} {r.n_train:>7} {r.n_test:>6} {r.metric:<10} {v:>7} {p:>7}")
        return "\n".join(rows)


def _fit_split(task: TaskSplits, settings: TrainSettings) -> tuple[LabeledData, LabeledData | None]:
    """(data to fit on, validation data or None) according to `fit_on`."""
    mode = settings.fit_on
    if mode == "auto":
        mode = "train" if settings.system == "encoder-head" else "train+dev"
    if mode not in ("train", "train+dev"):
        raise ModelError("", f"unknown fit_on '{settings.fit_on}'", field="fit_on", fix="use auto, train or train+dev")
    if mode == "train+dev" and task.dev is not None:
        return task.train.concat(task.dev), None
    return task.train, task.dev


def train_regression(tasks: list[TaskSplits], settings: TrainSettings, *,
                     progress: Callable[[int, int, float | None], None] | None = None, cancel: Any = None,
                     log: Callable[[str], None] | None = None) -> TrainReport:
    """Train one regressor per task (dimension), evaluate on test-gold, save the folder."""
    if settings.system not in REGRESSION_SYSTEMS:
        raise ModelError("", f"unknown system '{settings.system}'", field="system",
                         fix=f"use one of {', '.join(REGRESSION_SYSTEMS)}")
    if not tasks:
        raise ModelError("", "nothing to train", fix="give at least one emotion")
    dims = [t.dimension for t in tasks]
    if len(set(dims)) != len(dims):
        raise ModelError("", f"dimension listed twice in {dims}", field="emotions")
    started = time.perf_counter()
    out = Path(settings.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    row = paper_row(settings.system, settings.encoder)
    run = _Run(settings, out, get_preprocessor(settings.preprocess), log or (lambda s: None), progress, cancel,
               CAMARA_TABLE2.get((settings.language, row), {}) if row else {})
    if settings.system == "encoder-head":
        extra_manifest = _train_encoder_heads(tasks, run)
    else:
        extra_manifest = _train_sklearn(tasks, run)

    settings_record = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(settings).items()}
    manifest = {
        "system": settings.system, "name": settings.name or out.name, "language": settings.language,
        "dimensions": [r.dimension for r in run.results], "seed": settings.seed, "preprocess": settings.preprocess,
        "data": run.data_records, "training": settings_record, "paper_row": row,
        "metrics": {r.dimension: {"pearson_r": r.value, "n_train": r.n_train, "n_test": r.n_test,
                                  "paper_pearson_r": r.paper, **r.extra} for r in run.results},
    }
    manifest.update(extra_manifest)
    if settings.system == "encoder-head":
        manifest["settings"] = {"pooling": settings.pooling, "max_length": settings.max_length}
    write_manifest(out, manifest)
    return TrainReport(settings.system, out, run.results, time.perf_counter() - started)


@dataclass
class _Run:
    """What every system's training loop shares: settings, output folder, callbacks, and what it gathers."""

    settings: TrainSettings
    out: Path
    prep: Callable[[str], str]
    say: Callable[[str], None]
    progress: Callable[[int, int, float | None], None] | None
    cancel: Any
    paper: dict
    results: list[DimensionResult] = field(default_factory=list)
    data_records: list[dict[str, Any]] = field(default_factory=list)
    trained: dict[str, Any] = field(default_factory=dict)

    def done(self, i: int, n: int, task: TaskSplits, fit: Any, val: Any, model: Any, result: DimensionResult) -> None:
        self.trained[task.dimension] = model
        self.results.append(result)
        self.data_records += _records(task, fit, val)
        if self.progress:
            self.progress(i + 1, n, None)


def _train_encoder_heads(tasks: list[TaskSplits], run: _Run) -> dict[str, Any]:
    """A regression head per dimension on a frozen encoder's embeddings; the manifest's extra keys."""
    from engine.models.scorers.hf_encoder import HFEncoder
    from engine.models.training.regression_head import HeadConfig, save_heads, train_head

    settings, prep = run.settings, run.prep
    if not settings.encoder:
        raise ModelError("", "encoder-head needs an encoder", field="encoder", fix="pass --encoder FOLDER_OR_HF_ID")
    enc = HFEncoder(settings.encoder, pooling=settings.pooling, max_length=settings.max_length,
                    batch_size=settings.batch_size, device=settings.device, allow_pickle=settings.allow_pickle)
    store = None
    if settings.embedding_cache:
        from engine.audit.cache import ScoreCache

        store = ScoreCache(Path(settings.embedding_cache) / "embeddings.sqlite")
    head_cfg = HeadConfig()
    for i, task in enumerate(tasks):
        check_cancel(run.cancel, i, len(tasks))
        fit, val = _fit_split(task, settings)
        run.say(f"{task.dimension}: embedding {len(fit) + (len(val) if val else 0)} texts with {settings.encoder}")
        x = enc.embed([prep(t) for t in fit.texts], store=store, cancel=run.cancel)
        xv = enc.embed([prep(t) for t in val.texts], store=store, cancel=run.cancel) if val is not None else None
        head, info = train_head(x, fit.numeric_labels(), xv, val.numeric_labels() if val is not None else None,
                                seed=settings.seed, config=head_cfg, cancel=run.cancel)
        result = _evaluate(task, fit, lambda texts, h=head: _head_predict(enc, h, [prep(t) for t in texts], store),
                           run.paper, info)
        run.done(i, len(tasks), task, fit, val, head, result)
    save_heads(run.out / "heads.safetensors", run.trained, head_cfg)
    extra = {"model_id": settings.encoder, "encoder_path": str(enc.path.resolve()),
             "model_fingerprint": enc.fingerprint(), "files": {"heads": "heads.safetensors"},
             "head": asdict(head_cfg), "device": enc.device.as_dict()}
    if store is not None:
        store.close()
    return extra


def _train_sklearn(tasks: list[TaskSplits], run: _Run) -> dict[str, Any]:
    """SVM on TF-IDF, or an MLP on averaged fastText vectors, per dimension; the manifest's extra keys."""
    from engine.models.scorers.sklearn_scorer import SklearnScorer

    settings, prep = run.settings, run.prep
    vectors = None
    if settings.system == "fasttext-mlp":
        from engine.models.training.fasttext_mlp import FastTextMlpConfig, WordVectors, fit_fasttext_mlp

        if not settings.vectors:
            raise ModelError("", "fasttext-mlp needs word vectors", field="vectors", fix="pass --vectors FILE.bin|.vec")
        ft_cfg = FastTextMlpConfig(max_words=settings.max_words)
        vectors = WordVectors(settings.vectors, max_words=ft_cfg.max_words, lowercase=ft_cfg.lowercase)
        for warning in vectors.warnings:
            run.say(f"warning: {warning}")
    else:
        from engine.models.training.svm_tfidf import SvmTfidfConfig, fit_svm_tfidf

        svm_cfg = SvmTfidfConfig()
    for i, task in enumerate(tasks):
        check_cancel(run.cancel, i, len(tasks))
        fit, val = _fit_split(task, settings)
        run.say(f"{task.dimension}: fitting {settings.system} on {len(fit)} texts")
        texts = [prep(t) for t in fit.texts]
        if vectors is not None:
            model = fit_fasttext_mlp(vectors.average(texts), fit.numeric_labels(), seed=settings.seed, config=ft_cfg)
            predict = lambda tx, m=model: m.predict(vectors.average([prep(t) for t in tx]))  # noqa: E731
        else:
            model = fit_svm_tfidf(texts, fit.numeric_labels(), svm_cfg)
            predict = lambda tx, m=model: m.predict([prep(t) for t in tx])  # noqa: E731
        run.done(i, len(tasks), task, fit, val, model, _evaluate(task, fit, predict, run.paper, {}))
    files = SklearnScorer(run.trained, kind=settings.system).save(run.out)
    if vectors is not None:
        return {"model_id": vectors.spec, "model_fingerprint": vectors.fingerprint(), "warnings": vectors.warnings,
                "files": files, "settings": {"max_words": ft_cfg.max_words, "lowercase": ft_cfg.lowercase,
                                             "hidden": list(ft_cfg.hidden), "alpha": ft_cfg.alpha}}
    return {"model_id": "tfidf", "files": files, "settings": asdict(svm_cfg)}


def _head_predict(enc: Any, head: Any, texts: list[str], store: Any) -> Any:
    import torch

    x = torch.from_numpy(enc.embed(texts, store=store))
    with torch.inference_mode():
        return head(x).numpy()


def _records(task: TaskSplits, fit: LabeledData, val: LabeledData | None) -> list[dict[str, Any]]:
    recs = [task.train.record("train")]
    if task.dev is not None:
        recs.append(task.dev.record("dev (fitted)" if fit is not task.train else "dev (validation)"))
    if task.test is not None:
        recs.append(task.test.record("test"))
    return recs


def _evaluate(task: TaskSplits, fit: LabeledData, predict: Callable[[list[str]], Any], paper: dict[str, float],
              info: dict[str, Any]) -> DimensionResult:
    r = None
    n_test = 0
    if task.test is not None:
        n_test = len(task.test)
        r = pearson_r(predict(task.test.texts), task.test.numeric_labels())
    return DimensionResult(task.dimension, len(fit), n_test, "pearson_r", r, paper.get(task.dimension), dict(info))


def train_classifier(train: LabeledData, test: LabeledData | None, *, base_model: str, out_dir: str | Path,
                     seeds: list[int], config: Any = None, device: str | None = None, allow_pickle: bool = False,
                     progress: Any = None, cancel: Any = None) -> TrainReport:
    """Fine-tune a seed ensemble on class labels; report majority-vote accuracy and macro-F1 on test."""
    import numpy as np

    from engine.models.training.fine_tune import fine_tune_ensemble
    from engine.models.scorers.hf_classifier import EnsembleClassifierScorer

    started = time.perf_counter()
    extra = {"data": [train.record("train")] + ([test.record("test")] if test is not None else []),
             "language": "", "seed": int(seeds[0])}
    out = fine_tune_ensemble(base_model, train.texts, train.labels, out_dir=out_dir, seeds=list(seeds), config=config,
                             device=device, allow_pickle=allow_pickle, progress=progress, cancel=cancel,
                             manifest_extra=extra)
    results = [DimensionResult("vote", len(train), len(test) if test is not None else 0, "accuracy")]
    if test is not None:
        ens = EnsembleClassifierScorer.load(out, device=device, allow_pickle=False)
        pred = ens.score(test.texts)["vote"].to_numpy()
        labels = ens.labels
        values = np.asarray(ens.values)
        gold_idx = [labels.index(str(x)) if str(x) in labels else -1 for x in test.labels]
        gold = np.asarray([values[i] if i >= 0 else np.nan for i in gold_idx])
        acc = float(np.mean(pred == gold))
        f1s = []
        for v in values:
            tp = np.sum((pred == v) & (gold == v))
            fp = np.sum((pred == v) & (gold != v))
            fn = np.sum((pred != v) & (gold == v))
            f1s.append(0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn))
        results[0].value = acc
        results.append(DimensionResult("vote", len(train), len(test), "macro_f1", float(np.mean(f1s))))
    return TrainReport("classifier", Path(out), results, time.perf_counter() - started)
