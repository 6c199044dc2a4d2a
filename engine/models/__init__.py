"""Scorers: texts in, one float per text and dimension out (see `Scorer`).

Importing this package is cheap: torch, transformers and scikit-learn are imported only
inside the functions that need them. Typical use::

    from engine.models import load_scorer
    from engine.runner import ScoreCache, score_texts
    scorer = load_scorer("vader")
    frame = score_texts(scorer, sentences, cache=ScoreCache())
"""
from .base import Cancelled, CancelFn, ProgressFn, Scorer
from .errors import ModelError, UnsafeWeightsError
from .specs import load_scorer, parse_spec

__all__ = ["Cancelled", "CancelFn", "ModelError", "ProgressFn", "Scorer", "UnsafeWeightsError", "load_scorer",
           "parse_spec"]
