"""Errors raised by the association-test engine.

Why a dedicated type: the CLI and GUI must turn every bad input (a missing file, a
word set below coverage, a checkpoint without an MLM head) into one readable line
that names the file or field and says what to do, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class AssocError(UserError):
    """A problem the user can fix: bad stimulus file, unusable vectors or model."""

    message: str
    file: str = ""
    field: str = ""
    fix: str = ""
    line: int | None = None


class CoverageError(AssocError):
    """A word set has too few words in the vocabulary to run the test honestly."""


class MissingHeadError(AssocError):
    """A checkpoint lacks the masked-LM head weights (they would be random)."""
