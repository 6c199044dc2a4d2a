"""Turn any exception into a message a user can act on; never show a traceback.

Why: the people using the app are translators and researchers, not the engine's authors.
Engine errors (DefinitionError, ModelError, AssocError, ...) already carry one readable line
with the file, the field and the fix; everything else gets a short explanation and the full
traceback goes to a log file in the user's EEC Studio home, for a bug report.
"""
from __future__ import annotations

import datetime as _dt
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from gui.i18n import _, isolated



def is_user_error(exc: BaseException) -> bool:
    """An engine error meant for the user: a UserError, or one relayed from the audit process
    (gui.audit.job.RemoteError keeps the names of the original's classes in ``mro``)."""
    from engine.common.errors import UserError

    return isinstance(exc, UserError) or "UserError" in (getattr(exc, "mro", None) or [])


@dataclass
class FriendlyError:
    """What the user sees: a short title, what happened, and what to do about it."""

    title: str
    text: str
    fix: str = ""
    log_file: str = ""

    def as_text(self) -> str:
        parts = [self.text]
        if self.fix:
            parts.append(self.fix)
        if self.log_file:
            parts.append(_("Technical details were written to {path}.").format(path=isolated(self.log_file)))
        return "\n\n".join(parts)


def log_path() -> Path:
    from engine.common.user_dirs import user_home

    return user_home() / "logs" / "eec-studio.log"


def write_log(exc: BaseException) -> str:
    """Append the traceback to the log file; returns its path ('' when it cannot be written)."""
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(f"--- {_dt.datetime.now().isoformat(timespec='seconds')}\n")
            fh.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        return str(path)
    except OSError:
        return ""


def _is_oom(exc: BaseException) -> bool:
    if isinstance(exc, MemoryError):
        return True
    text = str(exc).lower()
    return "out of memory" in text or "cuda error: out of memory" in text or "can't allocate memory" in text


def friendly(exc: BaseException, *, context: str = "") -> FriendlyError:
    """Describe ``exc`` for a user; ``context`` says what the app was doing ('Opening …')."""
    lead = f"{context}\n\n" if context else ""
    name = type(exc).__name__
    if is_user_error(exc):
        fix = getattr(exc, "fix", "") or ""
        text = str(exc)
        if fix and text.endswith(" — " + fix):
            text = text[: -len(" — " + fix)]
        return FriendlyError(_("Cannot continue"), lead + text, fix)
    if _is_oom(exc):
        return FriendlyError(_("Out of memory"), lead + _("The computer ran out of memory while working."),
                             _("Close other programs, choose a smaller batch size or a smaller model, "
                               "or run on the CPU instead of the GPU."), write_log(exc))
    if isinstance(exc, FileNotFoundError):
        where = exc.filename or str(exc)
        return FriendlyError(_("File not found"), lead + _("The file {path} does not exist.").format(path=isolated(where)),
                             _("Check the path, or choose the file again."))
    if isinstance(exc, PermissionError):
        where = exc.filename or str(exc)
        return FriendlyError(_("Permission denied"), lead + _("EEC Studio may not read or write {path}.").format(path=isolated(where)),
                             _("Choose a folder you can write to, or ask your administrator for access."))
    if isinstance(exc, IsADirectoryError):
        return FriendlyError(_("A folder, not a file"), lead + _("{path} is a folder.").format(path=isolated(exc.filename)),
                             _("Choose a file inside it."))
    if isinstance(exc, OSError):
        return FriendlyError(_("Cannot read or write a file"), lead + (exc.strerror or str(exc)),
                             _("Check the disk has space and the file is not open in another program."))
    # anything else — a bare ValueError or KeyError too — is a bug, as on the command line (main.py,
    # exit 4): a user's mistake is a UserError with its fix (docs/ARCHITECTURE.md, "Errors")
    log = write_log(exc)
    return FriendlyError(_("Something went wrong"),
                         lead + _("An unexpected problem occurred ({kind}). Your work has not been lost.").format(kind=name),
                         _("Save your work and try again; if it happens again, send the log file with a report."), log)


def show_error(parent, exc: BaseException, *, context: str = "") -> FriendlyError:
    """Show ``exc`` in a message box (offscreen tests: the box is not executed, only logged)."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    info = friendly(exc, context=context)
    if QApplication.instance() is not None and not _headless():
        box = QMessageBox(QMessageBox.Warning, info.title, info.text, QMessageBox.Ok, parent)
        if info.fix or info.log_file:
            box.setInformativeText(info.as_text()[len(info.text):].strip())
        box.exec()
    last_errors.append(info)
    return info


#: the messages shown most recently (tests read them; a status bar can show the last one)
last_errors: list[FriendlyError] = []


def _headless() -> bool:
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.platformName() in ("offscreen", "minimal")


def install_excepthook(parent_getter=lambda: None) -> None:
    """Route uncaught exceptions (e.g. in a slot) to a readable message; the app keeps running."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        try:
            show_error(parent_getter(), exc)
        except Exception:  # the hook itself must never raise
            write_log(exc)

    sys.excepthook = hook
