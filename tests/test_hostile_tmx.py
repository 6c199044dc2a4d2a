"""Issue 40: the TMX store indexed (engine/exchange/tmx_store.py) and TMX input checked at the parser.

The old store was one imported.tmx read and written whole (a 50 MB file: 158 s at 1.9 GB, then
162 s for one more pair, 36 s for suggestions; figures in bench/bench_tmx_store.py); the DOCTYPE
guard stopped at the first '>' even inside a quoted system id (an ATTLIST default got through);
language codes such as 'Portuguese' or '<script>' were stored for good."""
from __future__ import annotations

import os
import sqlite3

import pytest

from engine.corpus.translate.memory import IMPORTED, TranslationMemory
from engine.exchange.errors import ExchangeError
from engine.exchange.tmx_format import import_tmx, store_path, translation_memory
from testkit.terminal import default_sigint

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
TMX = ('<tmx version="1.4"><header srclang="en" creationtool="x" creationtoolversion="1" segtype="phrase" '
       'o-tmf="x" adminlang="en" datatype="plaintext"/>\n<body>\n{body}</body></tmx>\n')


def _tu(src: str, tgt: str, lang: str = "es") -> str:
    return f'<tu><tuv xml:lang="en"><seg>{src}</seg></tuv><tuv xml:lang="{lang}"><seg>{tgt}</seg></tuv></tu>\n'


def _file(tmp_path, name: str, text: str):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def _count() -> int:
    if not store_path().exists():
        return 0
    with sqlite3.connect(store_path()) as con:
        return con.execute("SELECT COUNT(*) FROM units").fetchone()[0]


def test_an_attlist_behind_a_quoted_greater_than_sign_is_refused(tmp_path):
    body = TMX.format(body=_tu("furious", "furiosa"))
    doctype = '<!DOCTYPE tmx SYSTEM "tmx>14.dtd" [<!ATTLIST tuv xml:lang CDATA "es">]>\n'
    with pytest.raises(ExchangeError, match="declares a DTD or entities"):
        import_tmx(_file(tmp_path, "attlist.tmx", HEAD + doctype + body))
    assert _count() == 0
    from engine.exchange.xliff_format import _safe_bytes

    with pytest.raises(ExchangeError, match="declares a DTD or entities"):
        _safe_bytes((HEAD + doctype + "<xliff/>").encode(), "x.xlf", kind="TMX", plain_doctype_ok=True)
    _safe_bytes((HEAD + '<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx/>').encode(), "x.tmx", kind="TMX",
                plain_doctype_ok=True)  # a plain DOCTYPE, as TMX tools write it, stays accepted


@pytest.mark.parametrize("lang, shown", [("Portuguese", "'Portuguese'"), ("&lt;script&gt;", "'<script>'"),
                                         ("pt BR", "'pt BR'")])
def test_language_codes_are_checked_with_their_line(tmp_path, lang, shown):
    f = _file(tmp_path, "lang.tmx", HEAD + TMX.format(body=_tu("a", "b") + _tu("furious", "furiosa", lang)))
    with pytest.raises(ExchangeError) as err:
        import_tmx(f)
    assert str(err.value).startswith(f"{f}:5: xml:lang {shown} is not a language code")
    assert _count() == 0


def test_an_import_is_all_or_nothing(tmp_path):
    assert import_tmx(_file(tmp_path, "ok.tmx", HEAD + TMX.format(body=_tu("angry", "enojada")))).added == 1
    bad = HEAD + TMX.format(body="".join(_tu(f"word {i}", f"palabra {i}") for i in range(50))
                            + '<tu><tuv xml:lang="en"><seg>x</seg></tuv><tuv><seg>y</seg></tuv></tu>\n')
    with pytest.raises(ExchangeError, match="has no xml:lang"):
        import_tmx(_file(tmp_path, "bad.tmx", bad))
    assert _count() == 1  # the 50 good units before the bad one were not kept


def test_suggestions_come_from_the_index_not_from_every_unit(tmp_path):
    body = "".join(_tu(f"the source sentence {i}", f"la frase {i}") for i in range(3000)) + _tu("zorblax", "zorblaxa")
    assert import_tmx(_file(tmp_path, "big.tmx", HEAD + TMX.format(body=body))).added == 3001
    tm = translation_memory("es-MX")
    assert not [u for u in tm.units if u.list_name == IMPORTED]  # not loaded as 3,001 objects
    assert len(tm.imported) == 3001
    top = tm.suggest("emotion_words", "Zorblax")[0]
    assert top.exact and top.unit.text() == "zorblaxa" and top.unit.list_name == IMPORTED
    assert len([u for u in tm.all_units() if u.list_name == IMPORTED]) == 3001  # export still sees them all


def test_a_store_of_an_earlier_version_is_read_once(tmp_path):
    legacy = store_path().with_name("imported.tmx")
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text(HEAD + TMX.format(body=_tu("furious", "furiosa")).replace('srclang="en"', 'srclang="*all*"', 1),
                      encoding="utf-8")
    assert [u.text() for u in translation_memory("es").all_units() if u.list_name == IMPORTED] == ["furiosa"]
    assert store_path().exists() and legacy.exists()  # kept where it was
    assert import_tmx(_file(tmp_path, "again.tmx", HEAD + TMX.format(body=_tu("furious", "furiosa")))).added == 0
    assert os.path.getsize(store_path()) > 0


def test_ctrl_c_stops_a_long_import_at_once_and_changes_nothing(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    big = tmp_path / "big.tmx"
    with open(big, "w", encoding="utf-8") as fh:
        fh.write(HEAD + TMX.split("{body}")[0])
        for i in range(150_000):
            fh.write(_tu(f"source sentence {i}", f"frase {i}"))
        fh.write(TMX.split("{body}")[1])
    proc = subprocess.Popen([sys.executable, "main.py", "corpus", "tm-import", str(big)],
                            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=default_sigint)
    deadline = time.monotonic() + 60
    while not store_path().exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)  # the import has begun: the store is open
    time.sleep(0.5)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "cancelled" in err and "Traceback" not in err
    assert time.monotonic() - start < 10
    assert _count() == 0  # rolled back: nothing half-imported
