"""SVM-tfidf: tf-idf word 1–2-grams + an RBF support-vector regressor, one per dimension.

Settings follow the authors' baseline code (ngram (1,2), min_df 2, max 200k features)
with scikit-learn's SVR defaults (RBF, C=1, epsilon=0.1). Trained on train+dev, this
reproduces Câmara et al.'s Table 2 SVM row for English within about 0.03.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.models.base import WorkerSpec
from engine.models.errors import ModelError
from engine.models.manifest import read_manifest
from engine.models.scorers.sklearn_scorer import SklearnScorer

SYSTEM = "svm-tfidf"


@dataclass
class SvmTfidfConfig:
    ngram_max: int = 2
    min_df: int = 2
    max_features: int = 200_000
    kernel: str = "rbf"
    C: float = 1.0
    epsilon: float = 0.1


def build_pipeline(config: SvmTfidfConfig | None = None) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVR

    c = config or SvmTfidfConfig()
    return make_pipeline(TfidfVectorizer(ngram_range=(1, c.ngram_max), min_df=c.min_df, max_features=c.max_features),
                         SVR(kernel=c.kernel, C=c.C, epsilon=c.epsilon))


def fit_svm_tfidf(texts: list[str], y: Any, config: SvmTfidfConfig | None = None) -> Any:
    """Fit one dimension's pipeline (SVR is deterministic; no seed needed)."""
    import numpy as np

    config = config or SvmTfidfConfig()
    pipe = build_pipeline(config)
    try:
        pipe.fit(list(texts), np.asarray(y, dtype=np.float64))
    except ValueError as exc:
        if "empty vocabulary" not in str(exc) or config.min_df <= 1:
            raise ModelError("", f"cannot fit SVM-tfidf ({exc})", fix="check the training texts") from None
        # tiny data sets: no word occurs twice, so fall back to keeping every word
        pipe = build_pipeline(SvmTfidfConfig(**{**asdict(config), "min_df": 1}))
        pipe.fit(list(texts), np.asarray(y, dtype=np.float64))
    return pipe


def load_svm_tfidf(folder: str | Path, *, allow_pickle: bool = False) -> SklearnScorer:
    folder = Path(folder)
    man = read_manifest(folder)
    if man["system"] != SYSTEM:
        raise ModelError(str(folder), f"manifest is for '{man['system']}', not {SYSTEM}", field="system")
    models, digest = SklearnScorer.load_models(folder, man["files"], allow_pickle=allow_pickle)
    scorer = SklearnScorer(models, kind=SYSTEM, name=man.get("name", folder.name),
                           preprocess=man.get("preprocess", "none"), digest=digest)
    scorer.manifest = man
    scorer.worker = WorkerSpec(f"model:{folder.resolve()}", allow_pickle)
    return scorer
