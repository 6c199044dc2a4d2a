"""Errors raised for bad corpus definitions.

Why a dedicated type: the CLI and GUI must turn any bad input into one readable
line (file, line or field path, what to do) instead of a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class DefinitionError(UserError):
    """A corpus definition that cannot be read or has the wrong shape."""

    file: str
    message: str
    field: str = ""
    line: int | None = None
    fix: str = ""
