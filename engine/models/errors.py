"""Errors raised by scorers, readers and training.

Why a dedicated type: the CLI and the GUI must turn any bad model, weight or data file
into one readable line (file, field, what to do) instead of a traceback, the same way
`engine.corpus.errors.DefinitionError` does for corpus definitions.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ModelError(Exception):
    """A model, weights file, prediction file or training file that cannot be used."""

    file: str
    message: str
    field: str = ""
    line: int | None = None
    fix: str = ""

    def __str__(self) -> str:  # one line, as users see it
        where = self.file or "model"
        if self.line is not None:
            where += f":{self.line}"
        if self.field:
            where += f" [{self.field}]"
        text = f"{where}: {self.message}"
        if self.fix:
            text += f" — {self.fix}"
        return text


class UnsafeWeightsError(ModelError):
    """Weights that would need unpickling, refused because `allow_pickle` was not given.

    Why separate: callers (GUI) can offer a "trust this file" confirmation for exactly
    this case, while every other ModelError is just shown.
    """
