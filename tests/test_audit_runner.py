"""The audit runner: corpora × scorers × statistics, written to a folder with a manifest."""
import json
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT
from engine.audit import AuditPlan, run_audit
from engine.corpus import generate, load_corpus


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A black-box system's prediction file with +0.05 for sentences about women."""
    d = tmp_path_factory.mktemp("pred")
    df = generate(load_corpus("en-kiritchenko2018"))
    rng = np.random.default_rng(7)
    score = 0.4 + 0.1 * rng.random(len(df)) + np.where(df.Gender == "female", 0.05, 0.0)
    path = d / "system.tsv"
    pd.DataFrame({"ID": df.ID, "Sentence": df.Sentence, "anger": score}).to_csv(path, sep="\t", index=False)
    return path


def test_audit_detects_planted_gender_bias(planted, tmp_path):
    out = tmp_path / "audit"
    plan = AuditPlan(["en-kiritchenko2018"], [f"predictions:{planted}?key=sentence&name=sys"], stats=["beta", "paired"],
                     out_dir=out, cache_dir=tmp_path / "cache", settings={"n_resamples": 200})
    seen, phases = [], []
    result = run_audit(plan, progress=lambda d, t, e: seen.append((d, t)),
                       on_phase=lambda name, total: phases.append(len(seen)))
    assert seen[phases[1] - 1] == (8640, 8640)  # the scoring's last count, before the statistics phase
    assert seen[-1] == (2, 2)  # then its statistics: Beta and paired on the one corpus
    beta = result.tables["beta"]
    g = beta[(beta.term == "gender") & (beta.model == "sys")].iloc[0]
    assert g.p_value < 1e-6 and abs(g.ame - 0.05) < 0.01
    r = beta[(beta.term == "race") & (beta.model == "sys")].iloc[0]
    assert r.p_value > 0.001
    paired = result.tables["paired"]
    gender_all = paired[(paired.axis == "gender") & (paired.subset == "all")].iloc[0]
    assert gender_all.verdict.startswith("F↑")
    for f in ["manifest.json", "scores/en-kiritchenko2018.csv", "stats/beta.csv", "stats/paired.csv",
              "tables/beta.md", "tables/beta.tex", "summary.txt"]:
        assert (out / f).exists(), f
    man = json.loads((out / "manifest.json").read_text())
    assert man["corpora"]["en-kiritchenko2018"]["sentences"] == 8640
    assert len(man["corpora"]["en-kiritchenko2018"]["definition_sha256"]) == 64
    assert man["scorers"]["sys"]["fingerprint"]
    assert "pandas" in man["versions"]


def test_cancel_then_resume_from_cache(planted, tmp_path):
    cancel = threading.Event()
    plan = AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["paired"], cache_dir=tmp_path / "cache",
                     settings={"n_resamples": 0})

    def stop_half(done, total, eta):
        if done >= total // 2:
            cancel.set()

    from engine.common.progress import Cancelled

    with pytest.raises(Cancelled):
        run_audit(plan, progress=stop_half, cancel=cancel)
    logs = []
    full = run_audit(plan, log=logs.append)
    line = next(l for l in logs if "from cache" in l)
    hits = int(line.split(" scored, ")[1].split(" from cache")[0].replace(",", ""))
    assert 0 < hits < 8640
    fresh = run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["paired"], cache_dir=tmp_path / "c2",
                                settings={"n_resamples": 0}))
    pd.testing.assert_frame_equal(full.tables["paired"], fresh.tables["paired"])


