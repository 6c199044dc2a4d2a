"""The command names itself as it was started (issue 41, part 8): `eec-studio` installed (the console
script and the bundle), `main.py` from a checkout — in --help, usage errors, hints and fixes."""
from __future__ import annotations

import pytest

import main


@pytest.fixture
def installed(monkeypatch):
    monkeypatch.setattr("sys.argv", ["/home/u/.local/bin/eec-studio"])


def test_help_and_usage_errors_name_the_installed_command(installed, capsys):
    assert main.build_parser().format_usage().startswith("usage: eec-studio ")
    with pytest.raises(SystemExit):
        main.main(["corpus", "check"])  # a required argument missing: argparse's usage error
    err = capsys.readouterr().err
    assert err.startswith("usage: eec-studio corpus check") and "main.py" not in err
    with pytest.raises(SystemExit):
        main.main(["audit", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: eec-studio audit") and "main.py" not in out  # help texts too


def test_the_no_display_hint_names_the_installed_command(installed, monkeypatch, capsys):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main.run_gui() == 2
    err = capsys.readouterr().err
    assert "`eec-studio corpus list` (see `eec-studio --help`)" in err and "main.py" not in err


def test_fixes_name_the_command_too(installed):
    from engine.common.command import command
    from engine.models.errors import ModelError
    from engine.models.manifest import read_manifest

    assert command("train") == "eec-studio train"
    with pytest.raises(ModelError) as err:
        read_manifest("/nonexistent-model-folder")
    assert "`eec-studio train`" in str(err.value)


@pytest.mark.parametrize("argv0", ["main.py", "/work/x/main.py", ""])
def test_from_a_checkout_it_is_main_py(argv0, monkeypatch):
    from engine.common.command import command, prog

    monkeypatch.setattr("sys.argv", [argv0])
    assert prog() == "main.py" and command("corpus list") == "python main.py corpus list"
    assert main.build_parser().format_usage().startswith("usage: main.py ")
    monkeypatch.setattr("sys.argv", ["eec-studio.exe"])  # the Windows bundle
    assert prog() == "eec-studio"
