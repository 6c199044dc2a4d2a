"""Ctrl+C that a command line run never loses.

Why: Python turns SIGINT into a KeyboardInterrupt at the next bytecode of the main thread,
wherever that is. Two places lost it during an audit that imported its statistics' modules while
it scored. (1) A weakref callback: the interpreter prints "Exception ignored in …" and goes on
(the import system's module-lock callback; CI, stop 46). (2) The import of a compiled module
(scipy's HiGHS wrapper, under scipy.stats): the interrupt vanished without a word, and the audit
went on to write its folder and exit 0 (1 of 200 interrupts in tests/test_audit_interrupt.py, four
runs of the file at once; ``pressed`` caught it, and the handler's stack showed where it had run).
So while a command runs, Ctrl+C also sets ``pressed``, which the long calls are handed as their
``cancel`` (they check it between batches and before anything is written), and an interrupt
swallowed in a callback is not printed but raised again.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

#: Set by Ctrl+C while ``guarded()`` is entered; hand it to a long call as its `cancel`.
pressed = threading.Event()


@contextmanager
def guarded() -> Iterator[threading.Event]:
    """While the block runs: Ctrl+C sets ``pressed`` and raises KeyboardInterrupt (as Python's own
    handler does), and a KeyboardInterrupt the interpreter would swallow is raised again once the
    hook that saw it has returned. Nothing changes where SIGINT is ignored (a background job) or
    handled by someone else, nor outside the main thread."""
    pressed.clear()
    main = threading.current_thread() is threading.main_thread()
    previous_handler = signal.getsignal(signal.SIGINT) if main else None
    ours = previous_handler is signal.default_int_handler
    if ours:
        signal.signal(signal.SIGINT, _on_ctrl_c)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _RaiseAgain(previous_hook)
    try:
        yield pressed
    finally:
        sys.unraisablehook = previous_hook
        if ours:
            signal.signal(signal.SIGINT, previous_handler)


def _on_ctrl_c(_signum: int, _frame: Any) -> None:
    pressed.set()
    raise KeyboardInterrupt


class _RaiseAgain:
    """``sys.unraisablehook``: a KeyboardInterrupt is raised again in the main thread, from a thread
    that waits until no hook runs (raised inside the hook, it would be swallowed the same way);
    anything else goes to the hook that was there before."""

    def __init__(self, previous: Any) -> None:
        self.previous = previous
        self.inside = 0

    def __call__(self, unraisable: Any) -> None:
        self.inside += 1
        try:
            if isinstance(unraisable.exc_value, KeyboardInterrupt):
                pressed.set()
                threading.Thread(target=self._deliver, name="ctrl-c-again", daemon=True).start()
            else:
                self.previous(unraisable)
        finally:
            self.inside -= 1

    def _deliver(self) -> None:
        import _thread

        while self.inside:
            time.sleep(0.002)
        _thread.interrupt_main()  # nothing, where SIGINT is no longer Python's to handle
