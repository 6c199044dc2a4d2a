"""Find corpora by name: built-in definitions under templates/ and the user's own.

User corpora live in the corpora folder (engine.common.user_dirs: ``$EEC_STUDIO_HOME/corpora``,
default ``~/.local/share/eec-studio/corpora``) so that a user's work never sits inside the install.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.common.user_dirs import user_corpus_dir, user_home
from engine.corpus.definition.errors import DefinitionError
from engine.corpus.definition.loader import load_definition
from engine.corpus.definition.model import CorpusDefinition

BUILTIN_DIR = Path(__file__).resolve().parents[3] / "templates"


@dataclass
class CorpusEntry:
    id: str
    path: Path
    builtin: bool
    elsewhere: bool = False  # a user's file kept outside the corpora folder, remembered when opened or saved


def known_list_path() -> Path:
    """The list of definition files opened or saved outside the corpora folder (one path a line)."""
    return user_home() / "known-corpora.txt"


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except (ValueError, OSError):
        return False


def remember_corpus(path: str | os.PathLike) -> bool:
    """Remember a definition kept outside the corpora folder, so the corpora list, the audit list and
    the translation memory find it too (one home for the user's corpora, wherever the file lives).
    Returns whether the list changed; a file in the corpora or built-in folder needs no entry."""
    p = Path(path).resolve()
    if p.suffix.lower() != ".toml" or _inside(p, user_corpus_dir()) or _inside(p, BUILTIN_DIR):
        return False
    known = _known_paths()
    if p in known:
        return False
    from engine.common.io import atomic_write_text

    known_list_path().parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(known_list_path(), "".join(f"{k}\n" for k in known + [p]))
    return True


def _known_paths() -> list[Path]:
    try:
        lines = known_list_path().read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [Path(x) for x in dict.fromkeys(ln.strip() for ln in lines if ln.strip())]


def _known() -> list[CorpusEntry]:
    """Remembered files that still exist (a moved or deleted file drops out of the list)."""
    return [CorpusEntry(p.stem, p, False, elsewhere=True) for p in _known_paths()
            if p.is_file() and not _inside(p, user_corpus_dir())]


def _scan(folder: Path, builtin: bool) -> list[CorpusEntry]:
    if not folder.is_dir():
        return []
    out = []
    # by folder, then id: a corpus comes before its variants (ar-camara2022, ar-camara2022-published)
    for p in sorted(folder.rglob("*.toml"), key=lambda p: (p.parent, p.stem)):
        out.append(CorpusEntry(p.stem, p, builtin))
    return out


def list_corpora() -> list[CorpusEntry]:
    """Built-in first, then user corpora (file stem is the corpus id by convention), then the
    user's files kept elsewhere (``remember_corpus``)."""
    return _scan(BUILTIN_DIR, True) + _scan(user_corpus_dir(), False) + _known()


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
