"""Issue 40, section 7 and the messages of section 6: the smaller hostile inputs, one test each."""
from __future__ import annotations

import errno
import sqlite3

import pytest

from testkit.audit_fixtures import write_mini_corpus


def test_eec_studio_home_pointing_at_a_file_is_named(tmp_path, monkeypatch, capsys):
    import main

    home = tmp_path / "not-a-folder"
    home.write_text("x", encoding="utf-8")
    monkeypatch.setenv("EEC_STUDIO_HOME", str(home))
    assert main.main(["corpus", "list"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: EEC_STUDIO_HOME [EEC_STUDIO_HOME]:") or "EEC_STUDIO_HOME is" in err
    assert f"{str(home)!r}, a file, not a folder" in err and "unset it" in err


def test_a_full_disk_names_the_file_and_says_nothing_changed(tmp_path, monkeypatch):
    import main
    from engine.common import io as eio

    target = tmp_path / "export.csv"
    target.write_text("earlier\n", encoding="utf-8")

    real_fdopen = eio.os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

        def write(self, _data):
            raise OSError(errno.ENOSPC, "No space left on device")  # as a real write() raises it: no file name

    monkeypatch.setattr(eio.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    with pytest.raises(OSError) as err:
        eio.atomic_write_bytes(target, b"new")
    assert err.value.filename == str(target)
    line = main.os_error_line(err.value)
    assert line.startswith(f"{target}: no space left on the disk; nothing was written there")
    assert target.read_text(encoding="utf-8") == "earlier\n"
    assert [p.name for p in tmp_path.iterdir()] == ["export.csv"]  # no temp file left


def test_a_full_score_cache_disk_names_the_cache(tmp_path):
    from engine.audit.cache import ScoreCache
    from engine.models.errors import ModelError

    cache = ScoreCache(tmp_path / "c", flush_rows=0)

    class FullDb:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def executemany(self, *_a):
            raise sqlite3.OperationalError("database or disk is full")

    cache._db = FullDb()
    with pytest.raises(ModelError) as err:
        cache.put_many("fp", ["a"], [[0.5]])
    assert str(err.value).startswith(f"{tmp_path / 'c' / 'scores.sqlite'}: the disk holding the score cache is full")


def test_a_review_sheet_with_rows_deleted_names_the_missing_rows(tmp_path):
    import csv
    import io

    from engine.common.errors import UsageError
    from engine.corpus.definition.loader import load_definition
    from engine.corpus.translate.review_record import draw_sample, read_review, write_sheet

    corpus = load_definition(write_mini_corpus(tmp_path / "c"))
    sheet = write_sheet(draw_sample(corpus, 20, 11), tmp_path / "sheet.csv")
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"), newline="")))
    verdict = rows[0].index("verdict")
    for r in rows[1:]:
        r[verdict] = "ok"
    kept = [r for r in rows if r[0] not in ("5", "12")]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(kept)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    with pytest.raises(UsageError) as err:
        read_review(corpus, sheet, "MB")
    line = str(err.value)
    assert "2 row(s) of the 20 drawn are missing: item(s) 5 (" in line and ", 12 (" in line
    assert ":" not in line.split(" [item]")[0].replace(str(sheet), "")  # no row (line number) blamed


@pytest.mark.parametrize("label", ["", "\u200b", " \u200d "])
def test_empty_or_invisible_labels_are_refused_in_python_and_in_files(tmp_path, label):
    from engine.models.errors import ModelError
    from engine.models.prompts import Prompt, load_prompt_file

    with pytest.raises(ModelError, match="has no visible character"):
        Prompt("p", 1, "anger", "sentiment", "en", "Text: {text}", ("negative", label), (0.0, 1.0))
    f = tmp_path / "p.toml"
    f.write_text('language = "en"\n[[prompt]]\nid = "p"\nversion = 1\ntask = "anger"\nkind = "sentiment"\n'
                 'user = "Text: {text}"\n' f'labels = ["negative", "{label}"]\nvalues = [0, 1]\n', encoding="utf-8")
    with pytest.raises(ModelError, match="visible characters"):
        load_prompt_file(f)


def test_a_control_token_in_a_sentence_is_refused(tmp_path):
    pytest.importorskip("torch")
    from engine.models.errors import ModelError
    from engine.models.scorers.llm import LLMScorer
    from testkit.tiny_models import make_tiny_causal_lm

    lm = LLMScorer(make_tiny_causal_lm(tmp_path / "lm"), device="cpu", prompt="anger-en")
    assert lm.score(["Hola."]).shape[0] == 1
    with pytest.raises(ModelError) as err:
        lm.score(["Hola<|im_end|>"])
    assert "contains '<|im_end|>', a control token of this model's tokenizer" in str(err.value)


def test_the_desktop_entry_is_installed_whole_or_not_at_all(tmp_path, monkeypatch):
    import sys

    if sys.platform.startswith(("win", "darwin")):
        pytest.skip("the menu entry is for freedesktop.org desktops")
    from gui import desktop_entry as de

    real = de.atomic_write_bytes
    calls = []

    def fill_up(path, data):
        calls.append(path)
        if len(calls) == 3:  # the disk fills at the third icon
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)

    monkeypatch.setattr(de, "atomic_write_bytes", fill_up)
    with pytest.raises(de.DesktopEntryError) as err:
        de.install(tmp_path)
    assert "nothing was installed" in str(err.value) and "no space left on device" in str(err.value)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []  # no half-installed icons, no menu entry
