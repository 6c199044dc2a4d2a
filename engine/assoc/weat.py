"""WEAT (Caliskan et al. 2017): statistic, effect size and permutation p, on any associations.

Why the split into ``weat_from_scores`` and ``run_weat``: SEAT (sentence vectors) and
LPBS (increased log probabilities) differ from WEAT only in how s(w, A, B) is
obtained; they all end in ``weat_from_scores`` so effect size and p are computed by
one piece of code.

Conventions (stated in docs/assoc.md):

* s(w, A, B) = mean_a f(w, a) − mean_b f(w, b), computed once per word;
* test statistic = Σ_X s − Σ_Y s (Caliskan); the mean difference is reported too;
* effect size = (mean_X s − mean_Y s) / std_{X∪Y} s with ``ddof=1`` (sample standard
  deviation, as in the sent-bias SEAT code) by default; ``ddof=0`` reproduces XWEAT's
  ``np.std``. Both are always reported;
* p: one-sided (X more associated with A) by default, see :mod:`.permutation`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .coverage import DEFAULT_MIN_COVERAGE, SetCoverage, check_coverage, resolve_set
from .errors import AssocError
from .permutation import DEFAULT_EXACT_LIMIT, PermutationResult, permutation_test
from .similarity import Metric, differential_association
from .stimuli import TestSpec, WordSet


@dataclass
class WeatOptions:
    metric: Metric = "cosine"
    ddof: int = 1
    alternative: str = "greater"
    n_permutations: int = 10_000
    exact_limit: int = DEFAULT_EXACT_LIMIT
    seed: int | None = 0
    min_coverage: float = DEFAULT_MIN_COVERAGE


def effect_size(s_x: np.ndarray, s_y: np.ndarray, ddof: int = 1) -> float:
    both = np.concatenate([s_x, s_y])
    sd = float(np.std(both, ddof=ddof))
    if not np.isfinite(sd) or sd == 0.0:
        raise AssocError("all target words have the same association; the effect size is undefined",
                         field="targets", fix="check that the vectors are not constant or duplicated")
    return (float(np.mean(s_x)) - float(np.mean(s_y))) / sd


@dataclass
class WeatResult:
    """One association test's outcome, with the words it used and dropped."""

    test_id: str
    kind: str
    effect_size: float
    ddof: int
    effect_size_ddof0: float
    effect_size_ddof1: float
    statistic: float  # Σ_X s − Σ_Y s
    mean_difference: float  # mean_X s − mean_Y s
    p_value: float
    permutation: PermutationResult
    n_x: int
    n_y: int
    n_a: int
    n_b: int
    metric: str
    representation: str
    language: str = ""
    attr_language: str = ""
    title: str = ""
    coverage: list[SetCoverage] = field(default_factory=list)
    word_scores: pd.DataFrame | None = None  # word, set, s
    extra: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One tidy row: the test, its numbers, and the coverage of each set."""
        row: dict[str, Any] = {
            "test": self.test_id, "kind": self.kind, "language": self.language,
            "attr_language": self.attr_language or self.language, "representation": self.representation,
            "metric": self.metric, "effect_size": self.effect_size, "ddof": self.ddof,
            "effect_size_ddof0": self.effect_size_ddof0, "effect_size_ddof1": self.effect_size_ddof1,
            "statistic": self.statistic, "mean_difference": self.mean_difference, "p_value": self.p_value,
            "p_method": self.permutation.method, "p_mc_se": self.permutation.mc_se,
            "alternative": self.permutation.alternative, "n_partitions": float(self.permutation.n_partitions),
            "n_evaluated": self.permutation.n_permutations, "seed": self.permutation.seed,
            "n_x": self.n_x, "n_y": self.n_y, "n_a": self.n_a, "n_b": self.n_b,
        }
        for c in self.coverage:
            row[f"coverage_{c.key}"] = round(c.coverage, 4)
            row[f"dropped_{c.key}"] = "; ".join(c.dropped)
            row[f"folded_{c.key}"] = "; ".join(c.folded)
        row.update({k: v for k, v in self.extra.items() if np.isscalar(v) or v is None})
        return pd.DataFrame([row])

    def coverage_frame(self) -> pd.DataFrame:
        return pd.DataFrame([dict(test=self.test_id, **c.as_row()) for c in self.coverage])

    def summary(self) -> str:
        p = self.permutation
        ptxt = f"p = {self.p_value:.4g} ({p.method}"
        ptxt += f", {p.n_permutations:,} of {p.n_partitions:.3g} partitions" if not p.exact else \
            f", all {p.n_partitions:,} partitions"
        ptxt += f", MC s.e. {p.mc_se:.2g})" if not p.exact else ")"
        lines = [f"{self.test_id}: {self.title}".rstrip(": "),
                 f"  {self.kind.upper()} on {self.representation} ({self.metric}): effect size d = "
                 f"{self.effect_size:+.3f} (ddof={self.ddof}; ddof={1 - self.ddof}: "
                 f"{self.effect_size_ddof0 if self.ddof == 1 else self.effect_size_ddof1:+.3f}), {ptxt}",
                 f"  words used: X {self.n_x}, Y {self.n_y}, A {self.n_a}, B {self.n_b}"]
        for c in self.coverage:
            if c.dropped or c.folded or c.subword or c.composed:
                bits = [f"{c.found}/{c.listed} found"]
                if c.dropped:
                    bits.append("dropped " + ", ".join(c.dropped))
                if c.folded:
                    bits.append(f"{len(c.folded)} lower-cased")
                if c.subword:
                    bits.append("sub-word " + ", ".join(c.subword))
                if c.composed:
                    bits.append("composed " + ", ".join(c.composed))
                lines.append(f"  {c.key} '{c.name}': " + "; ".join(bits))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        d = self.to_frame().iloc[0].to_dict()
        d["coverage"] = [c.as_row() for c in self.coverage]
        d["permutation"] = asdict(self.permutation)
        d["permutation"]["n_partitions"] = str(self.permutation.n_partitions)
        if self.word_scores is not None:
            d["word_scores"] = self.word_scores.to_dict(orient="records")
        return d


def weat_from_scores(s_x: np.ndarray, s_y: np.ndarray, *, opts: WeatOptions, test_id: str = "", kind: str = "weat",
                     n_a: int = 0, n_b: int = 0, representation: str = "", words_x: list[str] | None = None,
                     words_y: list[str] | None = None, **meta: Any) -> WeatResult:
    """Effect size, statistic and permutation p from per-target association scores."""
    s_x = np.asarray(s_x, dtype=np.float64)
    s_y = np.asarray(s_y, dtype=np.float64)
    if len(s_x) < 1 or len(s_y) < 1 or len(s_x) + len(s_y) < 3:
        raise AssocError("too few target words left to test", file=test_id, field="targets")
    perm = permutation_test(np.concatenate([s_x, s_y]), len(s_x), alternative=opts.alternative,  # type: ignore[arg-type]
                            exact_limit=opts.exact_limit, n_permutations=opts.n_permutations, seed=opts.seed)
    d0, d1 = effect_size(s_x, s_y, 0), effect_size(s_x, s_y, 1)
    scores = None
    if words_x is not None and words_y is not None:
        scores = pd.DataFrame({"word": list(words_x) + list(words_y),
                               "set": ["X"] * len(s_x) + ["Y"] * len(s_y),
                               "s": np.concatenate([s_x, s_y])})
    return WeatResult(
        test_id=test_id, kind=kind, effect_size=d1 if opts.ddof == 1 else d0 if opts.ddof == 0 else
        effect_size(s_x, s_y, opts.ddof), ddof=opts.ddof, effect_size_ddof0=d0, effect_size_ddof1=d1,
        statistic=float(s_x.sum() - s_y.sum()), mean_difference=float(s_x.mean() - s_y.mean()),
        p_value=perm.p_value, permutation=perm, n_x=len(s_x), n_y=len(s_y), n_a=n_a, n_b=n_b,
        metric=meta.pop("metric", opts.metric), representation=representation, word_scores=scores, **meta)


def run_weat(spec: TestSpec, provider: Any, opts: WeatOptions | None = None, *, attr_provider: Any = None) -> WeatResult:
    """WEAT on word vectors. ``attr_provider`` (cross-lingual) supplies A and B in a shared space."""
    opts = opts or WeatOptions()
    if spec.kind != "weat":
        raise AssocError(f"test is a {spec.kind} test, not a word-level WEAT", file=spec.id)
    ap = attr_provider or provider
    res = {k: resolve_set(k, s, provider if k in "XY" else ap, spec.forms)  # type: ignore[arg-type]
           for k, s in spec.sets().items() if isinstance(s, WordSet)}
    check_coverage([r.coverage for r in res.values()], opts.min_coverage, test_id=spec.id)
    s_x = differential_association(res["X"].vectors, res["A"].vectors, res["B"].vectors, opts.metric)
    s_y = differential_association(res["Y"].vectors, res["A"].vectors, res["B"].vectors, opts.metric)
    rep = getattr(provider, "name", "vectors") + (f" + {ap.name}" if ap is not provider else "")
    return weat_from_scores(s_x, s_y, opts=opts, test_id=spec.id, kind="weat", n_a=len(res["A"].words),
                            n_b=len(res["B"].words), representation=rep, words_x=res["X"].words,
                            words_y=res["Y"].words, language=spec.language, attr_language=spec.attr_language,
                            title=spec.title, coverage=[r.coverage for r in res.values()])
