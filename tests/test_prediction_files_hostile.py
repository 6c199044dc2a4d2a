"""Issue 29, part 5: prediction files that would have given wrong numbers or wrong advice.

A `;` file with decimal commas is read right (the same scores as the tab-separated original);
decimal commas in a comma-separated file get advice that names sep= and decimal=; a declared
--score-range holds for every statistic, refused at the first file:line; keys of no corpus are
said on screen and in summary.txt; an unterminated quote is reported on its own line; a FIFO is
called a FIFO (and never opened, which would hang).
"""
from __future__ import annotations

import json
import os

import pandas as pd
import pytest

from testkit.audit_fixtures import write_mini_corpus, write_predictions


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("pred")
    corpus = write_mini_corpus(root / "corpus")
    pred = write_predictions(corpus, root / "ok.tsv")
    lines = pred.read_text(encoding="utf-8").splitlines()
    return root, corpus, pred, [ln.split("\t") for ln in lines]


def _write(path, rows, sep):
    path.write_text("\n".join(sep.join(r) for r in rows) + "\n", encoding="utf-8")
    return path


def _audit(corpus, spec, out, *extra, stats="paired"):
    return ["audit", "--corpus", str(corpus), "--model", spec, "--stats", stats, "--bootstrap", "0",
            "--person-permutations", "0", "--out", str(out), *extra]


def test_semicolon_file_with_decimal_commas_gives_the_same_scores(inputs, tmp_path, run):
    root, corpus, pred, rows = inputs
    semi = _write(tmp_path / "semi.csv", [rows[0]] + [r[:2] + [c.replace(".", ",") for c in r[2:]] for r in rows[1:]], ";")
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(*_audit(corpus, f"predictions:{pred}?key=id&name=m", a)).returncode == 0
    res = run(*_audit(corpus, f"predictions:{semi}?key=id&name=m", b))
    assert res.returncode == 0, res.stderr
    sa, sb = pd.read_csv(a / "scores" / "gui-mini.csv"), pd.read_csv(b / "scores" / "gui-mini.csv")
    assert sb["m:anger"].tolist() == sa["m:anger"].tolist() and sb["m:joy"].tolist() == sa["m:joy"].tolist()
    man = json.loads((b / "manifest.json").read_text(encoding="utf-8"))
    described = man["scorers"]["m"]["describe"]
    assert (described["separator"], described["decimal"]) == (";", ",")
    # said outright, the same
    res = run(*_audit(corpus, f"predictions:{semi}?key=id&name=m&sep=;&decimal=,", tmp_path / "c"))
    assert res.returncode == 0, res.stderr


def test_decimal_commas_in_a_comma_separated_file_get_advice_naming_sep_and_decimal(inputs, tmp_path, run):
    _root, corpus, _pred, rows = inputs
    bad = _write(tmp_path / "commas.csv", [rows[0]] + [r[:2] + [c.replace(".", ",") for c in r[2:]] for r in rows[1:]], ",")
    res = run(*_audit(corpus, f"predictions:{bad}?key=id", tmp_path / "o"))
    assert res.returncode == 2
    line = res.stderr.strip().splitlines()[-1]
    assert "commas.csv:2" in line and "decimal commas" in line and "sep=;&decimal=," in line
    assert "quote values that contain the delimiter" not in line
    mixed = [list(r) for r in rows]
    mixed[7][3] = mixed[7][3].replace(".", ",")
    res = run(*_audit(corpus, f"predictions:{_write(tmp_path / 'mixed.csv', mixed, ';')}?key=id", tmp_path / "o"))
    assert res.returncode == 2 and "mixed.csv:8 [fear]" in res.stderr and "decimal=," in res.stderr


@pytest.mark.parametrize("stats", ["paired", "counterfactual", "beta"])
def test_score_range_holds_for_every_statistic_at_the_first_file_line(inputs, tmp_path, run, stats):
    _root, corpus, _pred, rows = inputs
    bad = [list(r) for r in rows]
    bad[10][3] = "-0.2"  # line 11 [fear]
    bad[3][2] = "1.5"  # line 4 [anger]: the first in the file
    path = _write(tmp_path / "outside.tsv", bad, "\t")
    res = run(*_audit(corpus, f"predictions:{path}?key=id", tmp_path / "o", "--score-range", "0,1", stats=stats))
    assert res.returncode == 2, res.stdout + res.stderr
    line = res.stderr.strip().splitlines()[-1]
    assert "outside.tsv:4 [anger]: score 1.5 is outside the declared score range [0, 1]" in line
    assert "1 more" in line and "--score-range" in line
    assert not (tmp_path / "o").exists()


def test_percentages_do_not_override_a_declared_range(inputs, tmp_path, run):
    _root, corpus, _pred, rows = inputs
    pct = [rows[0]] + [r[:2] + [f"{100 * float(c):.4f}" for c in r[2:]] for r in rows[1:]]
    path = _write(tmp_path / "percent.tsv", pct, "\t")
    res = run(*_audit(corpus, f"predictions:{path}?key=id", tmp_path / "o", "--score-range", "0,1",
                      stats="counterfactual"))
    assert res.returncode == 2 and "percent.tsv:2 [anger]" in res.stderr


def test_keys_not_in_the_corpus_are_said_on_screen_and_in_summary(inputs, tmp_path, run):
    _root, corpus, _pred, rows = inputs
    extra = rows + [["other-00001"] + rows[1][1:], ["other-00002"] + rows[2][1:]]
    path = _write(tmp_path / "extra.tsv", extra, "\t")
    out = tmp_path / "o"
    res = run(*_audit(corpus, f"predictions:{path}?key=id", out))
    assert res.returncode == 0, res.stderr
    said = "2 keys are not in the audited corpora and were not used (first 2: 'other-00001', 'other-00002')"
    assert said in res.stderr and said in res.stdout
    assert said in (out / "summary.txt").read_text(encoding="utf-8")


def test_an_unterminated_quote_is_reported_on_its_own_line(inputs, tmp_path, run):
    _root, corpus, _pred, rows = inputs
    bad = [list(r) for r in rows]
    bad[3][1] = '"Unclosed ' + bad[3][1]
    path = _write(tmp_path / "quote.csv", bad, ",")
    res = run(*_audit(corpus, f"predictions:{path}?key=id", tmp_path / "o"))
    assert res.returncode == 2
    assert "quote.csv:4: a quoted value that starts on this line is never closed" in res.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_fifo_is_called_a_fifo_and_not_opened(inputs, tmp_path, run):
    _root, corpus, _pred, _rows = inputs
    fifo = tmp_path / "pred.csv"
    os.mkfifo(fifo)
    res = run(*_audit(corpus, f"predictions:{fifo}?key=id", tmp_path / "o"))  # opening it would block forever
    assert res.returncode == 2
    assert "is a named pipe (FIFO), not a file" in res.stderr and "folder" not in res.stderr


def test_path_kind_names_devices():
    from engine.common.path_kind import not_a_file, path_kind

    assert path_kind("/dev/null") == "a character device" and not_a_file("/dev/null") == "is a character device, not a file"
    assert path_kind("/") == "a folder" and path_kind("/no/such/file") == "missing"
