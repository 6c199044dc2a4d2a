"""The executor keeps the garbage collector off the memory a forked child shares with this process
(engine/common/executor/gc_hold.py): from each fork until the last child has ended."""
import gc
import resource
import sys
import time

import pytest

from engine.common.executor import LocalPool, can_fork, gc_hold
from engine.common.executor.forked_call import ForkedCall

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks: Linux only"),
              pytest.mark.timeout(120, method="signal")]


@pytest.fixture(autouse=True)
def _nothing_frozen_yet():
    """Each test starts with nothing frozen: a GUI test run earlier in this process froze its
    long-lived objects (gui/common/collector.py), which a hold then keeps frozen by design. They are
    frozen again afterwards, so the GUI tests that follow in this process see what the app sees."""
    was_frozen = gc.get_freeze_count() > 0
    gc.unfreeze()
    assert gc_hold.held() == 0
    yield
    if was_frozen:
        gc.freeze()


def _minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _faults_of_a_full_collection_while_a_child_lives() -> int:
    """Minor page faults this process takes for one full collection while a forked child shares its
    pages (a heap of 300,000 small lists, about 30 MB, made before the fork)."""
    heap = [[i] for i in range(300_000)]
    call = ForkedCall(time.sleep, 2.0)
    try:
        before = _minor_faults()
        gc.collect()
        return _minor_faults() - before
    finally:
        call.kill()
        del heap


def test_a_collection_while_a_child_lives_copies_no_shared_pages(monkeypatch):
    """Held, a full collection walks none of the objects the child shares, so it copies none of their
    pages; not held (the collector walking them all), it copies thousands."""
    held = _faults_of_a_full_collection_while_a_child_lives()
    monkeypatch.setattr(gc_hold, "hold", lambda: None)
    monkeypatch.setattr(gc_hold, "release", lambda: None)
    walked = _faults_of_a_full_collection_while_a_child_lives()
    assert walked > 2_000, walked  # 30 MB of lists: about 7,000 pages
    assert held < walked / 5, (held, walked)


def test_a_forked_call_holds_the_collector_until_it_ends():
    assert gc_hold.held() == 0 and gc.get_freeze_count() == 0
    call = ForkedCall(time.sleep, 0.2)
    assert gc_hold.held() == 1 and gc.get_freeze_count() > 0
    call.result()
    assert gc_hold.held() == 0 and gc.get_freeze_count() == 0
    killed = ForkedCall(time.sleep, 5)
    killed.kill()
    assert gc_hold.held() == 0 and gc.get_freeze_count() == 0


def test_the_collector_is_handed_back_only_when_the_last_child_has_ended():
    if not can_fork():
        pytest.skip("this process runs threads: pools are not forked here")
    call = ForkedCall(time.sleep, 0.3)
    with LocalPool(1) as pool:
        assert pool.forked and gc_hold.held() == 2
        call.result()
        assert gc_hold.held() == 1 and gc.get_freeze_count() > 0  # the pool's worker still shares them
        assert pool.submit(sum, [1, 2]).result() == 3
    assert gc_hold.held() == 0 and gc.get_freeze_count() == 0


def test_objects_frozen_before_the_first_fork_stay_frozen():
    """The GUI freezes its long-lived objects (gui/common/collector.py): a fork's hold must not undo
    that when its child ends (an unfreeze cannot tell whose objects it hands back)."""
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        ForkedCall(time.sleep, 0.1).result()
        assert gc_hold.held() == 0 and gc.get_freeze_count() >= before > 0
    finally:
        gc.unfreeze()
