"""Issue 42: a large corpus streams — its statistics as soon as it is scored, then its score and pair files
written beside the results folder and its frames let go — so a run's memory is that of its largest
corpus, not of all of them; the folder is byte for byte the one a run holding everything writes."""
import gc
import weakref

import pandas as pd
import pytest

from engine.audit import AuditPlan, pipeline, run_audit
from engine.audit.analysis import CorpusStatistics
from engine.common.progress import Cancelled
from engine.results import read_audit
from engine.results.result import Spilled

CORPORA = ["en-kiritchenko2018", "en-goldfarb2023"]


def _plan(tmp_path, name, **settings):
    return AuditPlan(CORPORA, ["vader"], stats=["paired", "counterfactual"], out_dir=tmp_path / name,
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0, "jobs": 1, **settings})


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in ("manifest.json", "summary.txt")}


def test_streamed_corpora_write_the_same_folder_and_read_back(tmp_path, monkeypatch):
    held = run_audit(_plan(tmp_path, "held"))
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)  # every corpus streams
    streamed = run_audit(_plan(tmp_path, "streamed"))
    assert _files(tmp_path / "held") == _files(tmp_path / "streamed")
    assert all(isinstance(streamed.scores.raw(cid), Spilled) for cid in CORPORA)
    back = read_audit(tmp_path / "streamed")
    for cid in CORPORA:  # read back with the results reader, where the folder is now
        pd.testing.assert_frame_equal(streamed.scores[cid], back.scores[cid])
        assert len(streamed.scores[cid]) == len(held.scores[cid])
    assert held.summary() == streamed.summary()
    import pickle

    sent = pickle.loads(pickle.dumps(streamed))  # as the GUI's audit process sends it: places, not frames
    assert isinstance(sent.scores.raw(CORPORA[0]), Spilled)
    pd.testing.assert_frame_equal(sent.scores[CORPORA[0]], back.scores[CORPORA[0]])
    assert [p.name for p in tmp_path.iterdir() if ".streamed-" in p.name] == []  # nothing left beside it


