"""Scorer over per-dimension scikit-learn regressors (SVM-tfidf, fastText + MLP).

Why one class for both: the two systems differ only in how a text becomes features
(the SVM pipeline does its own tf-idf; the MLP needs averaged word vectors), so the
scoring, chunked progress/cancel, saving (skops, never pickle) and loading are shared.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from engine.models.base import WorkerSpec, make_frame, stable_hash

from engine.common.progress import ProgressTracker, check_cancel
from engine.models.errors import ModelError
from engine.models.fingerprint import file_sha256
from engine.models.preprocess import get_preprocessor
from engine.models.safe_load import load_sklearn, save_sklearn

CHUNK = 512  # texts per predict call: the progress/cancel granularity of these fast models


class SklearnScorer:
    """score(texts)[d] = models[d].predict(featurize(preprocess(texts)))."""

    def __init__(self, models: dict[str, Any], *, kind: str, name: str | None = None, preprocess: str = "none",
                 featurize: Callable[[list[str]], Any] | None = None, feature_id: str = "", digest: str = ""):
        if not models:
            raise ModelError(name or kind, "no trained dimensions")
        self.models = models
        self.kind = kind
        self.name = name or kind
        self.dimensions = list(models)
        self.preprocess = preprocess
        self._prep = get_preprocessor(preprocess)
        self.featurize = featurize
        self.feature_id = feature_id
        self._digest = digest
        self.batch_size = CHUNK
        self.manifest: dict[str, Any] = {}
        #: set by the folder loaders: how a worker process loads the same model (see WorkerSpec)
        self.worker: WorkerSpec | None = None

    def worker_spec(self) -> WorkerSpec | None:
        """CPU-bound: score in worker processes when it was loaded from a folder (None: in memory only)."""
        return self.worker

    @property
    def languages(self) -> tuple[str, ...]:
        """The training language from the model's manifest (empty when unknown)."""
        lang = (self.manifest or {}).get("language")
        return (str(lang),) if isinstance(lang, str) and lang else ()

    def fingerprint(self) -> str:
        if not self._digest:
            import hashlib
            import io

            import skops.io as sio

            h = hashlib.sha256()
            for d in self.dimensions:
                buf = io.BytesIO()
                sio.dump(self.models[d], buf)
                h.update(d.encode())
                h.update(buf.getvalue())
            self._digest = h.hexdigest()
        return stable_hash(f"{self.kind}/1", self._digest, self.dimensions, self.preprocess, self.feature_id)

    def predict(self, texts: list[str]) -> Any:
        import numpy as np

        clean = [self._prep(t) for t in texts]
        feats = self.featurize(clean) if self.featurize is not None else clean
        return np.column_stack([np.asarray(self.models[d].predict(feats), dtype=np.float64) for d in self.dimensions])

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        import numpy as np

        texts = list(texts)
        tracker = ProgressTracker(len(texts), progress)
        parts = []
        for start in range(0, len(texts), CHUNK):
            check_cancel(cancel, tracker.done, len(texts))
            chunk = texts[start:start + CHUNK]
            parts.append(self.predict(chunk))
            tracker.advance(len(chunk))
        values = np.vstack(parts) if parts else np.zeros((0, len(self.dimensions)))
        return make_frame(values, self.dimensions)

    def save(self, folder: str | Path) -> dict[str, str]:
        """Write one `<dimension>.skops` per dimension; returns {dimension: file name}."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        files = {}
        for i, d in enumerate(self.dimensions):
            fname = f"{i:02d}-{_safe(d)}.skops"
            save_sklearn(self.models[d], folder / fname)
            files[d] = fname
        return files

    @staticmethod
    def load_models(folder: Path, files: dict[str, str], *, allow_pickle: bool = False) -> tuple[dict[str, Any], str]:
        """Load the per-dimension models and a digest of their files."""
        import hashlib

        models, h = {}, hashlib.sha256()
        for d, fname in files.items():
            path = folder / fname
            models[d] = load_sklearn(path, allow_pickle=allow_pickle)
            h.update(d.encode())
            h.update(file_sha256(path).encode())
        return models, h.hexdigest()

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "fingerprint": self.fingerprint(), "preprocess": self.preprocess,
                "dimensions": self.dimensions, "features": self.feature_id}


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "dim"
