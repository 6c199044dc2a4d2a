"""`python main.py corpus pairs NAME --out FILE [--format csv|jsonl]`."""
import json
import subprocess
import sys

import pandas as pd
import pytest

from conftest import ROOT
from testkit.corpus_fixtures import mini, mini_pairs
from engine.corpus import PAIR_COLUMNS


def test_pairs_csv_default(run, tmp_path):
    out = tmp_path / "de-pairs.csv"
    proc = run("corpus", "pairs", "de-goldfarb2023", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"de-goldfarb2023: 7,040 counterfactual pairs (gender 1,600, race 5,440) -> {out}"
    assert proc.stderr == ""
    header = out.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith(",".join(PAIR_COLUMNS) + ",")
    df = pd.read_csv(out, keep_default_na=False)
    assert len(df) == 7040
    row = df[(df.privileged == "Ich habe gestern mit diesem Mann gesprochen.")
             & (df.minoritised == "Ich habe gestern mit diesem türkischen Mann gesprochen.")]
    assert len(row) == 1 and row.iloc[0].variable == "race"


@pytest.mark.parametrize("args,suffix", [(["--format", "jsonl"], "out"), ([], "jsonl")])
def test_pairs_jsonl(run, tmp_path, args, suffix):
    out = tmp_path / f"ja.{suffix}"
    proc = run("corpus", "pairs", "ja-goldfarb2023", "--out", str(out), *args)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 1690 + 845 + 169  # issue 25: no 外人 pairs; 頭にくる in T03/T12
    assert list(rows[0])[:len(PAIR_COLUMNS)] == PAIR_COLUMNS
    assert any(r["privileged"] == "彼との会話で、私は幸せな気持ちになった。" and r["minoritised"] == "彼女との会話で、私は幸せな気持ちになった。"
               for r in rows)  # UTF-8, not \u escapes
    assert "\\u" not in out.read_text(encoding="utf-8")


def test_pairs_of_a_user_file_and_groups(run, tmp_path):
    src = tmp_path / "mini.toml"
    src.write_text(mini_pairs(), encoding="utf-8")
    proc = run("corpus", "pairs", str(src), "--out", str(tmp_path / "p.csv"))
    assert proc.returncode == 0, proc.stderr
    assert "15 counterfactual pairs" in proc.stdout
    proc = run("corpus", "pairs", "en-kiritchenko2018", "--groups", "--out", str(tmp_path / "g.csv"))
    assert proc.returncode == 0, proc.stderr
    assert "576 name-group comparisons (race 288, gender 288)" in proc.stdout


def test_pairs_left_out_are_reported(run, tmp_path):
    src = tmp_path / "swapped.toml"
    src.write_text(mini_pairs(pairs='[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "carl"\nminoritised = "bob"\n'),
                   encoding="utf-8")
    proc = run("corpus", "pairs", str(src), "--out", str(tmp_path / "p.csv"))
    assert proc.returncode == 0
    assert "5 counterfactual pairs" in proc.stdout  # only she~he
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "left pairs out" in lines[0] and "corpus check" in lines[0]


def test_no_pairs_is_a_clean_failure(run, tmp_path):
    src = tmp_path / "nopairs.toml"
    src.write_text(mini().replace('pair = "he"', "").replace('pair = "she"', ""), encoding="utf-8")
    out = tmp_path / "p.csv"
    proc = run("corpus", "pairs", str(src), "--out", str(out))
    assert proc.returncode == 1
    assert "no counterfactual pairs" in proc.stderr and "docs/pairs.md" in proc.stderr
    assert not out.exists()


def test_bad_inputs_one_line(run, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(mini_pairs(pairs='[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = 3\nminoritised = "bob"\n'),
                   encoding="utf-8")
    for args in (["corpus", "pairs", str(bad), "--out", str(tmp_path / "o.csv")],
                 ["corpus", "pairs", "no-such-corpus", "--out", str(tmp_path / "o.csv")],
                 ["corpus", "pairs", "zh-goldfarb2023", "--out", str(tmp_path / "o.xlsx")]):
        proc = run(*args)
        assert proc.returncode == 2, args
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), proc.stderr
    assert "pairs[0].privileged" in run("corpus", "pairs", str(bad), "--out", str(tmp_path / "o.csv")).stderr
    assert not (tmp_path / "o.csv").exists() and not (tmp_path / "o.xlsx").exists()


def test_pairs_real_entry_point(tmp_path):
    """The installed entry point, in a subprocess: format flag, exit status, no traceback."""
    out = tmp_path / "zh.jsonl"
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "corpus", "pairs", "zh-goldfarb2023",
                           "--out", str(out), "--format", "jsonl"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "2,464 counterfactual pairs (gender 2,464)" in proc.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2464
    assert "Traceback" not in proc.stderr


def test_unknown_format_flag(capsys, tmp_path):
    import main

    with pytest.raises(SystemExit) as info:  # argparse: usage line and exit status 2
        main.main(["corpus", "pairs", "zh-goldfarb2023", "--out", str(tmp_path / "o"), "--format", "xml"])
    assert info.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_all_pairs_rejected_says_why(run, tmp_path):
    src = tmp_path / "rejected.toml"
    text = mini().replace('pair = "he"', "").replace('pair = "she"', "")
    text += '[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "ann"\nminoritised = "bob"\n'  # swapped
    src.write_text(text, encoding="utf-8")
    proc = run("corpus", "pairs", str(src), "--out", str(tmp_path / "p.csv"))
    assert proc.returncode == 1
    assert "checker rejects every declared pair" in proc.stderr and "corpus check" in proc.stderr
    assert not (tmp_path / "p.csv").exists()
