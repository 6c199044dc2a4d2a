"""Scorers for fine-tuned sequence classifiers (Goldfarb-Tarrant et al.), single or ensembled.

A local `AutoModelForSequenceClassification` is used as is. Why several columns: bias
statistics on star ratings need both the hard decision (`argmax`, the label value a user
would see) and the soft one (`expected` = Σ p(label)·value, which reveals shifts that do
not flip the argmax). `expected_01` rescales `expected` to [0, 1] for Beta regression.

Label values: a leading number in the label name ("1 star" -> 1, "5" -> 5), else the
`LABEL_k` index k, else the class index (stated in `describe()["label_values_from"]`).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.models.base import make_frame, stable_hash
from engine.models.batching import pad_batch, run_in_batches
from engine.models.device import (PROBE_TEXTS, DeviceInfo, PrecisionCheck, attention_kernels, autocast,
                                  resolve_precision, select_device)
from engine.models.errors import ModelError
from engine.models.fingerprint import folder_fingerprint
from engine.models.hf_loading import load_model, load_tokenizer, resolve_model_dir
from engine.models.manifest import read_manifest

_NUM = re.compile(r"^\s*(-?\d+(?:\.\d+)?)")
_LABEL_K = re.compile(r"^LABEL_(\d+)$")


def label_values(labels: list[str]) -> tuple[list[float], str]:
    """Numeric value of each class label, and where the values came from."""
    nums = [_NUM.match(lab) for lab in labels]
    if all(nums) and len({m.group(1) for m in nums}) == len(labels):
        return [float(m.group(1)) for m in nums], "label names"
    ks = [_LABEL_K.match(lab) for lab in labels]
    if all(ks):
        return [float(m.group(1)) for m in ks], "LABEL_k index"
    return [float(i) for i in range(len(labels))], "class index"


def classifier_dimensions(labels: list[str]) -> list[str]:
    if len(labels) == 1:
        return ["score"]
    return ["expected", "expected_01", "argmax"] + [f"p_{lab}" for lab in labels]


def classifier_scales(labels: list[str], values: list[float], dimensions: list[str]) -> dict[str, tuple[float, float]]:
    """The scale of each classifier column: label values for expected/argmax/vote, [0, 1] for shares and
    probabilities; a single-output (regression) head has no declared scale."""
    if len(labels) < 2:
        return {}
    lo, hi = min(values), max(values)
    out: dict[str, tuple[float, float]] = {}
    for d in dimensions:
        if d in ("expected", "argmax", "vote"):
            if hi > lo:
                out[d] = (lo, hi)
        elif d in ("expected_01", "vote_share") or d.startswith("p_"):
            out[d] = (0.0, 1.0)
    return out


def manifest_languages(manifest: dict | None) -> tuple[str, ...]:
    """A trained model's language, from its manifest ("language": "es"), else unknown."""
    lang = (manifest or {}).get("language")
    return (str(lang),) if isinstance(lang, str) and lang else ()


