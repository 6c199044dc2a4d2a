"""Prediction files: keyed by sentence or id, with duplicate/unmatched/missing key reporting."""
import pandas as pd
import pytest

from engine.models.errors import ModelError
from engine.models.scorers.predictions import PredictionFileScorer
from engine.models.specs import load_scorer
from engine.audit.scoring import score_texts

CORPUS = {"Alonzo feels angry.": "en-00001", "Amanda feels angry.": "en-00002", "He feels sad.": "en-00003"}


def test_sentence_keys_with_reporting(tmp_path):
    p = tmp_path / "sys.csv"
    pd.DataFrame({"Sentence": ["Alonzo feels angry.", "Amanda  feels angry. ", "Alonzo feels angry.", "Other corpus."],
                  "anger": [0.7, 0.6, 0.7, 0.1], "joy": [0.1, 0.2, 0.1, 0.9]}).to_csv(p, index=False)
    s = PredictionFileScorer(p)
    assert s.key == "sentence" and s.dimensions == ["anger", "joy"]
    report = s.check(list(CORPUS))
    assert report.duplicates == ["Alonzo feels angry."] and report.conflicting == []
    assert report.missing == ["He feels sad."] and report.unmatched == ["Other corpus."]
    assert report.normalised_matches == 1  # "Amanda  feels angry. " matched after collapsing spaces
    assert "1 duplicate keys" in report.summary() and "1 requested keys missing" in report.summary()
    with pytest.raises(ModelError, match="1 of 3 sentences have no prediction"):
        s.score(list(CORPUS))
    nan = PredictionFileScorer(p, on_missing="nan").score(list(CORPUS))
    assert nan["anger"].tolist()[:2] == [0.7, 0.6] and pd.isna(nan["anger"][2])


def test_id_keys_semeval_long_format(tmp_path):
    p = tmp_path / "sub.txt"  # SemEval submission layout, tab separated, raw quotes
    rows = ["ID\tTweet\tAffect Dimension\tIntensity Score",
            'en-00001\t"quoted" text\tanger\t0.5', "en-00001\tx\tjoy\t0.25",
            "en-00002\tx\tanger\t0.4", "en-00002\tx\tjoy\t0.35", "en-00003\tx\tanger\t0.1", "en-00003\tx\tjoy\t0.2",
            "en-99999\tx\tanger\t0.9"]
    p.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8-sig")
    ids = dict(CORPUS)
    s = load_scorer(f"predictions:{p}?key=id&name=team1", ids=ids)
    assert s.name == "team1" and s.key == "id" and s.dimensions == ["anger", "joy"]
    out = score_texts(s, list(CORPUS))
    assert out["anger"].tolist() == [0.5, 0.4, 0.1] and out["joy"].tolist() == [0.25, 0.35, 0.2]
    assert s.report.unmatched == ["en-99999"] and s.report.missing == []
    with pytest.raises(ModelError, match="needs the corpus IDs"):
        PredictionFileScorer(p, key="id")


def test_conflicting_duplicates(tmp_path):
    p = tmp_path / "dup.tsv"
    pd.DataFrame({"ID": ["a", "a", "b"], "Sentence": ["S1", "S1", "S2"], "score": [0.1, 0.2, 0.3]}).to_csv(
        p, sep="\t", index=False)
    with pytest.raises(ModelError, match="different scores") as e:
        PredictionFileScorer(p)
    assert "dup.tsv" in str(e.value) and "on_duplicate" in str(e.value)
    s = PredictionFileScorer(p, on_duplicate="first")
    assert s.report.conflicting == ["S1"] and s.score(["S1"])["score"].tolist() == [0.1]


