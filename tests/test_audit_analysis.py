"""engine.audit.analysis: with two processes the corpora's statistics run side by side in a forked
worker and the audit process at the end of scoring and are merged in corpus order — the audit
(tables, result objects, problems, log lines, files) is the one a single process computes; a block
that fails in the worker is redone here; cancel stops the worker."""
import os
import sys
import threading
import time

import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.audit.analysis import CorpusStatistics, blocks_of
from engine.common.executor import can_fork
from engine.common.progress import Cancelled

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


def test_blocks_are_contiguous_and_the_first_is_never_larger_than_needed():
    items = list(range(7))
    assert blocks_of(items, 2) == [[0, 1, 2, 3], [4, 5, 6]]
    assert blocks_of(items, 3) == [[0, 1, 2], [3, 4], [5, 6]]
    assert blocks_of(items[:3], 8) == [[0], [1], [2]]  # no empty block
    assert blocks_of(items[:2], 1) == [[0, 1]]
    for n in range(1, 9):
        for p in range(1, 5):
            blocks = blocks_of(list(range(n)), p)
            assert [x for b in blocks for x in b] == list(range(n)) and all(blocks)
            assert max(map(len, blocks)) - min(map(len, blocks)) <= 1


def _plan(tmp_path, corpus, jobs, stats=("paired", "counterfactual", "beta")):
    return AuditPlan([str(corpus), "en-goldfarb2023", "en-kiritchenko2018"], ["vader", "textblob"],
                     stats=list(stats), cache_dir=tmp_path / f"c{jobs}", out_dir=tmp_path / f"out{jobs}",
                     settings={"n_resamples": 0, "jobs": jobs})


def _marked(monkeypatch):
    """Every corpus says which process computed it (a worker's lines come back with its block)."""
    real = CorpusStatistics.run

    def marked(self, into, say, stop_here):
        real(self, into, say, stop_here)
        say(f"pid {os.getpid()}")

    monkeypatch.setattr(CorpusStatistics, "run", marked)  # the forked worker inherits the patched class


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
    assert str(os.getpid()) in pids and len(pids) == 2  # a forked worker computed a block, this process the other
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
def test_a_block_that_fails_in_the_worker_is_redone_here(tmp_path, monkeypatch):
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    parent = os.getpid()
    real = CorpusStatistics.run
    ran_in_worker = tmp_path / "worker-ran"

    def failing_in_workers(self, into, say, stop_here):
        if os.getpid() != parent:
            ran_in_worker.touch()
            raise RuntimeError("a worker's failure")
        return real(self, into, say, stop_here)

    runs = {}
    for jobs in (1, 2):
        monkeypatch.setattr(CorpusStatistics, "run", failing_in_workers if jobs == 2 else real)
        runs[jobs] = run_audit(_plan(tmp_path, corpus, jobs, stats=("paired",)))
    assert ran_in_worker.exists()
    pd.testing.assert_frame_equal(runs[1].tables["paired"], runs[2].tables["paired"], check_exact=True)
    assert runs[1].summary() == runs[2].summary()


@forking
def test_cancel_while_a_worker_computes_stops_it_and_writes_nothing(tmp_path, monkeypatch):
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    parent, flag = os.getpid(), tmp_path / "worker-started"
    real = CorpusStatistics.run

    def slow_in_workers(self, *args):
        if os.getpid() != parent:
            flag.touch()
            time.sleep(60)  # a long bootstrap, say
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run", slow_in_workers)
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
    the last corpus: the audit process, which computes the last block, raises only after the earlier
    blocks are redone here — the serial path's error, the first corpus's."""
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    real = CorpusStatistics.run

    def failing(self, *args):
        if self.corpus.id in (plan_ids[0], plan_ids[-1]):
            raise RuntimeError(f"a bug on {self.corpus.id}")
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run", failing)
    messages = []
    for jobs in (1, 2):
        plan = _plan(tmp_path, corpus, jobs, stats=("paired",))
        plan_ids = ["gui-mini", "en-goldfarb2023", "en-kiritchenko2018"]
        with pytest.raises(RuntimeError) as exc:
            run_audit(plan)
        messages.append(str(exc.value))
        assert not plan.out_dir.exists()
    assert messages == ["a bug on gui-mini", "a bug on gui-mini"]
