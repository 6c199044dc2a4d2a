"""What every representation provider offers: vectors for words, and how each was found.

Why the lookup record: out-of-vocabulary handling must be explicit. A test result
lists, per word, whether it was found as written, after lower-casing ("folded"),
from fastText sub-words ("subword"), as the mean of its parts ("composed", for
multi-word terms such as "di pelle chiara"), from a contextual model ("contextual"),
or not at all ("missing"). The statistics never see a NaN vector.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

HOW = ("exact", "folded", "subword", "composed", "contextual", "missing")


@dataclass(frozen=True)
class Lookup:
    """How one requested word was resolved."""

    word: str
    how: str  # one of HOW
    key: str = ""  # vocabulary entry used (lower-cased form, parts joined by "+", ...)

    @property
    def found(self) -> bool:
        return self.how != "missing"


@runtime_checkable
class WordVectors(Protocol):
    """A source of one vector per word (static table, fastText, or a contextual model)."""

    name: str
    dim: int

    def lookup(self, words: Sequence[str]) -> tuple[np.ndarray, list[Lookup]]:
        """Vectors (len(words) × dim, float64; zero rows for missing words) and lookup records."""
        ...


class TokenVectors:
    """Shared lookup logic for providers that answer single tokens.

    Subclasses implement :meth:`_find` for a batch of keys; this class adds the
    lower-casing option and the composition of multi-word terms.
    """

    name: str = ""
    dim: int = 0
    lowercase: bool = False

    def _find(self, keys: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        """Vectors for keys and, per key, "exact", "subword" or "missing"."""
        raise NotImplementedError

    def lookup(self, words: Sequence[str]) -> tuple[np.ndarray, list[Lookup]]:
        words = list(words)
        keys = [self._key(w) for w in words]
        vecs, hows = self._find(keys)
        out = np.zeros((len(words), self.dim), dtype=np.float64)
        records: list[Lookup] = []
        pending: list[int] = []
        for i, (w, k, how) in enumerate(zip(words, keys, hows)):
            if how != "missing":
                out[i] = vecs[i]
                if how == "exact" and k != w:
                    how = "folded"
                records.append(Lookup(w, how, k))
            else:
                records.append(Lookup(w, "missing", k))
                if len(k.split()) > 1:
                    pending.append(i)
        if pending:  # multi-word terms: mean of the parts when every part is known
            parts = {p for i in pending for p in keys[i].split()}
            plist = sorted(parts)
            pv, ph = self._find(plist)
            known = {p: (pv[j], h) for j, (p, h) in enumerate(zip(plist, ph)) if h != "missing"}
            for i in pending:
                ps = keys[i].split()
                if all(p in known for p in ps):
                    out[i] = np.mean([known[p][0] for p in ps], axis=0)
                    records[i] = Lookup(words[i], "composed", "+".join(ps))
        return out, records

    def _key(self, word: str) -> str:
        w = " ".join(word.split())
        return w.lower() if self.lowercase else w
