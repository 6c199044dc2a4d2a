"""The audit's task for worker processes: score one chunk of texts (`score_texts(..., jobs=N)`).

Why processes: VADER, TextBlob and the scikit-learn systems are Python code that holds the GIL,
so one audit used one core. A scorer takes part by offering a `WorkerSpec` (its spec string):
each worker loads its own copy once and checks that its fingerprint matches, so no model is
pickled per chunk. Torch scorers offer none and stay in the calling process (they already use
every core through their own threads). The pool itself — forked where that is safe, so that its
workers are handed the scorers this process has already warmed — is the executor's
(engine.common.executor.LocalPool); this module says what a worker does with a chunk.
"""
from __future__ import annotations

from typing import Any

from engine.common.executor import inherited
from engine.models.base import WorkerSpec
from engine.models.errors import ModelError

# in a worker: (spec, allow_pickle, fingerprint) -> the scorer it loaded from the spec
_loaded: dict[tuple[str, bool, str], Any] = {}


def worker_spec_of(scorer: Any) -> WorkerSpec | None:
    """The scorer's recipe for worker processes, or None when it must score in this process."""
    fn = getattr(scorer, "worker_spec", None)
    if not callable(fn):
        return None
    spec = fn()
    return spec if isinstance(spec, WorkerSpec) else None


def scorer_key(spec: WorkerSpec, fingerprint: str) -> tuple[str, bool, str]:
    """The key a warmed scorer is handed to forked workers under (``LocalPool(inherit=…)``)."""
    return (spec.spec, spec.allow_pickle, fingerprint)


def score_chunk(spec: WorkerSpec, fingerprint: str, texts: list[str]) -> Any:
    """Run in a worker: score `texts` with the scorer `spec` names (handed over by a forked pool,
    else loaded once per worker)."""
    key = scorer_key(spec, fingerprint)
    scorer = inherited(key)
    if scorer is None:
        scorer = _loaded.get(key)
    if scorer is None:
        from engine.models.specs import load_scorer

        scorer = load_scorer(spec.spec, allow_pickle=spec.allow_pickle)
        if scorer.fingerprint() != fingerprint:
            raise ModelError(spec.spec, "a worker process loaded a different model than the audit's",
                             fix="run with jobs=1 (--jobs 1); the model files may have changed during the run")
        _loaded[key] = scorer
    return scorer.score(list(texts))


PARALLEL_CHUNK_MAX = 512  # texts: small enough that the two processes finish together, large enough that
# pickling a chunk (about a millisecond) stays a small share of scoring it (25-100 ms for a lexicon)


def parallel_chunk(size: int, n: int, jobs: int) -> int:
    """Chunk size for a pool: at least the scorer's, large enough that the per-chunk overhead
    (pickling texts and scores) stays small, small enough for progress and cancel (~4 per worker)."""
    return max(size, min(PARALLEL_CHUNK_MAX, -(-n // (4 * jobs))))