def test_cancel_during_statistics_writes_nothing_and_keeps_every_score(planted, tmp_path):
    """Cancel after scoring (bootstraps and Beta fits take a while) stops before the next statistic."""
    from engine.common.progress import Cancelled

    cancel = threading.Event()
    out = tmp_path / "out"
    plan = AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["beta", "paired"], out_dir=out,
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0})
    said = []

    def log(line):
        said.append(line)
        if "Beta regression on" in line:  # the first statistic has started: press Cancel
            cancel.set()

    with pytest.raises(Cancelled) as info:
        run_audit(plan, cancel=cancel, log=log)
    assert info.value.stage == "statistics" and info.value.done == info.value.total == 8640
    assert not any("paired analysis" in line for line in said)  # stopped before the next statistic
    assert not (out / "manifest.json").exists() and not (out / "stats").exists()
    logs = []
    run_audit(plan, log=logs.append)
    assert any("0 scored, 8,640 from cache" in line for line in logs), logs
    assert (out / "manifest.json").is_file()


def test_cli_audit_prints_tables(planted, tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "audit", "--corpus", "en-kiritchenko2018",
                           "--model", f"predictions:{planted}?key=id&name=sys", "--stats", "paired",
                           "--bootstrap", "0", "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "c")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Kiritchenko & Mohammad paired analysis" in proc.stdout
    assert "F↑–M↓ significant" in proc.stdout
    assert (tmp_path / "o" / "stats" / "paired.csv").exists()


EXIT_NOW = """
import atexit, sys
sys.path.insert(0, {root!r})
sys.argv = ["main.py", "audit"]
import main
atexit.register(lambda: open({marker!r}, "w").write("ran"))
print("buffered, no newline", end="")
main.exit_now(3)
print("never printed")
"""


def test_cli_exit_skips_teardown_but_runs_exit_handlers_and_flushes(tmp_path):
    marker = tmp_path / "handler"
    proc = subprocess.run([sys.executable, "-c", EXIT_NOW.format(root=str(ROOT), marker=str(marker))],
                          capture_output=True, text=True)
    assert proc.returncode == 3 and proc.stdout == "buffered, no newline" and marker.read_text() == "ran"


def test_bad_plan_messages():
    with pytest.raises(ValueError, match="unknown statistic"):
        AuditPlan(["x"], ["vader"], stats=["nope"]).validate()
    with pytest.raises(ValueError, match="--model"):
        AuditPlan(["x"], []).validate()


def test_audit_with_tiny_transformer_classifier(tmp_path):
    """The transformer path through the runner: hf-classifier spec, device/precision in the manifest, cache."""
    pytest.importorskip("torch")
    from testkit.corpus_fixtures import mini_pairs
    from testkit.tiny_models import make_tiny_bert

    corpus = tmp_path / "mini.toml"
    corpus.write_text(mini_pairs(), encoding="utf-8")
    model = make_tiny_bert(tmp_path / "stars", labels=["1 star", "2 stars", "3 stars"], seed=4)
    plan = AuditPlan([str(corpus)], [f"hf-classifier:{model}?device=cpu&batch_size=4&name=stars"],
                     stats=["paired", "counterfactual"], out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                     settings={"n_resamples": 0})
    seen = []
    first = run_audit(plan, progress=lambda d, t, e: seen.append((d, t, e)))
    rec = first.manifest["scorers"]["stars"]
    assert rec["describe"]["device"]["type"] == "cpu" and rec["describe"]["precision"]["used"] == "fp32"
    assert rec["describe"]["label_values"] == [1.0, 2.0, 3.0]
    scores = first.scores["mini"]
    assert {"stars:expected", "stars:expected_01", "stars:argmax"} <= set(scores.columns)
    assert scores["stars:expected"].between(1, 3).all()
    assert seen[-1][0] == seen[-1][1] and any(e is not None for _, _, e in seen)
    n = first.manifest["scoring"][0]["texts"]
    again = run_audit(plan)
    assert again.manifest["scoring"][0]["cache_hits"] == n and again.manifest["scoring"][0]["scored"] == 0
    pd.testing.assert_frame_equal(first.scores["mini"], again.scores["mini"])


def test_beta_regression_keeps_unit_columns_beside_a_star_scale(tmp_path):
    """A 1–5 star column (a classifier's `expected`) is left out of the Beta regression with a note;
    the [0, 1] column of the same system is still fitted (it used to sink the whole regression)."""
    df = generate(load_corpus("en-kiritchenko2018"))
    rng = np.random.default_rng(3)
    unit = 0.4 + 0.2 * rng.random(len(df)) + np.where(df.Gender == "female", 0.05, 0.0)
    path = tmp_path / "stars.csv"
    pd.DataFrame({"Sentence": df.Sentence, "p": unit, "stars": 1 + 4 * unit}).to_csv(path, index=False)
    plan = AuditPlan(["en-kiritchenko2018"], [f"predictions:{path}?key=sentence&name=clf"], stats=["beta"],
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0})
    result = run_audit(plan)
    beta = result.tables["beta"]
    assert set(beta.emotion) == {"p"}
    g = beta[beta.term == "gender"].iloc[0]
    assert g.p_value < 1e-6 and abs(g.ame - 0.05) < 0.01
    assert any("clf:stars" in p and "outside [0, 1]" in p for p in result.problems)


