"""The error a sweep reports: a plan file line, a worker that cannot see a model, a scheduler
that cannot be reached. One ``UserError`` subclass, so the CLI and the GUI print one line."""
from __future__ import annotations

from engine.common.errors import UserError


class SweepError(UserError):
    """A sweep plan or cluster problem the user can fix (``str()`` is the line they see)."""

    def where(self) -> str:
        return self.file or "sweep"
