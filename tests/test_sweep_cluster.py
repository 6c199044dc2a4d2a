"""A sweep on a real Dask cluster: `dask scheduler` and two `dask worker` processes on 127.0.0.1,
one of them killed mid-sweep; the statistics equal a local audit's."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from engine.audit import AuditPlan, run_audit
from engine.sweep import SweepError, run_sweep

DASK = Path(sys.executable).parent / "dask"
pytestmark = pytest.mark.skipif(not DASK.exists(), reason="the dask command (package distributed) is not installed")


def _wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{what} did not happen within {timeout} s")


class Cluster:
    """A scheduler on a free port (``--port 0``; the address comes back in the scheduler file) and
    worker processes, each in its own process group so a kill takes the nanny with it."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.file = tmp / "scheduler.json"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the workers import this checkout's engine
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []

    def _spawn(self, *args: str, log: str) -> subprocess.Popen:
        out = open(self.tmp / log, "wb")
        proc = subprocess.Popen([str(DASK), *args], stdout=out, stderr=subprocess.STDOUT, env=self.env, cwd=self.tmp,
                                start_new_session=True)
        self.procs.append(proc)
        return proc

    def start(self, workers: int) -> str:
        self._spawn("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(self.file), log="scheduler.log")
        _wait_for(lambda: self.file.exists() and self.file.stat().st_size > 0, 30, "the scheduler start")
        for i in range(workers):
            self.workers.append(self._spawn("worker", "--scheduler-file", str(self.file), "--nthreads", "1",
                                            "--nworkers", "1", "--no-dashboard", "--host", "127.0.0.1",
                                            "--name", f"w{i}", "--death-timeout", "30", log=f"worker{i}.log"))
        address = json.loads(self.file.read_text())["address"]
        from distributed import Client

        with Client(address, timeout="20s") as client:
            client.wait_for_workers(workers, timeout=40)
        return address

    def kill_worker(self, i: int) -> None:
        os.killpg(self.workers[i].pid, signal.SIGKILL)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)


@pytest.fixture(autouse=True)
def deadline():
    """No sweep test may hang the suite: SIGALRM interrupts the client's wait after 90 s (run_sweep
    then cancels its tasks, and the cluster fixture still stops every process)."""
    def expire(_sig, _frame):
        raise TimeoutError("sweep test exceeded 90 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(90)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        address = c.start(workers=2)
        yield c, address
    finally:
        c.stop()


def test_a_worker_that_cannot_see_a_model_file_is_named(cluster, tmp_path):
    _c, address = cluster
    missing = tmp_path / "not-here" / "system.tsv"
    plan = AuditPlan(["en-kiritchenko2018"], [f"predictions:{missing}"], stats=["paired"],
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0})
    with pytest.raises(SweepError) as err:
        run_sweep(plan, scheduler=address)
    line = str(err.value)
    assert "worker tcp://127.0.0.1:" in line and f"cannot see {missing}" in line, line


@pytest.mark.slow
def test_sweep_survives_a_killed_worker_and_equals_a_local_audit(cluster, tmp_path):
    from testkit.slow_scorer import SlowVader

    c, address = cluster
    settings = {"n_resamples": 0}
    killed = []

    def kill_after_first_task(done, total, eta):
        if done >= 1 and not killed and total > 10:  # the sweep's task count (18), not run_audit's texts
            c.kill_worker(1)
            killed.append(done)

    plan = AuditPlan(["en-kiritchenko2018"], [SlowVader(delay=0.4), "textblob"], stats=["paired"],
                     out_dir=tmp_path / "sweep", cache_dir=tmp_path / "cache", settings=settings)
    phases = []
    result = run_sweep(plan, scheduler=address, chunk_size=1000, retries=2, progress=kill_after_first_task,
                       on_phase=lambda name, total: phases.append((name, total)))
    assert killed == [1]
    assert phases[0] == ("sweep", 18)  # 8,640 texts × 2 models in chunks of 1,000
    record = result.record
    lost = [w for w in record["workers"] if w["lost"]]
    assert len(record["workers"]) == 2 and len(lost) == 1, record["workers"]
    assert sum(w["tasks"] for w in record["workers"]) == 18
    survivor = next(w for w in record["workers"] if not w["lost"])
    assert survivor["tasks"] > lost[0]["tasks"]  # the lost worker's queue was rerun on the survivor
    manifest = json.loads((tmp_path / "sweep" / "manifest.json").read_text())
    assert manifest["sweep"]["scheduler"] == address
    assert manifest["cache"]["misses"] == 0  # the pipeline read every score back, none computed on the client

    local = tmp_path / "local"
    run_audit(AuditPlan(["en-kiritchenko2018"], ["vader", "textblob"], stats=["paired"], out_dir=local,
                        cache_dir=tmp_path / "local-cache", settings=settings))
    for name in ("paired.csv", "paired_pairs.csv"):
        assert (tmp_path / "sweep" / "stats" / name).read_bytes() == (local / "stats" / name).read_bytes(), name
    assert (tmp_path / "sweep" / "scores" / "en-kiritchenko2018.csv").read_bytes() == \
        (local / "scores" / "en-kiritchenko2018.csv").read_bytes()


@pytest.mark.slow
def test_cancel_stops_the_sweep_and_the_next_run_resumes_from_the_cache(cluster, tmp_path):
    import threading

    from engine.audit.cache import ScoreCache
    from engine.common.progress import Cancelled
    from testkit.slow_scorer import SlowVader

    _c, address = cluster
    cancel = threading.Event()
    plan = AuditPlan(["en-kiritchenko2018"], [SlowVader(delay=0.3)], stats=["paired"], cache_dir=tmp_path / "cache",
                     settings={"n_resamples": 0})
    with pytest.raises(Cancelled):
        run_sweep(plan, scheduler=address, chunk_size=1000,
                  progress=lambda done, total, eta: cancel.set() if done >= 1 else None, cancel=cancel)
    with ScoreCache(tmp_path / "cache") as cache:
        kept = cache.count()
    assert 1000 <= kept < 8640  # the chunks back before the cancel, not the ones cancelled
    again = run_sweep(plan, scheduler=address, chunk_size=1000)
    assert again.record["texts_cached_before"] == kept
    assert again.record["tasks"] == -(-(8640 - kept) // 1000)  # only what was missing


def test_a_model_that_fails_on_a_worker_is_one_line_naming_the_worker(cluster, tmp_path):
    _c, address = cluster
    broken = tmp_path / "broken.tsv"
    broken.write_text("Sentence\tscore\nhello\t0.5\n")  # made for another corpus
    plan = AuditPlan(["en-kiritchenko2018"], [f"predictions:{broken}"], stats=["paired"],
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0})
    with pytest.raises(SweepError) as err:
        run_sweep(plan, scheduler=address)
    line = str(err.value)
    assert line.startswith(f"sweep: scoring en-kiritchenko2018 with predictions:{broken} on worker tcp://127.0.0.1:")
    assert "check that the file was made for this corpus" in line  # the scorer's own fix survives the trip
    assert "\n" not in line


def test_two_models_with_one_name_are_refused_before_any_scoring(cluster, tmp_path):
    _c, address = cluster
    plan = AuditPlan(["en-kiritchenko2018"], ["vader", "vader?batch_size=64"], stats=["paired"],
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0})
    with pytest.raises(SweepError, match="'vader' and 'vader\\?batch_size=64' are both named 'vader'"):
        run_sweep(plan, scheduler=address, progress=lambda *a: pytest.fail("no task may start"))
