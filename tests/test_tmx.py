"""TMX 1.4b import/export of the translation memory (issue 28, part 8): engine, CLI and GUI."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.corpus import load_corpus
from engine.corpus.translate.memory import IMPORTED, TranslationMemory, units_of
from engine.exchange.errors import ExchangeError
from engine.exchange.tmx_format import export_tmx, import_tmx, read_tmx_units, store_path, translation_memory, write_tmx_bytes

OTHER_TOOL = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="OmegaT" creationtoolversion="6.0" segtype="sentence" o-tmf="OmegaT TMX"
          adminlang="EN-US" srclang="en" datatype="plaintext">
    <prop type="x-project">bias</prop>
  </header>
  <body>
    <tu tuid="7">
      <prop type="x-origin">manual</prop>
      <note>checked by Ana</note>
      <tuv xml:lang="en"><seg>furious</seg></tuv>
      <tuv xml:lang="pt-BR"><seg>furiosa</seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="EN"><seg>my <bpt i="1">&lt;b&gt;</bpt>sister<ept i="1">&lt;/b&gt;</ept></seg></tuv>
      <tuv xml:lang="pt-BR"><seg>minha irmã</seg></tuv>
      <tuv xml:lang="fr"><seg>ma sœur</seg></tuv>
    </tu>
  </body>
</tmx>
"""


def _pairs(units):
    return sorted((u.list_name, u.source, f.text, tuple(sorted(f.features.items())))
                  for u in units for f in u.forms)


def test_round_trip_gives_the_same_pairs(tmp_path):
    corpus = load_corpus("es-camara2022")
    out = tmp_path / "es.tmx"
    n = export_tmx(out, "", corpus=corpus)
    units = units_of(corpus)
    assert n == sum(len(u.forms) for u in units) > 100
    back = read_tmx_units(out.read_bytes(), str(out))
    assert {p.source_lang for p in back} == {"en"} and {p.target_lang for p in back} == {"es"}
    assert _pairs([p.unit for p in back]) == _pairs(units)
    # features survive: the m/f forms of one emotion word come back as one unit with both forms
    angry = [p.unit for p in back if p.unit.list_name == "emotion_words" and p.unit.source == "angry"]
    assert [sorted(f.features.items()) for f in angry[0].forms] == [[("gender", "m")], [("gender", "f")]]
    res = import_tmx(out)
    assert res.added > 0 and res.languages == ["es"] and store_path().is_file()
    assert import_tmx(out).added == 0  # nothing twice
    from engine.exchange.tmx_format import imported_units

    assert _pairs(imported_units("es")) == sorted(set(_pairs(units)))


def test_a_tmx_written_by_another_tool_imports_and_is_suggested(tmp_path):
    f = tmp_path / "omegat.tmx"
    f.write_text(OTHER_TOOL, encoding="utf-8")
    res = import_tmx(f)
    assert res.added == 3 and res.languages == ["pt-BR", "fr"]
    tm = translation_memory("pt")
    got = {(u.list_name, u.source, u.text(), u.corpus_id) for u in tm.all_units() if u.list_name == IMPORTED}
    assert got == {(IMPORTED, "furious", "furiosa", "omegat"), (IMPORTED, "my <b>sister</b>", "minha irmã", "omegat")}
    # suggested as an exact match (beside a built-in corpus's own entry for the word, pt-BR-kiritchenko2018)
    assert any(s.exact and s.unit.text() == "furiosa" and s.unit.corpus_id == "omegat"
               for s in tm.suggest("emotion_words", "furious"))
    assert [u.text() for u in translation_memory("fr").all_units() if u.list_name == IMPORTED] == ["ma sœur"]


def test_written_tmx_is_tmx_14b(tmp_path):
    from engine.corpus.translate.memory import MemoryUnit
    from engine.corpus.definition.model import Form

    raw = write_tmx_bytes([MemoryUnit("persons", "my mother", [Form("minha mãe", {"gender": "f"})], "c", "np")],
                          "en", "pt")
    text = raw.decode()
    assert '<tmx version="1.4">' in text and 'srclang="en"' in text
    assert '<tuv xml:lang="en">' in text and '<tuv xml:lang="pt">' in text and text.count("<tu>") == 1


@pytest.mark.parametrize("body,line,needle,fix", [
    ('<tmx version="1.4"><header srclang="en"/>\n<body>\n<tu><tuv><seg>x</seg></tuv></tu></body></tmx>',
     3, "has no xml:lang", 'add xml:lang="…"'),
    ('<tmx version="1.4">\n<header adminlang="en"/><body/></tmx>', 2, "the <header> has no srclang", 'add srclang="en"'),
    ('<tmx version="1.4"><header srclang="en"/>\n<body>\n<tu><tuv xml:lang="en"><seg>x</seg>\n</tu></body></tmx>',
     4, "not well-formed XML", "correct the XML there"),
    ('<tmx version="1.4"><header srclang="de"/><body>\n<tu><tuv xml:lang="en"><seg>x</seg></tuv></tu></body></tmx>',
     2, "no <tuv> in the source language 'de'", "correct the srclang"),
    ('<!DOCTYPE tmx [<!ENTITY a "aaaa">]><tmx version="1.4"><header srclang="en"/><body/></tmx>',
     None, "declares a DTD or entities", "TMX needs none"),
    ('<xliff version="2.0"/>', 1, "not a TMX document", "export the translation memory as TMX"),
])
def test_bad_tmx_is_one_line_with_file_line_and_fix(tmp_path, body, line, needle, fix):
    f = tmp_path / "bad.tmx"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(ExchangeError) as err:
        import_tmx(f)
    text = str(err.value)
    assert "\n" not in text and needle in text and fix in text
    assert text.startswith(f"{f}:{line}:" if line else f"{f}:")
    assert not store_path().exists()  # nothing half-imported


def test_cli_twin(run, tmp_path):
    out = tmp_path / "m.tmx"
    r = run("corpus", "tm-export", str(out), "--language", "es")
    assert r.returncode == 0 and "(en -> es)" in r.stdout and out.is_file()
    r = run("corpus", "tm-import", str(out))
    assert r.returncode == 0 and "pair(s) added to the translation memory (es)" in r.stdout
    bad = tmp_path / "bad.tmx"
    bad.write_text('<tmx version="1.4"><body/></tmx>', encoding="utf-8")
    r = run("corpus", "tm-import", str(bad))
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "has no <header>" in r.stderr
    assert run("corpus", "tm-export", str(out)).returncode == 2  # neither --language nor --corpus


def test_gui_actions(qtbot, tmp_path):
    pytest.importorskip("pytestqt")
    from test_gui_workbench_support import make_window, wait_idle

    win = make_window(qtbot)
    assert win.act_tm_export.text() and win.act_tm_import.text()
    f = tmp_path / "omegat.tmx"
    f.write_text(OTHER_TOOL, encoding="utf-8")
    page = win.translate_from(load_corpus("en-kiritchenko2018").path, "pt")
    wait_idle(qtbot, page)
    assert win.tm_import_from(f) == 3
    qtbot.waitUntil(lambda: page.suggestions.idle and page.suggestions.memory is not None
                    and any(u.list_name == IMPORTED for u in page.suggestions.memory.all_units()), timeout=10000)
    out = tmp_path / "pt.tmx"
    assert win.tm_export_to(out) >= 2  # the two pt-BR pairs (not the fr one)
    assert "furiosa" in out.read_text(encoding="utf-8")
    bad = tmp_path / "bad.tmx"
    bad.write_text("<tmx", encoding="utf-8")
    assert win.tm_import_from(bad) == 0  # shown as one line, nothing added
