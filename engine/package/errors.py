"""The one error type of corpus packages.

Why a dedicated type: a package comes from someone else, so anything in it can be wrong.
Every problem must reach the user as one line naming the file (and the member inside the
package when there is one) and what to do, never as a traceback. It subclasses ValueError
so that main.py's error handler prints it cleanly.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class PackageError(UserError, ValueError):
    """A package (or an output path) that cannot be exported, verified or imported."""

    file: str
    message: str
    member: str = ""
    fix: str = ""

    @property
    def field(self) -> str:  # type: ignore[override]
        return self.member