class SequenceClassifierScorer:
    """One local sequence-classification model; see module docstring for the columns."""

    def __init__(self, model: str | Path, *, device: str | DeviceInfo | None = None, precision: str = "auto",
                 batch_size: int = 32, max_length: int = 256, allow_pickle: bool = False,
                 values: list[float] | None = None, name: str | None = None):
        self.model_id = str(model)
        self.name = name or Path(self.model_id).name
        self.precision = precision
        self.batch_size = int(batch_size)
        self.max_length = int(max_length)
        self.allow_pickle = allow_pickle
        self._values_arg = values
        self._device_arg = device
        self.device: DeviceInfo | None = device if isinstance(device, DeviceInfo) else None
        self.path: Path | None = None
        self._model: Any = None
        self._tok: Any = None
        self._dtype: Any = None
        self.precision_check: PrecisionCheck | None = None
        self._fp: str | None = None
        self.labels: list[str] = []
        self.values: list[float] = []
        self.values_from = ""
        self.dimensions: list[str] = []
        self.load_config_only()

    def load_config_only(self) -> None:
        """Read labels from config.json so `dimensions` is known before loading weights."""
        from engine.models.file_integrity import read_config

        self.path = resolve_model_dir(self.model_id)
        cfg = read_config(self.path)  # one reader of config.json: a BOM or bad JSON named with its fix
        if cfg is None:
            raise ModelError(str(self.path / "config.json"), "not found", fix="point to a folder written by save_pretrained()")
        from engine.models.hf_loading import causal_lm_architecture

        arch = causal_lm_architecture(self.path)
        if arch:
            raise ModelError(str(self.path), f"is a causal language model ({arch}), not a sequence classifier: "
                             "loading it as one would put a random classification head on it",
                             fix=f"audit it with llm:{self.path}")
        id2label = cfg.get("id2label") or {}
        n = int(cfg.get("num_labels", len(id2label) or 2))
        self.labels = [str(id2label.get(str(i), id2label.get(i, f"LABEL_{i}"))) for i in range(n)]
        if self._values_arg is not None:
            if len(self._values_arg) != n:
                raise ModelError(str(self.path), f"{len(self._values_arg)} label values given for {n} labels",
                                 field="values", fix="give one value per label, in label-id order")
            self.values, self.values_from = [float(v) for v in self._values_arg], "given"
        else:
            self.values, self.values_from = label_values(self.labels)
        self.dimensions = classifier_dimensions(self.labels)
        self.scales = classifier_scales(self.labels, self.values, self.dimensions)
        try:
            self.languages = manifest_languages(read_manifest(self.path)) if (self.path / "manifest.json").is_file() else ()
        except Exception:  # noqa: BLE001 - a foreign or broken manifest only means "language unknown"
            self.languages = ()

    def load(self) -> "SequenceClassifierScorer":
        if self._model is None:
            if self.device is None:
                self.device = select_device(self._device_arg if isinstance(self._device_arg, str) else None)
            self._tok = load_tokenizer(self.path)
            self._model = load_model(self.path, "AutoModelForSequenceClassification",
                                     allow_pickle=self.allow_pickle).to(self.device.torch_device)
        return self

    def _ensure_precision(self) -> None:
        if self.precision_check is None:
            self.load()
            seqs = self._tokenize(PROBE_TEXTS)
            self._dtype, self.precision_check = resolve_precision(
                self.device, self.precision, lambda dt: self._probs(seqs, dt))

    def fingerprint(self) -> str:
        self._ensure_precision()
        if self._fp is None:
            self._fp = stable_hash("hf-classifier/1", folder_fingerprint(self.path), self.max_length, self.values,
                                   self.precision_check.used)
        return self._fp

    def tokenizer(self) -> Any:
        """The model's tokenizer (engine.audit.identity_tokens checks the identity words through it)."""
        self.load()
        return self._tok

    def _tokenize(self, texts: list[str]) -> list[list[int]]:
        return self._tok(list(texts), truncation=True, max_length=self.max_length)["input_ids"]

    def lengths(self, texts: list[str]) -> list[int]:
        self.load()
        return [len(s) for s in self._tokenize(texts)]

    def _probs(self, seqs: list[list[int]], dtype: Any) -> Any:
        import torch

        pad = self._tok.pad_token_id if self._tok.pad_token_id is not None else 0
        batch = pad_batch(seqs, pad, with_token_types="token_type_ids" in self._tok.model_input_names)
        batch = {k: v.to(self.device.torch_device) for k, v in batch.items()}
        with torch.inference_mode(), autocast(self.device, dtype), attention_kernels(self.device):
            logits = self._model(**batch).logits.float()
        if logits.shape[-1] == 1:
            return logits.cpu().numpy()
        return torch.softmax(logits, dim=-1).cpu().numpy()

    def probabilities(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        """Class probabilities (n, labels) — or raw regression outputs (n, 1) for 1-label models."""
        self._ensure_precision()
        seqs = self._tokenize(texts)
        return run_in_batches([len(s) for s in seqs], lambda idx: self._probs([seqs[i] for i in idx], self._dtype),
                              batch_size=self.batch_size, progress=progress, cancel=cancel, device=self.device,
                              on_resize=self._resized)

    def _resized(self, size: int) -> None:
        self.batch_size = size

    def columns_from_probs(self, probs: Any) -> Any:
        import numpy as np

        if len(self.labels) == 1:
            return probs.reshape(-1, 1)
        v = np.asarray(self.values)
        expected = probs @ v
        span = v.max() - v.min()
        expected01 = (expected - v.min()) / span if span else np.zeros_like(expected)
        argmax = v[np.argmax(probs, axis=1)]
        return np.column_stack([expected, expected01, argmax, probs])

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        if not texts:
            return make_frame([], self.dimensions)
        probs = self.probabilities(list(texts), progress=progress, cancel=cancel)
        return make_frame(self.columns_from_probs(probs), self.dimensions)

    def describe(self) -> dict[str, Any]:
        self._ensure_precision()
        return {"kind": "hf-classifier", "name": self.name, "path": str(self.path), "fingerprint": self.fingerprint(),
                "labels": self.labels, "label_values": self.values, "label_values_from": self.values_from,
                "device": self.device.as_dict(), "precision": self.precision_check.as_dict()}


def majority_vote(member_probs: list[Any]) -> tuple[Any, Any]:
    """Per row: the label most members chose (ties -> highest mean probability) and the share agreeing."""
    import numpy as np

    stacked = np.stack(member_probs)  # (members, n, labels)
    votes = np.argmax(stacked, axis=2)  # (members, n)
    n_labels = stacked.shape[2]
    counts = np.stack([(votes == k).sum(axis=0) for k in range(n_labels)], axis=1)  # (n, labels)
    mean = stacked.mean(axis=0)
    top = counts.max(axis=1, keepdims=True)
    # among the labels with the most votes, take the one with the highest mean probability
    winner = np.argmax(np.where(counts == top, mean, -np.inf), axis=1)
    share = top[:, 0] / stacked.shape[0]
    return winner, share


class EnsembleClassifierScorer:
    """Majority vote of several fine-tuned classifiers (one per seed), as in Goldfarb-Tarrant et al.

    Columns: `vote` (value of the majority label), `vote_share` (fraction of members that
    chose it), `expected`/`expected_01` from the members' mean probabilities, `p_<label>`.
    """

    def __init__(self, members: list[SequenceClassifierScorer], *, name: str = "classifier-ensemble"):
        if not members:
            raise ModelError(name, "an ensemble needs at least one member")
        labels = members[0].labels
        for m in members[1:]:
            if m.labels != labels:
                raise ModelError(str(m.path), "member has different labels from the first member", field="id2label",
                                 fix="ensemble only models trained on the same label set")
        if len(labels) < 2:
            raise ModelError(name, "majority vote needs classification models (2+ labels)")
        self.members = members
        self.name = name
        self.labels = labels
        self.values = members[0].values
        self.dimensions = ["vote", "vote_share", "expected", "expected_01"] + [f"p_{lab}" for lab in labels]
        self.scales = classifier_scales(labels, self.values, self.dimensions)
        self.languages = members[0].languages
        self.manifest: dict[str, Any] = {}

    def tokenizer(self) -> Any:
        """The members' tokenizer (they share one: trained from the same base model)."""
        return self.members[0].tokenizer()

    @classmethod
    def load(cls, folder: str | Path, **kwargs: Any) -> "EnsembleClassifierScorer":
        folder = Path(folder)
        man = read_manifest(folder)
        if man["system"] != "classifier-ensemble":
            raise ModelError(str(folder), f"manifest is for '{man['system']}', not classifier-ensemble", field="system")
        members = [SequenceClassifierScorer(folder / sub, **kwargs) for sub in man.get("members", [])]
        ens = cls(members, name=man.get("name", folder.name))
        ens.manifest = man
        return ens

    @property
    def batch_size(self) -> int:
        return self.members[0].batch_size

    def lengths(self, texts: list[str]) -> list[int]:
        return self.members[0].lengths(texts)

    def fingerprint(self) -> str:
        return stable_hash("classifier-ensemble/1", [m.fingerprint() for m in self.members])

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        import numpy as np

        if not texts:
            return make_frame([], self.dimensions)
        probs = [m.probabilities(list(texts), cancel=cancel) for m in self.members]
        if progress is not None:
            progress(len(texts), len(texts), 0.0)
        winner, share = majority_vote(probs)
        mean = np.mean(np.stack(probs), axis=0)
        v = np.asarray(self.values)
        expected = mean @ v
        span = v.max() - v.min()
        expected01 = (expected - v.min()) / span if span else np.zeros_like(expected)
        return make_frame(np.column_stack([v[winner], share, expected, expected01, mean]), self.dimensions)

    def describe(self) -> dict[str, Any]:
        return {"kind": "classifier-ensemble", "name": self.name, "fingerprint": self.fingerprint(),
                "members": [m.describe() for m in self.members]}
