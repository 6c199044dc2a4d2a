"""engine.audit.schedule: every job of an audit through one scheduler — shared de-duplication, corpora
handed on in order as soon as they are complete (while workers still score), warmed scorers inherited
by forked workers; engine.audit.forked: corpora generated in a forked child, with the serial path's
errors when anything goes wrong there."""
import os
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.audit.cache import ScoreCache
from engine.audit.forked import ForkedCall
from engine.audit.parallel import can_fork
from engine.audit.schedule import ScoringJob, score_jobs
from engine.audit.scoring import score_texts
from engine.models.base import Cancelled, WorkerSpec
from engine.models.scorers.lexicon import VaderScorer

WORDS = ["happy", "sad", "furious", "calm", "terrified", "glad", "awful", "wonderful", "bored", "grim"]
A = [f"My sister feels {w} about item {i}." for i in range(60) for w in WORDS[i % 10:i % 10 + 1]]
B = A[30:] + [f"My uncle feels {w} today, {i}." for i in range(60) for w in WORDS[i % 10:i % 10 + 1]]
C = B[:20] + [f"Our {i} neighbours were {w}." for i in range(40) for w in WORDS[i % 10:i % 10 + 1]]

forking = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers are Linux-only")


@pytest.fixture(autouse=True)
def _pools_wound_down():
    """Each test starts without another test's pool threads (see testkit.pools)."""
    from testkit.pools import wait_for_pools

    wait_for_pools()
    yield


def _need_fork():
    if not can_fork():
        pytest.skip(f"another thread runs in this test process ({[t.name for t in threading.enumerate()]}): "
                    "workers would be spawned, not forked")


class SlowHere(VaderScorer):
    """VADER that is slow in this process only, so that workers surely take chunks."""

    def __init__(self, delay=0.03):
        super().__init__()
        self.pid, self.delay = os.getpid(), delay

    def score(self, texts, **kw):
        if os.getpid() == self.pid:
            time.sleep(self.delay)
        return super().score(texts, **kw)


class SlowEverywhere(VaderScorer):
    """VADER taking 50 ms per chunk in every process (a forked worker inherits it)."""

    def score(self, texts, **kw):
        time.sleep(0.05)
        return super().score(texts, **kw)


class Length:
    """A scorer without a worker spec (like the torch ones): only this process scores it."""

    name, dimensions, batch_size = "len", ["len"], 16

    def __init__(self):
        self.calls = []

    def fingerprint(self):
        return "len-v1"

    def score(self, texts, **kw):
        self.calls.append(len(texts))
        return pd.DataFrame({"len": [float(len(t)) for t in texts]})


@pytest.mark.parametrize("processes", [1, 2])
def test_jobs_share_scores_and_groups_are_handed_on_in_order(tmp_path, processes):
    vader, length = SlowHere(0.0), Length()
    jobs = [ScoringJob(s, texts, group=g) for g, texts in enumerate([A, B, C]) for s in (vader, length)]
    handed, seen = [], []

    def on_group(g, frames):
        handed.append(g)
        # a group is handed on with complete frames for each of its jobs, in job order
        assert [list(f.columns) for f in frames] == [["valence"], ["len"]]
        assert all(len(f) == len(jobs[2 * g].texts) and not f.isna().any().any() for f in frames)

    cache = ScoreCache(tmp_path / "c.sqlite")
    frames = score_jobs(jobs, cache=cache, processes=processes, chunk_size=8, on_group_done=on_group,
                        progress=lambda d, t, e: seen.append((d, t)))
    assert handed == [0, 1, 2]
    for job, frame in zip(jobs, frames):  # the scores of scoring each job on its own
        alone = score_texts(VaderScorer() if job.scorer is vader else Length(), job.texts)
        np.testing.assert_array_equal(frame.to_numpy(), alone.to_numpy())
    stats = [f.attrs["scoring"] for f in frames]
    # B repeats 30 texts of A: scored once, counted as cache hits of B's job
    assert [s.scored for s in stats[::2]] == [60, 60, 40] and [s.cache_hits for s in stats[::2]] == [0, 30, 20]
    assert sum(length.calls) == 160  # each distinct text once
    assert cache.writes == 2 * 160  # every fresh score cached, once
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (420, 420)
    assert stats[0].jobs == processes and stats[1].jobs == 1  # the worker-less scorer stays here


