"""Turn a model spec string (CLI `--model SPEC`, GUI model list) into a scorer.

Grammar: `KIND[:TARGET][?key=value&key=value]`, or a bare folder with a manifest.
* `vader`, `textblob` — lexicon systems, no target.
* `model:DIR` (or just `DIR`) — a folder written by `main.py train` (any system: the
  manifest says which), or a fine-tuned ensemble.
* `hf-classifier:DIR_OR_HF_ID` — an `AutoModelForSequenceClassification` used as is.
* `predictions:FILE` — a prediction file; options `key=sentence|id`, `columns=a,b`,
  `on_missing=error|drop|keep` (a sentence without a row), `on_bad=error|drop|keep` (an empty,
  non-number, NaN or infinite cell), `on_duplicate=error|first`, `sep=,|;|tab||` and `decimal=.|,` (read from
  the file when not given; see engine/models/scorers/predictions.py).
* `llm:DIR_OR_GGUF` — a local causal language model asked a prompt per dimension; options
  `prompt=ID[,ID…]`, `task=anger,joy`, `language=es`, `prompt_file=FILE.toml`, `prefix_cache=0|1`,
  `chat=0|1`, `label_reading=sequence|first_token` (see engine/models/scorers/llm.py).
Common options: `device=cpu|cuda|auto`, `precision=auto|fp32|bf16|fp16`, `batch_size=N`,
`max_length=N`, `encoder=PATH` (encoder-head), `vectors=PATH` (fasttext-mlp), `name=…`.
Why strings: they fit on a command line, in a plan file and in a run manifest alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import parse_qsl

from engine.common.command import command
from engine.common.extras import require_extra
from engine.models.errors import ModelError

_INT_OPTS = {"batch_size", "max_length"}


@dataclass(frozen=True)
class LoadRequest:
    """What a scorer kind's loader gets: the spec, its target and options (the common ones taken out)."""

    spec: str
    kind: str
    target: str
    opts: dict[str, str]  # the kind's own options, still to be checked by the loader
    common: dict[str, Any]  # device, precision, batch_size, max_length (as given)
    name: str | None
    allow_pickle: bool
    ids: Mapping[str, str] | None


@dataclass(frozen=True)
class ScorerKind:
    """One kind of spec (``KIND:TARGET?options``): how to load it and what it needs.

    Why a registry: the CLI's --model, the sweep plan's models, the GUI's model list and the audit all
    read specs; a new scorer is one registration (its module plus ``register_scorer``), not another
    branch of an if-chain here. ``extra`` names the pip extra whose libraries it needs
    (engine.common.extras), checked before loading so a missing one is one line naming the extra."""

    kind: str
    load: Callable[[LoadRequest], Any]
    help: str = ""  # what it is, for `audit --help` and docs (English, like every CLI text)
    needs_target: bool = True
    extra: str = ""
    target: str = "PATH"  # the metavar of its target in `audit --help` (FILE, DIR, DIR_OR_GGUF)
    #: the name the Audit page lists a kind without a target under (N_-marked; default: the kind)
    label: str = ""

    @property
    def usage(self) -> str:
        """How a spec of this kind is written: ``vader``, ``predictions:FILE``."""
        return self.kind if not self.needs_target else f"{self.kind}:{self.target}"


_SCORERS: dict[str, ScorerKind] = {}
#: short spellings users type for a kind (``hf:DIR`` as on the Hub's side); read as the kind itself
ALIASES = {"hf": "hf-classifier"}


def register_scorer(entry: ScorerKind) -> None:
    """Add a scorer kind (a plug-in's, a notebook's); a kind already taken is refused."""
    if entry.kind in _SCORERS:
        raise ModelError("", f"a scorer kind {entry.kind!r} is already registered", field="kind",
                         fix="give the new scorer a spec prefix of its own")
    _SCORERS[entry.kind] = entry


def unregister_scorer(kind: str) -> None:
    _SCORERS.pop(kind, None)


