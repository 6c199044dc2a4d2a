"""Errors raised by scorers, readers and training.

Why a dedicated type: the CLI and the GUI must turn any bad model, weight or data file
into one readable line (file, field, what to do) instead of a traceback, the same way
`engine.corpus.definition.errors.DefinitionError` does for corpus definitions.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class ModelError(UserError):
    """A model, weights file, prediction file or training file that cannot be used."""

    file: str
    message: str
    field: str = ""
    line: int | None = None
    fix: str = ""

    def where(self) -> str:
        return self.file or "model"


class UnsafeWeightsError(ModelError):
    """Weights that would need unpickling, refused because `allow_pickle` was not given.

    Why separate: callers (GUI) can offer a "trust this file" confirmation for exactly
    this case, while every other ModelError is just shown.
    """
