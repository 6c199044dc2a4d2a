"""Never replace a user's file without asking.

Why one helper: package export/import, exchange import and report building all write
into places the user owns. The rule is the same everywhere: a path that exists is
replaced only with ``overwrite=True`` or when ``confirm`` (the CLI's interactive prompt,
the GUI's dialog) says yes; otherwise one clear error names the flag.

Why in engine/common: the corpus command line, exchange, packages and the audit's ``--out`` all
ask it, and an audit that refuses to overwrite its folder is no package error (issue 41).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from engine.common.errors import UserError

class OverwriteError(UserError):
    """A file or folder exists and may not be replaced: the user passes --overwrite or chooses another."""


Confirm = Optional[Callable[[str], bool]]


def exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def may_replace(path: Path, *, overwrite: bool, confirm: Confirm, what: str = "file") -> None:
    """Return if writing ``path`` is allowed; raise OverwriteError naming --overwrite if not."""
    if not exists(path) or overwrite:
        return
    if confirm is not None and confirm(f"{path} already exists. Replace this {what}?"):
        return
    raise OverwriteError(f"{what} already exists; nothing was changed", file=str(path),
                         fix="pass --overwrite to replace it, or choose another destination")
