"""Sweep plan files: what they turn into, and one FILE:LINE line for every mistake."""
import json
from pathlib import Path

import pandas as pd
import pytest

from engine.sweep import SweepError, load_sweep_plan, parse_sweep_plan
from engine.sweep.paths import spec_paths, with_base, with_options


def _plan(tmp_path, text):
    path = tmp_path / "plan.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path, text):
    with pytest.raises(SweepError) as err:
        load_sweep_plan(_plan(tmp_path, text))
    return err.value


def test_a_plan_becomes_the_audit_plan_the_audit_command_would_build(tmp_path):
    (tmp_path / "preds").mkdir()
    (tmp_path / "preds" / "sys.tsv").write_text("Sentence\tanger\n")
    sweep = load_sweep_plan(_plan(tmp_path, '''
[sweep]
corpora = ["en-kiritchenko2018"]
models = ["vader", "predictions:preds/sys.tsv?key=sentence", "hf-classifier:org/model?device=cpu"]
stats = ["beta", "paired"]
alpha = 0.01
correction = "holm"
bootstrap = 200
inference = "paper"
race_pooling = "within_gender"
score_range = [0, 1]
chunk_size = 500
retries = 1
model_options = { device = "cuda", batch_size = 64 }
'''), out_dir=tmp_path / "out")
    plan = sweep.audit
    assert plan.corpora == ["en-kiritchenko2018"] and plan.stats == ["beta", "paired"]
    assert plan.out_dir == tmp_path / "out"
    # every declared statistic setting, as the audit command's plan has them: the file's, else the default
    given = {"alpha": 0.01, "correction": "holm", "n_resamples": 200, "band_share": 0.03, "inference": "paper",
             "race_pooling": "within_gender", "score_range": (0.0, 1.0)}
    from engine.stats.registry import settings as declared

    assert plan.settings == {**{s.key: s.default for s in declared()}, **given}  # whatever the registry holds
    assert (sweep.chunk_size, sweep.retries) == (500, 1)
    vader, preds, hf = plan.scorers
    assert vader == "vader?device=cuda&batch_size=64"
    # relative paths are the plan file's; workers elsewhere need the absolute one
    assert preds.startswith(f"predictions:{tmp_path / 'preds' / 'sys.tsv'}?") and "key=sentence" in preds
    assert "device=cpu" in hf and "device=cuda" not in hf  # a model's own option wins


@pytest.mark.parametrize("body, line, words", [
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nstats = ["paired", "betta"]\n', 4, "unknown statistic 'betta'"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\n\nalpha = 2\n', 5, "must be between 0 and 1 (exclusive), got 2.0"),
    ('corpora = ["en-nowhere"]\nmodels = ["vader"]\n', 2, "no corpus named 'en-nowhere'"),
    ('corpora = ["en-kiritchenko2018"]\nmodel = ["vader"]\n', 3, "unknown key 'model'"),
    ('corpora = ["en-kiritchenko2018"]\n', 1, "'models' is missing"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nbootstrap = "many"\n', 4, "whole number"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = []\n', 3, "'models' is empty"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\ncorrection = "bonferroni"\n', 4, "holm, bh"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nmodel_options = { colour = "red" }\n', 4,
     "unknown model option 'colour'"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nchunk_size = 0\n', 4, "at least 1"),
    ('corpora = ["en-kiritchenko2018"]\nmodels = ["vader"\n', 3, "TOML syntax error"),
])
def test_every_mistake_names_its_line(tmp_path, body, line, words):
    err = _error(tmp_path, "[sweep]\n" + body)
    text = str(err)
    assert err.line == line, text
    assert text.startswith(f"{tmp_path / 'plan.toml'}:{line}") and words in text, text


def test_a_plan_without_a_sweep_table_or_with_another_table(tmp_path):
    assert "no [sweep] table" in str(_error(tmp_path, 'corpora = ["x"]\n'))
    err = _error(tmp_path, '[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\n\n[audit]\nalpha = 1\n')
    assert err.line == 5 and "put everything under [sweep]" in str(err)


def test_spec_paths_name_the_files_a_worker_must_see(tmp_path):
    assert spec_paths("vader") == []
    assert spec_paths("predictions:/data/p.tsv?key=id") == ["/data/p.tsv"]
    assert spec_paths("/models/svm-en?vectors=/v/cc.en.300.bin") == ["/models/svm-en", "/v/cc.en.300.bin"]
    assert spec_paths("hf-classifier:org/model") == []  # a hub id, from the worker's own HF cache
    assert spec_paths("hf-classifier:/m/bert") == ["/m/bert"]
    (tmp_path / "m").mkdir()
    assert with_base("model:m?device=cpu", tmp_path) == f"model:{tmp_path / 'm'}?device=cpu"
    assert with_base("model:elsewhere", tmp_path) == "model:elsewhere"  # not there: left for the error to name
    assert with_options("vader?name=v2", {"device": "cpu"}) == "vader?device=cpu&name=v2"


def test_cli_prints_one_line_for_a_bad_plan(run, tmp_path):
    path = _plan(tmp_path, '[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nstats = ["nope"]\n')
    res = run("sweep", str(path), "--out", str(tmp_path / "out"))
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and f"plan.toml:4 [sweep.stats]: unknown statistic 'nope'" in lines[0], res.stderr
    res = run("sweep", str(tmp_path / "missing.toml"), "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "plan file not found" in res.stderr


@pytest.mark.slow
def test_cli_sweep_on_a_local_cluster_equals_the_audit_command(run, tmp_path):
    from testkit.audit_fixtures import write_mini_corpus, write_predictions

    corpus = write_mini_corpus(tmp_path / "corpora", "sweep-mini")
    write_predictions(corpus, tmp_path / "preds" / "sys.tsv")
    plan = _plan(tmp_path, '''
[sweep]
corpora = ["corpora/sweep-mini.toml"]
models = ["vader", "predictions:preds/sys.tsv?key=sentence&name=sys"]
stats = ["beta", "paired"]
bootstrap = 50
chunk_size = 100
''')
    res = run("sweep", str(plan), "--out", str(tmp_path / "sweep"), "--jobs", "1", "--cache-dir", str(tmp_path / "c1"))
    assert res.returncode == 0, res.stderr
    res = run("audit", "--corpus", str(corpus), "--model", "vader", f"predictions:{tmp_path / 'preds' / 'sys.tsv'}?key=sentence&name=sys",
              "--stats", "beta,paired", "--bootstrap", "50", "--out", str(tmp_path / "local"),
              "--cache-dir", str(tmp_path / "c2"))
    assert res.returncode == 0, res.stderr
    for name in ("beta.csv", "paired.csv"):
        sweep = pd.read_csv(tmp_path / "sweep" / "stats" / name)
        assert {"corpus", "model"} <= set(sweep.columns) and set(sweep.model) == {"vader", "sys"}
        pd.testing.assert_frame_equal(sweep, pd.read_csv(tmp_path / "local" / "stats" / name))
    manifest = json.loads((tmp_path / "sweep" / "manifest.json").read_text())
    local = json.loads((tmp_path / "local" / "manifest.json").read_text())
    assert manifest["sweep"]["local_cluster"] and len(manifest["sweep"]["workers"]) == 1
    assert manifest["scorers"] == local["scorers"]  # the stand-ins describe the models as loading them does
