"""The one-line form every user-facing engine error takes: ``FILE:LINE [FIELD]: MESSAGE — FIX``.

Why one function: corpus definitions, models, association tests, packages, exchange files,
reports and audit folders all report bad input to the same readers (the CLI's stderr, the
GUI's message banner); they must read alike, and a change to the form is made once.
"""
from __future__ import annotations


def problem_line(message: str, file: str = "", line: int | None = None, field: str = "", fix: str = "") -> str:
    where = file
    if line is not None:
        where += f":{line}"
    if field:
        where = f"{where} [{field}]" if where else f"[{field}]"
    text = f"{where}: {message}" if where else message
    return f"{text} — {fix}" if fix else text
