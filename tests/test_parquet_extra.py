"""Parquet is the 'parquet' extra (issue 32): pyarrow is 170 MB of the translator's install.

Without pyarrow (simulated here by engine.common.extras seeing no pyarrow; tests/test_light_install.py
also runs the commands in an interpreter where it cannot be imported at all):
* an audit writes its tables as CSV only, the manifest lists exactly those and says why, and the
  folder reads back;
* `corpus hf-export` writes JSON Lines data files that `datasets` loads into the same dataset as
  the parquet export (the card's configs and features point at them), and says so;
* asking for parquet (`corpus export --format parquet`, `hf-export --format parquet`, a .parquet
  prediction file or vocabulary) is one line naming the extra, exit 2;
* the GUI greys *Sentences as Parquet…* with the install command, and *every format* skips it.
"""
from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from engine.common import extras


@pytest.fixture
def no_pyarrow(monkeypatch):
    """extras.available('parquet') is False, as in a plain `pip install eec-studio`."""
    installed = extras._installed
    monkeypatch.setattr(extras, "_installed", lambda module: module != "pyarrow" and installed(module))


def _one_error_line(proc) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.startswith("error:")]  # progress lines aside
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return lines[0]


# -- the audit folder --------------------------------------------------------------------------------
def test_an_audit_without_pyarrow_writes_csv_tables_and_says_why(no_pyarrow, tmp_path):
    from engine.audit import AuditPlan, run_audit
    from engine.results import read_audit

    out = tmp_path / "audit"
    run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["beta", "paired"], out_dir=out,
                        cache_dir=tmp_path / "cache", settings={"n_resamples": 0, "jobs": 1}))
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert not list(out.rglob("*.parquet"))
    assert {"stats/beta.csv", "stats/paired.csv", "scores/en-kiritchenko2018.csv"} <= set(manifest["files"])
    assert not [f for f in manifest["files"] if f.endswith(".parquet")]
    assert manifest["parquet"].startswith("not written: the 'parquet' extra is not installed")
    assert "pip install 'eec-studio[parquet]'" in manifest["parquet"]
    assert not [p for p in manifest["problems"] if "parquet" in p]  # one note, not a problem per table
    back = read_audit(out)
    pd.testing.assert_frame_equal(back.tables["paired"], pd.read_csv(out / "stats" / "paired.csv"))
    assert len(back.scores["en-kiritchenko2018"]) == 8640