@forking
def test_statistics_of_a_finished_corpus_run_while_workers_score_the_next():
    """The overlap that makes two processes pay: the first group is handed on before the last
    chunk of the last group is scored."""
    _need_fork()  # (spawned workers take seconds to start: this process would score everything)
    vader = SlowEverywhere()
    jobs = [ScoringJob(vader, texts, group=g) for g, texts in enumerate([A, B, C])]
    state = {"done": 0, "at_hand_on": []}

    def on_group(g, frames):
        state["at_hand_on"].append(state["done"])
        time.sleep(0.3)  # "statistics": the workers go on meanwhile

    frames = score_jobs(jobs, processes=2, chunk_size=8, on_group_done=on_group,
                        progress=lambda d, t, e: state.__setitem__("done", d))
    total = sum(f.attrs["scoring"].unique for f in frames)
    assert state["at_hand_on"][0] < total  # group 0 was handed on while texts were still unscored
    assert sum(f.attrs["scoring"].by_workers for f in frames) > 0


class Unloadable(SlowHere):
    """Its worker spec names no loadable model: a worker can only score with the copy it inherits."""

    def worker_spec(self):
        return WorkerSpec("no-such-model-anywhere")


@forking
def test_forked_workers_inherit_the_warmed_scorers():
    _need_fork()
    out = score_texts(Unloadable(), A + B, jobs=2, chunk_size=8)
    assert out.attrs["scoring"].by_workers > 0  # workers scored without loading "no-such-model-anywhere"
    np.testing.assert_array_equal(out.to_numpy(), score_texts(VaderScorer(), A + B).to_numpy())


def test_cancel_in_a_corpus_statistics_while_scoring_goes_on_says_scoring(tmp_path):
    from testkit.audit_fixtures import write_mini_corpus

    corpus = str(write_mini_corpus(tmp_path))
    stop = threading.Event()
    plan = AuditPlan([corpus, "en-goldfarb2023"], ["vader"], stats=["paired"], cache_dir=tmp_path / "c",
                     settings={"n_resamples": 0, "jobs": 1})
    lines = []

    def log(line):
        lines.append(line)
        if "Paired differences on" in line:
            stop.set()  # cancelled in the first corpus's statistics; the second is not scored yet

    with pytest.raises(Cancelled) as exc:
        run_audit(plan, log=log, cancel=stop)
    assert exc.value.stage == "scoring" and exc.value.done < exc.value.total


def _square(x):
    return x * x


def _fail():
    raise ValueError("boom")


def _unpicklable():
    return threading.Lock()


@forking
def test_forked_call_returns_or_says_it_failed():
    threads = threading.active_count()
    call = ForkedCall(_square, 7)
    assert threading.active_count() == threads  # no thread here: forking the scoring workers stays safe
    assert call.result() == (True, 49)
    assert ForkedCall(_fail).result() == (False, None)
    assert ForkedCall(_unpicklable).result() == (False, None)


