"""Keep Python's full garbage collections short on the UI thread.

Why: a full collection walks every container object the process holds — the modules, classes
and functions of PySide6, pandas and pyqtgraph (100,000 objects once the Results page is built;
200,000 after an audit ran inside the app) — and it runs on whichever thread happens to
allocate at the wrong moment, often the UI thread while a large audit is being drawn: 0.1–0.3 s
frozen on a loaded two-core machine (bench/bench_gui_stall.py). What is alive once a page is
built is nearly all imported code and the app's own widgets, which live as long as the app, so
it is moved out of the collector's walks (``gc.freeze``); later collections only walk what came
after. Frozen objects are still freed by reference counting when their last user goes; only a
reference cycle among them that dies later stays in memory — bounded by what was alive when it
was frozen, which is the price of a window that does not freeze.
"""
from __future__ import annotations

import gc


def freeze_long_lived() -> None:
    """Collect once, then exempt everything alive now from later full collections.

    Call it where a pause is expected anyway (start-up, building a page), never while the
    user waits on the window."""
    gc.collect()
    gc.freeze()
