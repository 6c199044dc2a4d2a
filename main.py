"""EEC Studio entry point: the GUI with no arguments, a headless CLI otherwise.

    python main.py                      # open the GUI
    python main.py corpus list          # headless: see `python main.py --help`
"""
from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

# Subcommand modules, by the command they add: each exposes add_parser(subparsers) and calls the
# same engine functions as the GUI. A command line imports only its command's modules (all of them
# cost a tenth of a second of every start); tests/test_cli_validation.py checks this table.
COMMANDS: dict[str, list[str]] = {
    # the modules after engine.corpus.cli add their commands to `corpus` (corpus.cli.add_corpus_command):
    # `corpus pairs`, `corpus hf-export` (package), `corpus tm-export|tm-import` (exchange)
    "corpus": ["engine.corpus.cli", "engine.corpus.pairs.pairs_cli", "engine.package.corpus_cli",
               "engine.exchange.corpus_cli"],
    "train": ["engine.models.training.cli"],
    "prompts": ["engine.models.prompts_cli"],
    "assoc": ["engine.assoc.cli"],
    "audit": ["engine.audit.cli"],
    "demo": ["engine.audit.cli"],
    "package": ["engine.package.cli"],
    "exchange": ["engine.exchange.cli"],
    "report": ["engine.report.cli"],
    "sweep": ["engine.sweep.cli"],
}
CLI_MODULES = list(dict.fromkeys(name for names in COMMANDS.values() for name in names))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser: every command's, or only `command`'s when it is a known one."""
    from engine.common.command import prog

    # the name it was started under: `eec-studio` installed (or the bundle), `main.py` from a checkout
    parser = argparse.ArgumentParser(prog=prog(), description="EEC Studio: equity evaluation corpora and bias audits.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    gui = sub.add_parser("gui", help="open the desktop app (the default with no arguments)")
    gui.set_defaults(func=lambda args: run_gui())
    menu = parser.add_mutually_exclusive_group()  # gui/desktop_entry.py (freedesktop menus; no Qt needed)
    menu.add_argument("--install-desktop-entry", dest="desktop_entry", action="store_const", const="install",
                      help="put EEC Studio in this user's application menu (Linux/BSD desktops), then exit")
    menu.add_argument("--uninstall-desktop-entry", dest="desktop_entry", action="store_const", const="uninstall",
                      help="remove that menu entry and its icons, then exit")
    for name in COMMANDS.get(command or "", CLI_MODULES):
        import_module(name).add_parser(sub)
    return parser


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def run_gui() -> int:
    if not has_display():
        from engine.common.command import command

        print("EEC Studio: no display found (DISPLAY/WAYLAND_DISPLAY unset); use the command line instead, "
              f"e.g. `{command('corpus list')}` (see `{command('--help')}`).", file=sys.stderr)
        return 2
    from gui.app import run

    return run(sys.argv[:1])


def _user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that carry a message meant for the user (file, field, fix): print, don't trace.

    Every engine error a user can fix derives from engine.common.errors.UserError; a cancelled
    run (Ctrl+C in a scorer's batch loop) is reported the same way."""
    from engine.common.errors import UserError
    from engine.common.progress import Cancelled

    return (UserError, Cancelled)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        return run_gui()
    from engine.common import exits, interrupts

    try:
        with interrupts.guarded():  # a Ctrl+C is never lost, from the command's first import on
            parser = build_parser(argv[0])
            args = parser.parse_args(argv)
            if getattr(args, "desktop_entry", None):
                from gui import desktop_entry

                args.func = lambda a: desktop_entry.run(a.desktop_entry)
            if not getattr(args, "func", None):
                parser.print_help()
                return exits.USAGE
            code = _run_command(args)
            if interrupts.pressed.is_set() and code != exits.CANCELLED:  # lost after the last cancel check
                raise KeyboardInterrupt
            return code
    except KeyboardInterrupt:  # here only: "cancelled" is said once, whenever the Ctrl+C came
        _say_cancelled()
        return exits.CANCELLED


def _run_command(args: argparse.Namespace) -> int:
    """The command's exit code; every error as one line (see README, "Exit codes"). A Ctrl+C is
    raised on to ``main``, also one a cancel check caught (``Cancelled`` with ``pressed`` set)."""
    from engine.common import exits, interrupts
    from engine.common.progress import Cancelled

    try:
        return int(args.func(args) or 0)
    except _user_errors() as exc:
        if isinstance(exc, Cancelled) and interrupts.pressed.is_set():
            raise KeyboardInterrupt from None
        print(f"error: {exc}", file=sys.stderr)
        return exit_code_for(exc)
    except OSError as exc:  # never raw errno text: the file and the reason
        print(f"error: {os_error_line(exc)}", file=sys.stderr)
        return exits.USAGE
    except Exception as exc:  # a bug, not bad input (that is a UserError): one line, never a traceback
        print(f"error: {internal_error_line(exc)}", file=sys.stderr)
        if os.environ.get("EEC_DEBUG"):
            raise
        return exits.INTERNAL


