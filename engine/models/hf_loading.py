"""Loading Hugging Face models offline and under the safe-loading policy.

Why a helper: every transformer path must (1) never touch the network
(`HF_HUB_OFFLINE=1`, `local_files_only=True`), (2) accept a local folder or an id already
in the HF cache, (3) prefer safetensors and refuse pickled weights unless allowed, (4) never run
a folder's own Python code (`trust_remote_code=False`, and a folder that needs it is refused
before transformers is asked, so no "[y/N]" question can reach a terminal), and (5) report
failures as one readable line.
"""
from __future__ import annotations

import contextlib
import inspect
import os
from pathlib import Path
from typing import Any

from engine.models.errors import ModelError
from engine.models.safe_load import hf_weights_policy


def offline() -> None:
    """Force offline mode before transformers / huggingface_hub read their settings."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


def resolve_model_dir(spec: str | Path) -> Path:
    """A local folder, or the snapshot folder of a model id already in the HF cache."""
    path = Path(spec).expanduser()
    if path.is_dir():
        if not (path / "config.json").exists():
            raise ModelError(str(path), "folder has no config.json", fix="point to a folder written by save_pretrained()")
        return path
    if path.exists():
        raise ModelError(str(path), "is a file, not a model folder", fix="give the folder that holds config.json")
    text = str(spec)
    if text.count("/") > 1 or text.startswith((".", "/", "~")):
        raise ModelError(text, "model folder not found", fix="check the path")
    offline()
    try:
        from huggingface_hub import snapshot_download

        found = Path(snapshot_download(text, local_files_only=True))
    except Exception:
        raise ModelError(text, "not a local folder and not in the Hugging Face cache (offline mode)",
                         fix="download it once where there is network (e.g. `hf download NAME`) or give a folder") from None
    if not (found / "config.json").exists():
        raise ModelError(str(found), "cached snapshot has no config.json", fix="re-download the model")
    return found


def refuse_custom_code(folder: str | Path) -> None:
    """ModelError when a folder needs its own Python code: an `auto_map` in config.json or
    tokenizer_config.json, or a `model_type` this transformers does not know.

    Why before loading: with such a folder transformers asks "Do you wish to run the custom code?
    [y/N]" when stdin is a terminal, and a "y" runs the folder's .py files. Weights are data; code
    from a downloaded folder is not something an audit tool should ever execute."""
    import json

    folder = Path(folder)
    for name in ("config.json", "tokenizer_config.json"):
        try:
            cfg = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(cfg, dict):
            continue
        auto_map = cfg.get("auto_map")
        if auto_map:
            raise ModelError(str(folder / name), f"the folder needs its own Python code ('auto_map' names "
                             f"{_auto_map_target(auto_map)}), and EEC Studio never runs code from a model folder",
                             field="auto_map", fix="use a model of an architecture transformers ships "
                                                   "(model_type llama, qwen2, mistral, gemma, phi3, …)")
        model_type = cfg.get("model_type") if name == "config.json" else None
        if isinstance(model_type, str) and model_type:
            from transformers import CONFIG_MAPPING

            if model_type not in CONFIG_MAPPING:
                import transformers

                raise ModelError(str(folder / name), f"model_type '{model_type}' is not an architecture transformers "
                                 f"{transformers.__version__} ships, and EEC Studio never runs a model folder's own "
                                 "code", field="model_type",
                                 fix="update transformers if a newer release ships it, or use another model")


def _auto_map_target(auto_map: Any) -> str:
    """The first class an ``auto_map`` names, for the message ('modeling_x.MyModel'); null entries
    (``"AutoTokenizer": [null, "tok.MyTokenizer"]``) are skipped, never shown as 'None'."""
    values = list(auto_map.items()) if isinstance(auto_map, dict) else [("", auto_map)]
    for key, value in values:
        for item in (value if isinstance(value, list) else [value]):
            if isinstance(item, str) and item.strip():
                return item + (f" for {key}" if key else "")
    return f"no class, only {json_text(auto_map)}"


def json_text(value: Any, limit: int = 60) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_vocab(tok: Any, model: Any, where: str) -> None:
    """ModelError when the tokenizer writes ids the model has no embedding for (mismatched files).

    Why: otherwise the first such id ends in "IndexError: index out of range in self" mid-run."""
    try:
        rows = int(model.get_input_embeddings().num_embeddings)
    except (AttributeError, TypeError):
        return
    vocab = tok.get_vocab() if hasattr(tok, "get_vocab") else {}
    size = max(vocab.values()) + 1 if vocab else len(tok)
    if size > rows:
        raise ModelError(where, f"the tokenizer and the model do not match: the tokenizer has {size:,} token ids "
                         f"but the model's embedding has {rows:,} rows", field="tokenizer",
                         fix="use the tokenizer files saved with this model (tokenizer.json, tokenizer_config.json)")


@contextlib.contextmanager
def quiet_transformers():
    """Silence transformers' progress bars and info logs while loading (CLI output stays clean)."""
    from transformers.utils import logging as hf_logging

    level = hf_logging.get_verbosity()
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(level)
        if bars:
            hf_logging.enable_progress_bar()


