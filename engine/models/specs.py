"""Turn a model spec string (CLI `--model SPEC`, GUI model list) into a scorer.

Grammar: `KIND[:TARGET][?key=value&key=value]`, or a bare folder with a manifest.
* `vader`, `textblob` — lexicon systems, no target.
* `model:DIR` (or just `DIR`) — a folder written by `main.py train` (any system: the
  manifest says which), or a fine-tuned ensemble.
* `hf-classifier:DIR_OR_HF_ID` — an `AutoModelForSequenceClassification` used as is.
* `predictions:FILE` — a prediction file; options `key=sentence|id`, `columns=a,b`,
  `on_missing=error|nan`, `on_duplicate=error|first`.
Common options: `device=cpu|cuda|auto`, `precision=auto|fp32|bf16|fp16`, `batch_size=N`,
`max_length=N`, `encoder=PATH` (encoder-head), `vectors=PATH` (fasttext-mlp), `name=…`.
Why strings: they fit on a command line, in a plan file and in a run manifest alike.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping
from urllib.parse import parse_qsl

from engine.models.errors import ModelError

KINDS = ("vader", "textblob", "model", "hf-classifier", "predictions")
_INT_OPTS = {"batch_size", "max_length"}


def parse_spec(spec: str) -> tuple[str, str, dict[str, str]]:
    """(kind, target, options) of a spec string."""
    text = spec.strip()
    if not text:
        raise ModelError("", "empty model spec", field="--model", fix=f"use one of {', '.join(KINDS)}")
    body, _, query = text.partition("?")
    opts = dict(parse_qsl(query, keep_blank_values=True)) if query else {}
    kind, sep, target = body.partition(":")
    if not sep and kind.lower() in ("vader", "textblob"):
        return kind.lower(), "", opts
    if sep and kind in KINDS:
        return kind, target, opts
    # Windows drive letters and bare paths: treat the whole body as a trained-model folder
    return "model", body, opts


def load_scorer(spec: str, *, allow_pickle: bool = False, ids: Mapping[str, str] | None = None,
                **overrides: Any) -> Any:
    """Build the scorer a spec names. `ids` (sentence -> corpus ID) serves `predictions:` keyed by id."""
    kind, target, opts = parse_spec(spec)
    opts = {**opts, **{k: str(v) for k, v in overrides.items() if v is not None}}
    common: dict[str, Any] = {}
    for k in ("device", "precision"):
        if k in opts:
            common[k] = opts.pop(k)
    for k in _INT_OPTS:
        if k in opts:
            try:
                common[k] = int(opts.pop(k))
            except ValueError:
                raise ModelError(spec, f"option {k} must be a whole number", field=k) from None
    name = opts.pop("name", None)

    if kind in ("vader", "textblob"):
        from engine.models.scorers.lexicon import TextBlobScorer, VaderScorer

        return VaderScorer() if kind == "vader" else TextBlobScorer()
    if not target:
        raise ModelError(spec, f"'{kind}:' needs a path", field="--model")
    if kind == "predictions":
        from engine.models.scorers.predictions import PredictionFileScorer

        cols = opts.pop("columns", None)
        return PredictionFileScorer(target, key=opts.pop("key", "auto"), ids=ids,
                                    columns=cols.split(",") if cols else None,
                                    on_missing=opts.pop("on_missing", "error"),
                                    on_duplicate=opts.pop("on_duplicate", "error"), name=name)
    if kind == "hf-classifier":
        from engine.models.scorers.hf_classifier import SequenceClassifierScorer

        return SequenceClassifierScorer(target, allow_pickle=allow_pickle, name=name, **common)
    return load_trained(target, allow_pickle=allow_pickle, encoder=opts.pop("encoder", None),
                        vectors=opts.pop("vectors", None), **common)


def load_trained(folder: str | Path, *, allow_pickle: bool = False, encoder: str | None = None,
                 vectors: str | None = None, **common: Any) -> Any:
    """Load any folder written by `main.py train` (dispatch on the manifest's `system`)."""
    from engine.models.manifest import read_manifest

    folder = Path(folder).expanduser()
    if not folder.exists():
        raise ModelError(str(folder), "model folder not found",
                         fix="check the path, or use vader / textblob / hf-classifier:DIR / predictions:FILE")
    if folder.is_file():
        raise ModelError(str(folder), "is a file; a trained model is a folder",
                         fix="for a prediction file use predictions:FILE")
    man = read_manifest(folder)
    system = man["system"]
    if system == "encoder-head":
        from engine.models.scorers.encoder_head import EncoderHeadScorer

        common.pop("max_length", None)  # fixed by the trained heads' manifest

        return EncoderHeadScorer.load(folder, allow_pickle=allow_pickle, encoder=encoder, **common)
    if system == "svm-tfidf":
        from engine.models.training.svm_tfidf import load_svm_tfidf

        return load_svm_tfidf(folder, allow_pickle=allow_pickle)
    if system == "fasttext-mlp":
        from engine.models.training.fasttext_mlp import load_fasttext_mlp

        return load_fasttext_mlp(folder, allow_pickle=allow_pickle, vectors=vectors)
    if system == "classifier-ensemble":
        from engine.models.scorers.hf_classifier import EnsembleClassifierScorer

        return EnsembleClassifierScorer.load(folder, allow_pickle=allow_pickle, **common)
    raise ModelError(str(folder), f"unknown system '{system}' in manifest", field="system", fix="update EEC Studio")
