"""A one-click fix as data: what it does and the edits it makes (engine.corpus.check.fixes finds them).

Why a module of its own: the fixes of the agreement rules (agreement_fixes) and of the other rules
(fixes) both build it, and fixes asks agreement_fixes for its own: with the type here, no two files
import each other.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Fix:
    label: str  # what the fix does, in English (the GUI words it again)
    edits: list[tuple[tuple, Any]] = field(default_factory=list)  # (path, new value)
    kind: str = ""  # "agree" | "speaker" | "mirror" | "pair" | "forms" (E026-E028: the entry's forms) | "case" (E030)
    args: dict[str, str] = field(default_factory=dict)  # what the GUI needs to word it
