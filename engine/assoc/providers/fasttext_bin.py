"""fastText ``.bin`` models through the fastText binding, with sub-word vectors for OOV words.

Why keep sub-word vectors but label them: fastText builds a vector for any string from
its character n-grams, so nothing is ever "missing" — but a vector made only of
n-grams is weaker evidence than a trained word vector, and the Italian and XWEAT
results depend on it. Every such word is reported as ``subword``; ``subword=False``
treats them as missing instead.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import AssocError
from .base import TokenVectors

FASTTEXT_MAGIC = 793712314


def is_fasttext_bin(path: str | Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return int.from_bytes(fh.read(4), "little") == FASTTEXT_MAGIC
    except OSError:
        return False


class FastTextVectors(TokenVectors):
    def __init__(self, path: str | Path, *, lowercase: bool = False, subword: bool = True) -> None:
        p = Path(path)
        if not p.exists():
            raise AssocError("fastText model not found", file=str(p))
        from engine.common.extras import import_optional

        fasttext = import_optional("fasttext", "fastText .bin vectors")  # the numpy-2 build: fasttext-numpy2-wheel
        from .fasttext_check import check_fasttext_bin

        check_fasttext_bin(p)  # the library would loop forever on garbage and accept a truncated file
        try:
            fasttext.FastText.eprint = lambda *a, **k: None  # silence the load-time warning
            self.model = fasttext.load_model(str(p))
        except (ValueError, RuntimeError, MemoryError) as exc:
            raise AssocError(f"not a fastText .bin model ({str(exc).strip().rstrip('.')})", file=str(p)) from None
        self.name = p.name
        self.dim = int(self.model.get_dimension())
        self.lowercase = lowercase
        self.subword = subword

    def _find(self, keys: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        vecs = np.zeros((len(keys), self.dim), dtype=np.float64)
        hows: list[str] = []
        for i, k in enumerate(keys):
            if " " in k:  # fastText would hash the space into n-grams; compose from parts instead
                hows.append("missing")
                continue
            if self.model.get_word_id(k) >= 0:
                vecs[i] = self.model.get_word_vector(k)
                hows.append("exact")
            elif self.subword:
                v = self.model.get_word_vector(k)
                if np.any(v):
                    vecs[i] = v
                    hows.append("subword")
                else:
                    hows.append("missing")
            else:
                hows.append("missing")
        return vecs, hows
