"""Never replace a user's file without asking.

Why one helper: package export/import, exchange import and report building all write
into places the user owns. The rule is the same everywhere: a path that exists is
replaced only with ``overwrite=True`` or when ``confirm`` (the CLI's interactive prompt,
the GUI's dialog) says yes; otherwise one clear error names the flag.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from .errors import PackageError

Confirm = Optional[Callable[[str], bool]]


def exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def may_replace(path: Path, *, overwrite: bool, confirm: Confirm, what: str = "file") -> None:
    """Return if writing ``path`` is allowed; raise PackageError naming --overwrite if not."""
    if not exists(path) or overwrite:
        return
    if confirm is not None and confirm(f"{path} already exists. Replace this {what}?"):
        return
    raise PackageError(str(path), f"{what} already exists; nothing was changed",
                       fix="pass --overwrite to replace it, or choose another destination")
