"""Test helper: wait until the process pools of earlier tests have wound down.

Why: a pool shut down without waiting (a cancelled run) keeps its manager threads for as long as
its workers finish their current chunk, and joblib's reusable executor (used where forking was not
possible) keeps its threads until it has been idle for two minutes; while any thread runs,
`engine.common.executor.can_fork()` is False and the next test would get spawned workers instead of
forked ones, or skip. The executor owns the pools, so it says when they are gone.
"""
from __future__ import annotations


def wait_for_pools(timeout: float = 10.0) -> bool:
    """True once no pool thread runs (False if some still do after `timeout` seconds). An idle
    reusable executor is shut down (the next call that needs one starts another)."""
    from engine.common.executor import wait_until_idle

    return wait_until_idle(timeout)
