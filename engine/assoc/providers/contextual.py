"""Contextual embeddings from a Hugging Face encoder or GPT-style model.

Two readings, as in SEAT and the Italian paper:

* ``token`` level — the mean of the hidden states of the word's sub-tokens inside its
  sentence (Delobelle et al. 2022), located through the fast tokenizer's character
  offsets, so "Alessandro" split into three pieces is still one vector;
* ``sentence`` level — the [CLS]/first token for encoders, the last real token for
  GPT-style models (May et al. 2019), which see only the left context.

For WEAT on a contextual model each word is put in a template (default: the word
alone) and read at token level. Batched; on the GPU when there is one.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import AssocError
from ..stimuli import SentenceItem
from .base import Lookup
from .hf import check_folder, load_tokenizer, offline, pick_device, quiet


def word_span(sentence: str, word: str) -> tuple[int, int] | None:
    """Character span of ``word`` in ``sentence``: whole-word, case-insensitive, first match."""
    m = re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", sentence, flags=re.IGNORECASE)
    if m is None:
        i = sentence.lower().find(word.lower())
        return (i, i + len(word)) if i >= 0 else None
    return m.span()


class ContextualEncoder:
    def __init__(self, path: str | Path, *, level: str = "token", layer: int = -1, template: str = "WORD",
                 batch_size: int = 32, device: str | None = None, lowercase: bool = False) -> None:
        if level not in ("token", "sentence"):
            raise AssocError(f"level must be 'token' or 'sentence', not {level!r}", field="--level")
        if "WORD" not in template:
            raise AssocError(f"template {template!r} has no WORD placeholder", field="--template")
        p = check_folder(path)
        offline()
        import torch  # noqa: F401  (lazy: only when a model is really used)
        from transformers import AutoModel

        self.tokenizer = load_tokenizer(p)
        try:
            with quiet():
                self.model = AutoModel.from_pretrained(str(p), local_files_only=True, trust_remote_code=False)
        except Exception as exc:  # noqa: BLE001
            raise AssocError(f"cannot load the model ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                             file=str(p)) from None
        self.device = pick_device(device)
        self.model.to(self.device).eval()
        self.name = p.name if p.name not in ("model", "models") else f"{p.parent.name}/{p.name}"
        self.path = str(p)
        self.dim = int(self.model.config.hidden_size)
        self.level = level
        self.layer = layer
        self.template = template
        self.batch_size = batch_size
        self.lowercase = lowercase
        # GPT-style (no [CLS]): the last token is the only one that has seen the whole sentence
        self.last_token = self.tokenizer.cls_token is None

    # --- WordVectors protocol (WEAT, FISE on contextual models) ---
    def lookup(self, words: Sequence[str]) -> tuple[np.ndarray, list[Lookup]]:
        words = list(words)
        keys = [w.lower() if self.lowercase else w for w in words]
        items = [SentenceItem(self.template.replace("WORD", k), k) for k in keys]
        vecs = self.embed(items, level="token")
        unk = self.unknown(keys)
        return vecs, [Lookup(w, "missing" if u else "contextual", k) for w, k, u in zip(words, keys, unk)]

    def unknown(self, words: Sequence[str]) -> list[bool]:
        """Words the tokenizer can only write with its unknown token: their vector would be [UNK]'s."""
        unk = self.tokenizer.unk_token_id
        if unk is None or unk in (self.tokenizer.eos_token_id, self.tokenizer.pad_token_id):
            return [False] * len(words)  # byte-level BPE (GPT-2) has no real unknown token
        out = []
        for w in words:
            ids = self.tokenizer(w, add_special_tokens=False)["input_ids"]
            out.append(not ids or unk in ids)
        return out

    # --- SEAT ---
    def embed(self, items: Sequence[SentenceItem], level: str | None = None) -> np.ndarray:
        """One vector per item (float64), at token or sentence level."""
        import torch

        level = level or self.level
        out = np.zeros((len(items), self.dim), dtype=np.float64)
        spans: list[tuple[int, int] | None] = []
        for i, it in enumerate(items):
            if level == "token":
                if not it.word:
                    raise AssocError(f"token-level embedding needs the stimulus word of sentence {it.sentence!r}",
                                     field="--level", fix="use --level sentence, or a test file whose items give 'word'")
                span = word_span(it.sentence, it.word)
                if span is None:
                    raise AssocError(f"word {it.word!r} not found in sentence {it.sentence!r}", field="items")
                spans.append(span)
            else:
                spans.append(None)
        for start in range(0, len(items), self.batch_size):
            chunk = items[start:start + self.batch_size]
            enc = self.tokenizer([it.sentence for it in chunk], return_tensors="pt", padding=True, truncation=True,
                                 return_offsets_mapping=True)
            offsets = enc.pop("offset_mapping").numpy()
            mask = enc["attention_mask"].numpy()
            enc = {k: v.to(self.device) for k, v in enc.items()}
            with torch.no_grad():
                res = self.model(**enc, output_hidden_states=self.layer != -1)
            hidden = res.hidden_states[self.layer] if self.layer != -1 else res.last_hidden_state
            hidden = hidden.float().cpu().numpy()
            for j, it in enumerate(chunk):
                row = start + j
                if level == "sentence":
                    if self.last_token:
                        idx = int(np.flatnonzero(mask[j])[-1])
                    else:
                        idx = int(np.flatnonzero(mask[j])[0])
                    out[row] = hidden[j, idx]
                else:
                    s, e = spans[row]
                    tok = [t for t in range(offsets.shape[1]) if mask[j, t] and offsets[j, t, 1] > offsets[j, t, 0]
                           and offsets[j, t, 0] < e and offsets[j, t, 1] > s]
                    if not tok:
                        raise AssocError(f"no sub-token covers {it.word!r} in {it.sentence!r}", field="items",
                                         fix="the sentence may be truncated; shorten it")
                    out[row] = hidden[j, tok].mean(axis=0)
        return out

    def describe(self) -> dict[str, Any]:
        return {"model": self.path, "level": self.level, "layer": self.layer, "device": str(self.device)}
