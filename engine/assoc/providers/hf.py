"""Loading Hugging Face checkpoints offline, shared by the encoder and masked-LM providers.

Why a helper: both providers must never reach the hub (``HF_HUB_OFFLINE=1``,
``local_files_only``), pick the GPU when there is one, and turn loader exceptions into
one readable line. torch and transformers are imported here, lazily, so importing the
engine stays cheap and Qt-free.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

# one place for "never download" and "no load chatter", shared with the scorers
from engine.models.hf_loading import offline
from engine.models.hf_loading import quiet_transformers as quiet  # noqa: F401 - used by the providers

from ..errors import AssocError


def check_folder(path: str | Path) -> Path:
    p = Path(path).expanduser()
    if not p.is_dir():
        raise AssocError("model folder not found", file=str(p),
                         fix="give a local folder saved with save_pretrained (models are never downloaded)")
    if not (p / "config.json").exists():
        raise AssocError("no config.json in the model folder", file=str(p),
                         fix="give the folder that save_pretrained wrote")
    from engine.common.extras import require

    require("local Hugging Face models (hf:FOLDER)", "torch", "transformers")
    return p


def pick_device(device: str | None = None) -> Any:
    import torch

    if device:
        return torch.device(device)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_tokenizer(p: Path) -> Any:
    offline()
    from transformers import AutoTokenizer

    try:
        with quiet():
            tok = AutoTokenizer.from_pretrained(str(p), local_files_only=True, trust_remote_code=False)
    except Exception as exc:  # noqa: BLE001 - transformers raises many types here
        raise AssocError(f"cannot load the tokenizer ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                         file=str(p), fix="save the tokenizer into the model folder too") from None
    if not getattr(tok, "is_fast", False):
        raise AssocError("a fast tokenizer is needed (for word offsets)", file=str(p),
                         fix="save a *TokenizerFast (tokenizer.json) with the model")
    if tok.pad_token is None:  # GPT-style tokenizers have no pad token; padding is masked out anyway
        tok.pad_token = tok.eos_token or tok.unk_token
    return tok
