"""Issue 40, part 3: a corpus file shared by processes keeps every change (engine/corpus/definition/shared_file.py).

Six concurrent `corpus spelling-add` runs kept 1-2 of their 6 words; `spelling-add` beside
`mark-reviewed` lost its word; a run beside a program writing the file non-atomically saved the
half-written file. Every writer now holds the file's lock and merges (or refuses) a change made
since it read the file."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.corpus.definition.loader import load_definition, parse_definition
from engine.corpus.definition.shared_file import (CorpusFileChanged, corpus_file_lock, merge_definitions,
                                                  update_definition, write_unless_changed)
from testkit.audit_fixtures import write_mini_corpus

ROOT = Path(__file__).resolve().parents[1]

# each process runs spelling-add several times in a loop (contention on every call), through main.main
_ADDER = """
import sys
import main
path, prefix = sys.argv[1], sys.argv[2]
for i in range(5):
    assert main.main(["corpus", "spelling-add", path, f"{prefix}word{i}"]) == 0
"""
# the editor: like a workbench document, reads the file, edits, and saves later (others wrote meanwhile)
_EDITOR = """
import sys, time
from pathlib import Path
from engine.corpus.definition.loader import parse_definition
from engine.corpus.definition.shared_file import write_unless_changed
import main
path = Path(sys.argv[1])
base = path.read_bytes()
doc = parse_definition(base, str(path))
doc.templates[1].review.note = "edited in the workbench"
time.sleep(float(sys.argv[2]))
write_unless_changed(doc, path, base=base)
for item in ("T3", "T4"):
    assert main.main(["corpus", "mark-reviewed", str(path), item, "--by", "MB"]) == 0
