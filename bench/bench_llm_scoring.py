"""LLM scoring speed: whole-label (exact) reading with and without the shared-prefix KV cache, the
first-token reading, per device and weights precision (not part of the test suite).

    .venv/bin/python bench/bench_llm_scoring.py [--limit 512] [--prompt anger-en,sentiment-en]
        [--device cpu|cuda|all] [--precisions fp32,bf16,fp16] [--model PATH_OR_GGUF]
        [--preset tiny|qwen2-0.5b] [--arch llama|qwen2 --hidden 256 --layers 4 --tokenizer testkit|qwen2]
        [--batch-size 32] [--texts FILE] [--compare-cpu N] [--peak-tflops X]

Workload: the first `--limit` sentences (0: all 8,640) of the built-in English EEC
(`en-kiritchenko2018`, or one sentence per line of `--texts`), each prompt in the model's chat
template. Model: `--model`, else one built from a config with random weights: `--preset tiny` (a
Llama, hidden 256, 4 layers, the testkit byte-level BPE that spells most prompt words byte by
byte) or `--preset qwen2-0.5b` (Qwen2-0.5B's shape: hidden 896, 24 layers, 14 heads / 2 KV heads,
MLP 4,864, vocabulary 151,936, tied embeddings: 494 M parameters; a Qwen2-style BPE of 4,000
tokens trained on the spot (testkit.tiny_tokenizers), so labels such as "negative" take several
tokens). Loading is not timed.

Printed per device × precision × prompt, for: exact labels + prefix cache (the default), exact
labels without the cache (every prompt run whole, batched the same way: the baseline), and the
first-token reading + cache (sentiment labels of several tokens are refused by it, which is
printed): seconds, sentences/s, tokens/s (tokens fed to the model, padding not counted), the
model FLOPs those tokens cost (2 × non-embedding parameters per token + attention + the output
layer at the positions read) per second and as a share of the card's dense peak (table in
bench_scoring.py, or `--peak-tflops`), and the max abs difference of the scores with and without
the cache. `--compare-cpu N`: the first N sentences also on the CPU in fp32; the max abs
difference of every GPU precision's scores from them is printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

PRESETS = {
    "tiny": dict(arch="llama", hidden=256, layers=4, heads=4, kv_heads=2, intermediate=682, vocab=0,
                 tokenizer="testkit", tie=False),
    "qwen2-0.5b": dict(arch="qwen2", hidden=896, layers=24, heads=14, kv_heads=2, intermediate=4864, vocab=151936,
                       tokenizer="qwen2", tie=True),
}
#: |GPU − CPU fp32| allowed per weights precision (scores in [0, 1]); fp32 differs by summation order only
TOLERANCE = {"fp32": 1e-4, "fp16": 2e-2, "bf16": 5e-2}


def build_model(folder: Path, shape: dict) -> Path:
    """A causal LM with random weights built from a config (save_pretrained, safetensors)."""
    import torch

    from engine.models.hf_loading import quiet_transformers
    from testkit.tiny_models import tiny_lm_tokenizer
    from testkit.tiny_tokenizers import CHATML, build_tokenizer

    if shape["tokenizer"] == "testkit":
        tok = tiny_lm_tokenizer(chat=True)
    else:
        tok = build_tokenizer(shape["tokenizer"], vocab_size=4000)
        tok.chat_template = CHATML
    vocab = max(shape["vocab"], len(tok))
    torch.manual_seed(0)
    common = dict(vocab_size=vocab, hidden_size=shape["hidden"], intermediate_size=shape["intermediate"],
                  num_hidden_layers=shape["layers"], num_attention_heads=shape["heads"],
                  num_key_value_heads=shape["kv_heads"], max_position_embeddings=4096,
                  tie_word_embeddings=shape["tie"], pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id,
                  eos_token_id=tok.eos_token_id)
    if shape["arch"] == "qwen2":
        from transformers import Qwen2Config, Qwen2ForCausalLM

        model = Qwen2ForCausalLM(Qwen2Config(**common))
    else:
        from transformers import LlamaConfig, LlamaForCausalLM

        model = LlamaForCausalLM(LlamaConfig(**common))
    with quiet_transformers():
        model.save_pretrained(str(folder))
        tok.save_pretrained(str(folder))
    return folder


def model_flops(scorer, pp, texts: list[str], use_cache: bool) -> tuple[int, float]:
    """(tokens fed, forward FLOPs) of scoring `texts` with one prompt, from the model's config."""
    cfg = scorer._model.config
    total = sum(p.numel() for p in scorer._model.parameters())
    emb = scorer._model.get_input_embeddings().weight.numel()
    tied = getattr(cfg, "tie_word_embeddings", False)
    dense = total - emb - (0 if tied else scorer._model.get_output_embeddings().weight.numel())
    hidden, layers, vocab = cfg.hidden_size, cfg.num_hidden_layers, cfg.vocab_size
    rows = scorer._rows(pp, texts, use_cache)
    tokens, flops = 0, 0.0
    for r in rows:
        past = len(pp.prefix_ids) if r.cached else 0
        new = len(r.ids) - past + len(r.plan.lead)
        reads = len(r.plan.lead) + 1
        flops += 2 * dense * new + 4 * layers * hidden * new * (past + new / 2) + 2 * hidden * vocab * reads
        tokens += new
        for branch in r.plan.branches:
            ctx = len(r.ids) + len(r.plan.lead)
            flops += 2 * dense * len(branch) + 4 * layers * hidden * len(branch) * (ctx + len(branch) / 2) \
                + 2 * hidden * vocab * len(branch)
            tokens += len(branch)
    return tokens, flops


