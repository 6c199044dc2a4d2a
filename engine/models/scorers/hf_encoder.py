"""A frozen Hugging Face encoder that turns texts into fixed sentence embeddings.

Why separate from the regression head: Câmara et al. §4.1 keep the encoder frozen, so the
embeddings of a text never change — they are computed once (length-sorted batches,
dynamic padding, no gradients) and memoised in memory, and optionally in a persistent
store, then reused for training every emotion's head and for scoring.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.models.base import stable_hash
from engine.models.batching import pad_batch, run_in_batches
from engine.models.device import DeviceInfo, attention_kernels, autocast, dtype_name, select_device
from engine.models.errors import ModelError
from engine.models.fingerprint import folder_fingerprint
from engine.models.hf_loading import load_model, load_tokenizer, resolve_model_dir

POOLINGS = ("cls", "mean")


class HFEncoder:
    """Frozen encoder: `embed(texts)` -> float32 array (n, hidden), [CLS] of the last layer by default.

    pooling: "cls" (first token, the paper's choice: [CLS] for BERT, <s> for XLM-R) or
    "mean" (attention-masked mean, for sentence-transformers checkpoints).
    """

    def __init__(self, model: str | Path, *, pooling: str = "cls", max_length: int = 128,
                 batch_size: int = 64, device: str | DeviceInfo | None = None, allow_pickle: bool = False,
                 max_tokens: int | None = None):
        if pooling not in POOLINGS:
            raise ModelError(str(model), f"unknown pooling '{pooling}'", field="pooling", fix="use cls or mean")
        self.model_id = str(model)
        self.pooling = pooling
        self.max_length = int(max_length)
        self.batch_size = int(batch_size)
        #: a token budget per batch (engine.models.batching.run_in_batches): length-bucketed batches of up
        #: to `batch_size` sentences holding about this many tokens, padding included; None: `batch_size` each
        self.max_tokens = int(max_tokens) if max_tokens else None
        self.allow_pickle = allow_pickle
        self._device_arg = device
        self.device: DeviceInfo | None = device if isinstance(device, DeviceInfo) else None
        self.path: Path | None = None
        self._model: Any = None
        self._tokenizer: Any = None
        self._fingerprint: str | None = None
        self._memo: dict[tuple[str, str], Any] = {}

    # -- loading -------------------------------------------------------------------------
    def tokenizer(self) -> Any:
        """The encoder's tokenizer (engine.audit.identity_tokens checks the identity words through it)."""
        self.load()
        return self._tokenizer

    def load(self) -> "HFEncoder":
        if self._model is not None:
            return self
        self.path = resolve_model_dir(self.model_id)
        if self.device is None:
            self.device = select_device(self._device_arg if isinstance(self._device_arg, str) else None)
        self._tokenizer = load_tokenizer(self.path)
        model = load_model(self.path, "AutoModel", allow_pickle=self.allow_pickle)
        for p in model.parameters():
            p.requires_grad_(False)
        self._model = model.to(self.device.torch_device)
        return self

    @property
    def dim(self) -> int:
        self.load()
        return int(self._model.config.hidden_size)

    @property
    def tokenizer(self) -> Any:
        return self.load()._tokenizer

    def fingerprint(self) -> str:
        """Content hash of the model folder plus every setting that changes the embeddings."""
        if self._fingerprint is None:
            self.load()
            self._fingerprint = stable_hash("hf-encoder/1", folder_fingerprint(self.path), self.pooling, self.max_length)
        return self._fingerprint

    def describe(self) -> dict[str, Any]:
        self.load()
        return {"model": self.model_id, "path": str(self.path), "pooling": self.pooling,
                "max_length": self.max_length, "batch_size": self.batch_size,
                "device": self.device.as_dict() if self.device else None}

    # -- tokenisation ----------------------------------------------------------------------
    def tokenize(self, texts: list[str]) -> list[list[int]]:
        tok = self.tokenizer
        return tok(list(texts), add_special_tokens=True, truncation=True, max_length=self.max_length)["input_ids"]

    def lengths(self, texts: list[str]) -> list[int]:
        """Token counts (used by the runner to sort work by length)."""
        return [len(s) for s in self.tokenize(texts)]

    # -- embedding ---------------------------------------------------------------------------
    def forward_ids(self, seqs: list[list[int]], dtype: Any = None) -> Any:
        """Embed already tokenised sequences (one padded batch); returns a float32 numpy array."""
        import torch

        tok = self._tokenizer
        pad_id = tok.pad_token_id if tok.pad_token_id is not None else 0
        batch = pad_batch(seqs, pad_id, with_token_types="token_type_ids" in tok.model_input_names)
        batch = {k: v.to(self.device.torch_device) for k, v in batch.items()}
        with torch.inference_mode(), autocast(self.device, dtype), attention_kernels(self.device):
            hidden = self._model(**batch).last_hidden_state
            if self.pooling == "cls":
                pooled = hidden[:, 0]
            else:
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        return pooled.float().cpu().numpy()

    def embed(self, texts: list[str], *, dtype: Any = None, progress: Any = None, cancel: Any = None,
              store: Any = None) -> Any:
        """Embeddings for `texts` (rows aligned), computing only those not seen before.

        `store`: optional persistent cache with `get_many/put_many` (e.g. the runner's
        ScoreCache) so embeddings survive between runs and processes.
        """
        import numpy as np

        self.load()
        texts = list(texts)
        tag = dtype_name(dtype)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo: dict[str, list[int]] = {}
        for i, t in enumerate(texts):
            v = self._memo.get((tag, t))
            if v is None:
                todo.setdefault(t, []).append(i)
            else:
                out[i] = v
        unique = list(todo)
        key = self.fingerprint() + "/" + tag
        if store is not None and unique:
            found = store.get_many(key, unique)
            for j, vec in found.items():
                self._memo[(tag, unique[j])] = vec.astype(np.float32)
            unique = [t for j, t in enumerate(unique) if j not in found]
        if unique:
            seqs = self.tokenize(unique)
            vecs = run_in_batches([len(s) for s in seqs], lambda idx: self.forward_ids([seqs[i] for i in idx], dtype),
                                  batch_size=self.batch_size, progress=progress, cancel=cancel, device=self.device,
                                  on_resize=self._resized, max_tokens=self.max_tokens)
            for t, v in zip(unique, vecs):
                self._memo[(tag, t)] = v
            if store is not None:
                store.put_many(key, unique, vecs)
        for t, rows in todo.items():
            out[rows] = self._memo[(tag, t)]
        return out

    def _resized(self, size: int) -> None:
        self.batch_size = size

    def clear_memo(self) -> None:
        self._memo.clear()
