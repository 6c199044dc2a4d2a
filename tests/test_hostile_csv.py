"""Issue 40, part 4: formula-safe CSV wherever a spreadsheet may open the file (engine/common/csv_cells.py).

A template `=HYPERLINK("http://…","{person} feels {emotion}.")` and names starting with `@ + -` went
verbatim into `corpus export`, `corpus pairs`, the review sheet and an audit's score tables."""
from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from engine.common.csv_cells import FORMULA_START, csv_rows_text, csv_text, escape_cell, unescape_cell, unescape_frame
from testkit.audit_fixtures import write_mini_corpus

ROOT = Path(__file__).resolve().parents[1]
HYPERLINK = '=HYPERLINK("http://example.com/x","{person role=subject} feels {emotion kind=state}.")'


def _formula_corpus(tmp_path: Path) -> Path:
    path = write_mini_corpus(tmp_path / "c")
    text = path.read_text(encoding="utf-8")
    text = text.replace('text = "{person role=subject} feels {emotion kind=state}."', f"text = '{HYPERLINK}'", 1)
    for name, hostile in (("Ebony", "@Ebony"), ("Jasmine", "-Jasmine"), ("Tia", "+Tia")):
        text = text.replace(f'text = "{name}"', f'text = "{hostile}"', 1)
    path.write_text(text, encoding="utf-8")
    return path


def _cells(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def _no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not (cell and cell[0] in FORMULA_START and not _is_number(cell)), cell


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("value", ["=1+1", "+Tia", "-Jasmine", "@Ebony", "\tx", "\rx", "'=x", "''", "'",
                                   "'hello", "plain", "", "-0.5", "+3", "1e-3", "-", "=", "''=x"])
def test_escaping_reads_back_exactly(value):
    escaped = escape_cell(value)
    assert unescape_cell(escaped) == value
    if value and value[0] in FORMULA_START and not _is_number(value):
        assert escaped == "'" + value
    assert not (escaped and escaped[0] in FORMULA_START and not _is_number(escaped))


@pytest.mark.parametrize("rows", [
    [["=SUM(A1)", "a,b", 'say "hi"'], ["-0.5", "line\nbreak", ""], ["'=x", "+1", "@home"], ["\ttab", "\rcr", "ok"]],
    [[""], ["x"]],  # a row of one empty cell: csv.writer writes it as ""
    [],  # a header alone
])
def test_rows_give_the_bytes_of_the_frame(rows):
    """csv_rows_text (the paper tables' CSV, without a DataFrame per table) writes what csv_text
    writes for the same text cells, escapes and quoting included."""
    header = ["=h", "b"] if rows and len(rows[0]) == 2 else (["only"] if rows and len(rows[0]) == 1 else ["a", "-b", "c"])
    frame = pd.DataFrame(rows, columns=header) if rows else pd.DataFrame(columns=header, dtype="str")
    for end in ("\n", "\r\n"):
        assert csv_rows_text(header, rows, lineterminator=end) == csv_text(frame, lineterminator=end)


def test_numbers_are_never_escaped():
    df = pd.DataFrame({"x": [-0.5, 1.0], "name": ["-Jasmine", "Tia"]})
    text = csv_text(df, lineterminator="\n")
    assert text == "x,name\n-0.5,'-Jasmine\n1.0,Tia\n"
    back = unescape_frame(pd.read_csv(io.StringIO(text)))
    assert back["name"].tolist() == ["-Jasmine", "Tia"] and back["x"].tolist() == [-0.5, 1.0]


def test_corpus_export_and_pairs_are_formula_safe_and_read_back(tmp_path):
    corpus = _formula_corpus(tmp_path)
    for argv, out in ((["corpus", "export", str(corpus)], tmp_path / "export.csv"),
                      (["corpus", "pairs", str(corpus)], tmp_path / "pairs.csv")):
        res = subprocess.run([sys.executable, "main.py", *argv, "--out", str(out)], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
        assert res.returncode == 0, res.stderr
        rows = _cells(out)
        _no_formula(rows)
        back = [[unescape_cell(c) for c in row] for row in rows]
        flat = {c for row in back for c in row}
        assert any(c.startswith('=HYPERLINK("http://example.com/x","') for c in flat)
        if out.name == "export.csv":  # the Person column
            assert {"@Ebony", "-Jasmine", "+Tia"} <= flat
    from engine.corpus import generate, load_corpus

    sentences = generate(load_corpus(corpus)).Sentence.tolist()
    exported = [unescape_cell(r[1]) for r in _cells(tmp_path / "export.csv")[1:]]
    assert exported == sentences


def test_the_review_sheet_is_formula_safe_and_is_read_back(tmp_path):
    from engine.corpus.definition.loader import load_definition
    from engine.corpus.translate.review_record import draw_sample, read_review, sheet_text

    corpus = load_definition(_formula_corpus(tmp_path))
    sample = draw_sample(corpus, 40, 7)
    text = sheet_text(sample)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    _no_formula(rows)
    assert any(c.startswith("'=HYPERLINK") or c.startswith(("'@", "'-", "'+")) for r in rows for c in r)
    header = rows[0]
    for r in rows[1:]:
        r[header.index("verdict")] = "ok"
    sheet = tmp_path / "sheet.csv"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    record = read_review(corpus, sheet, "MB", date="2026-01-01")  # the sides match the corpus's text again
    assert len(record.items) == 40


def test_audit_score_tables_are_formula_safe_and_read_back(tmp_path):
    from engine.results.reader import read_table
    from engine.results.writer import csv_text as writer_csv

    df = pd.DataFrame({"ID": ["a", "b"], "Sentence": ['=HYPERLINK("x","y")', "@Ebony feels sad."], "anger": [0.5, -0.25]})
    path = tmp_path / "scores.csv"
    path.write_text(writer_csv(df), encoding="utf-8")
    _no_formula(_cells(path))
    back = read_table(path)
    assert back["Sentence"].tolist() == df["Sentence"].tolist() and back["anger"].tolist() == [0.5, -0.25]


def test_a_prediction_file_made_from_the_escaped_export_still_matches(tmp_path):
    """A system scores the exported Sentence column, quote and all: the keys are the corpus's sentences."""
    from engine.models.scorers.predictions import PredictionFileScorer

    sentences = ['=HYPERLINK("x","Ebony feels sad.")', "@Ebony feels sad."]
    path = tmp_path / "pred.csv"
    path.write_text(csv_text(pd.DataFrame({"Sentence": sentences, "anger": [0.25, 0.75]})), encoding="utf-8")
    scores = PredictionFileScorer(path).score(sentences)
    assert scores["anger"].tolist() == [0.25, 0.75]
