"""An independent reference for the LLM scorer's label probabilities (tests only).

Why separate from the scorer: it shares none of its machinery — no prefix cache, no padding, no
batching, no label plan. Each label's probability is computed the textbook way: tokenise the
whole prompt and the whole prompt + label with the tokenizer, run the model once on the latter,
and multiply the next-token probabilities of the label's tokens.
"""
from __future__ import annotations

from typing import Any


def label_sequence_probs(tok: Any, model: Any, context_text: str, labels: list[str], *, sep: str = "",
                         add_special: bool = False) -> dict[str, Any]:
    """{"context": ids, "seqs": per-label ids, "raw": P(label tokens | context), "probs": disjoint and
    renormalised}. A label whose tokens begin another label's keeps P(its tokens) minus the
    probabilities of the labels that continue it directly (they are sub-events)."""
    import torch

    def ids_of(text: str) -> list[int]:
        ids = list(tok(text, add_special_tokens=add_special)["input_ids"])
        if add_special:  # drop what a post-processor appends after the text (WordPiece's [SEP])
            bare = list(tok("x y", add_special_tokens=False)["input_ids"])
            full = list(tok("x y", add_special_tokens=True)["input_ids"])
            start = next(k for k in range(len(full)) if full[k:k + len(bare)] == bare)
            trail = len(full) - start - len(bare)
            ids = ids[: len(ids) - trail]
        return ids

    context = ids_of(context_text)
    seqs, raw = [], []
    for label in labels:
        whole = ids_of(context_text + sep + label)
        assert whole[: len(context)] == context, "label merges with the prompt"
        seq = whole[len(context):]
        with torch.inference_mode():
            logits = model(torch.tensor([whole])).logits[0].double()
        logp = torch.log_softmax(logits, dim=-1)
        total = sum(float(logp[len(context) - 1 + t, token]) for t, token in enumerate(seq))
        seqs.append(tuple(seq))
        raw.append(float(torch.tensor(total, dtype=torch.float64).exp()))
    disjoint = []
    for j, s in enumerate(seqs):
        longer = [k for k, o in enumerate(seqs) if len(o) > len(s) and o[: len(s)] == s]
        direct = [k for k in longer if not any(m != k and len(seqs[m]) < len(seqs[k]) and seqs[k][: len(seqs[m])] == seqs[m]
                                               for m in longer)]
        disjoint.append(max(0.0, raw[j] - sum(raw[k] for k in direct)))
    norm = [p / sum(disjoint) for p in disjoint]
    return {"context": context, "seqs": seqs, "raw": raw, "disjoint": disjoint, "probs": norm}
