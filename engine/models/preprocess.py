"""Text preprocessing shared by training and scoring.

Why recorded by name in the manifest: a model trained on cleaned tweets must see the
same cleaning at scoring time, or its scores silently shift.
"""
from __future__ import annotations

import re
from typing import Callable

_MENTION = re.compile(r"(@.*?)[\s]")
_SPACE = re.compile(r"\s+")


def clean_tweet(text: str) -> str:
    """Câmara et al.'s cleaning: drop @mentions, '&amp;' -> '&', collapse whitespace."""
    text = _MENTION.sub(" ", text)
    text = text.replace("&amp;", "&")
    return _SPACE.sub(" ", text).strip()


PREPROCESSORS: dict[str, Callable[[str], str]] = {
    "none": lambda t: t,
    "tweet-clean": clean_tweet,
}


def get_preprocessor(name: str) -> Callable[[str], str]:
    from engine.models.errors import ModelError

    try:
        return PREPROCESSORS[name]
    except KeyError:
        raise ModelError("", f"unknown preprocessing '{name}'", field="preprocess",
                         fix=f"use one of {', '.join(PREPROCESSORS)}") from None
