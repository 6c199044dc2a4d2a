"""Long UI-thread work in steps (gui.common.steps) and the table that sizes its columns that way:
the work is spread over several event-loop turns, ends complete and correct, and a newer run
drops what is left of an older one."""
from __future__ import annotations

import pandas as pd
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from gui.common.frame_table import FrameTable  # noqa: E402
from gui.common.steps import Steps  # noqa: E402


def _counting(done: list, name: str, n: int):
    for i in range(n):
        done.append((name, i))
        yield


def test_steps_run_over_several_turns_and_complete(qtbot):
    steps = Steps(budget_s=0)  # one step per turn
    done: list = []
    finished: list = []
    steps.start(_counting(done, "a", 5), lambda: finished.append(True))
    assert steps.running and done == []  # nothing runs inside start()
    qtbot.waitUntil(lambda: not steps.running, timeout=5_000)
    assert done == [("a", i) for i in range(5)] and finished == [True]
    assert steps.turns >= 5  # one step per turn (and one more to find the end)


def test_a_newer_run_drops_the_rest_of_an_older_one(qtbot):
    steps = Steps(budget_s=0)
    done: list = []
    finished: list = []
    steps.start(_counting(done, "old", 10**6), lambda: finished.append("old"))  # far more than a test waits for
    qtbot.waitUntil(lambda: len(done) >= 2, timeout=5_000)
    steps.start(_counting(done, "new", 3), lambda: finished.append("new"))
    qtbot.waitUntil(lambda: not steps.running, timeout=5_000)
    qtbot.wait(30)
    old = [i for name, i in done if name == "old"]
    assert 2 <= len(old) < 10**6 and old == list(range(len(old)))
    assert [i for name, i in done if name == "new"] == [0, 1, 2] and finished == ["new"]
    steps.start(_counting(done, "cancelled", 50))
    steps.cancel()
    qtbot.wait(30)
    assert not [d for d in done if d[0] == "cancelled"] and not steps.running


def test_finish_runs_the_rest_at_once(qtbot):
    steps = Steps(budget_s=0)
    done: list = []
    finished: list = []
    steps.start(_counting(done, "a", 20), lambda: finished.append(True))
    steps.finish()
    assert len(done) == 20 and finished == [True] and not steps.running
    qtbot.wait(30)
    assert len(done) == 20 and finished == [True]  # the scheduled turn found nothing left


def test_a_wide_table_is_sized_one_column_per_turn_and_ends_like_sizing_at_once(qtbot):
    frame = pd.DataFrame({f"column {c}": [f"{'w' * (c % 7 + 1)} {r}" for r in range(300)] for c in range(40)})
    frame["long"] = "x" * 400  # capped at 420 px
    frame["number"] = [r * 1.5 for r in range(300)]
    staged, at_once = FrameTable(), FrameTable()
    for t in (staged, at_once):
        qtbot.addWidget(t)
        t.resize(900, 500)
        t.show()
    staged._sizing.budget_s = 0
    staged.set_frame(frame)
    assert staged.sizing and staged.model.rowCount() == 300
    qtbot.waitUntil(lambda: not staged.sizing, timeout=10_000)
    assert staged._sizing.turns >= len(frame.columns)
    at_once.model.set_frame(frame)
    at_once.view.resizeColumnsToContents()
    want = [min(at_once.view.columnWidth(c), 420) for c in range(len(frame.columns))]
    assert [staged.view.columnWidth(c) for c in range(len(frame.columns))] == want
    assert want[-2] == 420 and staged.view.updatesEnabled()
    # every cell reads back right from the column lists made on first use
    model = staged.model
    for r in (0, 151, 299):
        for c in (0, 17, 40, 41):
            assert model.data(model.index(r, c), Qt.UserRole) == frame.iat[r, c]


def test_a_newer_frame_drops_the_older_sizing(qtbot):
    table = FrameTable()
    qtbot.addWidget(table)
    table.show()
    table._sizing.budget_s = 0
    table.set_frame(pd.DataFrame({f"c{i}": ["a" * 30] for i in range(30)}))
    table.set_frame(pd.DataFrame({"only": ["x"]}))
    qtbot.waitUntil(lambda: not table.sizing, timeout=5_000)
    assert table._sizing.turns <= 2 and table.model.columnCount() == 1 and table.view.updatesEnabled()


def test_long_lived_objects_leave_the_collectors_walks():
    import gc

    from gui.common.collector import freeze_long_lived

    alive = {"kept": [1, 2, 3]}  # a container the collector tracks
    assert any(o is alive for o in gc.get_objects())
    try:
        freeze_long_lived()
        assert gc.get_freeze_count() > 0
        assert not any(o is alive for o in gc.get_objects())  # full collections no longer walk it
        later = {"new": []}
        assert any(o is later for o in gc.get_objects())  # newer objects are collected as usual
    finally:
        gc.unfreeze()


def _closing_run(log: list, name: str, n: int, then=None, cycle=None):
    held = cycle  # noqa: F841 - the caller puts this generator in it: a reference cycle, as a view's drawing makes
    try:
        for i in range(n):
            if then is not None and i == 1:
                then()  # a step that starts a newer run, or cancels this one
            yield
    finally:
        import threading

        log.append((name, threading.current_thread() is threading.main_thread()))


@pytest.mark.parametrize("how", ["newer run", "cancel", "newer run from a step", "cancel from a step"])
def test_a_dropped_run_is_closed_at_once_on_the_ui_thread(qtbot, how):
    """A drawing's generator dropped half-way was left to the garbage collector; in a reference cycle
    it was finalised by whichever thread collected next, and once a thread-pool task deleted Qt
    objects off the UI thread and the test run hung. Now it is closed when it is dropped (or, when a
    step of its own dropped it, as soon as that step returns), on the UI thread."""
    import gc

    steps = Steps(budget_s=0)
    log: list = []
    from_step = "from a step" in how
    drop = (lambda: steps.start(iter(()))) if "newer" in how else steps.cancel
    cycle: list = []
    run = _closing_run(log, "old", 10**6, then=drop if from_step else None, cycle=cycle)
    cycle.append(run)
    del run
    gc.disable()  # no collection decides it: only the drop itself may close the run
    try:
        steps.start(cycle[0])
        del cycle
        qtbot.waitUntil(lambda: steps.turns >= 3 or bool(log), timeout=5_000)
        if not from_step:
            drop()
        assert log == [("old", True)]  # closed now, here: its finally block ran
    finally:
        gc.enable()
