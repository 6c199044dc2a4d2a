"""The errors a statistic raises when its input or settings cannot be used.

Why a dedicated type: a score table without the columns a test needs, scores outside the declared
scale or a setting out of range are problems the user can fix, so they reach the CLI (exit 2) and
the GUI as one readable line through ``UserError``; ``ValueError`` stays a base so callers (and
notebooks) that catch ``ValueError`` keep working. Internal inconsistencies (a matrix of the wrong
shape handed between two of our own functions) stay plain exceptions: they are bugs (exit 4).
"""
from __future__ import annotations

from engine.common.errors import UserError


class StatisticError(UserError, ValueError):
    """Bad input to a statistic (missing column, non-numeric or out-of-range scores, a bad setting)."""


class UnknownStatisticError(StatisticError, KeyError):
    """A statistic id that is not registered (a ``KeyError`` too: the registry is looked up by id)."""

    def __str__(self) -> str:  # KeyError would quote the message; the user sees the plain line
        return UserError.__str__(self)
