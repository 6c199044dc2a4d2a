"""The one scorer interface (its progress and cancel types: engine.common.progress).

Why a Protocol and plain objects (scikit-learn style): the runner, the CLI and the GUI
only ever need "texts in, one float per text and dimension out", a stable identity for
caching (`fingerprint`) and the list of columns. Anything implementing these four
members is a scorer — including a user's own object — with no base class to inherit.

Nothing here imports torch, transformers or scikit-learn: `import engine.models` must
stay fast because the GUI imports it at start-up.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from engine.common.messages import Said
    import pandas as pd

# progress and cancel live in engine.common.progress (the executor, the sweep and the statistics use them too)
from engine.common.progress import CancelFn, ProgressFn


@runtime_checkable
class Scorer(Protocol):
    """Texts in, a DataFrame out: one row per text (same order), one float column per dimension.

    `fingerprint()` must change whenever the outputs could change (weights, settings,
    preprocessing), because the persistent score cache is keyed by it.
    """

    name: str
    dimensions: list[str]

    def fingerprint(self) -> str: ...

    def score(self, texts: list[str], *, progress: ProgressFn | None = None,
              cancel: CancelFn | Any | None = None) -> "pd.DataFrame": ...


#: Optional scorer attributes (not part of the Protocol, so any object stays a scorer):
#:   scales: {dimension: (low, high)} — the scale a dimension is defined on (lexicon valence 0–1,
#:       class probabilities 0–1, expected star rating 1–5). Statistics use it instead of the
#:       observed range (e.g. the counterfactual "negligible" band); absent = unknown.
#:   languages: ("en",) — languages the scorer reads (ISO 639-1); empty = unknown.
#:   warm(): load what the first `score` call would load lazily; an audit in several processes calls
#:       it before forking its workers, so they inherit the loaded scorer (engine.audit.pipeline).


def declared_scale(scorer: Any, dimension: str) -> tuple[float, float] | None:
    """The (low, high) scale a scorer declares for one dimension, or None when unknown."""
    scales = getattr(scorer, "scales", None) or {}
    sc = scales.get(dimension) if isinstance(scales, dict) else None
    if sc is None:
        return None
    lo, hi = float(sc[0]), float(sc[1])
    return (lo, hi) if hi > lo else None


def declared_languages(scorer: Any) -> tuple[str, ...]:
    """Languages a scorer declares it reads (lower-case codes); () when unknown."""
    langs = getattr(scorer, "languages", None) or ()
    if isinstance(langs, str):
        langs = (langs,)
    return tuple(str(x).strip().lower() for x in langs if str(x).strip())


def language_mismatch(scorer: Any, corpus_language: str | None) -> str | None:
    """A one-line warning when a scorer reads other languages than the corpus's, else None.

    Why: an English-only lexicon on a Spanish corpus scores every sentence from its few English
    tokens; all differences come out 0 and read as "no bias".
    """
    said = language_mismatch_message(scorer, corpus_language)
    return None if said is None else str(said)


def language_mismatch_message(scorer: Any, corpus_language: str | None) -> Said | None:
    """``language_mismatch`` as data (engine.models.messages), for the GUI to show in its language."""
    langs = declared_languages(scorer)
    lang = (corpus_language or "").strip().lower()
    if not langs or not lang:
        return None
    base = lang.split("-")[0].split("_")[0]
    if base in {x.split("-")[0].split("_")[0] for x in langs}:
        return None
    from .messages import model_message

    return model_message("language.mismatch", scorer=getattr(scorer, "name", "scorer"), reads=", ".join(langs),
                         language=lang)


@dataclass(frozen=True)
class WorkerSpec:
    """How a worker process re-creates a scorer: a spec string for `engine.models.specs.load_scorer`.

    Why a recipe and not the object: a scorer that is CPU-bound and holds the GIL (lexicons,
    scikit-learn models) can score chunks in a process pool (`score_texts(..., jobs=N)`), but
    pickling its models to every worker for every chunk would cost more than it saves. A scorer
    offers one through an optional `worker_spec()` method; torch scorers offer none and stay in
    the calling process. The worker checks that its copy has the same `fingerprint()`.
    """

    spec: str
    allow_pickle: bool = False


def stable_hash(*parts: Any) -> str:
    """A short, stable hex digest of JSON-able parts (used to build fingerprints)."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:32]


def make_frame(values: Any, dimensions: list[str]) -> "pd.DataFrame":
    """A float64 DataFrame with the scorer's columns, index 0..n-1."""
    import numpy as np
    import pandas as pd

    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.size == 0:
        arr = arr.reshape(0, len(dimensions))
    return pd.DataFrame(arr, columns=list(dimensions))
