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
from engine.common.progress import Cancelled
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
        time.sleep(0.05)
        return pd.DataFrame({{"len": [float(len(t)) for t in texts]}})

cache = ScoreCache({cache!r}, flush_seconds=3600, flush_rows=50)  # commits exactly every 50 rows
texts = [f"text {{i}}" for i in range(300)]
score_texts(Slow(), texts, cache=cache, progress=lambda d, t, e: print(d, cache.committed, flush=True))
"""


def test_sigkill_loses_at_most_the_last_batch(tmp_path):
    cache_path = tmp_path / "kill.sqlite"
    script = tmp_path / "slow.py"
    script.write_text(SLOW_SCRIPT.format(root=str(ROOT), cache=str(cache_path)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    done = committed = 0
    deadline = time.time() + 60
    while done < 125 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        done, committed = map(int, line.split())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert done >= 125, "subprocess did not make progress"
    assert committed % 50 == 0 and committed >= 100  # batched: one commit per 50 rows, not per chunk
    cache = ScoreCache(cache_path)
    kept = cache.count("slow-v1")
    # everything up to the last committed batch survived; only the batch being filled was lost
    assert committed <= kept and kept % 50 == 0
    assert done - kept < 50 + 10  # at most one batch (50) and the chunk being printed (10)

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
    assert ScoreCache(cache_path).count("slow-v1") == 300  # committed when score_texts returned


def test_writes_are_committed_by_time_or_size(tmp_path, monkeypatch):
    import engine.audit.cache as cache_mod

    clock = [100.0]
    monkeypatch.setattr(cache_mod.time, "monotonic", lambda: clock[0])
    path = tmp_path / "batch.sqlite"
    cache = ScoreCache(path, flush_seconds=1.0, flush_rows=1000)
    other = ScoreCache(path)  # a second connection sees only what was committed
    cache.put_many("fp", ["a", "b"], np.array([1.0, 2.0]))
    assert cache.pending == 2 and cache.committed == 0 and other.count("fp") == 0
    assert set(cache.get_many("fp", ["a", "b", "c"])) == {0, 1}  # buffered rows are readable at once
    clock[0] += 1.5
    cache.put_many("fp", ["c"], np.array([3.0]))  # a second has passed: all three in one commit
    assert cache.pending == 0 and cache.committed == 3 and other.count("fp") == 3
    small = ScoreCache(tmp_path / "small.sqlite", flush_seconds=3600, flush_rows=4)
    small.put_many("fp", ["a", "b", "c"], np.zeros(3))
    assert small.committed == 0
    small.put_many("fp", ["d", "e"], np.zeros(2))  # five waiting >= 4: committed
    assert small.committed == 5 and small.pending == 0
    small.put_many("fp", ["f"], np.zeros(1))
    small.close()  # closing commits the rest
    assert ScoreCache(tmp_path / "small.sqlite").count("fp") == 6
    wal = ScoreCache(tmp_path / "wal.sqlite")
    assert wal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("cached", [0, 7, 1_200, 3_000])
def test_lookups_find_exactly_the_cached_rows_by_scan_or_by_key(tmp_path, cached):
    """A lookup of many texts reads the fingerprint's rows in one scan where it has no more rows than
    texts asked for (a first run), else looks each text up; both give every cached vector, its dtype
    and the hit counts, and nothing of another fingerprint or of a text not asked for."""
    import engine.audit.cache as cache_mod

    texts = [f"sentence {i}" for i in range(2_000)]
    cache = ScoreCache(tmp_path / "c.sqlite")
    stored = [f"sentence {i}" for i in range(0, 2 * cached, 2)] if cached <= 1_000 else \
        texts[:1_000] + [f"other {i}" for i in range(cached - 1_000)]
    cache.put_many("fp", stored, np.arange(len(stored), dtype=np.float32).reshape(-1, 1))
    cache.put_many("other fp", texts, np.full((len(texts), 1), -1.0))
    cache.flush()
    cache.put_many("fp", ["sentence 1999"], np.array([[99.0]], dtype=np.float32))  # buffered, not committed
    scans = []
    real = cache_mod.ScoreCache._all_rows_into
    cache_mod.ScoreCache._all_rows_into = lambda self, *a: scans.append(real(self, *a)) or scans[-1]
    try:
        found = cache.get_many("fp", texts)
    finally:
        cache_mod.ScoreCache._all_rows_into = real
    value_of = {t: float(i) for i, t in enumerate(stored)} | {"sentence 1999": 99.0}
    expected = {i: value_of[t] for i, t in enumerate(texts) if t in value_of}
    assert {i: float(v[0]) for i, v in found.items()} == expected
    assert all(v.dtype == np.float32 and v.shape == (1,) for v in found.values())
    assert (cache.hits, cache.misses) == (len(expected), len(texts) - len(expected))
    assert scans == [len(stored) <= len(texts) - 1]  # the scan where the rows are no more than those asked
