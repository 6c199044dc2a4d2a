import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(autouse=True)
def _isolated_user_home(tmp_path_factory, monkeypatch):
    """Never read or write the developer's real ~/.local/share/eec-studio in tests."""
    home = tmp_path_factory.mktemp("eec_home")
    monkeypatch.setenv("EEC_STUDIO_HOME", str(home))
    yield


@pytest.fixture
def run(capsys):
    """`run(*argv)`: main.main in this process, returning returncode/stdout/stderr like subprocess."""
    import main

    def _run(*args):
        capsys.readouterr()
        code = main.main(list(args))
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)
    return _run


def shared_path(*parts: str) -> Path:
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"../shared reference data not present ({p}); this test cross-checks against it")
    return p
