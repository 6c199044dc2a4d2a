"""A wheel carries what the app reads at run time: built-in corpora, UI catalogs, stimuli.

Why: `templates/`, `locales/` and `resources/` sit beside the packages (the product's fixed
layout), so a plain `packages.find` would leave them out and an installed app would start with
no corpora, no translations and no association tests. Built offline (no build isolation).
"""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("setuptools", minversion="77", reason="building the wheel needs setuptools >= 77 (PEP 639 licence field)")
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                           "--no-index", "-q", "-w", str(out)], capture_output=True, text=True, cwd=out)
    if proc.returncode != 0 and "No module named pip" in proc.stderr:
        pytest.skip("pip is not installed in this environment")
    assert proc.returncode == 0, proc.stderr
    (whl,) = out.glob("*.whl")
    return whl


def _data_files():
    listed = subprocess.run(["git", "ls-files", "templates", "locales", "resources"], capture_output=True,
                            text=True, cwd=ROOT)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    return [f for f in listed.stdout.split() if not f.endswith(".gitignore")]


def test_the_wheel_holds_every_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = _data_files()
    assert files and [f for f in files if f not in names] == []
    assert "main.py" in names and "engine/corpus/definition/registry.py" in names and "gui/i18n.py" in names


def test_an_installed_wheel_finds_its_corpora_catalogs_and_tests(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    code = ("import engine, gui.i18n as i, engine.assoc.library as lib; "
            "from engine.corpus.definition.registry import list_corpora; "
            "print(engine.__file__); print(len(list_corpora())); print(sorted(i.available_languages())); "
            "print(lib.LIBRARY.is_dir())")
    env = {**os.environ, "PYTHONPATH": str(target), "PYTHONNOUSERSITE": "1"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    where, n, langs, stimuli = proc.stdout.split("\n")[:4]
    assert Path(where).is_relative_to(target)  # the installed copy, not the checkout
    assert int(n) == len(list((ROOT / "templates").rglob("*.toml")))
    assert langs == "['ar', 'de', 'en', 'es', 'fr', 'it', 'pt']" and stimuli == "True"
