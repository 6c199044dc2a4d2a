"""The one error type of corpus packages.

Why a dedicated type: a package comes from someone else, so anything in it can be wrong.
Every problem must reach the user as one line naming the file (and the member inside the
package when there is one) and what to do, never as a traceback. It subclasses ValueError
so that main.py's error handler prints it cleanly.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.problem_line import problem_line


@dataclass
class PackageError(ValueError):
    """A package (or an output path) that cannot be exported, verified or imported."""

    file: str
    message: str
    member: str = ""
    fix: str = ""

    def __str__(self) -> str:
        return problem_line(self.message, self.file, field=self.member, fix=self.fix)
