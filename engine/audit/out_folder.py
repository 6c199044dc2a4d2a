"""May an audit write its results into ``--out``? Decided before any scoring.

Why: the results folder is replaced as a whole when the run completes
(engine.common.staged_folder), so it can never hold a table of an earlier run beside this run's.
Replacing is the rule of every command that writes into places the user owns
(engine.common.overwrite.may_replace): an existing audit folder is replaced only with
``--overwrite`` (or a yes at the terminal). A folder that holds other files is never replaced —
``--out ~/Documents --overwrite`` must not delete a user's documents.
"""
from __future__ import annotations

from pathlib import Path

from engine.common.errors import UsageError
from engine.common.overwrite import Confirm, exists, may_replace

from engine.results.layout import is_audit_folder


def may_write_audit(out: Path, *, overwrite: bool, confirm: Confirm = None) -> None:
    """Return when ``out`` is new, an empty folder, or an earlier audit folder that may be replaced."""
    out = Path(out)
    if not exists(out) or not out.is_dir() or not any(out.iterdir()):
        return  # new, empty, or a file (engine.common.validate.output_folder refuses that one)
    if not is_audit_folder(out):
        raise UsageError("holds files that are not an audit's results; nothing was changed", file=str(out),
                         field="--out", fix="choose a new or empty folder (--overwrite replaces only an earlier "
                                            "audit's folder)")
    may_replace(out, overwrite=overwrite, confirm=confirm, what="audit folder")
