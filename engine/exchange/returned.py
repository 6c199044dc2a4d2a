"""What comes back from a translator: one record per unit of the exchange file.

Why a neutral record: PO and XLIFF say "done / needs work / reviewed" differently (the
``fuzzy`` flag vs. segment ``state``); readers turn either into this, and one set of
rules (status_rules.py) decides what it means for the corpus.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .keys import Key

PO = "po"
XLIFF = "xliff"
FORMATS = (PO, XLIFF)


@dataclass
class Returned:
    key: Key
    text: str
    notes: list[str] = field(default_factory=list)  # translator-editable notes on this unit
    fuzzy: bool = False  # PO: "needs work"
    state: str = ""  # XLIFF: initial | translated | reviewed | final
    sub_state: str = ""  # XLIFF: eec:<status> as exported (tools keep it)
    where: str = ""  # "line 12" / "unit u7", for messages


@dataclass
class ReturnedFile:
    fmt: str
    corpus_id: str
    language: str
    units: list[Returned]
    translator: str = ""  # PO Last-Translator, when a tool filled it in