# -- the Hugging Face dataset folder -------------------------------------------------------------------
def test_hf_export_without_pyarrow_writes_json_lines_that_load_as_the_same_dataset(tmp_path, run, monkeypatch):
    datasets = pytest.importorskip("datasets")
    from engine.package.hf_dataset import export_hf_dataset

    full = export_hf_dataset("ar-camara2022", tmp_path / "parquet")  # pyarrow is here: the default is parquet
    assert full.data_format == "parquet" and (tmp_path / "parquet" / "data" / "test-00000-of-00001.parquet").is_file()
    installed = extras._installed
    monkeypatch.setattr(extras, "_installed", lambda module: module != "pyarrow" and installed(module))
    proc = run("corpus", "hf-export", "ar-camara2022", "--out", str(tmp_path / "jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert "(JSON Lines; parquet needs the 'parquet' extra: pip install 'eec-studio[parquet]')" in proc.stdout
    light = tmp_path / "jsonl"
    assert sorted(p.relative_to(light).as_posix() for p in light.rglob("*.jsonl")) == [
        "data/test-00000-of-00001.jsonl", "pairs/pairs-00000-of-00001.jsonl"]
    assert not list(light.rglob("*.parquet"))
    card = (light / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"path: (\S+)", card) == ["data/test-00000-of-00001.jsonl", "pairs/pairs-00000-of-00001.jsonl"]
    assert "The data files are JSON Lines (`data/test-00000-of-00001.jsonl`" in card
    assert "`data/test-00000-of-00001.jsonl` with sha256" in card
    for config in ("default", "pairs"):
        a = datasets.load_dataset(str(light), config, cache_dir=str(tmp_path / "c1"))["test"]
        b = datasets.load_dataset(str(tmp_path / "parquet"), config, cache_dir=str(tmp_path / "c2"))["test"]
        assert a.features == b.features  # class labels and the features struct, from the card
        assert a.to_list() == b.to_list() and len(a) > 1000


def test_asking_for_parquet_without_pyarrow_names_the_extra(no_pyarrow, tmp_path, run):
    for argv in (("corpus", "export", "en-kiritchenko2018", "--out", str(tmp_path / "s.parquet")),
                 ("corpus", "export", "en-kiritchenko2018", "--format", "parquet", "--out", str(tmp_path / "s.x")),
                 ("corpus", "hf-export", "en-kiritchenko2018", "--format", "parquet", "--out", str(tmp_path / "hf"))):
        line = _one_error_line(run(*argv))
        assert "parquet" in line and "need the 'parquet' extra (pyarrow is not installed)" in line, line
        assert line.endswith("install it with: pip install 'eec-studio[parquet]'"), line
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_a_parquet_prediction_file_or_vocabulary_without_pyarrow_names_the_extra(tmp_path, run, monkeypatch):
    from engine.assoc.providers.static import read_vocab
    from engine.models.scorers.predictions import PredictionFileScorer

    preds = tmp_path / "p.parquet"
    pd.DataFrame({"Sentence": ["a", "b"], "anger": [0.1, 0.3]}).to_parquet(preds)
    vocab = tmp_path / "v.parquet"
    pd.DataFrame({"index": ["a", "b"]}).to_parquet(vocab)
    assert PredictionFileScorer(preds).dimensions == ["anger"] and list(read_vocab(vocab)) == ["a", "b"]

    installed = extras._installed
    monkeypatch.setattr(extras, "_installed", lambda module: module != "pyarrow" and installed(module))
    with pytest.raises(extras.MissingExtra) as info:
        PredictionFileScorer(preds)
    assert str(info.value) == (f"{preds}: parquet prediction files need the 'parquet' extra (pyarrow is not "
                               "installed) — install it with: pip install 'eec-studio[parquet]'")
    with pytest.raises(extras.MissingExtra, match=r"v\.parquet: parquet vocabularies need the 'parquet' extra"):
        read_vocab(vocab)
    line = _one_error_line(run("audit", "--corpus", "en-kiritchenko2018", "--model", f"predictions:{preds}",
                               "--out", str(tmp_path / "audit")))
    assert "p.parquet: parquet prediction files need the 'parquet' extra" in line, line
    with pytest.raises(extras.MissingExtra, match=r"the 'vectors' extra \(pyarrow is not installed\)"):
        from engine.assoc.providers.glove import load_glove_6b_50d

        load_glove_6b_50d()  # GloVe's vocabulary is a parquet file: the vectors extra brings pyarrow


def test_pyarrow_belongs_to_the_parquet_extra_and_the_vectors_extra_brings_it():
    assert extras.MODULE_EXTRA["pyarrow"] == "parquet"
    assert "pyarrow" in extras.EXTRAS["vectors"].modules
    assert extras.install_command("parquet") == "pip install 'eec-studio[parquet]'"


# -- the GUI ---------------------------------------------------------------------------------------------
def test_the_gui_greys_parquet_and_every_format_skips_it(no_pyarrow, qtbot, tmp_path):
    from gui.main_window import MainWindow
    from gui.workbench.document import CorpusDocument
    from gui.workbench.exporting import export_all, export_document

    window = MainWindow()
    qtbot.addWidget(window)
    action = window.export_actions["parquet"]
    assert not action.isEnabled() and "pip install 'eec-studio[parquet]'" in action.toolTip()
    assert window.export_actions["hf"].isEnabled() and window.export_actions["csv"].isEnabled()
    doc = CorpusDocument.open("en-kiritchenko2018")
    written = export_all(doc, tmp_path / "all")
    names = sorted(p.name for p in written)
    assert "en-kiritchenko2018.parquet" not in names and "en-kiritchenko2018.csv" in names, names
    assert (tmp_path / "all" / "en-kiritchenko2018-hf" / "data" / "test-00000-of-00001.jsonl").is_file()
    summary = export_document(doc, "hf", tmp_path / "hf")
    assert "JSON Lines data files; parquet needs the 'parquet' extra" in summary, summary