"""


def _spawn(code: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_six_processes_adding_words_and_one_editing_keep_every_word(tmp_path):
    path = write_mini_corpus(tmp_path / "mine")
    letters = "abcdef"
    procs = [_spawn(_ADDER, str(path), p) for p in letters] + [_spawn(_EDITOR, str(path), "2.0")]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    corpus = load_definition(path)
    wanted = {f"{p}word{i}" for p in letters for i in range(5)}
    assert wanted <= set(corpus.spelling_accept), sorted(wanted - set(corpus.spelling_accept))
    assert len(corpus.spelling_accept) == 30
    by_id = {t.id: t for t in corpus.templates}
    assert by_id["T2"].review.note == "edited in the workbench"
    assert by_id["T3"].review.status == by_id["T4"].review.status == "reviewed"
    assert len(corpus.emotion_words) == len(load_definition(write_mini_corpus(tmp_path / "fresh")).emotion_words)


def test_a_file_written_non_atomically_meanwhile_is_not_saved_half(tmp_path):
    """A program writing the file in pieces (no lock, no rename): the word is added to the whole file."""
    path = write_mini_corpus(tmp_path / "mine")
    full = path.read_bytes()
    n_emotions = len(parse_definition(full).emotion_words)

    def slow_writer() -> None:
        with open(path, "wb") as fh:
            for i in range(0, len(full), len(full) // 8):
                fh.write(full[i:i + len(full) // 8])
                fh.flush()
                time.sleep(0.12)

    writer = threading.Thread(target=slow_writer)
    writer.start()
    time.sleep(0.05)
    update_definition(path, lambda c: (c.spelling_accept.append("Kasachin"), True))
    writer.join()
    corpus = load_definition(path)
    assert len(corpus.emotion_words) == n_emotions
    assert "Kasachin" in corpus.spelling_accept


def test_a_change_made_since_reading_is_merged_or_refused(tmp_path):
    path = write_mini_corpus(tmp_path / "mine")
    base = path.read_bytes()
    ours = parse_definition(base, str(path))
    ours.templates[0].review.note = "ours"
    ours.spelling_accept.append("Kasachin")
    # another program adds a word and changes another template meanwhile: both kept
    theirs = parse_definition(base, str(path))
    theirs.spelling_accept.append("Ebonie")
    theirs.templates[1].review.note = "theirs"
    write_unless_changed(theirs, path, base=None)
    write_unless_changed(ours, path, base=base)
    merged = load_definition(path)
    assert merged.spelling_accept == ["Ebonie", "Kasachin"]
    assert merged.templates[0].review.note == "ours"
    assert merged.templates[1].review.note == "theirs"
    # both change the same template: refused, the file keeps the other program's version
    before = path.read_bytes()
    mine = parse_definition(base, str(path))
    mine.templates[1].review.note = "mine"
    with pytest.raises(CorpusFileChanged, match=r"both versions change templates\[T2\]; nothing was saved"):
        write_unless_changed(mine, path, base=base)
    assert path.read_bytes() == before


def test_a_file_that_no_longer_parses_is_never_overwritten(tmp_path):
    path = write_mini_corpus(tmp_path / "mine")
    base = path.read_bytes()
    ours = parse_definition(base, str(path))
    ours.spelling_accept.append("Kasachin")
    half = base[: len(base) // 2]
    path.write_bytes(half)
    with pytest.raises(CorpusFileChanged, match="no longer reads as a definition"):
        write_unless_changed(ours, path, base=base)
    assert path.read_bytes() == half
    res = subprocess.run([sys.executable, "main.py", "corpus", "spelling-add", str(path), "Kasachin"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and path.read_bytes() == half, res.stderr


def test_a_held_lock_is_waited_for_then_named(tmp_path, monkeypatch):
    path = write_mini_corpus(tmp_path / "mine")
    with corpus_file_lock(path):
        done = []
        t = threading.Thread(target=lambda: done.append(update_definition(
            path, lambda c: (c.spelling_accept.append("Kasachin"), True))))
        t.start()
        time.sleep(0.5)
        assert not done and "Kasachin" not in path.read_text(encoding="utf-8")  # waiting for the lock
    t.join(30)
    assert "Kasachin" in load_definition(path).spelling_accept
    import engine.corpus.definition.shared_file as sf

    monkeypatch.setattr(sf, "LOCK_TIMEOUT_S", 0.2)
    with corpus_file_lock(path):
        err = []
        t = threading.Thread(target=lambda: err.append(_catch(lambda: update_definition(path, lambda c: (None, True)))))
        t.start()
        t.join(30)
    assert "another program has been writing this file for over 0.2 s" in str(err[0])


def _catch(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - handed back to the test
        return exc
    return None


def test_merge_of_word_lists_and_items():
    base = parse_definition(write_mini_corpus_text())
    ours, theirs = parse_definition(write_mini_corpus_text()), parse_definition(write_mini_corpus_text())
    ours.persons = [p for p in ours.persons if p.id != "tia"]  # removed here
    theirs.persons[0].review.note = "checked"  # changed there
    merged, conflicts = merge_definitions(base, ours, theirs)
    assert not conflicts
    assert "tia" not in [p.id for p in merged.persons] and merged.persons[0].review.note == "checked"
    theirs.persons[3].review.note = "changed there"  # tia, removed here
    assert merge_definitions(base, ours, theirs)[1] == ["persons[tia]"]


def write_mini_corpus_text() -> str:
    from testkit.audit_fixtures import mini_corpus_text

    return mini_corpus_text("gui-mini")


def test_the_workbench_save_merges_another_programs_change(tmp_path, qtbot):
    pytest.importorskip("PySide6")
    from gui.workbench.document import CorpusDocument

    path = write_mini_corpus(tmp_path / "mine")
    doc = CorpusDocument.open(path)
    doc.set(("templates", 0, "review", "note"), "mine", "note")
    update_definition(path, lambda c: (c.spelling_accept.append("Kasachin"), True))  # `corpus spelling-add` meanwhile
    doc.save()
    saved = load_definition(path)
    assert "Kasachin" in saved.spelling_accept and saved.templates[0].review.note == "mine"
    assert "Kasachin" in doc.corpus.spelling_accept and not doc.modified
    # both change the same template: the save is refused, the file keeps the other version
    doc.set(("templates", 1, "review", "note"), "mine too", "note")
    update_definition(path, lambda c: (setattr(c.templates[1].review, "note", "theirs"), True))
    with pytest.raises(CorpusFileChanged, match=r"templates\[T2\]"):
        doc.save()
    assert load_definition(path).templates[1].review.note == "theirs" and doc.modified
