"""Where the app keeps the user's data, without importing the engine.

Why a mirror of ``engine.corpus.registry.user_home``: importing any ``engine.corpus`` module
loads pandas (about a second), and the first window must not wait for it. The rule is the
same — ``$EEC_STUDIO_HOME``, else ``$XDG_DATA_HOME/eec-studio``, else
``~/.local/share/eec-studio`` — and a test checks that both agree.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

BUILTIN_CORPORA = Path(__file__).resolve().parents[1] / "templates"


def user_home() -> Path:
    if os.environ.get("EEC_STUDIO_HOME"):
        return Path(os.environ["EEC_STUDIO_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "eec-studio"


@dataclass
class CorpusFile:
    id: str
    path: Path
    builtin: bool


def corpus_files() -> list[CorpusFile]:
    """``engine.corpus.registry.list_corpora()`` without importing the engine (see above): the
    built-in definitions, then the user's, each named by its file stem. A test checks both agree."""
    out = []
    for folder, builtin in ((BUILTIN_CORPORA, True), (user_home() / "corpora", False)):
        if folder.is_dir():
            out += [CorpusFile(p.stem, p, builtin) for p in sorted(folder.rglob("*.toml"))]
    return out
