"""Loading a Hugging Face classifier twice: the folder's fingerprint is hashed once, then read back (issue 16).

Builds a BERT-base-sized classifier with random weights (about 440 MB of safetensors) in a temporary
folder, then loads it as an audit does (`hf-classifier:DIR`, weights + tokenizer + fingerprint), each
time in a fresh Python process:
  before  — digests not remembered (the store is pointed at an unusable path: every load hashes)
  first   — an empty user cache: hashes and remembers
  second  — the same user cache: reads the digests back
Goal: the second load costs the weights' load time plus < 0.5 s for the fingerprint.

    python bench/bench_model_load.py [LAYERS]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_LOAD = """
import json, sys, time
sys.path.insert(0, {root!r})
from engine.models.scorers.hf_classifier import SequenceClassifierScorer
t0 = time.perf_counter()
s = SequenceClassifierScorer({folder!r}, device="cpu", precision="fp32")
s.load()
t1 = time.perf_counter()
from engine.models.fingerprint import folder_fingerprint
folder_fingerprint(s.path)
t2 = time.perf_counter()
s.fingerprint()
print(json.dumps({{"weights": t1 - t0, "fingerprint": t2 - t1, "total": time.perf_counter() - t0}}))
"""


def build(folder: Path, layers: int) -> int:
    from transformers import BertConfig, BertForSequenceClassification

    from testkit.tiny_models import make_tiny_bert

    make_tiny_bert(folder, num_labels=2)  # tokenizer files
    cfg = BertConfig(num_hidden_layers=layers, num_labels=2)
    BertForSequenceClassification(cfg).save_pretrained(folder, safe_serialization=True)
    return sum(p.stat().st_size for p in folder.iterdir())


def load_once(folder: Path, cache: str) -> dict:
    env = {**os.environ, "EEC_STUDIO_CACHE": cache}
    out = subprocess.run([sys.executable, "-c", _LOAD.format(root=str(ROOT), folder=str(folder))], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(layers: int = 12) -> None:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "bert"
        size = build(folder, layers)
        blocker = Path(d) / "blocker"
        blocker.write_text("not a folder")
        print(f"model: BERT, {layers} layers, {size / 1e6:.0f} MB on disk; "
              f"load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "")
        rows = [("before (hash every load)", load_once(folder, str(blocker / "x"))),
                ("first load (hash, remember)", load_once(folder, str(Path(d) / "cache"))),
                ("second load (read back)", load_once(folder, str(Path(d) / "cache")))]
        for name, r in rows:
            print(f"{name:30s} weights+tokenizer {r['weights']:6.2f} s   fingerprint {r['fingerprint']:6.3f} s   "
                  f"total {r['total']:6.2f} s")
        fp = rows[-1][1]["fingerprint"]
        print(f"second load: fingerprint {fp:.3f} s (goal < 0.5 s on top of the weights' load)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
