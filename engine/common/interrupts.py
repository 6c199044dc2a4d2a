"""Ctrl+C that a command line run never loses.

Why: Python turns SIGINT into a KeyboardInterrupt at the next bytecode of the main thread,
wherever that is. Two places lost it during an audit that imported its statistics' modules while
it scored. (1) A weakref callback: the interpreter prints "Exception ignored in …" and goes on
(the import system's module-lock callback; CI, stop 46). (2) The import of a compiled module
(scipy's HiGHS wrapper, under scipy.stats): the interrupt vanished without a word, and the audit
went on to write its folder and exit 0 (1 of 200 interrupts in tests/test_audit_interrupt.py, four
runs of the file at once; ``pressed`` caught it, and the handler's stack showed where it had run).

So while a command runs (``guarded``), Ctrl+C also sets ``pressed``, which the long calls are handed
as their ``cancel`` (they check it between batches and before a results folder is put in place); an
interrupt swallowed in a callback is not printed but signalled again to the main thread; and a
command that returns although Ctrl+C was pressed is reported as cancelled (``main.py``).
``deferred`` holds Ctrl+C back over a block that must not be cut (imports).
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator


class Pressed:
    """A flag a signal handler may set: no lock (``threading.Event.set`` takes one, and a handler
    that runs while the main thread holds it would wait forever). ``is_set`` makes it a `cancel`."""

    def __init__(self) -> None:
        self._set = False
        self.noticed = False  # a cancel check has seen it: the run is stopping, nothing to signal again

    def set(self) -> None:
        self._set = True

    def clear(self) -> None:
        self._set = self.noticed = False

    def is_set(self) -> bool:
        if self._set:
            self.noticed = True
        return self._set


#: Set by Ctrl+C while ``guarded()`` is entered; hand it to a long call as its `cancel`.
pressed = Pressed()


@contextmanager
def guarded() -> Iterator[Pressed]:
    """While the block runs: Ctrl+C sets ``pressed`` and raises KeyboardInterrupt (as Python's own
    handler does), and a KeyboardInterrupt the interpreter swallows in a callback is signalled again
    once the hook that saw it has returned. Only in the main thread, and only where SIGINT is
    Python's default (not where it is ignored — a background job — or handled by someone else)."""
    pressed.clear()
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield pressed
        return
    hook = _RaiseAgain(sys.unraisablehook)
    try:
        signal.signal(signal.SIGINT, _on_ctrl_c)
        sys.unraisablehook = hook
        yield pressed
    finally:
        while True:  # a Ctrl+C can land at any step of putting things back: then all of it again
            try:
                _tear_down(hook)
                break
            except KeyboardInterrupt:
                hook.came = True
        if hook.came:  # raised once, after everything is back; the caller says "cancelled" once
            pressed.set()
            raise KeyboardInterrupt


def _tear_down(hook: "_RaiseAgain") -> None:
    """Put back what ``guarded`` changed; every step may be done twice (a review found a Ctrl+C
    that landed here skip the rest and leave the handler installed for good)."""
    hook.active = False  # a re-delivery not yet made is not made now
    with hook.lock:  # one being made has been made: its signal is pending here
        pass
    sys.unraisablehook = hook.previous
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a pending handler runs first (and raises)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold Ctrl+C back until the block ends, then raise it: for imports, where an interrupt can be
    lost inside a compiled module's initialisation. A handler that only records the press, rather
    than a blocked signal mask, because a blocked mask holds SIGINT back in this thread only — the
    kernel gives it to any other thread, and Python raises it here all the same."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, _on_ctrl_c):
        yield
        return
    came: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if came:  # also when the block failed: the cancel checks see it
            pressed.set()
    if came:
        raise KeyboardInterrupt


def _on_ctrl_c(_signum: int, _frame: Any) -> None:
    pressed.set()
    raise KeyboardInterrupt


class _RaiseAgain:
    """``sys.unraisablehook``: a KeyboardInterrupt is signalled again to the main thread, from a
    thread that waits until no hook runs (raised inside the hook, it would be swallowed the same
    way); anything else goes to the hook that was there before. A real signal, not
    ``_thread.interrupt_main``: it also ends a blocking wait at once, and ``deferred`` holds it."""

    def __init__(self, previous: Any) -> None:
        self.previous = previous
        self.inside = 0
        self.active = True
        self.came = False  # a Ctrl+C landed while ``guarded`` put things back
        self.lock = threading.Lock()  # taken by the delivering thread and by ``guarded``'s end only

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
        while self.inside and self.active:
            time.sleep(0.002)
        with self.lock:
            if not self.active or pressed.noticed:  # (signalled again then, it could cut the clean-up short)
                return
            if hasattr(signal, "pthread_kill"):
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            else:  # Windows
                import _thread

                _thread.interrupt_main()
