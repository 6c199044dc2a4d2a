"""The one error type of audit reports.

Why: the audit folder may be incomplete, hand-edited or from another version; each problem
must reach the user as one line naming the file and what to do, never a traceback.
Subclasses ValueError so that main.py prints it cleanly.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from engine.common.errors import UserError
from engine.results.errors import AuditError


@dataclass
class ReportError(UserError, ValueError):
    file: str
    message: str
    fix: str = ""


@contextmanager
def reading_audit() -> Iterator[None]:
    """The results reader's AuditError (engine.results) as a ReportError: same file, message and fix."""
    try:
        yield
    except AuditError as exc:
        raise ReportError(exc.file, exc.message, fix=exc.fix) from None
