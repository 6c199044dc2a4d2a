"""Errors raised by the association-test engine.

Why a dedicated type: the CLI and GUI must turn every bad input (a missing file, a
word set below coverage, a checkpoint without an MLM head) into one readable line
that names the file or field and says what to do, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AssocError(Exception):
    """A problem the user can fix: bad stimulus file, unusable vectors or model."""

    message: str
    file: str = ""
    field: str = ""
    fix: str = ""

    def __str__(self) -> str:  # one line, as users see it
        where = self.file
        if self.field:
            where = f"{where} [{self.field}]" if where else f"[{self.field}]"
        text = f"{where}: {self.message}" if where else self.message
        if self.fix:
            text += f" — {self.fix}"
        return text


class CoverageError(AssocError):
    """A word set has too few words in the vocabulary to run the test honestly."""


class MissingHeadError(AssocError):
    """A checkpoint lacks the masked-LM head weights (they would be random)."""
