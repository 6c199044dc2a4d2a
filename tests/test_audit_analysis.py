"""engine.audit.analysis: with two processes the corpora's statistics run side by side, a step per
statistic and corpus, in a forked worker and the audit process at the end of scoring and are merged
in the serial order — the audit (tables, result objects, problems, log lines, files) is the one a
single process computes; a step that fails in the worker is redone here; cancel stops the worker;
the statistics phase reports progress per statistic and corpus."""
import os
import sys
import threading
import time

import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.audit.analysis import CorpusStatistics, Step, handing_order, steps_of
from engine.common.executor import can_fork
from engine.common.progress import Cancelled

# forked workers: the watchdog thread of the suite's timeout (pyproject: timeout_method = "thread")
# would make can_fork() False and these tests skip; no Qt event loop runs here, so SIGALRM stops a hang
pytestmark = pytest.mark.timeout(600, method="signal")


forking = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked children are Linux-only")


@pytest.fixture(autouse=True)
def _pools_wound_down():
    """Each test starts without another test's pool threads (see testkit.pools)."""
    from testkit.pools import wait_for_pools

    wait_for_pools()
    if not can_fork():
        pytest.skip(f"another thread runs in this test process ({[t.name for t in threading.enumerate()]}): "
                    "the statistics would not be forked")
    yield


def test_steps_are_the_serial_order_then_the_files():
    from engine.stats import registry

    def task(cid, stats, render):
        return CorpusStatistics(type("C", (), {"id": cid})(), pd.DataFrame(), None, {}, stats, {}, render=render)

    order = [s.id for s in registry.statistics() if s.id in ("beta", "paired")]
    tasks = [task("a", ["paired", "beta"], True), task("b", ["beta", "paired"], False), task("c", ["paired"], True)]
    assert steps_of(tasks) == ([Step(0, sid) for sid in order] + [Step(1, sid) for sid in order]
                               + [Step(2, "paired"), Step(0), Step(2)])


def _two_ended_makespan(order: list[int], seconds: list[float]) -> float:
    """When the last of two processes ends, the worker taking steps from the front of `order` and the
    audit process from the back, each as soon as it is free (LocalPool.map's rule)."""
    queue, free = list(order), [0.0, 0.0]  # [worker, audit process]
    while queue:
        p = 0 if free[0] <= free[1] else 1
        free[p] += seconds[queue.pop(0 if p == 0 else -1)]
    return max(free)


