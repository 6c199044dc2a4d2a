"""The name EEC Studio was started under, for --help, usage errors and hints that show a command.

Why: installed, the command is ``eec-studio`` (pyproject's console script, and the one-folder
bundle's executable), and a line telling its user to type ``main.py corpus list`` names a file they
do not have. From a checkout it is ``python main.py``. Every text that shows a command line to type
takes it from here (``command("corpus list")``), and argparse's ``prog`` is ``prog()``.
"""
from __future__ import annotations

import os
import sys

#: the installed command (pyproject.toml [project.scripts], packaging/eec-studio.spec)
INSTALLED = "eec-studio"


def prog() -> str:
    """'eec-studio' when started as the installed command or the bundle, else 'main.py'."""
    name = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "")
    stem = name[:-4] if name.lower().endswith(".exe") else name
    return INSTALLED if stem == INSTALLED else "main.py"


def command(args: str = "") -> str:
    """The command line to type for ``args``: 'eec-studio corpus list' or 'python main.py corpus list'."""
    head = INSTALLED if prog() == INSTALLED else "python main.py"
    return f"{head} {args}".strip()
