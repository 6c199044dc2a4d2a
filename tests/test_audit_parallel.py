"""score_texts(jobs=N): CPU-bound scorers in worker processes give the scores of jobs=1, with progress and cancel."""
import os
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from engine.audit import AuditPlan
from engine.audit.cache import ScoreCache
from engine.audit.parallel import PARALLEL_CHUNK_MAX, parallel_chunk, score_chunk, worker_spec_of
from engine.audit.scoring import score_texts
from engine.common.executor import resolve_jobs
from engine.models.base import WorkerSpec
from engine.common.progress import Cancelled
from engine.models.errors import ModelError
from engine.models.scorers.lexicon import VaderScorer

WORDS = ["happy", "sad", "furious", "calm", "terrified", "glad", "awful", "wonderful", "bored", "grim"]
TEXTS = [f"My {who} feels {w} about the {i} news!" for i in range(150) for who in ("sister", "uncle")
         for w in WORDS[i % 10:i % 10 + 1]]  # 300 distinct sentences with varied valence


# forked workers: the suite's thread watchdog (pyproject: timeout_method = "thread") would make
# can_fork() False, and a spawned worker starts too late to take a chunk of these small jobs
pytestmark = pytest.mark.timeout(600, method="signal")


@pytest.fixture(autouse=True)
def _pools_wound_down():
    """Each test starts without another test's pool threads (see testkit.pools)."""
    from testkit.pools import wait_for_pools

    wait_for_pools()
    yield


class SlowHereVader(VaderScorer):
    """VADER (same fingerprint and worker spec) that is slow in this process only, so the worker
    surely takes chunks (a spawned worker loads plain `vader`; a forked one inherits this object)."""

    def __init__(self):
        super().__init__()
        self.pid = os.getpid()

    def score(self, texts, **kw):
        if os.getpid() == self.pid:
            time.sleep(0.05)
        return super().score(texts, **kw)


def test_two_jobs_give_the_scores_of_one_with_progress(request):
    # TextBlob's equality over 26k sentences is asserted by bench/bench_parallel_scoring.py
    # (loading it in two workers costs seconds; the code path is the same)
    from testkit.fresh_process import fork_here_or_in_a_fresh_process

    if not fork_here_or_in_a_fresh_process(request):  # "both processes scored" needs a forked worker
        return
    for make in (SlowHereVader,):
        serial = score_texts(VaderScorer(), TEXTS, jobs=1)
        seen = []
        parallel = score_texts(make(), TEXTS + TEXTS[:7], jobs=2, chunk_size=20,
                               progress=lambda d, t, e: seen.append((d, t)))
        stats = parallel.attrs["scoring"]
        assert serial.attrs["scoring"].jobs == 1 and stats.jobs == 2
        assert 0 < stats.by_workers < 300  # both processes scored
        np.testing.assert_array_equal(parallel.to_numpy()[:len(TEXTS)], serial.to_numpy())  # bit for bit
        np.testing.assert_array_equal(parallel.to_numpy()[len(TEXTS):], serial.to_numpy()[:7])
        assert serial["valence"].nunique() > 5  # the sentences really differ in score
        assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (300, 300)
        assert len(seen) > 2  # reported per chunk, not only at the end