def scorer_kinds() -> list[ScorerKind]:
    """Every registered kind, built-ins first."""
    return list(_SCORERS.values())


def kinds() -> tuple[str, ...]:
    return tuple(_SCORERS)


def model_option_help() -> str:
    """The help of `--model` (audit, sweep models), from the registered kinds: a new kind shows up."""
    shapes = " | ".join(k.usage for k in scorer_kinds())
    what = "; ".join(f"{k.usage}: {k.help}" for k in scorer_kinds() if k.help)
    return (f"{shapes} — {what}; options after '?': "
            f"device=cpu|cuda, precision=auto|fp32|bf16|fp16, batch_size=N, name=LABEL; for llm: prompt=ID, "
            f"task=…, language=… (see docs/models.md)")


def parse_spec(spec: str) -> tuple[str, str, dict[str, str]]:
    """(kind, target, options) of a spec string."""
    text = spec.strip()
    if not text:
        raise ModelError("", "empty model spec", field="--model", fix=f"use one of {', '.join(kinds())}")
    body, _, query = text.partition("?")
    opts = dict(parse_qsl(query, keep_blank_values=True)) if query else {}
    kind, sep, target = body.partition(":")
    if sep and kind in ALIASES:
        kind = ALIASES[kind]
    entry = _SCORERS.get(kind.lower() if not sep else kind)
    if not sep and entry is not None and not entry.needs_target:
        return entry.kind, "", opts
    if sep and entry is not None:
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
    entry = _SCORERS[kind]
    if entry.needs_target and not target:
        raise ModelError(spec, f"'{kind}:' needs a path", field="--model")
    if entry.extra:  # e.g. local models: torch and friends come with the 'models' extra
        require_extra(f"'{kind}:' models", entry.extra)
    return entry.load(LoadRequest(spec, kind, target, opts, common, name, allow_pickle, ids))


def _load_lexicon(req: LoadRequest) -> Any:
    from engine.models.scorers.lexicon import TextBlobScorer, VaderScorer

    if req.opts:  # a misspelt option must not be ignored silently
        raise ModelError(req.spec, f"unknown option {next(iter(req.opts))!r}", field="--model",
                         fix=f"{req.kind} takes name=… and the common options (device, precision, batch_size, "
                             f"max_length), which a lexicon does not need")
    # the common options are accepted (a sweep plan's model_options apply to every model); only
    # batch_size means something here: texts per scoring chunk
    scorer = VaderScorer(req.name) if req.kind == "vader" else TextBlobScorer(req.name)
    if "batch_size" in req.common:
        scorer.batch_size = max(1, req.common["batch_size"])
    return scorer


def _load_predictions(req: LoadRequest) -> Any:
    from engine.models.scorers.predictions import PredictionFileScorer

    opts = dict(req.opts)
    cols = opts.pop("columns", None)
    kw = {k: opts.pop(k) for k in ("key", "on_missing", "on_bad", "on_duplicate", "sep", "decimal") if k in opts}
    if opts:  # a misspelt option must not silently fall back to the strict default
        raise ModelError(req.spec, f"unknown option {next(iter(opts))!r}", field="--model",
                         fix="prediction files take key, columns, on_missing, on_bad, on_duplicate, sep, decimal "
                             "and name")
    return PredictionFileScorer(req.target, ids=req.ids, columns=cols.split(",") if cols else None, name=req.name, **kw)


def _load_hf_classifier(req: LoadRequest) -> Any:
    from engine.models.scorers.hf_classifier import SequenceClassifierScorer

    return SequenceClassifierScorer(req.target, allow_pickle=req.allow_pickle, name=req.name, **req.common)


def _load_model_folder(req: LoadRequest) -> Any:
    opts = dict(req.opts)
    return load_trained(req.target, allow_pickle=req.allow_pickle, encoder=opts.pop("encoder", None),
                        vectors=opts.pop("vectors", None), **req.common)


