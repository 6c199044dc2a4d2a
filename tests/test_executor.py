"""engine.common.executor: one interface (map tasks → results in order, with progress and cancel)
over three backends — in this process, a local pool (forked, or loky's), a Dask cluster — and the
only module of the project that makes process pools, forks or Dask clients."""
from __future__ import annotations

import ast
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.common.executor import InProcess, LocalPool, TwoEnded, can_fork, inherited, local_executor
from engine.common.progress import Cancelled

# forked workers: the watchdog thread of the suite's timeout (pyproject: timeout_method = "thread")
# would make can_fork() False and these tests skip; no Qt event loop runs here, so SIGALRM stops a hang
pytestmark = pytest.mark.timeout(600, method="signal")

ROOT = Path(__file__).resolve().parents[1]
EXECUTOR = "engine/common/executor/"
#: what makes processes or clusters: module imports, names imported from a module, attributes called
POOL_MODULES = ("multiprocessing", "joblib.externals.loky", "loky", "dask.distributed")
POOL_NAMES = {"concurrent.futures": {"ProcessPoolExecutor"}, "joblib": {"Parallel"}}
POOL_ATTRS = {"ProcessPoolExecutor", "get_reusable_executor", "LocalCluster", "fork", "forkpty"}
ALLOWED_DISTRIBUTED = {"get_worker"}  # a task asking which worker runs it makes nothing


def pool_makers(root: Path) -> list[str]:
    """'path:line what' for every pool, fork or Dask client made outside the executor package."""
    found = []
    folders = [root / "engine", root / "gui", root / "bench", root / "tools", root / "testkit"]
    files = [p for folder in folders if folder.exists() for p in folder.rglob("*.py")] + [root / "main.py"]
    for path in sorted(files):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(EXECUTOR):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            what = None
            if isinstance(node, ast.Import):
                bad = [a.name for a in node.names if a.name.startswith(POOL_MODULES) or a.name == "distributed"]
                what = f"import {bad[0]}" if bad else None
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = {a.name for a in node.names}
                if node.module.startswith(POOL_MODULES):
                    what = f"from {node.module} import …"
                elif node.module == "distributed" and names - ALLOWED_DISTRIBUTED:
                    what = f"from distributed import {sorted(names - ALLOWED_DISTRIBUTED)}"
                elif names & POOL_NAMES.get(node.module, set()):
                    what = f"from {node.module} import {sorted(names & POOL_NAMES[node.module])}"
            elif isinstance(node, ast.Attribute) and node.attr in POOL_ATTRS:
                what = f".{node.attr}"
            if what:
                found.append(f"{rel}:{node.lineno} {what}")
    return found


def test_pools_forks_and_dask_clients_are_made_only_by_the_executor():
    assert pool_makers(ROOT) == [], "make them through engine.common.executor"


def test_the_check_finds_what_it_looks_for(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "main.py").write_text("import os\npid = os.fork()\n")
    (tmp_path / "engine" / "a.py").write_text(
        "from concurrent.futures import ProcessPoolExecutor, wait\nimport multiprocessing.connection\n"
        "from distributed import Client, get_worker\nfrom joblib.externals.loky import get_reusable_executor\n")
    (tmp_path / "engine" / "fine.py").write_text(
        "from concurrent.futures import ThreadPoolExecutor\nfrom distributed import get_worker\n"
        "'''a docstring may say multiprocessing or LocalCluster'''\n")
    assert pool_makers(tmp_path) == [
        "engine/a.py:1 from concurrent.futures import ['ProcessPoolExecutor']",
        "engine/a.py:2 import multiprocessing.connection",
        "engine/a.py:3 from distributed import ['Client']",
        "engine/a.py:4 from joblib.externals.loky import …",
        "main.py:2 .fork",
    ]


# -- the backends ---------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _pools_wound_down():
    from testkit.pools import wait_for_pools

    wait_for_pools()
    yield


def _square_slowly(x: int) -> int:
    time.sleep(0.002 * (x % 5))  # uneven: tasks finish out of order
    return x * x


def _pid_and_square(x: int) -> tuple[int, int]:
    time.sleep(0.02)
    return os.getpid(), x * x


class TaskFailed(Exception):
    """A task's own error class (a worker's copy must reach the caller as this class)."""


class NeedsTwoArgs(Exception):
    """An error that cannot be unpickled as it is (its __init__ wants two arguments)."""

    def __init__(self, what: str, where: int):
        super().__init__(f"{what} at {where}")


def _fails_at(x: int) -> int:
    if x in (7, 11):
        raise TaskFailed(f"task {x}")
    return x


def _fails_oddly(x: int) -> int:
    if x == 3:
        raise NeedsTwoArgs("odd", x)
    return x


def _slow(x: int) -> int:
    time.sleep(0.1)
    return x


def test_in_process_and_a_local_pool_give_the_same_results_in_order():
    tasks = list(range(40))
    expected = [x * x for x in tasks]
    assert InProcess().map(_square_slowly, tasks) == expected
    with LocalPool(1) as pool:
        assert pool.map(_square_slowly, tasks) == expected
    with local_executor(1) as one:
        assert isinstance(one, InProcess)


