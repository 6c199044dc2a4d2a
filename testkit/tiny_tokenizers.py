"""Tiny tokenizers of the five families LLM tokenizers come in, trained locally (tests, benchmarks).

Why trained here: the LLM scorer must read exactly what each family writes for a whole prompt, and
the families differ in exactly the places that break segment-by-segment tokenisation (Qwen's split
rule joins "." and "\\n\\nAnswer:", SentencePiece-style tokenizers put "▁" where a piece starts).
Real tokenizers cannot be downloaded here, so each family's pipeline (normalizer, pre-tokenizer,
model, post-processor) is rebuilt with the `tokenizers` library and trained on a small text with a
small vocabulary, so that labels such as "negative" or "10" split into several tokens.

    gpt2        byte-level BPE, GPT-2's split rule
    qwen2       byte-level BPE, Qwen2's split rule, ChatML template
    llama2      SentencePiece-style BPE (Metaspace, digits split, <s> added), Llama-2 [INST] template
    unigram     Unigram (Metaspace), as Phi-3 / T5-style SentencePiece models
    wordpiece   WordPiece (lower-cased, [CLS] … [SEP] added), as BERT
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

FAMILIES = ("gpt2", "qwen2", "llama2", "unigram", "wordpiece")
QWEN2_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
               r"|\s+(?!\S)|\s+")
GPT2_SPLIT = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
CHATML = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
LLAMA2_CHAT = ("{{ bos_token }}{% for m in messages %}{% if m['role'] == 'system' %}[INST] <<SYS>>\n{{ m['content'] }}"
               "\n<</SYS>>\n\n{% elif m['role'] == 'user' %}{% if loop.index0 == 0 %}[INST] {% endif %}"
               "{{ m['content'] }} [/INST]{% endif %}{% endfor %}")

TRAINING_TEXT = """You rate the emotions expressed in sentences. Reply with the answer only.
How intense is the anger expressed in the following sentence? Rate it on a scale from 0 (none) to 10.
Is the sentiment of the following sentence negative, neutral or positive?
Sentence: The situation makes my sister feel angry. Answer: 7
She feels happy about the day. He is sad. My mother feels afraid. The conversation with him was irritating.
I made him feel terrified. My father found himself in a depressing situation. That is wonderful news.
negative neutral positive anger fear joy sadness 0 1 2 3 4 5 6 7 8 9 10 11 12 not angry extremely angry
¿Qué tal? La situación hace que mi hermana se sienta enojada. 今日は悲しい。 أنا سعيد
"""


def _corpus() -> list[str]:
    """Lines, and prompts with their line breaks (so "." + "\n\n" can become one learnt piece)."""
    lines = TRAINING_TEXT.strip().splitlines()
    blocks = [f"Sentence:\n{line}\n\nAnswer: {k}" for k, line in enumerate(lines)]
    return (lines + blocks) * 3


def build_tokenizer(family: str, vocab_size: int = 320) -> Any:
    """A transformers fast tokenizer of one family (see the module docstring)."""
    from tokenizers import (AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers,
                            processors, trainers)
    from transformers import PreTrainedTokenizerFast

    if family in ("gpt2", "qwen2"):
        split = GPT2_SPLIT if family == "gpt2" else QWEN2_SPLIT
        tk = Tokenizer(models.BPE())
        tk.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(split), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        tk.decoder = decoders.ByteLevel()
        specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
        tk.train_from_iterator(_corpus(), trainer)
        tok = PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<|endoftext|>", eos_token="<|endoftext|>",
                                      pad_token="<|endoftext|>")
        tok.add_special_tokens({"additional_special_tokens": specials[1:]})
        if family == "qwen2":
            tok.chat_template = CHATML
        return tok
    if family == "llama2":
        tk = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True))
        tk.normalizer = normalizers.Sequence([normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")])
        tk.pre_tokenizer = pre_tokenizers.Sequence([  # pieces never span words, digits one by one
            pre_tokenizers.Split("\u2581", behavior="merged_with_next"), pre_tokenizers.Digits(individual_digits=True)])
        tk.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(),
                                        decoders.Strip(" ", 1, 0)])
        specials = ["<unk>", "<s>", "</s>"]
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials, show_progress=False)
        tk.train_from_iterator(_corpus(), trainer)
        tk.post_processor = processors.TemplateProcessing(single="<s> $A", pair="<s> $A <s> $B",
                                                          special_tokens=[("<s>", tk.token_to_id("<s>"))])
        tok = PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
                                      pad_token="</s>")
        tok.chat_template = LLAMA2_CHAT
        return tok
    if family == "unigram":
        tk = Tokenizer(models.Unigram())
        tk.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first")
        tk.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="first")
        specials = ["<unk>", "<s>", "</s>", "<pad>"]
        trainer = trainers.UnigramTrainer(vocab_size=vocab_size, special_tokens=specials, unk_token="<unk>",
                                          show_progress=False)
        tk.train_from_iterator(_corpus(), trainer)
        tk.post_processor = processors.TemplateProcessing(single="<s> $A", pair="<s> $A $B",
                                                          special_tokens=[("<s>", tk.token_to_id("<s>"))])
        return PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
                                       pad_token="<pad>")
    if family == "wordpiece":
        tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tk.normalizer = normalizers.BertNormalizer(lowercase=True)
        tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tk.decoder = decoders.WordPiece()
        specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
        trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=specials, show_progress=False)
        tk.train_from_iterator(_corpus(), trainer)
        tk.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
            special_tokens=[("[CLS]", tk.token_to_id("[CLS]")), ("[SEP]", tk.token_to_id("[SEP]"))])
        return PreTrainedTokenizerFast(tokenizer_object=tk, cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]",
                                       unk_token="[UNK]")
    raise ValueError(f"unknown tokenizer family {family!r}; use one of {', '.join(FAMILIES)}")


def make_family_lm(folder: str | Path, family: str, *, seed: int = 0, hidden: int = 32, layers: int = 2,
                   arch: str = "llama", vocab_size: int = 320) -> Path:
    """A tiny random causal LM (Llama or Qwen2 shape) with a `family` tokenizer, saved with save_pretrained."""
    import torch

    from engine.models.hf_loading import quiet_transformers

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tok = build_tokenizer(family, vocab_size)
    size = len(tok)
    torch.manual_seed(seed)
    common = dict(vocab_size=size, hidden_size=hidden, intermediate_size=hidden * 2, num_hidden_layers=layers,
                  num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
                  tie_word_embeddings=False, pad_token_id=tok.pad_token_id)
    if arch == "qwen2":
        from transformers import Qwen2Config, Qwen2ForCausalLM

        model = Qwen2ForCausalLM(Qwen2Config(**common))
    else:
        from transformers import LlamaConfig, LlamaForCausalLM

        model = LlamaForCausalLM(LlamaConfig(**common))
    with torch.no_grad():  # peakier random distributions, so label probabilities differ visibly
        model.get_output_embeddings().weight.mul_(20.0)
    with quiet_transformers():
        model.save_pretrained(str(folder))
        tok.save_pretrained(str(folder))
    return folder
