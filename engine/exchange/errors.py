"""The one error type of translator exchange files (PO, XLIFF).

Why: a file that went through a CAT tool and back can be anything; each problem must reach
the user as one line naming the file, the entry and what to do. Subclasses ValueError so
main.py prints it cleanly.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class ExchangeError(UserError, ValueError):
    file: str
    message: str
    entry: str = ""
    fix: str = ""

    @property
    def field(self) -> str:  # type: ignore[override]
        return self.entry
