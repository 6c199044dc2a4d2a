"""Errors raised for bad corpus definitions.

Why a dedicated type: the CLI and GUI must turn any bad input into one readable
line (file, line or field path, what to do) instead of a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.problem_line import problem_line


@dataclass
class DefinitionError(Exception):
    """A corpus definition that cannot be read or has the wrong shape."""

    file: str
    message: str
    field: str = ""
    line: int | None = None
    fix: str = ""

    def __str__(self) -> str:  # one line, as users see it
        return problem_line(self.message, self.file, self.line, self.field, self.fix)
