"""Audit runner. This package currently holds the scoring core: `score_texts` and `ScoreCache`.

Light on purpose: importing it pulls in neither torch nor pandas.
"""
from .cache import CacheStats, ScoreCache, default_cache_dir
from .scoring import ScoringStats, score_texts

__all__ = ["CacheStats", "ScoreCache", "ScoringStats", "default_cache_dir", "score_texts"]
