"""One corpus-id rule (engine.common.ids): what the workbench, `corpus new`, `corpus translate` and
package export accept is the same set, so a corpus made in the GUI never fails to export."""
from __future__ import annotations

import pytest

from engine.common.errors import UsageError
from engine.common.ids import is_corpus_id
from engine.corpus import load_corpus
from engine.corpus.definition.new_corpus import new_corpus
from engine.corpus.translate.new_language import Subset, translate_from
from engine.package.errors import PackageError
from engine.package.layout import check_corpus_id


@pytest.mark.parametrize("value, ok", [
    ("fr-my-eec", True), ("de_2", True), ("x" * 100, True), ("A1", True),
    ("fr.my-eec", False), ("my eec", False), ("-lead", False), ("", False), ("x" * 101, False),
    ("CON", False), ("lpt3", False), ("fr/eec", False), (None, False), (3, False),
])
def test_the_rule(value, ok):
    assert is_corpus_id(value) is ok


@pytest.mark.parametrize("value", ["fr.my-eec", "my eec", "nul"])
def test_every_entry_point_refuses_what_export_refuses(value):
    with pytest.raises(PackageError):
        check_corpus_id(value, "x.toml")
    with pytest.raises(UsageError) as err:
        new_corpus("fr", value)
    assert err.value.field == "--id" and "letters, digits" in err.value.fix
    source = load_corpus("en-kiritchenko2018")
    with pytest.raises(UsageError):
        translate_from(source, "fr", value, "", Subset())


def test_cli_names_the_option(tmp_path, capsys):
    import main

    rc = main.main(["corpus", "new", "--language", "fr", "--id", "fr.eec", "--out", str(tmp_path / "x.toml")])
    err = capsys.readouterr().err
    assert rc == 2 and "--id" in err and "fr.eec" in err and "Traceback" not in err
