"""Issue 29, part 3: an audit folder says only what its run computed.

Re-running into an existing audit folder is refused without --overwrite (nothing changed) and,
with it, replaces the folder as a whole: a table of a statistic the new run did not compute
cannot survive, and `main.py report` reads only the files the manifest lists.
"""
from __future__ import annotations

import json
import shutil

import pytest

from testkit.audit_fixtures import write_mini_corpus, write_predictions


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("rerun")
    corpus = write_mini_corpus(root / "corpus")
    return root, corpus, write_predictions(corpus, root / "pred.tsv")


def _audit(inputs, out, stats, *extra):
    _root, corpus, pred = inputs
    return ["audit", "--corpus", str(corpus), "--model", f"predictions:{pred}?key=id", "--stats", stats,
            "--bootstrap", "0", "--person-permutations", "0", "--out", str(out), *extra]


def test_rerun_is_refused_without_overwrite_and_replaces_the_whole_folder_with_it(inputs, tmp_path, run):
    out = tmp_path / "audit"
    assert run(*_audit(inputs, out, "paired,counterfactual,beta")).returncode == 0
    assert (out / "stats" / "beta.csv").is_file() and (out / "stats" / "counterfactual.csv").is_file()
    before = (out / "manifest.json").read_bytes()

    res = run(*_audit(inputs, out, "paired"))
    assert res.returncode == 2
    assert "audit folder already exists; nothing was changed" in res.stderr and "--overwrite" in res.stderr
    assert "scoring" not in res.stderr  # refused before any work
    assert (out / "manifest.json").read_bytes() == before

    res = run(*_audit(inputs, out, "paired", "--overwrite"))
    assert res.returncode == 0, res.stderr
    stats = sorted(p.name for p in (out / "stats").iterdir())
    assert not [n for n in stats if n.startswith(("beta", "counterfactual"))], stats  # no stale tables
    assert not (out / "tables" / "beta.md").exists() and not (out / "plots" / "beta.svg").exists()
    man = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert man["plan"]["stats"] == ["paired"]
    assert "stats/paired.csv" in man["files"] and not any("beta" in f for f in man["files"])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging or backup folder left


def test_report_reads_only_the_files_the_manifest_lists(inputs, tmp_path, run):
    full, out = tmp_path / "full", tmp_path / "paired"
    assert run(*_audit(inputs, full, "paired,beta")).returncode == 0
    assert run(*_audit(inputs, out, "paired")).returncode == 0
    # an earlier version wrote into existing folders: a Beta table from another run lies beside this run's
    shutil.copy(full / "stats" / "beta.csv", out / "stats" / "beta.csv")
    shutil.copy(full / "tables" / "beta.md", out / "tables" / "beta.md")
    res = run("report", str(out), "--out", str(tmp_path / "report"))
    assert res.returncode == 0, res.stderr
    html = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert "Beta regression" not in html and "Paired" in html
    assert not (tmp_path / "report" / "data" / "beta.csv").exists()

    from engine.results import read_audit

    assert "beta" not in read_audit(out).tables and "paired" in read_audit(out).tables


def test_a_folder_of_other_files_is_never_replaced_and_an_empty_one_is_used(inputs, tmp_path, run):
    mine = tmp_path / "documents"
    mine.mkdir()
    (mine / "thesis.tex").write_text("mine", encoding="utf-8")
    res = run(*_audit(inputs, mine, "paired", "--overwrite"))
    assert res.returncode == 2 and "not an audit's results" in res.stderr
    assert (mine / "thesis.tex").read_text(encoding="utf-8") == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(*_audit(inputs, empty, "paired")).returncode == 0
    assert (empty / "manifest.json").is_file()
