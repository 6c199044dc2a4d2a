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
