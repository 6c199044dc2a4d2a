"""Tests never touch the real home: HOME, the XDG folders and EEC Studio's own folders are temporary."""
import os
from pathlib import Path

import pytest



@pytest.fixture(scope="module")
def module_env():
    """What a module-scoped fixture sees (it is set up before function-scoped autouse fixtures)."""
    return {v: os.environ.get(v) for v in ("HOME", "XDG_CACHE_HOME", "EEC_STUDIO_CACHE", "EEC_STUDIO_HOME")}


def test_cache_folders_follow_the_environment(tmp_path_factory):
    from engine.assoc.providers.textfile import vectors_cache_root
    from engine.audit.cache import default_cache_dir
    from engine.common.user_dirs import user_home

    base = Path(tmp_path_factory.getbasetemp())
    for path in (Path.home(), default_cache_dir(), vectors_cache_root(), user_home()):
        assert base in path.parents, f"{path} is outside the test session's temp folder"


def test_module_scoped_fixtures_are_isolated_too(module_env, tmp_path_factory):
    base = str(tmp_path_factory.getbasetemp())
    assert all(v is not None and v.startswith(base) for v in module_env.values()), module_env


def test_cache_dir_honours_its_variables(monkeypatch, tmp_path):
    from engine.audit.cache import default_cache_dir

    monkeypatch.setenv("EEC_STUDIO_CACHE", str(tmp_path / "eec"))
    assert default_cache_dir() == tmp_path / "eec"
    monkeypatch.delenv("EEC_STUDIO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "eec-studio"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "eec-studio"