def timed(scorer, texts: list[str], **kw):
    import torch

    cuda = scorer.device.type == "cuda"
    if cuda:
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    out = scorer.score(texts, **kw).to_numpy()
    if cuda:
        torch.cuda.synchronize()
    return time.perf_counter() - t0, out


def run(model: str, device: str, precision: str, texts: list[str], prompt: str, batch_size: int,
        peak_override: float, cpu_ref: dict) -> None:
    import numpy as np

    from bench_scoring import peak_for
    from engine.models.errors import ModelError
    from engine.models.scorers.llm import LLMScorer

    exact = LLMScorer(model, device=device, precision=precision, prompt=prompt, batch_size=batch_size)
    exact.load()
    pp = exact.prepared()[0]
    lengths = exact.lengths(texts)
    exact.score(texts[: min(len(texts), batch_size)])  # warm-up (kernels, the prefix cache itself)
    d = exact.describe()
    name = d["device"]["name"]
    used = d["precision"]["weights_dtype"] or "fp32"
    peak = peak_for(name, used, peak_override) if device.startswith("cuda") else (peak_override * 1e12 or None)
    print(f"device {d['device']['type']} ({name}, {d['device']['threads']} threads), weights {used}, "
          f"batch {exact.batch_size}, prompt {prompt} ({pp.mode})")
    print(f"  tokens: shared prefix {len(pp.prefix_ids)}, sentence mean {np.mean(lengths):.1f} (max {max(lengths)}); "
          f"labels {', '.join(f'{lab}={len(s)}' for lab, s in zip(pp.prompt.labels, pp.plan.seqs))} tokens, "
          f"label beginnings run on the cache: {len(pp.plan.branches)}")
    results = {}
    rates = {}
    for label, scorer, kw in (("exact labels + prefix cache", exact, {}),
                              ("exact labels, no prefix sharing", exact, {"prefix_cache": False}),
                              ("first token + prefix cache", None, {})):
        if scorer is None:
            scorer = LLMScorer(model, device=device, precision=precision, prompt=prompt, batch_size=batch_size,
                               label_reading="first_token")
            try:
                scorer.load().prepared()
            except ModelError as exc:
                print(f"  {label:<34} refused: {exc.message[:110]}")
                continue
            scorer.score(texts[: min(len(texts), batch_size)])
        secs, out = timed(scorer, texts, **kw)
        results[label] = out
        tokens, flops = model_flops(scorer, scorer.prepared()[0], texts, kw.get("prefix_cache", True))
        share = f"{flops / secs / peak:7.1%} of peak" if peak else "peak n/a"
        rates[label] = len(texts) / secs
        print(f"  {label:<34} {secs:8.2f} s {len(texts) / secs:9.1f} sentences/s {tokens / secs:11.0f} tokens/s "
              f"{flops / secs / 1e12:8.3f} TFLOP/s {share}")
    a, b = results["exact labels + prefix cache"], results["exact labels, no prefix sharing"]
    print(f"  prefix cache speed-up {rates['exact labels + prefix cache'] / rates['exact labels, no prefix sharing']:.2f}x "
          f"(exact labels both); max abs score difference {np.max(np.abs(a - b)):.2e}")
    if "first token + prefix cache" in results:
        print(f"  first-token reading vs exact: {rates['first token + prefix cache'] / rates['exact labels + prefix cache']:.2f}x "
              f"the speed; max abs score difference {np.max(np.abs(results['first token + prefix cache'] - a)):.2e}")
    n = len(cpu_ref.get(prompt, []))
    if n:
        diff = float(np.max(np.abs(a[:n] - cpu_ref[prompt])))
        verdict = "within" if diff <= TOLERANCE[used] else "OUTSIDE"
        print(f"  vs CPU fp32 on the first {n} sentences: max abs difference {diff:.2e} "
              f"({verdict} the {used} tolerance {TOLERANCE[used]:g})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=512, help="score the first N sentences (0: all)")
    ap.add_argument("--prompt", default="anger-en,sentiment-en", help="comma-separated prompt ids, one run each")
    ap.add_argument("--model", default="", help="a local causal-LM folder or .gguf (default: built from --preset)")
    ap.add_argument("--preset", default="tiny", choices=sorted(PRESETS))
    for key in ("hidden", "layers", "heads", "kv_heads", "intermediate", "vocab"):
        ap.add_argument(f"--{key.replace('_', '-')}", type=int, default=None)
    ap.add_argument("--arch", choices=("llama", "qwen2"), default=None)
    ap.add_argument("--tokenizer", choices=("testkit", "qwen2"), default=None)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--device", default="all", help="cpu, cuda, or all (CPU, then CUDA where available)")
    ap.add_argument("--precisions", default="", help="e.g. fp32,bf16,fp16 (default: fp32 on CPU, all three on CUDA)")
    ap.add_argument("--texts", default="", help="a file with one sentence per line instead of the built-in EEC")
    ap.add_argument("--compare-cpu", type=int, default=0, help="score the first N sentences on the CPU (fp32) too")
    ap.add_argument("--peak-tflops", type=float, default=0.0)
    args = ap.parse_args()

    import torch

    if args.texts:
        texts = [t for t in Path(args.texts).read_text(encoding="utf-8").splitlines() if t.strip()]
    else:
        from engine.corpus import generate, load_corpus

        texts = list(generate(load_corpus("en-kiritchenko2018")).Sentence)
    if args.limit:
        texts = texts[: args.limit]
    shape = dict(PRESETS[args.preset])
    for key in ("hidden", "layers", "heads", "kv_heads", "intermediate", "vocab", "arch", "tokenizer"):
        if getattr(args, key) is not None:
            shape[key] = getattr(args, key)
    prompts = [p.strip() for p in args.prompt.split(",") if p.strip()]
    print(f"torch {torch.__version__}, {len(texts):,} sentences; load average "
          f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "")
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if not model:
            t0 = time.perf_counter()
            model = str(build_model(Path(tmp) / "model", shape))
            print(f"model: random {shape['arch']} built from a config ({args.preset}: hidden {shape['hidden']}, "
                  f"{shape['layers']} layers, {shape['heads']}/{shape['kv_heads']} heads, MLP {shape['intermediate']}, "
                  f"vocabulary {shape['vocab'] or 'of the tokenizer'}, {shape['tokenizer']} tokenizer) "
                  f"in {time.perf_counter() - t0:.1f} s")
        cpu_ref: dict = {}
        if args.compare_cpu:
            from engine.models.scorers.llm import LLMScorer

            for prompt in prompts:
                ref = LLMScorer(model, device="cpu", precision="fp32", prompt=prompt, batch_size=args.batch_size)
                cpu_ref[prompt] = ref.score(texts[: args.compare_cpu]).to_numpy()
                print(f"CPU fp32 reference: {prompt}, first {args.compare_cpu} sentences")
        devices = ["cpu", "cuda"] if args.device == "all" else [args.device]
        for device in devices:
            if device.startswith("cuda") and not torch.cuda.is_available():
                print("cuda: not available on this machine (not measured)")
                continue
            precisions = [p for p in args.precisions.split(",") if p] or (
                ["fp32", "bf16", "fp16"] if device.startswith("cuda") else ["fp32"])
            for precision in precisions:
                for prompt in prompts:
                    run(model, device, precision, texts, prompt, args.batch_size, args.peak_tflops,
                        cpu_ref if device.startswith("cuda") else {})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
