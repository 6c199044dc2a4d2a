"""The one error type of translator exchange files (PO, XLIFF).

Why: a file that went through a CAT tool and back can be anything; each problem must reach
the user as one line naming the file, the entry and what to do. Subclasses ValueError so
main.py prints it cleanly.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ExchangeError(ValueError):
    file: str
    message: str
    entry: str = ""
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.file} [{self.entry}]" if self.entry else self.file
        text = f"{where}: {self.message}"
        if self.fix:
            text += f" — {self.fix}"
        return text
