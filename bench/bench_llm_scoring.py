"""LLM scoring speed with and without the shared-prefix KV cache (not part of the test suite).

    .venv/bin/python bench/bench_llm_scoring.py [--limit 512] [--prompt anger-en] [--device cpu|cuda|all]
                                                [--model PATH_OR_GGUF] [--hidden 256 --layers 4] [--batch-size 32]

Workload: the first `--limit` sentences (0: all 8,640) of the built-in English EEC
(`en-kiritchenko2018`), one prompt (default `anger-en`, in the model's chat template). Model: a
local folder or .gguf given with `--model`, else a random Llama built on the fly (`--hidden`,
`--layers`; the tiny byte-level BPE of testkit, which spells most prompt words byte by byte, so
its prompt is longer in tokens than a real tokenizer's — the token counts are printed).

Printed per device (CPU, and CUDA where torch sees one; `--device all`): prefix / suffix /
mean sentence length in tokens, sentences per second with the cache and without it, the speedup,
and the max abs difference of the scores (must stay below 1e-5). Loading is not timed.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def random_llama(folder: Path, hidden: int, layers: int) -> Path:
    """A random Llama with the testkit tokenizer, wider than the unit-test one (speed only)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from engine.models.hf_loading import quiet_transformers
    from testkit.tiny_models import tiny_bpe, tiny_lm_tokenizer

    torch.manual_seed(0)
    heads = max(2, hidden // 64)
    cfg = LlamaConfig(vocab_size=len(tiny_bpe()[0]), hidden_size=hidden, intermediate_size=hidden * 8 // 3,
                      num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=max(1, heads // 2),
                      max_position_embeddings=2048, bos_token_id=0, eos_token_id=0, pad_token_id=0)
    with quiet_transformers():
        LlamaForCausalLM(cfg).save_pretrained(str(folder))
        tiny_lm_tokenizer(chat=True).save_pretrained(str(folder))
    return folder


def run(model: str, device: str, texts: list[str], prompt: str, batch_size: int) -> None:
    import numpy as np

    from engine.models.scorers.llm import LLMScorer

    scorer = LLMScorer(model, device=device, prompt=prompt, batch_size=batch_size)
    scorer.load()
    pp = scorer.prepared()[0]
    lengths = scorer.lengths(texts)
    scorer.score(texts[: min(len(texts), batch_size)])  # warm-up (kernels, the prefix cache itself)
    timings, results = {}, {}
    for use_cache in (True, False):
        if device.startswith("cuda"):
            import torch

            torch.cuda.synchronize()
        t0 = time.perf_counter()
        results[use_cache] = scorer.score(texts, prefix_cache=use_cache).to_numpy()
        if device.startswith("cuda"):
            import torch

            torch.cuda.synchronize()
        timings[use_cache] = time.perf_counter() - t0
    d = scorer.describe()
    print(f"device {d['device']['type']} ({d['device']['name']}, {d['device']['threads']} threads), "
          f"weights {d['precision']['weights_dtype']}, batch {scorer.batch_size}, prompt {prompt} ({pp.mode})")
    print(f"  tokens: prefix {len(pp.prefix_ids)}, suffix {len(pp.suffix_ids)}, "
          f"sentence mean {np.mean(lengths):.1f} (max {max(lengths)})")
    with_cache, without = len(texts) / timings[True], len(texts) / timings[False]
    print(f"  with prefix cache:    {with_cache:9.1f} sentences/s  ({timings[True]:.1f} s for {len(texts)})")
    print(f"  without prefix cache: {without:9.1f} sentences/s  ({timings[False]:.1f} s)")
    print(f"  speedup {with_cache / without:.2f}x; max abs score difference {np.max(np.abs(results[True] - results[False])):.2e}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=512, help="score the first N sentences (0: all 8,640)")
    ap.add_argument("--prompt", default="anger-en")
    ap.add_argument("--model", default="", help="a local causal-LM folder or .gguf (default: a random Llama)")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--device", default="all", help="cpu, cuda, or all (CPU, then CUDA where available)")
    args = ap.parse_args()

    import torch

    from engine.corpus import generate, load_corpus

    texts = list(generate(load_corpus("en-kiritchenko2018")).Sentence)
    if args.limit:
        texts = texts[: args.limit]
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model or str(random_llama(Path(tmp) / "llama", args.hidden, args.layers))
        if not args.model:
            print(f"model: random Llama, hidden {args.hidden}, {args.layers} layers")
        devices = ["cpu", "cuda"] if args.device == "all" else [args.device]
        for device in devices:
            if device.startswith("cuda") and not torch.cuda.is_available():
                print("cuda: not available on this machine (not measured)")
                continue
            run(model, device, texts, args.prompt, args.batch_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
