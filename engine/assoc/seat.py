"""SEAT (May et al. 2019): WEAT over sentence embeddings of bleached template sentences.

Why sentences from templates: a contextual model has no vector for a bare word; the
word is put into semantically empty sentences ("This is WORD.", "WORD è qui.") and
each sentence becomes one stimulus. Test statistic, effect size and p are WEAT's.

Representations: a contextual model at ``sentence`` level ([CLS] / last token) or at
``token`` level (mean of the stimulus word's sub-tokens in the sentence); static
vectors give the mean of the word vectors of the sentence (as the Italian paper does
for fastText), and at token level simply the stimulus word's vector.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from .coverage import SetCoverage, check_coverage
from .errors import AssocError
from .library import templates as library_templates
from .similarity import differential_association
from .stimuli import SentenceItem, SentenceSet, TestSpec, WordSet
from .weat import WeatOptions, WeatResult, weat_from_scores

_TOKEN = re.compile(r"\w+(?:[-']\w+)*", re.UNICODE)


def seat_from_weat(spec: TestSpec, families: dict[str, Any] | None = None, *, family: str | None = None) -> TestSpec:
    """Turn a word-level test into SEAT sentences with the language's bleached templates.

    Capitalised words (names) use the "names" family when the language has one; other
    words the default family (or ``family``).
    """
    tmpl = families or library_templates(spec.language)
    fams = tmpl["families"]
    default = family or tmpl.get("default") or next(iter(fams))
    if default not in fams:
        raise AssocError(f"unknown template family {default!r}", field="--template-family",
                         fix=f"use one of {', '.join(fams)}")
    names_family = tmpl.get("names")
    sets = {}
    for key, ws in spec.sets().items():
        if not isinstance(ws, WordSet):
            raise AssocError("already a sentence test", file=spec.id)
        items = []
        for w in ws.words(spec.forms):
            fam = names_family if (names_family and w[:1].isupper() and family is None) else default
            items.extend(SentenceItem(t.replace("WORD", w), w) for t in fams[fam])
        sets[key] = SentenceSet(ws.name, tuple(items))
    return TestSpec(id=spec.id.replace("weat", "seat", 1) if "weat" in spec.id else f"seat/{spec.id}", kind="seat",
                    language=spec.language, title=f"SEAT from {spec.title}", source=spec.source,
                    license=spec.license, published={}, path=spec.path, **sets)


def _embed_static(provider: Any, items: tuple[SentenceItem, ...], level: str) -> tuple[np.ndarray, list[bool]]:
    if level == "token":
        words = [it.word or "" for it in items]
        if not all(words):
            raise AssocError("token level needs the stimulus word of every sentence", field="--level",
                             fix="use --level sentence for this file")
        vecs, recs = provider.lookup(words)
        return vecs, [r.found for r in recs]
    toks = [_TOKEN.findall(it.sentence) for it in items]
    vocab = sorted({t for ts in toks for t in ts})
    vecs, recs = provider.lookup(vocab)
    pos = {w: i for i, w in enumerate(vocab)}
    out = np.zeros((len(items), provider.dim))
    ok = []
    for i, ts in enumerate(toks):
        rows = [vecs[pos[t]] for t in ts if recs[pos[t]].found]
        ok.append(bool(rows))
        if rows:
            out[i] = np.mean(rows, axis=0)
    return out, ok


def run_seat(spec: TestSpec, provider: Any, opts: WeatOptions | None = None, *, level: str = "sentence") -> WeatResult:
    opts = opts or WeatOptions()
    if spec.kind == "weat":
        spec = seat_from_weat(spec)
    if spec.kind != "seat":
        raise AssocError(f"test is a {spec.kind} test, not SEAT", file=spec.id)
    vecs: dict[str, np.ndarray] = {}
    covs: list[SetCoverage] = []
    for key, ss in spec.sets().items():
        assert isinstance(ss, SentenceSet)
        if hasattr(provider, "embed"):
            v = provider.embed(ss.items, level=level)
            ok = [True] * len(ss.items)
        else:
            v, ok = _embed_static(provider, ss.items, level)
        cov = SetCoverage(key, ss.name, listed=len(ss.items))
        cov.dropped = [it.sentence for it, good in zip(ss.items, ok) if not good]
        cov.used = [it.sentence for it, good in zip(ss.items, ok) if good]
        covs.append(cov)
        vecs[key] = v[np.asarray(ok, dtype=bool)]
    check_coverage(covs, opts.min_coverage, test_id=spec.id)
    s_x = differential_association(vecs["X"], vecs["A"], vecs["B"], opts.metric)
    s_y = differential_association(vecs["Y"], vecs["A"], vecs["B"], opts.metric)
    return weat_from_scores(s_x, s_y, opts=opts, test_id=spec.id, kind="seat", n_a=len(vecs["A"]), n_b=len(vecs["B"]),
                            representation=f"{getattr(provider, 'name', 'vectors')} ({level} level)",
                            words_x=covs[0].used, words_y=covs[1].used, language=spec.language, title=spec.title,
                            coverage=covs, extra={"level": level})
