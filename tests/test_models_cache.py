"""The scoring core: persistent cache, progress, cancellation, resume after SIGKILL."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT
from engine.models.base import Cancelled
from engine.models.errors import ModelError
from engine.audit.cache import ScoreCache
from engine.audit.scoring import score_texts


class CountingScorer:
    """Deterministic fake: counts how many texts it really scored."""

    name = "counting"
    dimensions = ["len", "vowels"]
    batch_size = 7

    def __init__(self):
        self.calls = 0
        self.scored = 0

    def fingerprint(self):
        return "counting-v1"

    def score(self, texts, *, progress=None, cancel=None):
        self.calls += 1
        self.scored += len(texts)
        return pd.DataFrame({"len": [float(len(t)) for t in texts],
                             "vowels": [float(sum(c in "aeiou" for c in t)) for t in texts]})


TEXTS = [f"sentence number {i} " + "a" * (i % 13) for i in range(60)]


def test_second_run_is_all_cache_hits(tmp_path):
    s = CountingScorer()
    with ScoreCache(tmp_path / "cache") as cache:
        first = score_texts(s, TEXTS + TEXTS[:5], cache=cache)  # duplicates scored once
        assert s.scored == 60 and cache.misses == 60 and cache.hits == 0
        assert first.attrs["scoring"].unique == 60 and first.attrs["scoring"].scored == 60
    s2 = CountingScorer()
    with ScoreCache(tmp_path / "cache") as cache:  # reopened from disk
        second = score_texts(s2, TEXTS, cache=cache)
        assert cache.misses == 0 and cache.hits == 60 and s2.scored == 0
    pd.testing.assert_frame_equal(first.iloc[:60].reset_index(drop=True), second)
    assert list(first["len"]) == [float(len(t)) for t in TEXTS + TEXTS[:5]]


def test_fingerprint_separates_entries(tmp_path):
    cache = ScoreCache(":memory:")
    a = CountingScorer()
    score_texts(a, TEXTS[:10], cache=cache)
    b = CountingScorer()
    b.fingerprint = lambda: "counting-v2"
    score_texts(b, TEXTS[:10], cache=cache)
    assert b.scored == 10 and cache.count("counting-v1") == 10 and cache.count("counting-v2") == 10


def test_length_sorted_chunks_and_progress():
    s = CountingScorer()
    seen = []
    out = score_texts(s, TEXTS, progress=lambda d, t, e: seen.append((d, t, e)))
    assert s.calls == -(-60 // 7)  # chunks of the scorer's batch size
    assert seen[-1][:2] == (60, 60) and all(t == 60 for _, t, _ in seen)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)
    assert seen[-1][2] == pytest.approx(0.0)
    assert list(out["len"]) == [float(len(t)) for t in TEXTS]  # order restored after sorting


def test_cancel_mid_run_keeps_finished_chunks_then_resumes(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    stop = threading.Event()

    def progress(done, total, eta):
        if done >= 21:
            stop.set()

    s = CountingScorer()
    with pytest.raises(Cancelled) as exc:
        score_texts(s, TEXTS, cache=cache, progress=progress, cancel=stop)
    assert exc.value.done == 21 and exc.value.total == 60
    assert cache.count() == 21 and s.scored == 21  # stopped at a chunk boundary
    cache.reset_counters()
    s2 = CountingScorer()
    full = score_texts(s2, TEXTS, cache=cache)
    assert cache.hits == 21 and cache.misses == 39 and s2.scored == 39
    assert list(full["vowels"]) == [float(sum(c in "aeiou" for c in t)) for t in TEXTS]


def test_callable_cancel_and_bad_scorer_output():
    with pytest.raises(Cancelled):
        score_texts(CountingScorer(), TEXTS, cancel=lambda: True)

    class Broken(CountingScorer):
        def score(self, texts, **kw):
            return pd.DataFrame({"len": [1.0]})

    with pytest.raises(ModelError, match="columns"):
        score_texts(Broken(), TEXTS)


def test_cached_vectors_keep_dtype(tmp_path):
    cache = ScoreCache(tmp_path)
    emb = np.arange(12, dtype=np.float32).reshape(3, 4)
    cache.put_many("enc", ["a", "b", "c"], emb)
    got = cache.get_many("enc", ["c", "x", "a"])
    assert set(got) == {0, 2} and got[0].dtype == np.float32
    np.testing.assert_array_equal(got[0], emb[2])
    assert (tmp_path / "scores.sqlite").exists()


SLOW_SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
import pandas as pd
from engine.audit.cache import ScoreCache
from engine.audit.scoring import score_texts

class Slow:
    name = "slow"; dimensions = ["len"]; batch_size = 10
    def fingerprint(self): return "slow-v1"
    def score(self, texts, *, progress=None, cancel=None):
        time.sleep(0.15)
        return pd.DataFrame({{"len": [float(len(t)) for t in texts]}})

texts = [f"text {{i}}" for i in range(300)]
score_texts(Slow(), texts, cache=ScoreCache({cache!r}),
            progress=lambda d, t, e: print(d, flush=True))
"""


def test_resume_after_sigkill(tmp_path):
    cache_path = tmp_path / "kill.sqlite"
    script = tmp_path / "slow.py"
    script.write_text(SLOW_SCRIPT.format(root=str(ROOT), cache=str(cache_path)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    done = 0
    deadline = time.time() + 60
    while done < 100 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        done = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert done >= 100, "subprocess did not make progress"
    cache = ScoreCache(cache_path)
    kept = cache.count("slow-v1")
    assert 100 <= kept < 300

    class Slow:
        name = "slow"
        dimensions = ["len"]
        batch_size = 10
        scored = 0

        def fingerprint(self):
            return "slow-v1"

        def score(self, texts, **kw):
            Slow.scored += len(texts)
            return pd.DataFrame({"len": [float(len(t)) for t in texts]})

    texts = [f"text {i}" for i in range(300)]
    out = score_texts(Slow(), texts, cache=cache)
    assert cache.hits == kept and cache.misses == 300 - kept and Slow.scored == 300 - kept
    assert list(out["len"]) == [float(len(t)) for t in texts]  # equal to an uninterrupted run
