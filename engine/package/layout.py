"""Which files a package holds and where: one fixed layout per corpus id.

Why fixed names: import accepts only members it knows, so a package cannot smuggle in
anything else (scripts, dotfiles, paths outside the import folder). The corpus id becomes
a folder and file name, so it must be a safe file name on every platform.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import PackageError

FORMAT = 1
SUFFIX = ".eecpkg"
MANIFEST = "manifest.json"
README = "README.md"
CHECKER_TEXT = "checker.txt"
CHECKER_JSON = "checker.json"
ATTRIBUTION = "ATTRIBUTION.md"

_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")
_RESERVED = {"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(1, 10)} | {f"lpt{i}" for i in range(1, 10)}


@dataclass(frozen=True)
class Layout:
    """Member names of the package of corpus ``corpus_id``."""

    corpus_id: str

    @property
    def definition(self) -> str:
        return f"definition/{self.corpus_id}.toml"

    @property
    def csv(self) -> str:
        return f"corpus/{self.corpus_id}.csv"

    @property
    def jsonl(self) -> str:
        return f"corpus/{self.corpus_id}.jsonl"

    @property
    def pairs(self) -> str:
        return f"pairs/{self.corpus_id}.csv"

    def required(self) -> list[str]:
        return [MANIFEST, README, CHECKER_TEXT, CHECKER_JSON, self.definition, self.csv, self.jsonl]

    def optional(self) -> list[str]:
        # ATTRIBUTION.md is optional so that packages made before it existed still import
        return [self.pairs, ATTRIBUTION]

    def allowed(self) -> set[str]:
        return set(self.required()) | set(self.optional())


def check_corpus_id(corpus_id: object, file: str) -> str:
    """The corpus id names a folder and files on import: letters, digits, '_' and '-' only."""
    if not isinstance(corpus_id, str) or not _SAFE_ID.match(corpus_id) or corpus_id.lower() in _RESERVED:
        raise PackageError(file, f"corpus id {corpus_id!r} cannot be used as a file name",
                           fix="corpus ids in packages use letters, digits, '_' and '-' (at most 100 characters); "
                               "change `id` in the definition and export again")
    return corpus_id