class _Paced:
    """A scorer that takes ``delay`` seconds per text (deterministic scores)."""

    dimensions = ["v"]

    def __init__(self, name: str, delay: float):
        self.name, self.delay = name, delay

    def fingerprint(self):
        return f"paced-{self.name}-{self.delay}"

    def score(self, texts, *, progress=None, cancel=None):
        import time

        import pandas as pd

        time.sleep(self.delay * len(texts))
        return pd.DataFrame({"v": [(len(t) % 7) / 7 for t in texts]})


def test_eta_knows_a_slow_second_scorer_from_the_start(tmp_path):
    """The speed probe times each scorer before the run: while the fast first scorer works, the
    ETA already includes the slow one's remaining texts (not 'about 1 s left' at 19 %)."""
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path)
    fast, slow = _Paced("fast", 0.0), _Paced("slow", 0.002)
    seen = []

    def progress(done, total, eta):
        seen.append((done, total, eta))

    res = run_audit(AuditPlan([str(corpus)], [fast, slow], stats=[], cache_dir=tmp_path / "c"), progress=progress)
    n = len(res.scores[next(iter(res.scores))])
    first_job = [e for d, t, e in seen if 0 < d <= n // 2 and e is not None]
    assert first_job, seen[:5]
    slow_left = 0.002 * (n - 32)  # the probe already scored 32 of the slow scorer's texts
    assert min(first_job) >= 0.5 * slow_left, (min(first_job), slow_left)
    probes = [s for s in res.manifest["scoring"] if s.get("probe")]
    assert {p["scorer"] for p in probes} == {"fast", "slow"} and all(p["scored"] == 32 for p in probes)


EXIT_SLOWLY = """
import atexit, sys, time
sys.path.insert(0, {root!r})
sys.argv = ["main.py", "audit"]
import main
def slow():
    print("handler started", flush=True)
    time.sleep(1.5)
    open({marker!r}, "w").write("ran")
atexit.register(slow)
print("the command's output")
main.exit_now(0)
"""


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_in_the_exit_handlers_waits_for_them_and_a_second_one_ends_at_once(tmp_path, presses):
    """A Ctrl+C during the exit handlers (the command is done) printed "Exception ignored in atexit
    callback", cut the handler short and exited 0. Now one press lets them finish (exit 0, nothing
    printed); a second ends the process at once with "cancelled", exit 130."""
    import signal

    from testkit.terminal import default_sigint

    marker = tmp_path / "handler"
    proc = subprocess.Popen([sys.executable, "-c", EXIT_SLOWLY.format(root=str(ROOT), marker=str(marker))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    lines = [proc.stdout.readline(), proc.stdout.readline()]
    assert lines == ["the command's output\n", "handler started\n"]
    for _ in range(presses):
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    if presses == 1:
        assert (proc.returncode, err, marker.read_text()) == (0, "", "ran")
    else:
        assert (proc.returncode, err) == (130, "cancelled\n") and not marker.exists()