@forking
@pytest.mark.parametrize("corpora, models", [
    (["no-such-corpus"], ["vader"]),
    # the child generates the first half, this process the second: the first bad corpus's error wins
    (["en-goldfarb2023", "no-such-corpus"], ["vader"]),
    (["no-such-corpus", "en-goldfarb2023", "en-kiritchenko2018", "another-missing-one"], ["vader"]),
    (["en-goldfarb2023", "no-such-corpus"], ["no-such-model:x"]),  # a corpus's error before a model's
    (["en-goldfarb2023", "en-kiritchenko2018"], ["vader", "textblob?nmae=tb"]),
])
def test_bad_corpus_with_two_processes_gives_the_serial_error(tmp_path, corpora, models):
    messages = []
    for jobs in (1, 2):
        plan = AuditPlan(corpora, models, stats=["paired"], cache_dir=tmp_path / "c", settings={"jobs": jobs})
        with pytest.raises(Exception) as exc:
            run_audit(plan)
        messages.append((type(exc.value).__name__, str(exc.value)))
    assert messages[0] == messages[1]
    assert ("no-such-corpus" in messages[0][1]) == ("no-such-corpus" in corpora)


def test_two_processes_write_the_same_folder_as_one(tmp_path):
    """Corpora generated in a forked child, statistics overlapping the scoring, files of finished
    corpora rendered early: the results folder is the one a single process writes."""
    from testkit.audit_fixtures import write_mini_corpus

    corpus = str(write_mini_corpus(tmp_path))
    folders = {}
    for jobs in (1, 2):
        plan = AuditPlan([corpus, "en-goldfarb2023"], ["vader", "textblob"], stats=["paired", "counterfactual"],
                         cache_dir=tmp_path / f"c{jobs}", out_dir=tmp_path / f"out{jobs}",
                         settings={"n_resamples": 0, "jobs": jobs})
        result = run_audit(plan)
        assert result.rendered == {}  # nothing rendered early is kept (the GUI is sent this object)
        folders[jobs] = plan.out_dir
    names = sorted(p.relative_to(folders[1]).as_posix() for p in folders[1].rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(folders[2]).as_posix() for p in folders[2].rglob("*") if p.is_file())
    assert any(n.startswith("scores/") for n in names) and any(n.startswith("pairs/") for n in names)
    for name in names:
        if name.endswith((".csv", ".md", ".tex", ".svg")):
            assert (folders[1] / name).read_bytes() == (folders[2] / name).read_bytes(), name


def test_mixed_scorers_give_the_same_audit_with_one_or_two_processes(tmp_path):
    """A torch model (this process only), a lexicon (shared with the worker) and a prediction file (a
    lookup, one call per corpus, uncached) in one plan: the scheduler's three kinds of job."""
    pytest.importorskip("torch")
    from testkit.audit_fixtures import make_tiny_classifier, write_mini_corpus, write_predictions

    corpus = write_mini_corpus(tmp_path)
    preds = write_predictions(corpus, tmp_path / "preds.csv")
    tiny = make_tiny_classifier(tmp_path / "tiny")
    runs = {}
    for jobs in (1, 2):
        plan = AuditPlan([str(corpus), "en-goldfarb2023"],
                         [f"hf-classifier:{tiny}?name=tiny", "vader", f"predictions:{preds}?name=sys&on_missing=keep"],
                         stats=["paired"], cache_dir=tmp_path / f"c{jobs}", settings={"n_resamples": 0, "jobs": jobs})
        runs[jobs] = run_audit(plan)
    for cid, frame in runs[1].scores.items():
        pd.testing.assert_frame_equal(frame, runs[2].scores[cid], check_exact=True)
    pd.testing.assert_frame_equal(runs[1].tables["paired"], runs[2].tables["paired"])
    jobs2 = {(s["corpus"], s["scorer"]): s for s in runs[2].manifest["scoring"] if not s.get("probe")}
    assert {s["jobs"] for (_c, name), s in jobs2.items() if name == "vader"} == {2}
    assert {s["jobs"] for (_c, name), s in jobs2.items() if name != "vader"} == {1}
    # the prediction file covers its corpus: the other corpus's texts are missing (kept as NaN), except
    # the few sentences both corpora share
    assert runs[2].scores["en-goldfarb2023"]["sys:anger"].isna().mean() > 0.9
    assert not runs[2].scores[next(c for c in runs[2].scores if c != "en-goldfarb2023")]["sys:anger"].isna().any()