def test_cancel_stops_the_pool_and_keeps_what_was_scored(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    stop = threading.Event()
    with pytest.raises(Cancelled) as exc:
        score_texts(VaderScorer(), TEXTS, cache=cache, jobs=2, chunk_size=10,
                    progress=lambda d, t, e: stop.set() if d >= 10 else None, cancel=stop)
    kept = cache.count()
    assert 10 <= exc.value.done <= kept < len(TEXTS)  # pending chunks were not scored
    cache.reset_counters()
    resumed = score_texts(VaderScorer(), TEXTS, cache=cache, jobs=2, chunk_size=10)
    assert cache.hits == kept and resumed.attrs["scoring"].scored == len(TEXTS) - kept
    np.testing.assert_array_equal(resumed.to_numpy(), score_texts(VaderScorer(), TEXTS).to_numpy())


class InProcessOnly:
    """A scorer that offers no worker spec (like the torch ones): must stay in this process."""

    name = "local"
    dimensions = ["len"]
    batch_size = 10

    def __init__(self):
        self.scored = 0

    def fingerprint(self):
        return "local-v1"

    def score(self, texts, **kw):
        self.scored += len(texts)
        return pd.DataFrame({"len": [float(len(t)) for t in texts]})


def test_scorers_without_a_worker_spec_stay_in_process():
    s = InProcessOnly()
    out = score_texts(s, TEXTS, jobs=2)
    assert s.scored == len(TEXTS) and out.attrs["scoring"].jobs == 1
    assert worker_spec_of(s) is None and worker_spec_of(VaderScorer()) == WorkerSpec("vader")


def test_a_worker_that_loads_another_model_is_refused():
    assert score_chunk(WorkerSpec("vader"), VaderScorer().fingerprint(), ["so happy"])["valence"][0] > 0.5
    with pytest.raises(ModelError, match="different model"):  # e.g. the model folder changed meanwhile
        score_chunk(WorkerSpec("vader"), "fingerprint-of-another-model", ["so happy"])


def test_jobs_setting_and_chunking():
    assert resolve_jobs(None) >= 1 and resolve_jobs(0) == resolve_jobs(None) and resolve_jobs(3) == 3
    assert parallel_chunk(256, 100_000, 2) == PARALLEL_CHUNK_MAX == 512 and parallel_chunk(256, 1000, 2) == 256
    assert parallel_chunk(10, 1000, 2) == 125
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(ValueError, match="jobs"):
            AuditPlan(["en-kiritchenko2018"], ["vader"], settings={"jobs": bad}).validate()
    AuditPlan(["en-kiritchenko2018"], ["vader"], settings={"jobs": 2}).validate()


def test_audit_jobs_setting_and_cli_flag(tmp_path):
    import main
    from engine.audit import run_audit
    from engine.audit.cli import plan_from_args
    from testkit.audit_fixtures import write_mini_corpus

    args = main.build_parser().parse_args(["audit", "--corpus", "x", "--model", "vader", "--out", "o", "--jobs", "2"])
    assert plan_from_args(args).jobs == 2 and "jobs" not in plan_from_args(args).settings  # a run option
    corpus = str(write_mini_corpus(tmp_path))
    runs = {}
    for jobs in (1, 2):
        plan = AuditPlan([corpus], ["vader"], stats=["paired"], cache_dir=tmp_path / f"cache{jobs}",
                         settings={"n_resamples": 0, "jobs": jobs})
        runs[jobs] = run_audit(plan)
    assert [s["jobs"] for s in runs[2].manifest["scoring"]] == [2]
    for cid, frame in runs[1].scores.items():
        pd.testing.assert_frame_equal(frame, runs[2].scores[cid], check_exact=True)
    pd.testing.assert_frame_equal(runs[1].tables["paired"], runs[2].tables["paired"])


KILLED_PARENT = """
import sys, time
sys.path.insert(0, {root!r})
from engine.audit.scoring import score_texts
from engine.common.executor import resolve_jobs
from engine.models.scorers.lexicon import VaderScorer

class Slow(VaderScorer):
    def score(self, texts, **kw):
        time.sleep(0.5)
        return super().score(texts, **kw)

texts = [f"text {{i}} was happy" for i in range(20000)]
score_texts(Slow(), texts, jobs=2, chunk_size=256, progress=lambda d, t, e: print(d, flush=True))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; forked workers are Linux-only")
def test_workers_end_with_a_killed_audit_process(tmp_path):
    import signal
    import subprocess

    from conftest import ROOT

    proc = subprocess.Popen([sys.executable, "-c", KILLED_PARENT.format(root=str(ROOT))], stdout=subprocess.PIPE,
                            text=True)
    try:
        while int(proc.stdout.readline() or 10**9) < 2 * 256:
            pass  # two chunks done: the worker exists
        children = open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert children
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(int(c)) for c in children):
        time.sleep(0.1)
    assert not any(_alive(int(c)) for c in children)  # no orphan waiting forever for chunks


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class _IdlePool:
    """A pool whose workers never start a chunk (a worker still starting, or starved of CPU):
    every future stays pending until cancelled."""

    def __init__(self):
        self.submitted = 0

    def submit(self, fn, *args):
        from concurrent.futures import Future

        self.submitted += 1
        if self.submitted > 10_000:
            raise AssertionError("the same chunks were handed out again and again")
        return Future()

    def stop(self):
        pass

    def shutdown(self, *, wait=True):
        pass


def test_chunks_taken_back_from_idle_workers_are_scored_here_not_resubmitted(monkeypatch):
    """Regression: chunks taken back from workers that had not started were submitted again,
    taken back again, … — a busy loop that grew the pool's queues until the machine ran out of
    memory. They are now scored by the calling process, once."""
    pool = _IdlePool()
    monkeypatch.setattr("engine.common.executor.LocalPool", lambda workers, inherit=None: pool)
    got = score_texts(VaderScorer(), TEXTS, jobs=3, chunk_size=20)
    np.testing.assert_array_equal(got.to_numpy(), score_texts(VaderScorer(), TEXTS, jobs=1).to_numpy())
    assert pool.submitted <= len(TEXTS) // 20  # each chunk handed out at most once
