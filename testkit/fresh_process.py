"""Test helper: run a test that must fork here, or, where this process cannot fork, again in a fresh one.

Why: a test of the audit's forked children (``ForkedCall``, forked pools) proves nothing when it
skips, and in the full suite it would skip whenever an earlier test in the same worker left a thread
running (a Dask cluster's, a Qt one): while any thread runs, ``can_fork()`` is False. Waiting for
the pools' threads (``wait_for_pools``) clears most; for the rest, the same test is run again, alone,
in a fresh interpreter, and its outcome is this test's.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .pools import wait_for_pools

_AGAIN = "EEC_TEST_FRESH_PROCESS"  # set in the fresh interpreter: it must fork, not start yet another


def fork_here_or_in_a_fresh_process(request: pytest.FixtureRequest) -> bool:
    """True: run the test body here (this process can fork). False: the test already ran, and passed,
    in a fresh interpreter; the body must return at once. Fails with the fresh run's output when it
    failed; skips off Linux, where nothing is forked."""
    from engine.common.executor import can_fork

    if not sys.platform.startswith("linux"):
        pytest.skip("forked children are Linux-only")
    if can_fork() or (wait_for_pools() and can_fork()):
        return True
    if os.environ.get(_AGAIN):
        pytest.fail("a fresh interpreter could not fork either: some import starts a thread")
    root = Path(request.config.rootpath)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-o", "addopts=", request.node.nodeid], cwd=root, capture_output=True, text=True,
                          timeout=900, env={**os.environ, _AGAIN: "1"})
    if proc.returncode != 0:
        pytest.fail(f"run again in a fresh interpreter (threads ran here), it failed:\n{proc.stdout[-4000:]}"
                    f"{proc.stderr[-2000:]}")
    return False
