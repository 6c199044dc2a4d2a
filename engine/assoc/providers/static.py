"""Static word vectors held as a (memory-mapped) matrix plus a vocabulary index.

Why a pandas Index over the vocabulary and a memory-mapped matrix: a 2-million-word,
300-d table is 2.4 GB; mapping it costs nothing until rows are read, and
``Index.get_indexer`` resolves a whole word set in one vectorised call. Rows are
copied out only for the few hundred stimulus words a test needs.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from ..errors import AssocError
from .base import TokenVectors


class StaticVectors(TokenVectors):
    """A vocabulary → row table. ``lowercase=True`` folds every query before lookup."""

    def __init__(self, matrix: np.ndarray, vocab: Sequence[str] | pd.Index, *, name: str = "vectors",
                 lowercase: bool = False, source: str = "") -> None:
        if matrix.ndim != 2:
            raise AssocError(f"vector matrix must be 2-D, got shape {matrix.shape}", file=source or name)
        index = vocab if isinstance(vocab, pd.Index) else pd.Index(list(vocab), dtype=object)
        if len(index) != matrix.shape[0]:
            raise AssocError(f"vocabulary has {len(index):,} words but the matrix has {matrix.shape[0]:,} rows",
                             file=source or name, fix="give the vocabulary file that belongs to this matrix")
        if not index.is_unique:  # keep the first occurrence of a duplicated word, as word2vec readers do
            keep = ~index.duplicated(keep="first")
            self._rows_of = np.flatnonzero(keep)
            index = index[keep]
        else:
            self._rows_of = None
        self.matrix = matrix
        self.index = index
        self.name = name
        self.dim = int(matrix.shape[1])
        self.lowercase = lowercase
        self.source = source

    def __len__(self) -> int:
        return len(self.index)

    def _find(self, keys: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        pos = self.index.get_indexer(list(keys))
        if self._rows_of is not None:
            pos = np.where(pos >= 0, self._rows_of[np.maximum(pos, 0)], -1)
        vecs = np.zeros((len(keys), self.dim), dtype=np.float64)
        hit = pos >= 0
        if hit.any():
            rows = pos[hit]
            order = np.argsort(rows)  # sorted reads are kinder to a memory map
            block = np.asarray(self.matrix[rows[order]], dtype=np.float64)
            tmp = np.empty_like(block)
            tmp[order] = block
            vecs[hit] = tmp
        return vecs, ["exact" if h else "missing" for h in hit]


def load_npy(matrix_path: str | Path, vocab_path: str | Path | None = None, *, lowercase: bool = False,
             name: str | None = None) -> StaticVectors:
    """A ``.npy`` matrix (memory-mapped) and its vocabulary (one word per line, or .parquet/.csv column)."""
    mp = Path(matrix_path)
    if not mp.exists():
        raise AssocError("vector matrix not found", file=str(mp))
    if vocab_path is None:
        cands = [mp.with_suffix(s) for s in (".vocab", ".vocab.txt", ".txt", ".parquet", ".tsv")]
        cands.append(mp.parent / (mp.stem + ".vocab.txt"))
        vocab_path = next((c for c in cands if c.exists()), None)
        if vocab_path is None:
            raise AssocError("no vocabulary file next to the matrix", file=str(mp),
                             fix=f"give --vocab FILE, or put {mp.stem}.vocab.txt (one word per line, row order) beside it")
    try:
        matrix = np.load(mp, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:  # truncated, pickled, or not .npy at all
        reason = str(exc).split("\n")[0].rstrip(".") or type(exc).__name__
        raise AssocError(f"not a readable .npy matrix ({reason})", file=str(mp),
                         fix="save it with numpy.save (a 2-D float array); download it again if it is cut short") \
            from None
    if not isinstance(matrix, np.ndarray) or matrix.dtype.kind != "f" or matrix.ndim != 2:
        raise AssocError(f"expected a 2-D float matrix, got {getattr(matrix, 'dtype', '?')} with shape "
                         f"{getattr(matrix, 'shape', '?')}", file=str(mp), fix="save a (words × dimensions) float array")
    vocab = read_vocab(vocab_path)
    return StaticVectors(matrix, vocab, name=name or mp.stem, lowercase=lowercase, source=str(mp))


def read_vocab(path: str | Path) -> pd.Index:
    """A vocabulary in row order: text (one word per line), .parquet or .csv (first column)."""
    vp = Path(path)
    if not vp.exists():
        raise AssocError("vocabulary file not found", file=str(vp))
    if vp.suffix == ".parquet":
        from engine.common.extras import require

        require("parquet vocabularies", "pyarrow", file=str(vp))
        import pyarrow.parquet as pq

        table = pq.read_table(vp)
        col = "index" if "index" in table.column_names else table.column_names[0]
        return pd.Index(table.column(col).to_pylist(), dtype=object)
    if vp.suffix == ".csv":
        return pd.Index(pd.read_csv(vp, keep_default_na=False, dtype=str).iloc[:, 0].tolist(), dtype=object)
    with open(vp, encoding="utf-8") as fh:
        words = [ln.rstrip("\n").split("\t")[0] for ln in fh]
    return pd.Index(words, dtype=object)
