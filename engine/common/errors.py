"""The one base of every user-facing engine error: file, line, field, message and fix.

Why one base: the CLI (main.py) and the GUI (gui/errors.py) turn any bad input into one
readable line instead of a traceback; with a common base they catch ``UserError`` instead of
recognising a list of class names, and a new package's errors work there at once.

Subclasses are dataclasses whose fields name what they point at (``member`` of a package,
``entry`` of an exchange file); they map those onto ``field`` so every reader sees the same
attributes.
"""
from __future__ import annotations

from engine.common.problem_line import problem_line


class UserError(Exception):
    """A problem the user can fix. ``str(err)`` is the one line they see."""

    file: str = ""
    message: str = ""
    line: int | None = None
    field: str = ""
    fix: str = ""

    def __init__(self, message: str = "", file: str = "", line: int | None = None, field: str = "",
                 fix: str = "") -> None:
        super().__init__(message, file, line, field, fix)
        self.message, self.file, self.line, self.field, self.fix = message, file, line, field, fix

    def where(self) -> str:
        """The file name used in the line (subclasses may name a default such as 'model')."""
        return self.file

    def __str__(self) -> str:  # one line, as users see it
        return problem_line(self.message, self.where(), self.line, self.field, self.fix)

    def text_without_fix(self) -> str:
        """The line without its ' — fix' tail (the GUI shows the fix on a line of its own)."""
        text = str(self)
        tail = f" — {self.fix}" if self.fix else ""
        return text[: -len(tail)] if tail and text.endswith(tail) else text


class UsageError(UserError, ValueError):
    """A command-line argument or plan setting that is out of range or inconsistent."""
