"""Issue 29, part 2: inline XLIFF elements map to slots or are refused by name — never dropped.

A CAT tool protects `{person role=object}` as `<ph equiv="{person role=object}"/>`; read with
itertext() the placeholder vanished and the import blamed a missing slot. An XInclude element,
or an element of another vocabulary, vanished silently with its text.
"""
from __future__ import annotations

import pytest

from testkit.audit_fixtures import write_mini_corpus

TARGET = "<target>I made {person role=object} feel {emotion kind=state}.</target>"
NAME = "<target>Ebony</target>"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    import contextlib
    import io

    import main

    root = tmp_path_factory.mktemp("xlf")
    corpus = write_mini_corpus(root / "corpus")
    xlf = root / "mini.xlf"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main.main(["exchange", "export", str(corpus), "--out", str(xlf)]) == 0
    text = xlf.read_text(encoding="utf-8")
    assert TARGET in text and NAME in text
    return root, corpus, text


def _import(run, exported, name, old, new, *extra):
    root, corpus, text = exported
    path = root / f"{name}.xlf"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return run("exchange", "import", str(path), "--into", str(corpus), "--dry-run", *extra)


@pytest.mark.parametrize("target", [
    '<target>Hice que <ph id="1" equiv="{person role=object}"/> se sintiera {emotion kind=state}.</target>',
    '<target>Hice que <ph id="1" disp="{person role=object}"/> se sintiera {emotion kind=state}.</target>',
    '<target>Hice que <pc id="1">{person role=object}</pc> se sintiera <ph id="2" equiv="{emotion kind=state}"/>.</target>',
])
def test_placeholders_that_stand_for_a_slot_are_read_as_the_slot(run, exported, target):
    res = _import(run, exported, "ph", TARGET, target)
    assert res.returncode == 0, res.stderr
    assert "1 item(s) changed" in res.stdout + res.stderr and "slot" not in res.stderr


def test_an_inline_code_that_stands_for_nothing_is_refused_by_name(run, exported):
    res = _import(run, exported, "bare", NAME, '<target>Eb<ph id="7"/>ony</target>')
    assert res.returncode == 2
    assert "inline code <ph id=\"7\">" in res.stderr and "[unit u" in res.stderr and "equiv" in res.stderr


@pytest.mark.parametrize("old,new,what", [
    (NAME, '<target xmlns:xi="http://www.w3.org/2001/XInclude">Eb<xi:include href="rest.xml"/></target>',
     '<xi:include href="rest.xml"> in the target is an XInclude element'),
    ("</file>", '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="more-units.xlf"/></file>',
     'XInclude element <xi:include href="more-units.xlf">'),
    (NAME, '<target xmlns:b="urn:x-bold">Eb<b:bold>ony</b:bold></target>',
     "<bold> in the target is an element EEC Studio does not read"),
])
def test_xinclude_and_unknown_elements_are_refused_by_name(run, exported, old, new, what):
    res = _import(run, exported, "xi", old, new)
    assert res.returncode == 2, res.stdout + res.stderr
    assert what in res.stderr
