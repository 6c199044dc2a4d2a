"""The garbage collector kept off the memory this process shares with its forked children.

Why: a forked child shares this process's pages until one side writes to them. A full collection
walks every object the collector tracks and writes to its header, so one run in this process while
a child lives copies most of its heap, page by page (and one in the child, the same there). The
audit of the four English corpora with VADER and TextBlob and two processes took 124,406 minor page
faults and 0.65 s of system time in all its processes, against 51,007 and 0.38 s with one process
(the audit process alone, traced: 91,619 against 53,351). ``gc.freeze()`` before each fork moves
every object tracked so far to a generation no collection walks, in this process and in the child
it forks; objects made afterwards are collected as usual. Over 12 alternated runs of that command
with ``--jobs 2`` (a fresh cache and folder each) the median went 4.00 -> 3.70 s, and the CPU of
all its processes 7.04 -> 6.65 s (docs/benchmarks.md).

When the last child this process forked has ended, ``gc.unfreeze()`` hands the objects back to the
collector, so a long-lived process (a notebook, the GUI's audit process) collects its cyclic garbage
from before the fork as it did — unless objects were frozen before the first fork (the GUI freezes
its long-lived objects, gui/common/collector.py): an unfreeze cannot tell whose they are, so then
everything stays frozen, as the process had chosen.
"""
from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_held = 0  # forked children (pools or calls) alive that share this process's memory
_frozen_before = False  # objects were frozen before the first hold (by someone else): never unfrozen here


def hold() -> None:
    """Right before a fork: every object tracked so far stays out of the collector's walks until
    the matching ``release``."""
    global _held, _frozen_before
    with _lock:
        if _held == 0:
            _frozen_before = gc.get_freeze_count() > 0
        _held += 1
        gc.freeze()


def release() -> None:
    """A child forked after ``hold`` has ended: once none is left, the objects go back to the
    collector (its oldest generation)."""
    global _held
    with _lock:
        if _held == 0:
            return
        _held -= 1
        if _held == 0 and not _frozen_before:
            gc.unfreeze()


def held() -> int:
    """How many forked children this process is holding the collector off for (tests)."""
    return _held
