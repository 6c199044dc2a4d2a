"""The one error type of audit reports.

Why: the audit folder may be incomplete, hand-edited or from another version; each problem
must reach the user as one line naming the file and what to do, never a traceback.
Subclasses ValueError so that main.py prints it cleanly.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class ReportError(UserError, ValueError):
    file: str
    message: str
    fix: str = ""
