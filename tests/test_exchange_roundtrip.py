"""Round trips through other tools' hands (issue 31, part 6): comparisons on normalised text, and no
rewrite of a definition file when nothing was edited.

polib, which Weblate and many scripts use to save PO files, re-wraps translator comments longer than
the line with ``textwrap`` — breaking after hyphens, so a note naming ``ar-camara2022`` comes back as
``ar-`` / ``camara2022`` on two lines. That is no edit of the note.
"""
from __future__ import annotations

import textwrap

import pytest

from engine.corpus.definition.registry import resolve_path
from engine.exchange import export_exchange, import_exchange, merge_exchange

CORPORA = ["ar-camara2022", "es-camara2022", "ja-goldfarb2023"]


def polib_rewrap(text: str, width: int = 79) -> str:
    """Translator comments wrapped as polib writes them (textwrap, breaking on hyphens)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("# ") and len(line) > width:
            out += ["# " + part for part in textwrap.wrap(line[2:], width - 2, break_long_words=False)]
        else:
            out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("cid", CORPORA)
def test_a_po_rewrapped_by_polib_imports_without_changes(tmp_path, cid):
    po = export_exchange(cid, tmp_path / "x.po").path
    text = po.read_text(encoding="utf-8")
    wrapped = polib_rewrap(text)
    assert wrapped != text and "-\n# " in wrapped  # the export has long notes, wrapped after a hyphen
    (tmp_path / "w.po").write_text(wrapped, encoding="utf-8")
    res = merge_exchange(tmp_path / "w.po", cid)
    assert [(c.item, c.what) for c in res.changes] == []


def test_a_real_note_edit_is_still_seen(tmp_path):
    po = export_exchange("es-camara2022", tmp_path / "x.po").path
    text = polib_rewrap(po.read_text(encoding="utf-8"))
    body = text[text.index("\nmsgctxt"):]  # past the file's own header comment
    first_note = next(line for line in body.split("\n") if line.startswith("# ") and len(line) > 20)
    (tmp_path / "e.po").write_text(text.replace(first_note, first_note + " Checked again.", 1), encoding="utf-8")
    res = merge_exchange(tmp_path / "e.po", "es-camara2022")
    assert any("note changed" in c.what for c in res.changes)


@pytest.mark.parametrize("cid", CORPORA)
def test_an_import_without_edits_leaves_the_file_as_it_was(tmp_path, cid):
    po = export_exchange(cid, tmp_path / "x.po").path
    res = import_exchange(po, cid, tmp_path / "out.toml")
    assert res.changes == []
    assert (tmp_path / "out.toml").read_bytes() == resolve_path(cid).read_bytes()
