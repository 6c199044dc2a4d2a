"""Tiny, randomly initialised BERT models built locally (tests, demos, CI without downloads).

Why in the package: every transformer path must be exercisable on a machine with no
network and no model cache; a 2-layer, 32-wide BERT with a ~120-token WordPiece vocab
(letters, word pieces and a few common words, so any English text tokenises without
collapsing to [UNK]) loads in milliseconds. Outputs are meaningless but deterministic.
"""
from __future__ import annotations

import string
from pathlib import Path

WORDS = ["the", "a", "is", "feels", "feel", "he", "she", "i", "my", "happy", "sad", "angry", "afraid", "made",
         "situation", "about", "good", "bad", "great", "terrible", "love", "hate", "man", "woman", "day"]


def tiny_vocab() -> list[str]:
    letters = list(string.ascii_lowercase) + list(string.digits)
    punct = list(".,!?'\"-:;()@#&")
    return (["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + letters + ["##" + c for c in letters] + punct)


def make_tiny_bert(folder: str | Path, *, num_labels: int | None = None, labels: list[str] | None = None,
                   seed: int = 0, hidden: int = 32, layers: int = 2) -> Path:
    """Write a tiny BERT (encoder, or sequence classifier when num_labels/labels is given) with save_pretrained."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab_file = folder / "vocab.txt"
    vocab_file.write_text("\n".join(tiny_vocab()) + "\n", encoding="utf-8")
    try:  # transformers >= 5 takes the vocab path as `vocab`
        tok = BertTokenizerFast(vocab=str(vocab_file), do_lower_case=True)
    except TypeError:
        tok = BertTokenizerFast(vocab_file=str(vocab_file), do_lower_case=True)
    if tok.convert_tokens_to_ids("happy") == tok.unk_token_id:  # older signature silently ignored the path
        tok = BertTokenizerFast(vocab_file=str(vocab_file), do_lower_case=True)
    kwargs = dict(vocab_size=len(tiny_vocab()), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
                  intermediate_size=hidden * 2, max_position_embeddings=128)
    torch.manual_seed(seed)
    if labels is not None or num_labels is not None:
        from transformers import BertForSequenceClassification

        labels = labels or [f"LABEL_{i}" for i in range(num_labels)]
        cfg = BertConfig(**kwargs, num_labels=len(labels), id2label=dict(enumerate(labels)),
                         label2id={lab: i for i, lab in enumerate(labels)})
        model = BertForSequenceClassification(cfg)
    else:
        model = BertModel(BertConfig(**kwargs))
    from engine.models.hf_loading import quiet_transformers

    with quiet_transformers():
        model.save_pretrained(str(folder))
        tok.save_pretrained(str(folder))
    return folder
