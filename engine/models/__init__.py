"""Scorers: texts in, one float per text and dimension out (see `Scorer`).

Importing this package is cheap: torch, transformers and scikit-learn are imported only
inside the functions that need them. Typical use::

    from engine.models import load_scorer
    from engine.audit.cache import ScoreCache
    from engine.audit.scoring import score_texts
    scorer = load_scorer("vader")
    frame = score_texts(scorer, sentences, cache=ScoreCache())
"""
from engine.models.base import Scorer
from engine.common.progress import Cancelled, CancelFn, ProgressFn
from engine.models.errors import ModelError, UnsafeWeightsError
from engine.models.specs import load_scorer, parse_spec

__all__ = ["Cancelled", "CancelFn", "ModelError", "ProgressFn", "Scorer", "UnsafeWeightsError", "load_scorer",
           "parse_spec"]
