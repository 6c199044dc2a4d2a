"""Resume after SIGKILL at the audit level: nothing scored twice, results equal an uninterrupted run."""
import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd

from conftest import ROOT
from engine.audit import AuditPlan, run_audit
from engine.audit.cache import ScoreCache

N = 8640  # sentences of en-kiritchenko2018

SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
from engine.audit import AuditPlan, run_audit
from engine.models.scorers.lexicon import VaderScorer

class SlowVader(VaderScorer):  # same fingerprint as plain VADER: only slower
    def score(self, texts, **kw):
        time.sleep(0.08)
        return super().score(texts, **kw)

scorer = SlowVader()
scorer.batch_size = 200
plan = AuditPlan(["en-kiritchenko2018"], [scorer], stats=["paired"], out_dir={out!r}, cache_dir={cache!r},
                 settings={{"n_resamples": 0, "jobs": 1}})  # one process: the pace of the kill is known
run_audit(plan, progress=lambda done, total, eta: print(done, total, flush=True))
print("finished", flush=True)
"""


def test_audit_killed_half_way_resumes_without_rescoring(tmp_path):
    cache_dir, out = tmp_path / "cache", tmp_path / "audit"
    script = tmp_path / "audit_job.py"
    script.write_text(SCRIPT.format(root=str(ROOT), out=str(out), cache=str(cache_dir)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, cwd=ROOT)
    done, deadline = 0, time.time() + 120
    while done < N // 2 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line or line.startswith("finished"):
            break
        done = int(line.split()[0])
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert N // 2 <= done < N, f"the run was not caught half-way (last progress {done})"
    assert not (out / "manifest.json").exists()  # killed before writing results

    with ScoreCache(cache_dir) as cache:
        kept = cache.count()
    # writes are committed in batches of about a second (tests/test_models_cache.py bounds the loss):
    # something was committed, nothing that was not scored, and the run was not complete
    assert 0 < kept < N and kept <= done + 200

    resumed = run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["paired"], out_dir=out,
                                  cache_dir=cache_dir, settings={"n_resamples": 0}))
    counters = json.loads((out / "manifest.json").read_text())["scoring"][0]
    assert counters["cache_hits"] == kept and counters["scored"] == N - kept  # nothing scored twice
    assert resumed.manifest["cache"]["hits"] == kept and resumed.manifest["cache"]["writes"] == N - kept

    fresh = run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["paired"], cache_dir=tmp_path / "fresh",
                                settings={"n_resamples": 0}))
    assert fresh.manifest["scoring"][0]["scored"] == N
    pd.testing.assert_frame_equal(resumed.scores["en-kiritchenko2018"], fresh.scores["en-kiritchenko2018"])
    pd.testing.assert_frame_equal(resumed.tables["paired"], fresh.tables["paired"])
