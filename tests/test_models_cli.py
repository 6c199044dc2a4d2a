"""`train` sub-command: success output and one-line errors (no tracebacks)."""
import argparse

import pandas as pd
import pytest

from conftest import shared_path
from engine.models.training import cli
from engine.models.specs import load_scorer


def run(argv):
    parser = argparse.ArgumentParser(prog="main.py")
    sub = parser.add_subparsers(dest="command", required=True)
    cli.add_parser(sub)
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture
def csvs(tmp_path):
    words = ["great", "awful", "happy", "sad"]
    rows = [{"text": f"a {w} day number {i}", "label": 0.9 if w in ("great", "happy") else 0.1}
            for i in range(30) for w in words]
    pd.DataFrame(rows[:80]).to_csv(tmp_path / "train.csv", index=False)
    pd.DataFrame(rows[80:]).to_csv(tmp_path / "test.csv", index=False)
    return tmp_path


def test_train_svm_from_csv(csvs, capsys):
    out = csvs / "m"
    code = run(["train", "--system", "svm-tfidf", "--train-csv", str(csvs / "train.csv"), "--test-csv",
                str(csvs / "test.csv"), "--dimension", "valence", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "valence" in captured.out and "pearson_r" in captured.out and f"--model {out}" in captured.out
    assert load_scorer(str(out)).dimensions == ["valence"]


def test_train_encoder_head_from_csv(csvs, capsys, tmp_path):
    from testkit.tiny_models import make_tiny_bert

    enc = make_tiny_bert(tmp_path / "enc")
    code = run(["train", "--system", "encoder-head", "--encoder", str(enc), "--train-csv", str(csvs / "train.csv"),
                "--test-csv", str(csvs / "test.csv"), "--out", str(tmp_path / "h"), "--cache-dir", str(tmp_path / "c"),
                "--device", "cpu"])
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "c" / "embeddings.sqlite").exists()
    assert load_scorer(str(tmp_path / "h")).dimensions == ["label"]


@pytest.mark.parametrize("argv, expect", [
    (["--system", "svm-tfidf", "--train-csv", "MISSING.csv"], "MISSING.csv [--train-csv]: file not found"),
    (["--system", "svm-tfidf", "--data", "NO_DIR"], "NO_DIR [--data]: not a folder"),
    (["--system", "classifier", "--train-csv", "x.csv"], "--base-model"),
    (["--system", "encoder-head", "--train-csv", "{train}"], "encoder-head needs an encoder"),
    (["--system", "fasttext-mlp", "--train-csv", "{train}"], "needs word vectors"),
    (["--system", "svm-tfidf", "--train-csv", "{train}", "--label-column", "stars"], "no column 'stars'"),
    (["--system", "encoder-head", "--encoder", "no/such-model-here", "--train-csv", "{train}"],
     "not a local folder and not in the Hugging Face cache"),
])
def test_errors_are_one_line(csvs, capsys, argv, expect):
    argv = [a.replace("{train}", str(csvs / "train.csv")) for a in argv]
    code = run(["train", *argv, "--out", str(csvs / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert expect in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("error:")]) == 1


def test_refuses_to_overwrite_a_foreign_folder(csvs, capsys):
    (csvs / "busy").mkdir()
    (csvs / "busy" / "notes.txt").write_text("mine")
    code = run(["train", "--system", "svm-tfidf", "--train-csv", str(csvs / "train.csv"), "--out", str(csvs / "busy")])
    assert code == 2 and "not a model folder" in capsys.readouterr().err


def test_train_semeval_spanish_svm(tmp_path, capsys):
    data = shared_path("data", "semeval2018_ait")
    code = run(["train", "--system", "svm-tfidf", "--language", "es", "--emotions", "joy", "--data", str(data),
                "--out", str(tmp_path / "es")])
    out = capsys.readouterr().out
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("joy"))
    value, paper = float(row.split()[4]), float(row.split()[5])
    assert paper == 0.551 and abs(value - paper) < 0.1
