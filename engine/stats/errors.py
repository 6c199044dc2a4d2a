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


class BrokenEntryError(RuntimeError):
    """A registered statistic broke its contract (a table without the columns it declares, an
    exception other than StatisticError from its code): a bug in that entry, never the user's input,
    so main.py reports it as one (exit 4) and the message names the entry and its module."""

    def __init__(self, entry: object, problem: str) -> None:
        stat_id = getattr(entry, "id", str(entry))
        module = getattr(getattr(entry, "compute", None), "__module__", "") or "?"
        super().__init__(f"statistic {stat_id!r} ({module}): {problem} — a bug in that registry entry")
        self.stat_id = stat_id


class UnknownStatisticError(StatisticError, KeyError):
    """A statistic id that is not registered (a ``KeyError`` too: the registry is looked up by id)."""

    def __str__(self) -> str:  # KeyError would quote the message; the user sees the plain line
        return UserError.__str__(self)
