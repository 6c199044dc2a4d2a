"""Scorer: frozen transformer encoder + one two-layer regression head per dimension.

This is the BERT+/mBERT/XLM-R system of Câmara et al. §4.1. Why one encoder pass for all
dimensions: the encoder is frozen, so the embedding is shared and the four emotion heads
cost almost nothing on top.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.models.base import make_frame, stable_hash
from engine.models.device import PROBE_TEXTS, PrecisionCheck, resolve_precision
from engine.models.errors import ModelError
from engine.models.scorers.hf_encoder import HFEncoder
from engine.models.manifest import read_manifest
from engine.models.preprocess import get_preprocessor
from engine.models.training.regression_head import heads_digest as compute_heads_digest
from engine.models.training.regression_head import load_heads

HEADS_FILE = "heads.safetensors"


class EncoderHeadScorer:
    """Scores = head_d(embedding(text)) for every dimension d."""

    def __init__(self, encoder: HFEncoder, heads: dict[str, Any], *, name: str = "encoder-head",
                 precision: str = "auto", preprocess: str = "none", heads_digest: str = ""):
        if not heads:
            raise ModelError(name, "no regression heads", fix="train at least one dimension")
        self.encoder = encoder
        self.heads = heads
        self.name = name
        self.dimensions = list(heads)
        self.precision = precision
        self.preprocess = preprocess
        self._prep = get_preprocessor(preprocess)
        self._heads_digest = heads_digest or compute_heads_digest(heads)
        self._dtype: Any = None
        self.precision_check: PrecisionCheck | None = None
        self.manifest: dict[str, Any] = {}

    @classmethod
    def load(cls, folder: str | Path, *, device: str | None = None, precision: str = "auto",
             batch_size: int = 64, allow_pickle: bool = False, encoder: str | None = None) -> "EncoderHeadScorer":
        """Rebuild from a trained folder; `encoder` overrides the manifest's encoder location."""
        folder = Path(folder)
        man = read_manifest(folder)
        if man["system"] != "encoder-head":
            raise ModelError(str(folder), f"manifest is for '{man['system']}', not encoder-head", field="system")
        settings = man.get("settings", {})
        enc = HFEncoder(encoder or man.get("encoder_path") or man["model_id"], pooling=settings.get("pooling", "cls"),
                        max_length=int(settings.get("max_length", 128)), batch_size=batch_size, device=device,
                        allow_pickle=allow_pickle)
        want = man.get("model_fingerprint")
        if want and enc.fingerprint() != want:
            raise ModelError(str(enc.path), "encoder differs from the one the heads were trained on",
                             field="model_fingerprint", fix="give the original encoder with --encoder or retrain")
        heads_path = folder / man.get("files", {}).get("heads", HEADS_FILE)
        heads = load_heads(heads_path, allow_pickle=allow_pickle)
        heads = {d: heads[d] for d in man["dimensions"] if d in heads}
        scorer = cls(enc, heads, name=man.get("name", folder.name), precision=precision,
                     preprocess=man.get("preprocess", "none"))
        scorer.manifest = man
        return scorer

    # -- interface --------------------------------------------------------------------------
    def tokenizer(self) -> Any:
        """The encoder's tokenizer (engine.audit.identity_tokens)."""
        return self.encoder.tokenizer()

    @property
    def batch_size(self) -> int:
        return self.encoder.batch_size

    def _ensure_precision(self) -> None:
        if self.precision_check is None:
            self.encoder.load()
            probes = [self._prep(t) for t in PROBE_TEXTS]
            seqs = self.encoder.tokenize(probes)
            self._dtype, self.precision_check = resolve_precision(
                self.encoder.device, self.precision, lambda dt: self._apply_heads(self.encoder.forward_ids(seqs, dt)))

    @property
    def languages(self) -> tuple[str, ...]:
        """The training language from the model's manifest (empty when unknown)."""
        lang = (self.manifest or {}).get("language")
        return (str(lang),) if isinstance(lang, str) and lang else ()

    def fingerprint(self) -> str:
        self._ensure_precision()
        return stable_hash("encoder-head/1", self.encoder.fingerprint(), self._heads_digest, self.dimensions,
                           self.preprocess, self.precision_check.used)

    def lengths(self, texts: list[str]) -> list[int]:
        return self.encoder.lengths([self._prep(t) for t in texts])

    def _apply_heads(self, emb: Any) -> Any:
        import numpy as np
        import torch

        x = torch.from_numpy(np.asarray(emb, dtype=np.float32))
        with torch.inference_mode():
            cols = [self.heads[d](x).numpy() for d in self.dimensions]
        return np.stack(cols, axis=1).astype(np.float64)

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        self._ensure_precision()
        emb = self.encoder.embed([self._prep(t) for t in texts], dtype=self._dtype, progress=progress, cancel=cancel)
        return make_frame(self._apply_heads(emb), self.dimensions)

    def describe(self) -> dict[str, Any]:
        self._ensure_precision()
        return {"kind": "encoder-head", "name": self.name, "fingerprint": self.fingerprint(),
                "encoder": self.encoder.describe(), "precision": self.precision_check.as_dict(),
                "preprocess": self.preprocess}
