"""The application version recorded in package manifests.

Why installed metadata first: the manifest should name the version the user runs; the
pyproject fallback covers a checkout used without `pip install -e`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import metadata
from pathlib import Path

APP_NAME = "eec-studio"


@lru_cache(maxsize=1)
def app_version() -> str:
    try:
        return metadata.version(APP_NAME)
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        m = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
    except OSError:
        m = None
    return m.group(1) if m else "unknown"
