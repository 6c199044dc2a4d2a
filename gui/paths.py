"""Where the app keeps the user's data, without importing the engine.

Why a mirror of ``engine.corpus.registry.user_home``: importing any ``engine.corpus`` module
loads pandas (about a second), and the first window must not wait for it. The rule is the
same — ``$EEC_STUDIO_HOME``, else ``$XDG_DATA_HOME/eec-studio``, else
``~/.local/share/eec-studio`` — and a test checks that both agree.
"""
from __future__ import annotations

import os
from pathlib import Path


def user_home() -> Path:
    if os.environ.get("EEC_STUDIO_HOME"):
        return Path(os.environ["EEC_STUDIO_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "eec-studio"