def test_bad_prediction_files(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("Sentence,anger\nA,0.5\nB,high\n")
    with pytest.raises(ModelError) as e:
        PredictionFileScorer(p, columns=["anger"])
    assert e.value.line == 3 and e.value.field == "anger"
    p.write_text("words,more\nA,b\n")
    with pytest.raises(ModelError, match="no sentence column"):
        PredictionFileScorer(p)
    with pytest.raises(ModelError, match="not found"):
        PredictionFileScorer(tmp_path / "missing.csv")
    quoted = tmp_path / "q.tsv"
    pd.DataFrame({"Sentence": ['He said "hi".', "tab\tinside"], "v": [0.1, 0.2]}).to_csv(quoted, sep="\t", index=False)
    assert PredictionFileScorer(quoted).score(['He said "hi".', "tab\tinside"])["v"].tolist() == [0.1, 0.2]


def test_fingerprint_follows_file_content(tmp_path):
    p = tmp_path / "f.csv"
    p.write_text("Sentence,v\nA,0.5\n")
    a = PredictionFileScorer(p).fingerprint()
    p.write_text("Sentence,v\nA,0.6\n")
    assert PredictionFileScorer(p).fingerprint() != a


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_parquet_and_jsonl_are_checked_cell_by_cell(tmp_path, suffix):
    import numpy as np

    df = pd.DataFrame({"Sentence": ["a", "b", "c"], "anger": [0.1, np.nan, 0.3], "label": ["x", "y", "z"]})
    p = tmp_path / f"p{suffix}"
    df.to_parquet(p) if suffix == ".parquet" else df.to_json(p, orient="records", lines=True)
    with pytest.raises(ModelError) as e:
        PredictionFileScorer(p)
    assert (e.value.line, e.value.field) == (2, "anger") and "empty score" in str(e.value)
    s = PredictionFileScorer(p, on_bad="keep")
    assert s.dimensions == ["anger"] and s.report.ignored_columns == ["label"]
    out = s.score(["a", "b", "c"])["anger"]
    assert out[0] == 0.1 and pd.isna(out[1]) and out[2] == 0.3 and s.keeps_missing


def test_policies_and_exact_missing_counts(tmp_path):
    p = tmp_path / "p.csv"
    p.write_text("ID,anger,joy\n" + "".join(f"id{i},0.{i},0.5\n" for i in range(1, 10)) + "id10,,0.5\n")
    ids = {f"S{i}": f"id{i}" for i in range(1, 13)}  # S11 and S12 have no row
    texts = list(ids)
    with pytest.raises(ModelError, match=r"id10.csv|:11 \[anger\]: empty score"):
        PredictionFileScorer(p, ids=ids)
    with pytest.raises(ModelError, match=r"2 of 12 IDs have no prediction \(first 2: 'id11', 'id12'\)"):
        PredictionFileScorer(p, ids=ids, on_bad="keep").score(texts)
    drop = PredictionFileScorer(p, ids=ids, on_bad="drop", on_missing="keep").score(texts)
    keep = PredictionFileScorer(p, ids=ids, on_bad="keep", on_missing="keep").score(texts)
    assert pd.isna(drop.loc[9]).all()  # drop: the whole sentence is left out
    assert pd.isna(keep.loc[9, "anger"]) and keep.loc[9, "joy"] == 0.5  # keep: only that cell is missing
    assert pd.isna(keep.loc[10:]).all().all()
    s = PredictionFileScorer(p, ids=ids, on_bad="drop", on_missing="drop")
    s.score(texts)
    assert any("left out of the audit (on_bad=drop)" in w for w in s.warnings)
    assert any("2 of 12 IDs have no prediction" in w and "on_missing=drop" in w for w in s.warnings)
    assert len({PredictionFileScorer(p, ids=ids, on_bad=b, on_missing=m).fingerprint()
                for b in ("drop", "keep") for m in ("drop", "keep")}) == 4
    with pytest.raises(ModelError, match="on_missing='skip' is not a policy"):
        PredictionFileScorer(p, on_missing="skip")
    assert PredictionFileScorer(p, ids=ids, on_missing="nan", on_bad="keep").on_missing == "keep"  # old name
