"""Where EEC Studio keeps a user's files: their work (corpora, memory, recovery copies, prompts,
settings) and caches that can always be rebuilt (scores, file digests).

Why one place: the audit, the corpus engine, the exchange formats and the GUI all write under
these folders; each moves with one variable (``EEC_STUDIO_HOME``, ``EEC_STUDIO_CACHE``), follows
the XDG base-directory convention otherwise, and a user's work never sits inside the install or
beside their models.
"""
from __future__ import annotations

import os
from pathlib import Path


def user_home() -> Path:
    """$EEC_STUDIO_HOME, else $XDG_DATA_HOME/eec-studio, else ~/.local/share/eec-studio."""
    if os.environ.get("EEC_STUDIO_HOME"):
        home = Path(os.environ["EEC_STUDIO_HOME"]).expanduser()
        if home.exists() and not home.is_dir():  # said, not a silent list of built-ins only
            from engine.common.errors import UsageError

            raise UsageError(f"EEC_STUDIO_HOME is {str(home)!r}, a file, not a folder", field="EEC_STUDIO_HOME",
                             fix="point it at a folder (created when first needed), or unset it to use "
                                 "~/.local/share/eec-studio")
        return home
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "eec-studio"


def user_corpus_dir() -> Path:
    """The corpora folder: new, translated and imported corpora are saved here by default."""
    return user_home() / "corpora"


def recovery_dir() -> Path:
    """Unsaved workbench edits kept for crash recovery."""
    return user_home() / "recovery"


def prompts_dir() -> Path:
    """The user's own LLM prompt files."""
    return user_home() / "prompts"


def default_cache_dir() -> Path:
    """$EEC_STUDIO_CACHE, else $XDG_CACHE_HOME/eec-studio, else ~/.cache/eec-studio."""
    env = os.environ.get("EEC_STUDIO_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "eec-studio"
