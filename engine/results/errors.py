"""The one error of reading an audit folder."""
from __future__ import annotations

from dataclasses import dataclass

from engine.common.errors import UserError


@dataclass
class AuditError(UserError):
    """An audit folder that cannot be read: one line naming the file, with the fix."""

    file: str
    message: str
    fix: str = ""
