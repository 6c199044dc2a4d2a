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


def vocab_for(texts) -> list[str]:
    """A WordPiece vocabulary that reads ``texts`` whole: their lower-cased words, and every character
    alone and as a ``##`` piece, so no text of that language (accents, apostrophes included) is [UNK]."""
    import re

    words, chars = set(), set()
    for t in texts:
        low = t.lower()
        words.update(re.findall(r"\w+", low))
        chars.update(c for c in low if not c.isspace())
    pieces = sorted(chars)
    return (["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(words - chars) + pieces
            + ["##" + c for c in pieces])


def make_tiny_bert(folder: str | Path, *, num_labels: int | None = None, labels: list[str] | None = None,
                   seed: int = 0, hidden: int = 32, layers: int = 2, vocab: list[str] | None = None) -> Path:
    """Write a tiny BERT (encoder, or sequence classifier when num_labels/labels is given) with save_pretrained.

    ``vocab`` (e.g. ``vocab_for(sentences)``) replaces the English test vocabulary; accents are then kept."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab_file = folder / "vocab.txt"
    words = vocab or tiny_vocab()
    vocab_file.write_text("\n".join(words) + "\n", encoding="utf-8")
    probe = words[5]
    opts = dict(do_lower_case=True, strip_accents=False if vocab else None)
    try:  # transformers >= 5 takes the vocab path as `vocab`
        tok = BertTokenizerFast(vocab=str(vocab_file), **opts)
    except TypeError:
        tok = BertTokenizerFast(vocab_file=str(vocab_file), **opts)
    if tok.convert_tokens_to_ids(probe) == tok.unk_token_id:  # older signature silently ignored the path
        tok = BertTokenizerFast(vocab_file=str(vocab_file), **opts)
    kwargs = dict(vocab_size=len(words), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
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


# --- tiny causal language models (LLM scorer tests and benchmark) ---------------------------------

#: Words the tiny byte-level BPE keeps whole (with and without a leading space): answers, labels
#: and frequent prompt/corpus words. Everything else falls back to single bytes, as in any BPE.
LM_WORDS = ["positive", "negative", "neutral", "anger", "fear", "joy", "sadness", "sentence", "Sentence", "Answer",
            "the", "feels", "feel", "angry", "happy", "sad", "afraid", "She", "He", "My", "I", "made", "about",
            "situation", "She", "sister", "brother", "mother", "father", "day", "How", "much", "is", "in", "of",
            "10", "user", "assistant", "system"]
LM_SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
#: ChatML, as Qwen and many others write it; `{% generation %}` markers are not needed here.
CHATML_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
                   "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def tiny_bpe() -> tuple[list[str], list[tuple[str, str]]]:
    """(tokens in id order, merges) of a deterministic byte-level BPE.

    Why hand-built instead of trained: a trainer's tie-breaking is not guaranteed stable across
    versions, and a GGUF file stores exactly these two lists, so the folder and the GGUF copy of a
    tiny model tokenise identically. Every word is built left to right ("a"+"n" -> "an", "an"+"g" ...).
    """
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    alphabet = sorted(set(bytes_to_unicode().values()), key=ord)
    tokens = list(LM_SPECIAL) + alphabet
    seen = set(tokens)
    merges: list[tuple[str, str]] = []
    for word in LM_WORDS:
        for spelled in (word, "\u0120" + word):  # Ġ = the byte-level spelling of a leading space
            for k in range(2, len(spelled) + 1):
                piece = spelled[:k]
                if piece not in seen:
                    merges.append((spelled[:k - 1], spelled[k - 1]))
                    tokens.append(piece)
                    seen.add(piece)
    return tokens, merges


def tiny_lm_tokenizer(*, chat: bool = True):
    """A GPT-2-style fast tokenizer over `tiny_bpe()`; with the ChatML template when `chat`."""
    from transformers import GPT2Tokenizer

    tokens, merges = tiny_bpe()
    vocab = {t: i for i, t in enumerate(tokens)}
    tok = GPT2Tokenizer(vocab=vocab, merges=merges, unk_token=None, bos_token="<|endoftext|>",
                        eos_token="<|endoftext|>", pad_token="<|endoftext|>")
    tok.add_special_tokens({"additional_special_tokens": LM_SPECIAL[1:]}, replace_extra_special_tokens=False)
    if chat:
        tok.chat_template = CHATML_TEMPLATE
    return tok


def make_tiny_causal_lm(folder: str | Path, *, arch: str = "llama", chat: bool = True, seed: int = 0,
                        hidden: int = 32, layers: int = 2) -> Path:
    """Write a tiny random causal LM (Llama or GPT-2 architecture) with save_pretrained (safetensors)."""
    import torch

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tok = tiny_lm_tokenizer(chat=chat)
    vocab_size = len(tiny_bpe()[0])
    torch.manual_seed(seed)
    if arch == "llama":
        from transformers import LlamaConfig, LlamaForCausalLM

        cfg = LlamaConfig(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=hidden * 2,
                          num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                          max_position_embeddings=1024, bos_token_id=0, eos_token_id=0, pad_token_id=0,
                          tie_word_embeddings=False)
        model = LlamaForCausalLM(cfg)
    elif arch == "gpt2":
        from transformers import GPT2Config, GPT2LMHeadModel

        cfg = GPT2Config(vocab_size=vocab_size, n_embd=hidden, n_layer=layers, n_head=4, n_positions=1024,
                         bos_token_id=0, eos_token_id=0)
        model = GPT2LMHeadModel(cfg)
    else:
        raise ValueError(f"unknown arch {arch!r}")
    with torch.no_grad():  # larger random logits than the default init, so label probabilities differ visibly
        model.get_output_embeddings().weight.mul_(20.0)
    from engine.models.hf_loading import quiet_transformers

    with quiet_transformers():
        model.save_pretrained(str(folder))
        tok.save_pretrained(str(folder))
    return folder


def _llama_cpp_permute(weights, n_head: int):
    """llama.cpp's q/k row order for rotary embeddings (transformers undoes it on GGUF load)."""
    return weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:]).swapaxes(1, 2) \
        .reshape(weights.shape)