def _load_llm_kind(req: LoadRequest) -> Any:
    return _load_llm(req.spec, req.target, dict(req.opts), req.name, req.allow_pickle, dict(req.common))


_LLM_OPTS = ("prompt", "task", "language", "prompt_file", "prefix_cache", "chat", "label_reading")


def _load_llm(spec: str, target: str, opts: dict[str, str], name: str | None, allow_pickle: bool,
              common: dict[str, Any]) -> Any:
    """`llm:PATH?prompt=…`: unknown options are refused (a typo must not silently change the prompt)."""
    from engine.models.scorers.llm import LLMScorer

    unknown = sorted(set(opts) - set(_LLM_OPTS))
    if unknown:
        raise ModelError(spec, f"unknown option '{unknown[0]}' for llm:", field=unknown[0],
                         fix=f"use {', '.join(_LLM_OPTS)}, device, precision, batch_size, max_length or name")
    flags: dict[str, Any] = {}
    for key in ("prefix_cache", "chat"):
        if key in opts:
            value = opts.pop(key).strip().lower()
            if value not in ("0", "1", "true", "false", "yes", "no"):
                raise ModelError(spec, f"option {key} must be 0 or 1", field=key)
            flags[key] = value in ("1", "true", "yes")
    if "label_reading" in opts:
        flags["label_reading"] = opts.pop("label_reading").strip().lower()
    return LLMScorer(target, prompt=opts.get("prompt"), task=opts.get("task"), language=opts.get("language"),
                     prompt_file=opts.get("prompt_file"), allow_pickle=allow_pickle, name=name, **flags, **common)


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
    require_extra(f"trained '{system}' models", "models")
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


def suggest_spec(path: str | Path) -> tuple[str, str]:
    """(kind, spec) for a chosen model folder or file — the engine side of the GUI's "add a model".

    kind: "heads" / "model" (trained by EEC Studio), "llm" (a causal LM folder or a .gguf file),
    "hf-classifier" (any other Hugging Face folder). ModelError (one line) otherwise.
    """
    from engine.models.manifest import MANIFEST_NAME, read_manifest

    p = Path(path).expanduser()
    if p.is_file():
        if p.suffix.lower() == ".gguf":
            return "llm", f"llm:{p}"
        raise ModelError(str(p), "not a model file", fix="choose a model folder, or a .gguf file for a local LLM")
    if (p / MANIFEST_NAME).is_file():
        man = read_manifest(p)
        return ("heads" if man.get("system") == "encoder-head" else "model"), f"model:{p}"
    if (p / "config.json").is_file():
        from engine.models.hf_loading import causal_lm_architecture

        if causal_lm_architecture(p):
            return "llm", f"llm:{p}"
        return "hf-classifier", f"hf-classifier:{p}"
    raise ModelError(str(p), "not a model folder: it has neither config.json (a Hugging Face model saved with "
                     "save_pretrained) nor manifest.json (a model trained with EEC Studio)",
                     fix="choose the folder that contains config.json and the weights, a folder written by "
                         f"`{command('train')}`, or a .gguf file")


for _entry in (
    ScorerKind("vader", _load_lexicon, "VADER lexicon (valence)", needs_target=False, label="VADER"),
    ScorerKind("textblob", _load_lexicon, "TextBlob lexicon (polarity)", needs_target=False, label="TextBlob"),
    ScorerKind("model", _load_model_folder, "a folder written by the `train` command (or a bare path)", extra="",
               target="DIR"),
    ScorerKind("hf-classifier", _load_hf_classifier, "a local Hugging Face sequence classifier", extra="models",
               target="DIR"),
    ScorerKind("predictions", _load_predictions, "a prediction file (CSV/TSV) of a black-box system",
               target="FILE"),
    ScorerKind("llm", _load_llm_kind, "a local causal language model folder or .gguf file, asked prompts",
               extra="models", target="DIR_OR_GGUF"),
):
    register_scorer(_entry)
#: the built-in kinds (kept for callers of the old tuple; ``kinds()`` includes registered ones)
KINDS = kinds()
