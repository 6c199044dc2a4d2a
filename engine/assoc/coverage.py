"""Out-of-vocabulary handling: which words of each set were found, and may the test run.

The rule (our reading of Lauscher & Glavaš 2019, §2.2: tests are discarded "for which
we cannot find more than 20% of words from some target or attribute set"): **every**
set on its own — X, Y, A and B, never pooled — must have at least ``min_coverage``
(default 0.80, inclusive) of its listed words in the vocabulary. With several forms
per term (XWEAT feminine forms) each form is a listed word; with averaged forms
(GG-FISE) each term counts once and is present when any of its forms is. A word found
only as fastText sub-words, after lower-casing or as the mean of its parts counts as
present and is listed as such. Below the threshold the test refuses to run, naming the
set and the missing words, instead of returning NaN.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .errors import CoverageError
from .providers.base import Lookup
from .stimuli import FormsPolicy, WordSet

DEFAULT_MIN_COVERAGE = 0.8


@dataclass
class SetCoverage:
    """What happened to one word set's words."""

    key: str  # X, Y, A, B (or a FISE role)
    name: str
    listed: int
    used: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)
    subword: list[str] = field(default_factory=list)
    composed: list[str] = field(default_factory=list)

    @property
    def found(self) -> int:
        return self.listed - len(self.dropped)

    @property
    def coverage(self) -> float:
        return self.found / self.listed if self.listed else 0.0

    def as_row(self) -> dict[str, Any]:
        return {"set": self.key, "name": self.name, "listed": self.listed, "found": self.found,
                "coverage": round(self.coverage, 4), "dropped": ", ".join(self.dropped),
                "folded": ", ".join(self.folded), "subword": ", ".join(self.subword),
                "composed": ", ".join(self.composed)}


@dataclass
class ResolvedSet:
    vectors: np.ndarray  # one row per used word (or averaged term)
    words: list[str]
    coverage: SetCoverage


def resolve_set(key: str, ws: WordSet, provider: Any, policy: FormsPolicy = "each") -> ResolvedSet:
    """Look a set's words up and keep the ones found, recording every decision."""
    forms = [f for t in ws.terms for f in t.forms]
    vecs, recs = provider.lookup(forms) if forms else (np.zeros((0, provider.dim)), [])
    by_pos = list(zip(forms, recs, vecs))
    cov = SetCoverage(key, ws.name, listed=0)
    rows: list[np.ndarray] = []
    used: list[str] = []
    pos = 0
    for t in ws.terms:
        if not t.forms:  # e.g. no translation for this language
            cov.listed += 1
            cov.dropped.append(f"{t.gloss or '?'} (no translation)")
            continue
        mine = by_pos[pos:pos + len(t.forms)]
        pos += len(t.forms)
        if policy == "each":
            for w, rec, v in mine:
                cov.listed += 1
                if rec.found:
                    rows.append(v)
                    used.append(w)
                    _note(cov, rec)
                else:
                    cov.dropped.append(w)
        else:
            cov.listed += 1
            found = [(w, rec, v) for w, rec, v in mine if rec.found]
            if found:
                rows.append(np.mean([v for _, _, v in found], axis=0))
                used.append("/".join(w for w, _, _ in found))
                for _, rec, _ in found:
                    _note(cov, rec)
            else:
                cov.dropped.append("/".join(t.forms))
    cov.used = used
    mat = np.vstack(rows) if rows else np.zeros((0, provider.dim))
    return ResolvedSet(mat, used, cov)


def _note(cov: SetCoverage, rec: Lookup) -> None:
    if rec.how == "folded":
        cov.folded.append(f"{rec.word}→{rec.key}")
    elif rec.how == "subword":
        cov.subword.append(rec.word)
    elif rec.how == "composed":
        cov.composed.append(rec.word)


def check_coverage(covs: Sequence[SetCoverage], min_coverage: float = DEFAULT_MIN_COVERAGE,
                   *, test_id: str = "", minimum_words: int = 1) -> None:
    """Raise CoverageError naming every set below the threshold (or with too few words)."""
    bad = []
    for c in covs:
        if c.found < minimum_words or c.coverage + 1e-12 < min_coverage:
            miss = ", ".join(c.dropped[:12]) + (" …" if len(c.dropped) > 12 else "")
            bad.append(f"set {c.key} '{c.name}' has {c.found} of {c.listed} words in the vocabulary "
                       f"({c.coverage:.0%} < {min_coverage:.0%}); missing: {miss}")
    if bad:
        raise CoverageError("; ".join(bad), file=test_id, field="coverage",
                            fix="use vectors that cover these words, check case folding (--lowercase), "
                                "or lower --min-coverage deliberately")