def exit_code_for(exc: BaseException) -> int:
    """USAGE for bad input, REFUSED for a coverage refusal, CANCELLED for Cancel (see README, "Exit codes")."""
    from engine.common import exits
    from engine.common.progress import Cancelled

    if isinstance(exc, Cancelled):
        return exits.CANCELLED
    try:
        from engine.assoc.errors import CoverageError
    except ImportError:  # the association part is optional
        CoverageError = ()  # type: ignore[assignment]
    return exits.REFUSED if CoverageError and isinstance(exc, CoverageError) else exits.USAGE


def internal_error_line(exc: BaseException) -> str:
    """The line for an error no user input explains (a plain ValueError, KeyError, ...): a bug.

    Why not exit 2 for any ValueError: bad input raises a UserError subclass that names the file,
    field and fix; a bare ValueError from deep inside is ours to fix, and calling it a usage error
    sent users looking for a mistake they had not made."""
    return (f"unexpected {type(exc).__name__}: {exc} — this is a bug in EEC Studio, not in your input; "
            f"please report it with the command line (set EEC_DEBUG=1 for the traceback)")


def os_error_line(exc: OSError) -> str:
    """'PATH: reason' without errno numbers or the temp-file names of an atomic write."""
    name = exc.filename or ""
    base = os.path.basename(str(name))
    if base.startswith(".") and base.endswith(".tmp"):  # atomic_write_bytes's temp file: name the target
        name = os.path.join(os.path.dirname(str(name)), base[1:].rsplit(".", 2)[0])
    import errno

    reason = (exc.strerror or type(exc).__name__).lower()
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):  # a full disk: where, and that the file was left as it was
        where = f"{name}: " if name else ""
        return (f"{where}no space left on the disk; nothing was written there (a file being replaced keeps its "
                f"earlier content) — free some space, or write elsewhere, and run the command again")
    return f"{name}: cannot write or read it ({reason})" if name else f"{reason}"


def exit_now(code: int) -> None:
    """End a command-line run, without the interpreter's teardown when that is safe.

    Why: after an audit, freeing the modules of scipy, statsmodels and pandas takes about half a
    second (0.45 s measured: a tenth of a four-corpus lexicon audit) and does nothing useful — every
    file the command wrote is closed (atomic writes). So the exit handlers run (logging, temporary
    folders, process pools), the output streams are flushed, and the process ends. Not for the GUI
    (Qt saves on destruction), nor while another thread runs (a Dask cluster ends in the normal exit),
    nor with EEC_DEBUG set."""
    import threading

    run_exit_handlers = getattr(__import__("atexit"), "_run_exitfuncs", None)
    if len(sys.argv) < 2 or threading.active_count() != 1 or os.environ.get("EEC_DEBUG") or run_exit_handlers is None:
        sys.exit(code)
    _wait_for_exit_handlers_on_ctrl_c()
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (| head): nothing more can be said
            pass
    os._exit(code)


def _wait_for_exit_handlers_on_ctrl_c() -> None:
    """While the exit handlers run, the command is done and its files are written. A Ctrl+C there
    printed "Exception ignored in atexit callback" with a traceback, cut that handler short (a
    temporary folder left behind) and still exited 0. Now a first Ctrl+C lets the handlers finish
    and the command keeps its exit code; a second one, for a handler that hangs, ends the process
    at once: "cancelled", exit 130. Not where SIGINT is ignored (a background job) or someone
    else's (``signal.default_int_handler`` only)."""
    import signal

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    presses: list[int] = []

    def on_ctrl_c(signum: int, _frame: object) -> None:
        presses.append(signum)
        if len(presses) > 1:
            try:
                sys.stdout.flush()  # what the command printed (a reentrant flush fails: nothing more to do)
            except (OSError, ValueError, RuntimeError):
                pass
            _say_cancelled()
            os._exit(130)  # exits.CANCELLED

    signal.signal(signal.SIGINT, on_ctrl_c)


def _say_cancelled() -> None:
    """"cancelled" on a line of its own, in one write: on a terminal the progress bar is redrawn in
    place and the cursor may stand at its end, so a newline comes first there."""
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    sys.stderr.write(("\n" if tty else "") + "cancelled\n")
    sys.stderr.flush()


if __name__ == "__main__":
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl+C while the command was still starting (importing its modules)
        _say_cancelled()
        code = 130  # exits.CANCELLED, without importing more
    exit_now(code)