_SENTENCEPIECE_FIX = ("pip install sentencepiece protobuf (not EEC Studio dependencies; see docs/models.md), or "
                      "save the tokenizer with save_pretrained() where they are installed: that writes tokenizer.json")


def load_tokenizer(folder: Path) -> Any:
    offline()
    from engine.models.file_integrity import read_config

    read_config(Path(folder))  # a config.json the loader cannot read is named, not blamed on the tokenizer
    refuse_custom_code(folder)
    folder = Path(folder)
    sentencepiece_only = (folder / "tokenizer.model").is_file() and not (folder / "tokenizer.json").is_file()
    if sentencepiece_only and not _installed("sentencepiece"):
        raise ModelError(str(folder / "tokenizer.model"), "the tokenizer is a SentencePiece model with no "
                         "tokenizer.json; reading it needs the sentencepiece and protobuf packages",
                         fix=_SENTENCEPIECE_FIX)
    from transformers import AutoTokenizer

    try:
        with quiet_transformers():
            return AutoTokenizer.from_pretrained(str(folder), local_files_only=True, trust_remote_code=False)
    except Exception as exc:
        if sentencepiece_only:  # transformers' own advice (install tiktoken) does not fit this folder
            raise ModelError(str(folder / "tokenizer.model"), f"cannot read the SentencePiece tokenizer "
                             f"({type(exc).__name__})", fix=_SENTENCEPIECE_FIX) from None
        raise ModelError(str(folder), f"cannot load tokenizer ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                         fix="the folder needs tokenizer files saved with save_pretrained()") from None


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def load_model(folder: Path, auto_class: str, *, allow_pickle: bool = False, **extra: Any) -> Any:
    """`AutoModel`/`AutoModelForSequenceClassification`.from_pretrained, offline and safe, in eval mode.

    `extra` goes to from_pretrained (e.g. num_labels, id2label, ignore_mismatched_sizes when a
    fine-tuning run puts a new head on an encoder).
    """
    offline()
    refuse_custom_code(folder)
    use_safetensors = hf_weights_policy(folder, allow_pickle=allow_pickle)
    import transformers

    cls = getattr(transformers, auto_class)
    kwargs: dict[str, Any] = {"local_files_only": True, "use_safetensors": use_safetensors,
                              "trust_remote_code": False, **extra}
    if "weights_only" in inspect.signature(transformers.PreTrainedModel.from_pretrained).parameters:
        kwargs["weights_only"] = True  # pickled weights (only when allowed) go through the restricted unpickler
    try:
        with quiet_transformers():
            model = cls.from_pretrained(str(folder), **kwargs)
    except Exception as exc:
        from engine.models.safe_load import restricted_unpickler_refusal

        text = str(exc)
        if not use_safetensors and ("weights_only" in text or "Weights only load failed" in text):
            raise ModelError(str(folder), f"its pickled weights file {restricted_unpickler_refusal(exc)}",
                             fix="re-save the model with save_pretrained(safe_serialization=True)") from None
        first = text.splitlines()[0][:200] if text else ""
        raise ModelError(str(folder), f"cannot load model ({type(exc).__name__}: {first})",
                         fix="check that the folder holds a complete save_pretrained() model") from None
    model.eval()
    return model


_CAUSAL_SUFFIXES = ("ForCausalLM", "LMHeadModel", "ForConditionalGeneration")


def causal_lm_architecture(folder: str | Path) -> str | None:
    """The causal-LM class named in a Hugging Face folder's config.json, or None.

    Why: `AutoModelForSequenceClassification` loads a Llama or Qwen folder without complaint and
    puts a random classification head on it; such a folder must be audited as `llm:`.
    """
    import json

    try:
        cfg = json.loads((Path(folder) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    archs = [a for a in cfg.get("architectures") or [] if isinstance(a, str)] if isinstance(cfg, dict) else []
    if archs and all(a.endswith(_CAUSAL_SUFFIXES) for a in archs):
        return archs[0]
    return None
