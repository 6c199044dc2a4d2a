"""Test helper: wait until the process pools of earlier tests have wound down.

Why: a pool shut down without waiting (a cancelled run) keeps its manager threads for as long as
its workers finish their current chunk, and joblib's reusable loky executor (used where forking
was not possible) keeps its threads until it has been idle for two minutes; while any thread runs,
`engine.audit.parallel.can_fork()` is False and the next test would get spawned (loky) workers
instead of forked ones, or skip.
"""
from __future__ import annotations

import threading
import time

POOL_THREADS = ("ExecutorManagerThread", "QueueFeederThread")


def wait_for_pools(timeout: float = 10.0) -> bool:
    """True once no pool thread runs (False if some still do after `timeout` seconds). An idle
    reusable loky executor is shut down (the next call that needs one starts another)."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:
        reusable_executor = None
    if reusable_executor is not None and reusable_executor._executor is not None:
        reusable_executor._executor.shutdown(wait=True)
    deadline = time.time() + timeout
    while time.time() < deadline:
        if not any(t.name.startswith(POOL_THREADS) for t in threading.enumerate()):
            return True
        time.sleep(0.05)
    return False
