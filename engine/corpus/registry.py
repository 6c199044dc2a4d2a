"""Find corpora by name: built-in definitions under templates/ and the user's own.

User corpora live in ``$EEC_STUDIO_HOME/corpora`` (default ``~/.local/share/eec-studio``,
honouring ``XDG_DATA_HOME``) so that a user's work never sits inside the install.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import DefinitionError
from .loader import load_definition
from .model import CorpusDefinition

BUILTIN_DIR = Path(__file__).resolve().parents[2] / "templates"


def user_home() -> Path:
    if os.environ.get("EEC_STUDIO_HOME"):
        return Path(os.environ["EEC_STUDIO_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "eec-studio"


def user_corpus_dir() -> Path:
    return user_home() / "corpora"


@dataclass
class CorpusEntry:
    id: str
    path: Path
    builtin: bool


def _scan(folder: Path, builtin: bool) -> list[CorpusEntry]:
    if not folder.is_dir():
        return []
    out = []
    # by folder, then id: a corpus comes before its variants (ar-camara2022, ar-camara2022-published)
    for p in sorted(folder.rglob("*.toml"), key=lambda p: (p.parent, p.stem)):
        out.append(CorpusEntry(p.stem, p, builtin))
    return out


def list_corpora() -> list[CorpusEntry]:
    """Built-in first, then user corpora (file stem is the corpus id by convention)."""
    return _scan(BUILTIN_DIR, True) + _scan(user_corpus_dir(), False)


def builtin_names() -> list[str]:
    return [e.id for e in _scan(BUILTIN_DIR, True)]


def resolve_path(name_or_path: str | os.PathLike) -> Path:
    p = Path(name_or_path)
    if p.suffix.lower() == ".toml" or os.sep in str(name_or_path) or p.exists():
        return p
    for entry in list_corpora():
        if entry.id == str(name_or_path):
            return entry.path
    known = ", ".join(e.id for e in list_corpora())
    raise DefinitionError(str(name_or_path), "no corpus with this name or path",
                          fix=f"use a file path or one of: {known}")


def load_corpus(name_or_path: str | os.PathLike) -> CorpusDefinition:
    return load_definition(resolve_path(name_or_path))
