"""Bilingual spaces by orthogonal Procrustes, for cross-lingual XWEAT.

Given dictionary pairs (w_S, w_T) with vectors X_S, X_T (rows aligned), the orthogonal
W minimising ‖X_S W − X_T‖_F is W = U Vᵀ with U Σ Vᵀ = SVD(X_Sᵀ X_T) (Smith et al. 2017;
the paper writes the transposed form). Orthogonality keeps every monolingual cosine
unchanged, so the cross-lingual bias reflects only how the two spaces are aligned.
Vectors are length-normalised before fitting and mapping (``normalize=True``), the
usual practice for these mappings.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .errors import AssocError
from .providers.base import Lookup


def orthogonal_procrustes(Xs: np.ndarray, Xt: np.ndarray) -> np.ndarray:
    if Xs.shape != Xt.shape:
        raise AssocError(f"dictionary vectors differ in shape {Xs.shape} vs {Xt.shape}", field="--dictionary",
                         fix="both languages' vectors must have the same dimension")
    u, _, vt = np.linalg.svd(Xs.T @ Xt)
    return u @ vt


def read_dictionary(path: str | Path) -> list[tuple[str, str]]:
    """Word pairs, one per line: ``source<TAB>target`` (or space / comma separated); # comments."""
    p = Path(path)
    if not p.exists():
        raise AssocError("dictionary file not found", file=str(p), field="--dictionary")
    pairs = []
    for n, line in enumerate(p.read_text(encoding="utf-8-sig").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t") if "\t" in line else line.split(",") if "," in line else line.split()
        if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
            raise AssocError(f"line {n} is not a word pair", file=str(p), field="--dictionary",
                             fix="write 'source<TAB>target' per line")
        pairs.append((parts[0].strip(), parts[1].strip()))
    if not pairs:
        raise AssocError("dictionary is empty", file=str(p), field="--dictionary")
    return pairs


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return v / n


@dataclass
class MappedVectors:
    """A provider whose vectors are (optionally normalised and) multiplied by W."""

    base: Any
    W: np.ndarray | None
    normalize: bool = True
    name: str = ""
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.dim = self.base.dim if self.W is None else self.W.shape[1]
        self.name = self.name or getattr(self.base, "name", "vectors")

    def lookup(self, words: Sequence[str]) -> tuple[np.ndarray, list[Lookup]]:
        v, recs = self.base.lookup(words)
        if self.normalize:
            v = _unit(v)
        if self.W is not None:
            v = v @ self.W
        return v, recs


def align(source: Any, target: Any, pairs: Sequence[tuple[str, str]], *, normalize: bool = True,
          min_pairs: int | None = None) -> tuple[MappedVectors, MappedVectors]:
    """Map ``source`` into ``target``'s space; returns (mapped source, target) providers."""
    if source.dim != target.dim:
        raise AssocError(f"the two spaces have dimensions {source.dim} and {target.dim}", field="--attr-vectors",
                         fix="Procrustes needs vectors of the same dimension")
    vs, rs = source.lookup([a for a, _ in pairs])
    vt, rt = target.lookup([b for _, b in pairs])
    keep = np.array([a.found and b.found for a, b in zip(rs, rt)])
    need = min_pairs if min_pairs is not None else source.dim
    if keep.sum() < need:
        raise AssocError(f"only {int(keep.sum())} dictionary pairs have vectors on both sides, fewer than "
                         f"{need} (the dimension)", field="--dictionary",
                         fix="give a larger dictionary (Lauscher & Glavaš used the 5,000 most frequent words)")
    xs, xt = vs[keep], vt[keep]
    if normalize:
        xs, xt = _unit(xs), _unit(xt)
    W = orthogonal_procrustes(xs, xt)
    info = {"dictionary_pairs": len(pairs), "pairs_used": int(keep.sum()),
            "fit_residual": float(np.linalg.norm(xs @ W - xt) / max(1e-12, np.linalg.norm(xt)))}
    return (MappedVectors(source, W, normalize, f"{getattr(source, 'name', 'source')}→aligned", info),
            MappedVectors(target, None, normalize, getattr(target, "name", "target"), info))
