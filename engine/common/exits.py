"""The exit codes of every `main.py` command, in one place.

Why fixed codes: scripts and CI jobs branch on them. A command that ran and found
problems (checker errors, a package with errors) is different from one that could not run
(bad argument or input file), and a test refused for low vocabulary coverage is different
again: the user then needs other vectors, not a fix to the command line.
"""
from __future__ import annotations

OK = 0            # ran; nothing to report
FINDINGS = 1      # ran; found problems in the input (checker errors, no usable pairs)
USAGE = 2         # did not run: a bad argument or an unreadable/invalid input file
REFUSED = 3       # did not run: refused honestly (a word set below --min-coverage)
INTERNAL = 4      # an unexpected error (a bug: please report it with the command line)
CANCELLED = 130   # Ctrl+C / Cancel, as shells report SIGINT
