"""Errors raised for bad corpus definitions.

Why a dedicated type: the CLI and GUI must turn any bad input into one readable
line (file, line or field path, what to do) instead of a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class DefinitionError(Exception):
    """A corpus definition that cannot be read or has the wrong shape."""

    file: str
    message: str
    field: str = ""
    line: int | None = None
    fix: str = ""

    def __str__(self) -> str:  # one line, as users see it
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.field:
            where += f" [{self.field}]"
        text = f"{where}: {self.message}"
        if self.fix:
            text += f" — {self.fix}"
        return text
