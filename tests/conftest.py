import os
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# hypothesis keeps a .hypothesis/ folder in the working directory: put it in the temp folder instead
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "eec-studio-hypothesis"))


# tqdm's monitor thread, started by a progress bar (transformers' save_pretrained in fixtures), outlives
# its bars; while it runs engine.common.executor.can_fork() is False, and the tests of forked workers
# and side-by-side statistics would skip. It only tunes slow bars' refresh rate: off in the tests.
try:
    import tqdm.std

    tqdm.std.tqdm.monitor_interval = 0
except ImportError:
    pass

# Models the tests read from the Hugging Face cache stay where they are (read-only, offline);
# pinned before HOME moves, so the fixture below does not hide them.
os.environ.setdefault("HF_HOME", str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "huggingface"))



def _point_home_at(mp: pytest.MonkeyPatch, home: Path, data: Path, cache: Path) -> None:
    mp.setenv("HOME", str(home))
    for var, sub in (("XDG_CACHE_HOME", ".cache"), ("XDG_DATA_HOME", ".local/share"), ("XDG_CONFIG_HOME", ".config")):
        mp.setenv(var, str(home / sub))
    mp.setenv("EEC_STUDIO_HOME", str(data))
    mp.setenv("EEC_STUDIO_CACHE", str(cache))


@pytest.fixture(scope="session", autouse=True)
def _session_home(tmp_path_factory):
    """One throw-away HOME for the whole session, set before any fixture of any scope runs
    (a module-scoped fixture would otherwise see the real home). Tools' own caches, such as
    fontconfig's, fill it once."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        (home / ".status-cache").mkdir()
        _point_home_at(mp, home, tmp_path_factory.mktemp("eec_home"), tmp_path_factory.mktemp("eec_cache"))
        yield home


@pytest.fixture(autouse=True)
def _isolated_user_home(_session_home, tmp_path_factory, monkeypatch):
    """Never read or write the developer's real home: ~/.local/share/eec-studio (corpora),
    ~/.cache/eec-studio (scores, vector caches) or any other dot-folder. HOME and the XDG
    folders point into the session's temp home; the corpus folder and the score/vector cache
    are fresh for every test, so no test sees another's results."""
    cache = tmp_path_factory.mktemp("eec_cache")
    # ... except the corpus-status cache, which is keyed by the content of everything a status depends
    # on (engine/corpus/check/status_cache.py), so sharing it cannot show one test another's answer.
    # Without it every test that opens the main window re-checks the 18 built-in corpora in the
    # background: ~12 s of CPU per window test, most of the suite's time.
    (cache / "corpus-status").symlink_to(_session_home / ".status-cache", target_is_directory=True)
    _point_home_at(monkeypatch, _session_home, tmp_path_factory.mktemp("eec_home"), cache)
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


@pytest.fixture(scope="module")
def tables(request):
    """``builtin_tables(NAME)`` for a test module that names its built-in corpus in ``NAME``
    (tests/test_corpus_review_<lang>.py): corpus, compiled, sentences, pairs."""
    from testkit.corpus_fixtures import builtin_tables

    return builtin_tables(request.module.NAME)
