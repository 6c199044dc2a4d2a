"""Readers for SemEval-2018 Task 1 files and generic CSV."""
import pytest

from conftest import shared_path
from engine.models.training.datasets import load_semeval_task, read_labeled_csv, read_semeval, semeval_file
from engine.models.errors import ModelError

HEADER = "ID\tTweet\tAffect Dimension\tIntensity Score"


def write_semeval(path, rows, *, bom=True, newline="\r\n"):
    text = newline.join([HEADER] + ["\t".join(r) for r in rows]) + newline
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def test_semeval_reader_handles_crlf_bom_and_quotes(tmp_path):
    p = write_semeval(tmp_path / "2018-EI-reg-En-anger-test-gold.txt", [
        ("2018-En-00001", '"So mad" at @united &amp; their "service"', "anger", "0.734"),
        ("2018-En-00002", "Nothing to see here", "anger", "0.000"),
        ("2018-En-00003", "FURIOUS!!! 😡", "anger", "1.000"),
    ])
    d = read_semeval(p)
    assert d.dimension == "anger"
    assert d.ids == ["2018-En-00001", "2018-En-00002", "2018-En-00003"]
    # quotes kept verbatim, no \r left on the last field, BOM not glued to the header
    assert d.texts[0] == '"So mad" at @united &amp; their "service"'
    assert d.labels == [0.734, 0.0, 1.0]
    assert len(d.sha256) == 64


def test_semeval_reader_errors_name_line_and_field(tmp_path):
    p = write_semeval(tmp_path / "bad.txt", [("1", "ok", "anger", "0.5"), ("2", "oops", "anger", "high")])
    with pytest.raises(ModelError) as e:
        read_semeval(p)
    assert e.value.line == 3 and e.value.field == "Intensity Score" and "bad.txt:3" in str(e.value)
    p = write_semeval(tmp_path / "bad2.txt", [("1", "a\tb", "anger", "0.5")])
    with pytest.raises(ModelError, match="5 tab-separated fields"):
        read_semeval(p)
    p = write_semeval(tmp_path / "bad3.txt", [("1", "a", "anger", "0.5"), ("2", "b", "joy", "0.5")])
    with pytest.raises(ModelError, match="several affect dimensions"):
        read_semeval(p)
    p = write_semeval(tmp_path / "bad4.txt", [("1", "a", "anger", "1.5")])
    with pytest.raises(ModelError, match=r"outside \[0, 1\]"):
        read_semeval(p)
    (tmp_path / "hdr.txt").write_text("id,text\n1,a\n")
    with pytest.raises(ModelError, match="unexpected header"):
        read_semeval(tmp_path / "hdr.txt")
    with pytest.raises(ModelError, match="expected 'joy'"):
        read_semeval(write_semeval(tmp_path / "x.txt", [("1", "a", "anger", "0.5")]), dimension="joy")


def test_semeval_file_names():
    assert semeval_file("d", "en", "anger", "train").name == "2018-EI-reg-En-anger-train.txt"
    assert semeval_file("d", "es", "valence", "test-gold").name == "2018-Valence-reg-Es-test-gold.txt"
    with pytest.raises(ModelError, match="language 'fr'"):
        semeval_file("d", "fr", "anger", "train")
    with pytest.raises(ModelError, match="unknown SemEval dimension"):
        semeval_file("d", "en", "disgust", "train")


def test_generic_csv_reader(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('Text,Label\n"Hello, world",1\nBye,0\n\n', encoding="utf-8-sig")
    d = read_labeled_csv(p)  # header matched case-insensitively, BOM stripped
    assert d.texts == ["Hello, world", "Bye"] and d.labels == ["1", "0"]
    assert list(d.numeric_labels()) == [1.0, 0.0]
    with pytest.raises(ModelError, match="no column 'stars'"):
        read_labeled_csv(p, label_column="stars")
    bad = tmp_path / "bad.csv"
    bad.write_text("text,label\nabc\n")
    with pytest.raises(ModelError) as e:
        read_labeled_csv(bad)
    assert e.value.line == 2
    words = tmp_path / "w.csv"
    words.write_text("text,label\na,pos\nb,neg\n")
    with pytest.raises(ModelError, match="not numbers"):
        read_labeled_csv(words).numeric_labels()


def test_shared_semeval_files_all_parse():
    folder = shared_path("data", "semeval2018_ait")
    for lang in ("en", "es", "ar"):
        for dim in ("anger", "fear", "joy", "sadness", "valence"):
            task = load_semeval_task(folder, lang, dim)
            assert len(task.train) > 500 and task.dev is not None and task.test is not None
            assert all(0 <= y <= 1 for y in task.test.labels)
            assert not any(t.endswith("\r") for t in task.test.texts)
    en = load_semeval_task(folder, "en", "anger")
    assert len(en.train) == 1701 and len(en.dev) == 388 and len(en.test) == 1002
