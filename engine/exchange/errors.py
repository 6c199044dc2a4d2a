"""The one error type of translator exchange files (PO, XLIFF).

Why: a file that went through a CAT tool and back can be anything; each problem must reach
the user as one line naming the file, the entry and what to do. Subclasses ValueError so
main.py prints it cleanly.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.problem_line import problem_line


@dataclass
class ExchangeError(ValueError):
    file: str
    message: str
    entry: str = ""
    fix: str = ""

    def __str__(self) -> str:
        return problem_line(self.message, self.file, field=self.entry, fix=self.fix)