def test_each_end_starts_with_its_longest_steps_and_they_meet_on_the_shortest():
    """A statistic's cost times its corpus's sentences: the longest steps are dealt to the two ends
    (the worker's front, the audit process's back) as each is expected to be free, so both start
    with a Beta regression and the counterfactual steps, the shortest, are where they meet."""
    from engine.stats import registry

    costs = {sid: registry.get(sid).cost for sid in ("beta", "paired", "counterfactual")}
    assert costs["beta"] > costs["paired"] > 1.0 > costs["counterfactual"]  # 1.0: a corpus's files

    def task(cid, rows):
        return CorpusStatistics(type("C", (), {"id": cid})(), pd.DataFrame({"x": range(rows)}), None, {},
                                ["beta", "paired", "counterfactual"], {}, render=True)

    tasks = [task("small", 200), task("large", 300)]
    plan = steps_of(tasks)
    order = handing_order(tasks, plan)
    handed = [plan[i] for i in order]
    assert sorted(order) == list(range(len(plan)))
    assert handed[0] == Step(1, "beta") and handed[-1] == Step(0, "beta")  # the worker's first, the audit's first
    middle = {handed[len(handed) // 2 - 1].stat, handed[len(handed) // 2].stat}
    assert middle == {"counterfactual"}


def test_two_processes_finish_together_when_the_estimates_hold():
    """Four corpora of the same size (the English audit): with steps lasting what their costs say,
    the two processes end within the shortest step of each other. Sorted longest first with the audit
    process taking from the back, the worker took all four Beta regressions and then a paired
    analysis while the audit process had nothing left (about 0.28 s of 1.74 s in a real run)."""
    from engine.stats import registry

    def task(cid):
        return CorpusStatistics(type("C", (), {"id": cid})(), pd.DataFrame({"x": range(8640)}), None, {},
                                ["beta", "paired", "counterfactual"], {}, render=True)

    tasks = [task(c) for c in "abcd"]
    plan = steps_of(tasks)
    seconds = [(1.0 if s.stat is None else registry.get(s.stat).cost) * 8640 for s in plan]
    makespan = _two_ended_makespan(handing_order(tasks, plan, 2), seconds)
    assert makespan <= sum(seconds) / 2 + min(seconds)


@forking
@pytest.mark.parametrize("jobs", [1, 2])
def test_every_score_is_committed_to_the_cache_when_the_statistics_run_side_by_side(tmp_path, jobs,
                                                                                      monkeypatch):
    """With two processes the cache's last rows are committed while the statistics' worker computes
    (`meanwhile`), not before forking it, and not left to the cache's closing: once the statistics
    are done, every scored text is in the cache."""
    import sqlite3

    from engine.audit.cache import ScoreCache
    from testkit.audit_fixtures import write_mini_corpus

    left_at_close = []
    real_close = ScoreCache.close
    monkeypatch.setattr(ScoreCache, "close", lambda self: (left_at_close.append(self.pending), real_close(self)))
    plan = _plan(tmp_path, write_mini_corpus(tmp_path), jobs, stats=("paired",))
    result = run_audit(plan)
    assert left_at_close == [0]
    scoring = result.manifest["scoring"]
    with sqlite3.connect(result.manifest["cache"]["path"]) as db:
        rows = db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
    assert rows == sum(job["scored"] for job in scoring) > 0
    assert result.manifest["cache"]["writes"] == rows


@forking
def test_a_cache_that_cannot_commit_stops_the_run_at_once_even_when_cancelled_later(tmp_path, monkeypatch):
    """Side by side, the score cache's last commit happens as the statistics start, and fails (a
    full disk); the user then presses Cancel. The run stops on the full disk, naming the cache, as
    one process does when its last commit ends the scoring — the commit's error is not held back as
    a statistic's, where a later Cancel hid it and its rows were lost unsaid (review, issue 42)."""
    import threading

    from engine.audit import cache as cache_module
    from engine.audit import pipeline
    from engine.models.errors import ModelError
    from testkit.audit_fixtures import write_mini_corpus

    state = {"statistics": False}
    real_begin, real_flush = pipeline._Scoring.begin_statistics, cache_module.ScoreCache.flush

    def begin(self):
        state["statistics"] = True
        real_begin(self)

    def flush(self):
        if state["statistics"] and self.pending:
            raise ModelError(str(self.path), "the disk holding the score cache is full")
        real_flush(self)

    cancel = threading.Event()
    real_step = CorpusStatistics.run_step

    def step(self, *args):
        cancel.set()  # Cancel, while the statistics run
        return real_step(self, *args)

    monkeypatch.setattr(pipeline._Scoring, "begin_statistics", begin)
    monkeypatch.setattr(cache_module.ScoreCache, "flush", flush)
    monkeypatch.setattr(CorpusStatistics, "run_step", step)
    plan = _plan(tmp_path, write_mini_corpus(tmp_path), 2, stats=("paired",))
    with pytest.raises(ModelError, match="disk holding the score cache is full"):
        run_audit(plan, cancel=cancel)
    assert not plan.out_dir.exists()


def test_meanwhile_runs_once_whoever_computes(tmp_path):
    from engine.audit.analysis import analyse_together
    from engine.results.result import AuditResult

    calls = []
    for processes in (1, 2):
        analyse_together([], AuditResult(None), calls.append, lambda: None, processes=processes,
                         meanwhile=lambda: calls.append(processes))
    assert calls == [1, 2]


def _plan(tmp_path, corpus, jobs, stats=("paired", "counterfactual", "beta")):
    return AuditPlan([str(corpus), "en-goldfarb2023", "en-kiritchenko2018"], ["vader", "textblob"],
                     stats=list(stats), cache_dir=tmp_path / f"c{jobs}", out_dir=tmp_path / f"out{jobs}",
                     settings={"n_resamples": 0, "jobs": jobs})


def _marked(monkeypatch):
    """Every corpus says which process computed it (a worker's lines come back with its block)."""
    real = CorpusStatistics.run_step

    def marked(self, stat, into, say, stop_here, steps=None):
        real(self, stat, into, say, stop_here, steps)
        say(f"pid {os.getpid()}")

    monkeypatch.setattr(CorpusStatistics, "run_step", marked)  # the forked worker inherits the patched class


def _statistic_lines(lines):
    return [line for line in lines if line.startswith("  ")]


@forking
def test_side_by_side_statistics_give_the_audit_of_one_process(tmp_path, monkeypatch):
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    _marked(monkeypatch)
    runs, logs = {}, {}
    for jobs in (1, 2):
        logs[jobs] = []
        runs[jobs] = run_audit(_plan(tmp_path, corpus, jobs), log=logs[jobs].append)
    pids = {line.split()[1] for line in logs[2] if line.startswith("pid ")}
    assert str(os.getpid()) in pids and len(pids) == 2  # a forked worker computed some steps, this process others
    assert {line.split()[1] for line in logs[1] if line.startswith("pid ")} == {str(os.getpid())}  # one process
    assert "statistics of 3 corpora side by side in 2 processes" in logs[2]
    one, two = runs[1], runs[2]
    assert list(one.tables) == list(two.tables) and {"paired", "counterfactual", "beta"} <= set(one.tables)
    for name in one.tables:
        pd.testing.assert_frame_equal(one.tables[name], two.tables[name], check_exact=True)
    assert {k: len(v) for k, v in one.results.items()} == {k: len(v) for k, v in two.results.items()}
    assert one.summary() == two.summary()  # result objects (Beta fits included) came back whole, in order
    assert one.problems == two.problems
    assert _statistic_lines(logs[1]) == _statistic_lines(logs[2])  # the same lines, in corpus order
    for name in ("summary.txt", "stats/paired.csv", "stats/beta.csv", "scores/en-goldfarb2023.csv"):
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes(), name
    assert two.rendered == {}


@forking
def test_a_step_that_fails_in_the_worker_is_redone_here(tmp_path, monkeypatch):
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    parent = os.getpid()
    real = CorpusStatistics.run_step
    ran_in_worker = tmp_path / "worker-ran"

    def failing_in_workers(self, *args):
        if os.getpid() != parent:
            ran_in_worker.touch()
            raise RuntimeError("a worker's failure")
        return real(self, *args)

    runs = {}
    for jobs in (1, 2):
        monkeypatch.setattr(CorpusStatistics, "run_step", failing_in_workers if jobs == 2 else real)
        runs[jobs] = run_audit(_plan(tmp_path, corpus, jobs, stats=("paired",)))
    assert ran_in_worker.exists()
    pd.testing.assert_frame_equal(runs[1].tables["paired"], runs[2].tables["paired"], check_exact=True)
    assert runs[1].summary() == runs[2].summary()


@forking
def test_cancel_while_a_worker_computes_stops_it_and_writes_nothing(tmp_path, monkeypatch):
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    parent, flag = os.getpid(), tmp_path / "worker-started"
    real = CorpusStatistics.run_step

    def slow_in_workers(self, *args):
        if os.getpid() != parent:
            flag.touch()
            time.sleep(60)  # a long bootstrap, say
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run_step", slow_in_workers)
    plan = _plan(tmp_path, corpus, 2, stats=("paired",))
    started = time.monotonic()
    with pytest.raises(Cancelled) as exc:
        run_audit(plan, cancel=flag.exists)  # cancelled as soon as the worker is at work
    assert time.monotonic() - started < 30
    assert exc.value.stage == "statistics"
    assert not plan.out_dir.exists()  # a cancelled run writes no half folder


@forking
def test_an_error_in_several_corpora_is_the_first_corpus_s_as_with_one_process(tmp_path, monkeypatch):
    """A statistic that fails (not a refusal the registry turns into a problem line) in the first and
    the last corpus: the audit process, which computes the last steps, raises only after the earlier
    steps are redone here — the serial path's error, the first corpus's."""
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    real = CorpusStatistics.run_step

    def failing(self, *args):
        if self.corpus.id in (plan_ids[0], plan_ids[-1]):
            raise RuntimeError(f"a bug on {self.corpus.id}")
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run_step", failing)
    messages = []
    for jobs in (1, 2):
        plan = _plan(tmp_path, corpus, jobs, stats=("paired",))
        plan_ids = ["gui-mini", "en-goldfarb2023", "en-kiritchenko2018"]
        with pytest.raises(RuntimeError) as exc:
            run_audit(plan)
        messages.append(str(exc.value))
        assert not plan.out_dir.exists()
    assert messages == ["a bug on gui-mini", "a bug on gui-mini"]


@forking
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_statistics_phase_reports_each_statistic_on_each_corpus(tmp_path, jobs):
    """Issue 42: the statistics phase is not a still "100 %": each statistic on each corpus is named as
    it starts, and the phase's progress counts them (statistics × corpora) to the end."""
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    events = []
    run_audit(_plan(tmp_path, corpus, jobs), progress=lambda d, t, e: events.append(("progress", d, t)),
              on_phase=lambda name, total: events.append(("phase", name, total)),
              on_step=lambda what, on: events.append(("step", what, on)))
    start = events.index(("phase", "statistics", 9))  # 3 corpora × 3 statistics
    assert events[start - 1][0] == "progress" and events[start - 1][1] == events[start - 1][2]  # scoring at 100 %
    after = [e for e in events[start + 1:] if e[0] == "progress"]
    assert after and all(t == 9 for _p, _d, t in after) and after[-1][1] == 9
    assert [d for _p, d, _t in after] == sorted(d for _p, d, _t in after)
    steps = {(what, on) for kind, what, on in events if kind == "step"}
    for cid in ("gui-mini", "en-goldfarb2023", "en-kiritchenko2018"):
        assert ("Beta regression", cid) in steps, steps


@forking
def test_a_worker_s_rendered_files_come_back_through_a_file(tmp_path, monkeypatch):
    """A corpus's rendered files (2–3 MB for 8,640 sentences) came back from a statistics worker
    through the pool's pipe, slow while the audit process computes; now through a hand-over file,
    read as soon as the step ends, and the folder is gone afterwards. Same files as one process."""
    import tempfile

    from engine.audit.analysis import analyse_together
    from engine.common.executor import handoff
    from engine.results.result import AuditResult

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the hand-over folder, watched here

    def files(self, out_dir):
        return {f"scores/{self.corpus.id}.csv": self.corpus.id.encode() * 500_000 + f" {os.getpid()}".encode()}, []

    monkeypatch.setattr(CorpusStatistics, "files", files)  # inherited by the forked worker
    read = []
    real_take_over = handoff.take_over
    monkeypatch.setattr(handoff, "take_over", lambda path: read.append(path) or real_take_over(path))
    tasks = [CorpusStatistics(type("C", (), {"id": cid})(), pd.DataFrame(), None, {}, [], {}, render=True)
             for cid in ("first", "second")]
    result = AuditResult(None)
    analyse_together(tasks, result, lambda _line: None, lambda: None, processes=2)
    pids = {name: data.rsplit(b" ", 1)[1].decode() for name, data in result.rendered["first"].items()}
    pids.update({name: data.rsplit(b" ", 1)[1].decode() for name, data in result.rendered["second"].items()})
    assert sorted(pids) == ["scores/first.csv", "scores/second.csv"]
    worker = {name for name, pid in pids.items() if pid != str(os.getpid())}
    assert len(worker) == 1 and len(read) == 1  # the worker's step, and only it, came through a file
    for cid in ("first", "second"):
        data = result.rendered[cid][f"scores/{cid}.csv"]
        assert data.startswith(cid.encode() * 500_000)
    assert not list(tmp_path.glob("eec-handoff-*")) and not os.path.exists(read[0])


@forking
def test_a_hand_over_file_that_cannot_be_read_is_made_here(tmp_path, monkeypatch):
    """The executor's rule, for the hand-over too: a worker's failure never reaches the caller; the
    step is computed here instead (the review's case: the file gone before it was read)."""
    from engine.audit.analysis import analyse_together
    from engine.common.executor import handoff
    from engine.results.result import AuditResult

    def files(self, out_dir):
        return {f"scores/{self.corpus.id}.csv": f"{self.corpus.id} {os.getpid()}".encode()}, []

    def unreadable(path):
        os.unlink(path)
        raise FileNotFoundError(path)

    monkeypatch.setattr(CorpusStatistics, "files", files)
    monkeypatch.setattr(handoff, "take_over", unreadable)
    tasks = [CorpusStatistics(type("C", (), {"id": cid})(), pd.DataFrame(), None, {}, [], {}, render=True)
             for cid in ("first", "second")]
    result = AuditResult(None)
    analyse_together(tasks, result, lambda _line: None, lambda: None, processes=2)
    assert {cid: result.rendered[cid][f"scores/{cid}.csv"] for cid in ("first", "second")} == \
        {cid: f"{cid} {os.getpid()}".encode() for cid in ("first", "second")}
