"""Where EEC Studio keeps caches that can always be rebuilt (scores, file digests).

Why one place: the score cache and the model-fingerprint store must land in the same
user cache folder, which a user moves with one variable, and never beside their models.
"""
from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """$EEC_STUDIO_CACHE, else $XDG_CACHE_HOME/eec-studio, else ~/.cache/eec-studio."""
    env = os.environ.get("EEC_STUDIO_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "eec-studio"
