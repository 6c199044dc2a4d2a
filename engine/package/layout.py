"""Which files a package holds and where: one fixed layout per corpus id.

Why fixed names: import accepts only members it knows, so a package cannot smuggle in
anything else (scripts, dotfiles, paths outside the import folder). The corpus id becomes
a folder and file name, so it must be a safe file name on every platform.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.common import ids
from engine.common.ids import is_corpus_id

from .errors import PackageError

FORMAT = 1
SUFFIX = ".eecpkg"
MANIFEST = "manifest.json"
README = "README.md"
CHECKER_TEXT = "checker.txt"
CHECKER_JSON = "checker.json"
ATTRIBUTION = "ATTRIBUTION.md"



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
    """The corpus id names a folder and files on import (engine.common.ids, the one rule)."""
    if not is_corpus_id(corpus_id):
        raise PackageError(file, f"corpus id {corpus_id!r} cannot be used as a file name",
                           fix=f"corpus ids use {ids.RULE}; change `id` in the definition and export again")
    return corpus_id
