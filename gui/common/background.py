"""Run a short engine call off the UI thread and get its result back on the UI thread.

Why: the checker now also realises every counterfactual pair and takes up to a second on a
large corpus; run on the UI thread it would freeze typing. A QThreadPool task runs the call
on a snapshot, and its result arrives as a queued signal. Callers drop results that are older
than the latest request (``Latest``), so a slow run never overwrites a newer one.
"""
from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Relay(QObject):
    done = Signal(int, object)
    failed = Signal(int, object)


class _Task(QRunnable):
    def __init__(self, ticket: int, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.ticket, self.fn, self.relay = ticket, fn, relay
        self.setAutoDelete(True)

    def run(self) -> None:  # worker thread: no widgets here, only the engine call
        try:
            result = self.fn()
        except BaseException as exc:  # delivered to the UI thread as a readable error
            self._deliver(self.relay.failed, exc)
            return
        self._deliver(self.relay.done, result)

    def _deliver(self, signal: Any, payload: Any) -> None:
        # The window that asked may have closed while we worked (its relay deleted with it):
        # the result then has nobody to go to and is dropped, as a stale result would be.
        try:
            signal.emit(self.ticket, payload)
        except RuntimeError:
            pass


def pool() -> QThreadPool:
    return QThreadPool.globalInstance()


class Latest(QObject):
    """Runs ``fn`` in the pool; only the result of the most recent call reaches ``on_done``."""

    def __init__(self, on_done: Callable[[Any], None], on_error: Callable[[BaseException], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticket = 0
        self.busy = 0
        self.on_done, self.on_error = on_done, on_error
        # No Qt parent: the running task keeps the relay alive even if this object dies first,
        # and Qt drops the connection to a dead receiver, so late results are simply ignored.
        self.relay = _Relay()
        self.relay.done.connect(self._done)
        self.relay.failed.connect(self._failed)

    def submit(self, fn: Callable[[], Any]) -> int:
        self._ticket += 1
        self.busy += 1
        pool().start(_Task(self._ticket, fn, self.relay))
        return self._ticket

    @property
    def idle(self) -> bool:
        return self.busy == 0

    def drop(self) -> None:
        """Forget the call in flight: its result (or error) will not reach the callbacks."""
        self._ticket += 1

    def _done(self, ticket: int, result: Any) -> None:
        self.busy -= 1
        if ticket == self._ticket:
            self.on_done(result)

    def _failed(self, ticket: int, exc: BaseException) -> None:
        self.busy -= 1
        if ticket == self._ticket:
            self.on_error(exc)


class Each(QObject):
    """Runs several independent calls in the pool; each result arrives as it is ready.

    A new ``submit_all`` makes the results of an earlier batch stale (they are dropped).
    """

    def __init__(self, on_item: Callable[[int, Any], None], on_error: Callable[[int, BaseException], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.on_item, self.on_error = on_item, on_error
        self._batch = 0
        self.pending = 0
        self.relay = _Relay()  # no parent: see Latest
        self.relay.done.connect(self._done)
        self.relay.failed.connect(self._failed)

    def submit_all(self, fns: list[Callable[[], Any]]) -> None:
        self._batch += 1
        self.pending = len(fns)
        for i, fn in enumerate(fns):
            pool().start(_Task(self._batch * 1_000_000 + i, fn, self.relay))

    def _split(self, ticket: int) -> tuple[int, int]:
        return divmod(ticket, 1_000_000)

    def _done(self, ticket: int, result: Any) -> None:
        batch, i = self._split(ticket)
        if batch == self._batch:
            self.pending -= 1
            self.on_item(i, result)

    def _failed(self, ticket: int, exc: BaseException) -> None:
        batch, i = self._split(ticket)
        if batch == self._batch:
            self.pending -= 1
            self.on_error(i, exc)
