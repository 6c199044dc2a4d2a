"""The executor's ``ForkedCall``: one call in a forked child while the caller goes on, with no thread
left in the caller (so the caller can still fork a pool meanwhile)."""
import os
import sys
import threading
import time

import pytest

from engine.common.executor import can_fork
from engine.common.executor.forked_call import ForkedCall, ForkedCallFailed
from engine.common.progress import Cancelled

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks: Linux only"),
              pytest.mark.timeout(120, method="signal")]  # the thread watchdog would be a second thread


class Planted(ValueError):
    pass


class Unpicklable(Exception):
    """Holds a lock: no pickler sends it (whatever pickling support another test installed)."""

    def __init__(self, text):
        super().__init__(text)
        self.lock = threading.Lock()


def _big(n):
    return os.getpid(), bytes(range(256)) * n


def _raises(kind):
    if kind == "planted":
        raise Planted("the call's own error")
    if kind == "unpicklable":
        raise Unpicklable("x")
    os._exit(3)


def test_the_value_comes_back_from_another_process_larger_than_a_pipe():
    call = ForkedCall(_big, 4096)  # 1 MiB: more than a pipe holds, written while read
    pid, data = call.result()
    assert pid != os.getpid() and data == bytes(range(256)) * 4096
    assert threading.active_count() == 1 or not can_fork()


def test_the_caller_goes_on_and_may_fork_meanwhile(request):
    from testkit.fresh_process import fork_here_or_in_a_fresh_process

    if not fork_here_or_in_a_fresh_process(request):
        return  # ran, and passed, in a fresh interpreter
    call = ForkedCall(time.sleep, 0.5)
    assert can_fork(), "a ForkedCall must leave no thread behind"
    assert not call.done()
    other = ForkedCall(_big, 1)
    assert other.result()[0] != os.getpid()
    assert call.result() is None and call.done()


def test_the_calls_exception_is_raised_as_its_own_class():
    with pytest.raises(Planted, match="the call's own error"):
        ForkedCall(_raises, "planted").result()


def test_an_exception_that_cannot_be_sent_comes_back_as_its_traceback():
    with pytest.raises(ForkedCallFailed, match="Unpicklable: x"):
        ForkedCall(_raises, "unpicklable").result()


def test_a_child_that_dies_says_so():
    with pytest.raises(ForkedCallFailed, match="exit status 3"):
        ForkedCall(_raises, "exit").result()


def test_cancel_kills_the_child():
    call = ForkedCall(time.sleep, 60)
    t = time.perf_counter()
    with pytest.raises(Cancelled):
        call.result(cancel=lambda: time.perf_counter() - t > 0.3)
    assert time.perf_counter() - t < 5
    with pytest.raises(ChildProcessError):
        os.waitpid(call.pid, os.WNOHANG)  # reaped: no zombie left
