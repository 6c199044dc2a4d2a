"""The few places the GUI asks optional parts of the engine, each guarded.

Why an adapter: the engine is built in parallel by several people; the GUI must start and
work with whatever parts are installed. Each function here names the engine API it uses,
returns None (or raises a readable error) when that API is absent, and is the one place to
re-wire when an engine signature changes.
"""
from __future__ import annotations

from typing import Any


def pair_count(corpus: Any, compiled: Any = None) -> int | None:
    """Number of counterfactual pairs (``engine.corpus.pairs.generate_pairs``), None if unavailable."""
    frame = pair_table(corpus, compiled)
    return None if frame is None else len(frame)


def pair_table(corpus: Any, compiled: Any = None) -> Any:
    try:
        from engine.corpus.pairs import generate_pairs
    except ImportError:
        return None
    try:
        return generate_pairs(corpus, compiled) if compiled is not None else generate_pairs(corpus)
    except Exception:  # a half-edited corpus may not pair yet; the checks panel says why
        return None
