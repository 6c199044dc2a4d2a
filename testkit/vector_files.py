"""Small, deterministic vector files for tests: fastText .bin written byte by byte, .vec text.

Why write the fastText layout by hand: training even a tiny model takes a second and its
bytes differ between runs; the bad-input matrix and the fuzz tests need the same file every
time (their messages quote byte counts) and many variants of it.
"""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

MAGIC, VERSION = 793712314, 12


def fasttext_bin_bytes(words: list[str], dim: int = 4, bucket: int = 16, seed: int = 0) -> bytes:
    """A valid unquantised fastText 0.9 skip-gram model with the given words (minn=3, maxn=4)."""
    rng = np.random.default_rng(seed)
    args = struct.pack("<12i", dim, 5, 1, 1, 5, 1, 2, 2, bucket, 3, 4, 100) + struct.pack("<d", 1e-4)
    out = [struct.pack("<ii", MAGIC, VERSION), args,
           struct.pack("<iiiqq", len(words), len(words), 0, 10 * len(words), -1)]
    for w in words:
        out.append(w.encode("utf-8") + b"\x00" + struct.pack("<qb", 10, 0))
    inp = rng.normal(size=(len(words) + bucket, dim)).astype("<f4")
    outm = rng.normal(size=(len(words), dim)).astype("<f4")
    out += [b"\x00", struct.pack("<qq", *inp.shape), inp.tobytes(), b"\x00", struct.pack("<qq", *outm.shape),
            outm.tobytes()]
    return b"".join(out)


def vec_text(words: list[str], dim: int = 4, seed: int = 0, header: bool = True) -> tuple[str, np.ndarray]:
    """A word2vec text file ('N D' header, then 'word v1 … vD') and its matrix."""
    m = np.round(np.random.default_rng(seed).normal(size=(len(words), dim)), 4)
    lines = [f"{len(words)} {dim}"] if header else []
    lines += [w + " " + " ".join(f"{x:.4f}" for x in row) for w, row in zip(words, m)]
    return "\n".join(lines) + "\n", m.astype(np.float32)


def write(path: str | Path, data: bytes | str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path