def write_tiny_gguf(folder: str | Path, path: str | Path) -> Path:
    """Convert a tiny Llama folder from `make_tiny_causal_lm` into a float32 GGUF file.

    Written with the `gguf` package's GGUFWriter under llama.cpp's tensor and metadata names,
    tokenizer included (`tokenizer.ggml.model = gpt2`: tokens, types, merges, chat template), as
    llama.cpp's convert_hf_to_gguf.py would for a Llama with a byte-level BPE.
    """
    import json

    import gguf
    import numpy as np
    from safetensors.numpy import load_file

    folder, path = Path(folder), Path(path)
    cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    if cfg.get("model_type") != "llama":
        raise ValueError("write_tiny_gguf converts Llama models only")
    tensors = load_file(str(folder / "model.safetensors"))
    n_head, n_kv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, cfg["num_hidden_layers"])
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("tiny-llama")
    writer.add_context_length(cfg["max_position_embeddings"])
    writer.add_embedding_length(cfg["hidden_size"])
    writer.add_block_count(cfg["num_hidden_layers"])
    writer.add_feed_forward_length(cfg["intermediate_size"])
    writer.add_head_count(n_head)
    writer.add_head_count_kv(n_kv)
    writer.add_rope_dimension_count(cfg["hidden_size"] // n_head)
    writer.add_rope_freq_base(float((cfg.get("rope_parameters") or {}).get("rope_theta", cfg.get("rope_theta", 10000.0))))
    writer.add_layer_norm_rms_eps(cfg["rms_norm_eps"])
    writer.add_vocab_size(cfg["vocab_size"])
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    tokens, merges = tiny_bpe()
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_types([gguf.TokenType.CONTROL if t in LM_SPECIAL else gguf.TokenType.NORMAL for t in tokens])
    writer.add_token_merges([f"{a} {b}" for a, b in merges])
    writer.add_bos_token_id(0)
    writer.add_eos_token_id(0)
    writer.add_pad_token_id(0)
    writer.add_add_bos_token(False)
    template = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8")).get("chat_template")
    if template is None and (folder / "chat_template.jinja").exists():
        template = (folder / "chat_template.jinja").read_text(encoding="utf-8")
    if template:
        writer.add_chat_template(template)
    for hf_name, value in tensors.items():
        value = value.astype(np.float32)
        if hf_name.endswith("q_proj.weight"):
            value = _llama_cpp_permute(value, n_head)
        elif hf_name.endswith("k_proj.weight"):
            value = _llama_cpp_permute(value, n_kv)
        writer.add_tensor(names.get_name(hf_name, try_suffixes=(".weight",)), np.ascontiguousarray(value))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