def test_a_streamed_corpus_is_let_go_before_the_next_one(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    alive, seen = {}, []
    real = CorpusStatistics.run_step

    def watching(self, *args):
        cid = self.corpus.id
        alive.setdefault(cid, weakref.ref(self.scores))
        if cid == CORPORA[1] and not seen:
            gc.collect()
            seen.append(alive[CORPORA[0]]() is None)
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run_step", watching)
    run_audit(_plan(tmp_path, "out"))
    assert seen == [True], "the first corpus's scored frame was still held during the second's statistics"


def test_a_cancelled_streamed_run_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    real = CorpusStatistics.run_step
    stop = []

    def second_stops(self, *args):
        if self.corpus.id == CORPORA[1]:
            stop.append(True)
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run_step", second_stops)
    plan = _plan(tmp_path, "out")
    with pytest.raises(Cancelled):
        run_audit(plan, cancel=lambda: bool(stop))
    assert not plan.out_dir.exists()
    assert [p.name for p in tmp_path.iterdir() if ".streamed-" in p.name] == []


def test_large_corpora_are_generated_one_at_a_time(tmp_path, monkeypatch):
    """Where a corpus streams, the next corpus is generated only after the one before it was scored,
    analysed and let go (its sentences were all held from the start before: memory grew with every
    corpus added)."""
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    events = []
    real_build, real_step = pipeline._build_corpora, CorpusStatistics.run_step

    def build(names, want_pairs):
        events.append(("generate", *names))
        return real_build(names, want_pairs)

    def step(self, *args):
        if not events or events[-1] != ("statistics", self.corpus.id):
            events.append(("statistics", self.corpus.id))
        return real_step(self, *args)

    monkeypatch.setattr(pipeline, "_build_corpora", build)
    monkeypatch.setattr(CorpusStatistics, "run_step", step)
    run_audit(_plan(tmp_path, "out"))
    assert events == [("generate", CORPORA[0]), ("statistics", CORPORA[0]),
                      ("generate", CORPORA[1]), ("statistics", CORPORA[1])]


def test_small_corpora_stay_together(tmp_path, monkeypatch):
    """Below the streaming size every corpus is generated before scoring starts (with several processes
    their statistics then run side by side)."""
    names = []
    real_build = pipeline._build_corpora
    monkeypatch.setattr(pipeline, "_build_corpora", lambda n, w: (names.append(list(n)), real_build(n, w))[1])
    run_audit(_plan(tmp_path, "out"))
    assert names == [CORPORA]


def test_corpus_by_corpus_progress_counts_the_whole_plan(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    seen, phases = [], []
    run_audit(_plan(tmp_path, "out"), progress=lambda d, t, _e: seen.append((phases[-1], d, t)),
              on_phase=lambda name, total: phases.append(name))
    assert phases[:2] == ["scoring", "statistics"]
    scoring = [(d, t) for p, d, t in seen if p == "scoring"]
    done = [d for d, _t in scoring]
    assert done == sorted(done), "the scoring progress went back"
    assert all(d <= t for d, t in scoring)
    assert scoring[-1][0] == scoring[-1][1] == 2 * 8640, scoring[-1]  # both corpora (pair sides are their sentences)
    statistics = [(d, t) for p, d, t in seen if p == "statistics"]
    assert statistics[-1] == (4, 4)  # two statistics × two corpora, counted through both runs


def _children() -> set[int]:
    """This process's child processes (Linux); a test compares them before and after (an earlier
    test in the same process may have left a reusable pool's workers)."""
    import os
    from pathlib import Path

    out = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        out |= {int(p) for p in (task / "children").read_text().split()}
    return out


# the thread watchdog of the suite's timeout would keep these tests from forking
two_processes = pytest.mark.timeout(600, method="signal")


@pytest.fixture
def forks_here(request):
    """False when the test already ran, and passed, in a fresh interpreter (testkit.fresh_process)."""
    from testkit.fresh_process import fork_here_or_in_a_fresh_process

    return fork_here_or_in_a_fresh_process(request)


@two_processes
def test_corpus_by_corpus_with_two_processes_overlaps_and_writes_the_same_folder(tmp_path, monkeypatch, forks_here):
    """With two processes a streamed corpus's statistics run in a child while the next corpus is
    generated and scored: its log lines come after the next corpus's "sentences" line, and the folder
    is byte for byte the one-process folder."""
    if not forks_here:
        return
    held = run_audit(_plan(tmp_path, "held"))
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    before = _children()
    lines = []
    two = run_audit(_plan(tmp_path, "two", jobs=2), log=lines.append)
    assert _files(tmp_path / "held") == _files(tmp_path / "two")
    assert held.manifest["corpora"] == read_audit(tmp_path / "two").manifest["corpora"]
    assert held.summary() == two.summary()
    assert list(two.scores) == CORPORA
    first = CORPORA[0]
    handed = lines.index(f"{first}: its statistics in a second process, while the next corpus is generated and scored")
    generated = next(i for i, line in enumerate(lines) if line.startswith(f"{CORPORA[1]}: 8,640 sentences"))
    merged = next(i for i, line in enumerate(lines) if line.strip().startswith("Paired differences on " + first))
    assert handed < generated < merged, lines
    assert _children() <= before


def _first_corpus_statistics_do(monkeypatch, planted) -> None:
    """Every corpus streams, and each statistic of the first corpus calls `planted()` first."""
    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    real = CorpusStatistics.run_step

    def step(self, *args):
        if self.corpus.id == CORPORA[0]:
            planted()
        return real(self, *args)

    monkeypatch.setattr(CorpusStatistics, "run_step", step)


@two_processes
def test_an_error_in_the_childs_statistics_is_the_audits(tmp_path, monkeypatch, forks_here):
    from engine.common.errors import UsageError

    if not forks_here:
        return
    def fails():
        raise UsageError("planted: this statistic cannot run", field="--stats", fix="none")

    _first_corpus_statistics_do(monkeypatch, fails)
    plan = _plan(tmp_path, "out", jobs=2)
    before = _children()
    with pytest.raises(UsageError, match="planted: this statistic cannot run"):
        run_audit(plan)
    assert not plan.out_dir.exists() and _children() <= before
    assert [p.name for p in tmp_path.iterdir() if ".streamed-" in p.name] == []


@two_processes
def test_cancel_while_the_child_computes_stops_it(tmp_path, monkeypatch, forks_here):
    import time

    if not forks_here:
        return
    _first_corpus_statistics_do(monkeypatch, lambda: time.sleep(60))  # in the child: killed, never waited for
    handed = []
    plan = _plan(tmp_path, "out", jobs=2)
    before = _children()
    t = time.perf_counter()
    with pytest.raises(Cancelled):
        run_audit(plan, cancel=lambda: bool(handed),
                  log=lambda line: handed.append(line) if "in a second process" in line else None)
    assert time.perf_counter() - t < 30
    assert not plan.out_dir.exists() and _children() <= before


def test_a_bad_later_corpus_stops_the_run_before_anything_is_scored(tmp_path, monkeypatch):
    from engine.common.errors import UserError

    monkeypatch.setattr(pipeline, "STREAM_ROWS", 1)
    scored = []
    monkeypatch.setattr(pipeline, "_probe_speeds", lambda *a: scored.append(1) or {})
    plan = AuditPlan([CORPORA[0], "no-such-corpus"], ["vader"], stats=["paired"], out_dir=tmp_path / "out",
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0, "jobs": 1})
    with pytest.raises(UserError, match="no-such-corpus"):
        run_audit(plan)
    assert scored == [] and not plan.out_dir.exists()