def test_the_caller_takes_tasks_from_the_back_while_the_worker_takes_the_front():
    with LocalPool(1) as pool:
        out = pool.map(_pid_and_square, range(30))
    assert [sq for _pid, sq in out] == [x * x for x in range(30)]
    pids = [pid for pid, _sq in out]
    assert pids[0] != os.getpid() and pids[-1] == os.getpid()  # both computed, each from its end
    assert set(pids) == {pids[0], os.getpid()}


def test_an_order_changes_who_takes_what_not_the_results_or_the_first_error():
    """`order` (the audit hands its longest statistics out first): the worker starts with order[0],
    this process takes from the order's back; results and the error raised stay those of task order."""
    order = list(range(29, -1, -1))  # the last task first
    with LocalPool(1) as pool:
        out = pool.map(_pid_and_square, range(30), order=order)
    assert [sq for _pid, sq in out] == [x * x for x in range(30)]
    pids = [pid for pid, _sq in out]
    assert pids[-1] != os.getpid() and pids[0] == os.getpid()  # the other way round from task order
    with pytest.raises(TaskFailed, match="task 7"), LocalPool(1) as pool:  # 11 is handed out first, 7 is first in task order
        pool.map(_fails_at, range(20), here=_slowly_here(_fails_at), order=list(range(19, -1, -1)))
    with pytest.raises(ValueError, match="each of the 3 task indices once"), LocalPool(1) as pool:
        pool.map(_square_slowly, range(3), order=[0, 0, 1])
    assert InProcess().map(_square_slowly, range(5), order=[4, 3, 2, 1, 0]) == [0, 1, 4, 9, 16]


@pytest.mark.parametrize("backend", ["in-process", "pool"])
def test_progress_counts_every_task_and_on_result_sees_each_once(backend):
    seen, got = [], {}
    ex = InProcess() if backend == "in-process" else LocalPool(1)
    with ex:
        ex.map(_square_slowly, range(25), progress=lambda d, t, e: seen.append((d, t)),
               on_result=lambda i, v: got.setdefault(i, v))
    assert [d for d, _t in seen] == list(range(1, 26)) and {t for _d, t in seen} == {25}
    assert got == {x: x * x for x in range(25)}


@pytest.mark.parametrize("backend", ["in-process", "pool"])
def test_cancel_stops_early_and_raises_cancelled(backend):
    stop = threading.Event()
    done = []

    def arrived(i, _v):
        done.append(i)
        if len(done) >= 3:
            stop.set()

    ex = InProcess() if backend == "in-process" else LocalPool(1)
    with pytest.raises(Cancelled) as exc:
        with ex:
            ex.map(_slow, range(60), cancel=stop, on_result=arrived)
    assert exc.value.total == 60 and 3 <= exc.value.done < 10
    assert len(done) < 10  # the remaining tasks were not computed


def _slowly_here(fn):
    """This process's way of computing a task: slower, so the worker surely takes the first ones."""
    def here(x):
        time.sleep(0.05)
        return fn(x)
    return here


@pytest.mark.parametrize("backend", ["in-process", "pool"])
def test_a_task_s_error_is_raised_as_its_own_class_the_first_in_task_order(backend):
    ex = InProcess() if backend == "in-process" else LocalPool(1)
    with pytest.raises(TaskFailed, match="task 7"), ex:  # 11 fails too, in this process
        ex.map(_fails_at, range(20), here=_slowly_here(_fails_at))
    ex = InProcess() if backend == "in-process" else LocalPool(1)
    with pytest.raises(NeedsTwoArgs, match="odd at 3"), ex:  # a worker's copy could not even be unpickled
        ex.map(_fails_oddly, range(8), here=_slowly_here(_fails_oddly))


def _take_front_slowly(n: int) -> list[int]:
    queue, taken = inherited("two-ended"), []
    while (i := queue.take_front()) is not None:
        taken.append(i)
        time.sleep(0.01)
    return taken


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers are Linux-only")
def test_two_ended_indices_are_each_taken_once_from_either_end():
    """The audit's corpora: a forked helper takes from the front, this process from the back, until
    they meet — every index exactly once, whoever is faster."""
    if not can_fork():
        pytest.skip("another thread runs in this test process: the pool would not be forked")
    for pause_here in (0.005, 0.03):
        queue = TwoEnded(40)
        with LocalPool(1, inherit={"two-ended": queue}) as pool:
            theirs = pool.submit(_take_front_slowly, 40)
            mine = []
            while (i := queue.take_back()) is not None:
                mine.append(i)
                time.sleep(pause_here)
            theirs = theirs.result()
        assert sorted(theirs + mine) == list(range(40))
        assert theirs == list(range(len(theirs))) and mine == list(range(39, len(theirs) - 1, -1))
        assert list(queue.front_taken()) == theirs
        assert theirs and mine  # both took some (the helper sleeps 10 ms an index)


