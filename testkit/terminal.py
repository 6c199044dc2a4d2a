"""Child processes started the way a terminal starts them, for the Ctrl+C tests.

Why: a shell that runs a job in the background without job control (CI scripts, `make test &`)
starts it with SIGINT *ignored*, and children inherit that; Python then never installs its
KeyboardInterrupt handler, so a test's SIGINT is dropped and the command finishes with exit 0.
A terminal starts a command with SIGINT at its default, which is what these tests are about.
"""
from __future__ import annotations

import signal


def default_sigint() -> None:
    """``preexec_fn`` for subprocess.Popen: SIGINT back to its default in the child before exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
