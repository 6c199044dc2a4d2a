"""The corpus-id rule: which ids may name a corpus.

Why one rule: a corpus id names its definition file, its package folder, its results files and
its Hugging Face dataset; the workbench used to accept ``.`` while package export refused it, so
a corpus made in the GUI could fail to export. The strictest use decides: letters, digits, ``_``
and ``-``, at most 100 characters, starting with a letter or digit, and never a name Windows
reserves for devices.
"""
from __future__ import annotations

import re

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
_RESERVED = {"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(1, 10)} | {f"lpt{i}" for i in range(1, 10)}

#: what a user is told (translated in the GUI)
RULE = "letters, digits, '_' and '-' (at most 100 characters)"


def is_corpus_id(value: object) -> bool:
    """True when ``value`` may name a corpus."""
    return isinstance(value, str) and bool(_ID.fullmatch(value)) and value.lower() not in _RESERVED