def _handed(folder):
    from engine.common.executor.handoff import hand_over

    return hand_over({"big": b"x" * 3_000_000, "pid": os.getpid()}, folder)


def test_a_large_result_comes_back_through_a_private_file_that_is_then_removed(tmp_path):
    from engine.common.executor.handoff import handoff_folder, take_over

    with handoff_folder() as folder:
        assert (folder.stat().st_mode & 0o777) == 0o700  # nobody else may put a pickle there
        with LocalPool(1) as pool:
            path = pool.submit(_handed, folder).result()
        assert path.parent == folder and path.stat().st_size > 3_000_000
        value = take_over(path)
        assert value["big"] == b"x" * 3_000_000 and value["pid"] != os.getpid()
        assert not path.exists()
        left = folder / "left.pickle"
        left.write_bytes(b"not taken over")
    assert not folder.exists()  # removed with what was left in it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads process ids")
def test_hand_over_folders_of_processes_that_no_longer_run_are_removed(tmp_path, monkeypatch):
    """A killed audit cannot remove its hand-over folder (corpus pickles): the next one removes it,
    and leaves alone those of processes still running and anything else in the temp folder."""
    import subprocess
    import tempfile

    from engine.common.executor.handoff import handoff_folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    orphan = tmp_path / f"eec-handoff-{gone}-abc"
    orphan.mkdir()
    (orphan / "x.pickle").write_bytes(b"left by a killed audit")
    alive = tmp_path / f"eec-handoff-{os.getppid()}-def"  # our parent runs
    alive.mkdir()
    other = tmp_path / "eec-handoff-notapid-ghi"
    other.mkdir()
    with handoff_folder() as mine:
        assert not orphan.exists() and alive.exists() and other.exists()
        assert mine.name.startswith(f"eec-handoff-{os.getpid()}-") and mine.parent == tmp_path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers are Linux-only")
def test_a_forked_pool_hands_its_workers_what_it_is_given():
    if not can_fork():
        pytest.skip("another thread runs in this test process: the pool would not be forked")
    unpicklable = threading.Lock()  # could never be sent to a worker
    with LocalPool(1, inherit={"lock": unpicklable}) as pool:
        assert pool.forked
        assert pool.submit(_has_inherited, "lock").result() is True
        assert pool.submit(_has_inherited, "other").result() is False
    assert inherited("lock") is None  # this process keeps no reference


def _has_inherited(key: str) -> bool:
    return inherited(key) is not None


DASK_CHECK = """
import sys, time
sys.path.insert(0, sys.argv[1])
from engine.common.executor import DaskBackend, InProcess
from engine.common.progress import Cancelled


class TaskFailed(Exception):
    pass

def square(x):
    time.sleep(0.002 * (x % 5))
    return x * x

def fails_at(x):
    if x in (7, 11):
        raise TaskFailed(f"task {x}")
    return x

def slow(x):
    time.sleep(0.1)
    return x

with DaskBackend.local(1, processes=False) as cluster:
    assert len(cluster.workers()) == 1
    seen = []
    assert cluster.map(square, range(30), progress=lambda d, t, e: seen.append(d)) == InProcess().map(square, range(30))
    assert sorted(seen) == list(range(1, 31)), seen
    try:
        cluster.map(fails_at, range(20))
        raise AssertionError("no error")
    except TaskFailed as exc:  # its own class; the first failure to come back
        assert str(exc) in ("task 7", "task 11") and exc.failed_task in (7, 11), exc
    back, abandoned = [], []
    try:
        cluster.map(slow, range(40), cancel=lambda: len(back) >= 2, on_result=lambda i, v: back.append(i),
                    on_abandon=abandoned.append)
        raise AssertionError("not cancelled")
    except Cancelled:
        assert abandoned and abandoned[0] > 20, abandoned  # the tasks still queued were cancelled
print("dask ok")
"""


def test_dask_backend_gives_the_same_results_errors_and_cancel():
    """In a child process: a Dask client leaves a thread running in its process for good, which
    would keep the later tests of this process from forking."""
    import subprocess

    pytest.importorskip("distributed")
    out = subprocess.run([sys.executable, "-c", DASK_CHECK, str(ROOT)], capture_output=True, text=True, timeout=180)
    assert out.returncode == 0 and "dask ok" in out.stdout, out.stdout + out.stderr


BOOT = ("import sys; sys.path.insert(0, sys.argv[3]); from engine.common.executor import child_pipes; "
        "inbox, outbox = child_pipes(int(sys.argv[1]), int(sys.argv[2])); outbox.send(('echo', inbox.recv()))")


def test_a_child_program_with_two_pipes():
    from engine.common.executor import start_child

    proc, outbox, inbox = start_child(BOOT.replace("sys.argv[3]", repr(str(ROOT))), dict(os.environ))
    try:
        outbox.send({"job": 1})
        assert inbox.poll(60) and inbox.recv() == ("echo", {"job": 1})
    finally:
        assert proc.wait(60) == 0
        outbox.close()
        inbox.close()
