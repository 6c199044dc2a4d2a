"""LPBS (Kurita et al. 2019): WEAT with the increased log probability as the association.

asc(x, a) = log p([MASK]=x | template(x masked, a)) − log p([MASK]=x | template(x, a both
masked)): how much the attribute raises the target's probability over its prior. It
replaces cos(x, a); s(x, A, B), effect size and permutation p are exactly WEAT's. The
Italian paper uses the bare template "TARGET ATTRIBUTE" (gender agreement makes
richer templates ungrammatical); several templates are averaged. A word the tokenizer
can only write with [UNK] is out of vocabulary: dropped, listed, and subject to the
same coverage rule as WEAT.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .coverage import SetCoverage, check_coverage
from .errors import AssocError
from .stimuli import TestSpec, WordSet
from .weat import WeatOptions, WeatResult, weat_from_scores


def run_lpbs(spec: TestSpec, mlm: Any, opts: WeatOptions | None = None) -> WeatResult:
    opts = opts or WeatOptions()
    if spec.kind not in ("lpbs", "weat"):
        raise AssocError(f"test is a {spec.kind} test; LPBS needs word sets", file=spec.id)
    templates = spec.templates or ("TARGET ATTRIBUTE",)
    sets = {k: v for k, v in spec.sets().items()}
    for k, v in sets.items():
        if not isinstance(v, WordSet):
            raise AssocError("LPBS needs word sets", file=spec.id, field=k)
    listed = {k: v.words(spec.forms) for k, v in sets.items()}  # type: ignore[union-attr]
    covs = []
    words: dict[str, list[str]] = {}
    for k in "XYAB":
        unk = mlm.unknown(listed[k]) if hasattr(mlm, "unknown") else [False] * len(listed[k])
        cov = SetCoverage(k, sets[k].name, listed=len(listed[k]))
        cov.used = [w for w, u in zip(listed[k], unk) if not u]
        cov.dropped = [w for w, u in zip(listed[k], unk) if u]
        covs.append(cov)
        words[k] = cov.used
    check_coverage(covs, opts.min_coverage, test_id=spec.id)
    targets = words["X"] + words["Y"]
    attrs = words["A"] + words["B"]
    asc = np.mean([mlm.increased_log_prob(targets, attrs, t) for t in templates], axis=0)
    na = len(words["A"])
    s = asc[:, :na].mean(axis=1) - asc[:, na:].mean(axis=1)
    nx = len(words["X"])
    return weat_from_scores(s[:nx], s[nx:], opts=opts, test_id=spec.id, kind="lpbs", n_a=na, n_b=len(words["B"]),
                            representation=getattr(mlm, "name", "masked LM"), words_x=words["X"], words_y=words["Y"],
                            language=spec.language, title=spec.title, coverage=covs, metric="increased log prob",
                            extra={"templates": " | ".join(templates)})
