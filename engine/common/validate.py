"""Argument checks run before any work: ranges, ids and output paths, as one-line UsageErrors.

Why up front: an audit that scores for an hour and then finds `--out` is a file, or that
runs with `--alpha 5`, wastes the hour or reports nonsense. Every CLI (and the audit plan)
calls these before loading a model or generating a corpus. Messages never carry raw errno
text or temp-file names: they say which option, what is wrong and what to do.
"""
from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Iterable

from .errors import UsageError


def probability(name: str, value: float) -> float:
    """A significance level or share strictly between 0 and 1 (``--alpha 5`` is refused)."""
    v = number(name, value)
    if not 0.0 < v < 1.0:
        raise UsageError(f"must be between 0 and 1 (exclusive), got {value!r}", field=name,
                         fix="e.g. 0.05 for a 5% level")
    return v


def fraction(name: str, value: float, *, below_one: bool = False, fix: str = "e.g. 0.8 for 80%") -> float:
    """A share from 0 to 1 inclusive (coverage thresholds), or below 1 (`below_one`: a band share)."""
    v = number(name, value)
    if not (0.0 <= v < 1.0 if below_one else 0.0 <= v <= 1.0):
        raise UsageError(f"must be between 0 and 1{' (1 excluded)' if below_one else ''}, got {value!r}",
                         field=name, fix=fix)
    return v


def at_least(name: str, value: int, minimum: int = 1, *, fix: str | None = None) -> int:
    """A whole number not below ``minimum`` (counts, permutations, batch sizes)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"must be a whole number, got {value!r}", field=name, fix=fix)
    if value < minimum:
        raise UsageError(f"must be at least {minimum}, got {value}", field=name, fix=fix)
    return value


def one_of(name: str, value: str, valid: Iterable[str], what: str = "value") -> str:
    """An id that must exist (a template, a person, a test): the error lists the valid ones."""
    options = list(dict.fromkeys(str(v) for v in valid))
    if value in options:
        return value
    shown = ", ".join(options[:30]) + (f" … ({len(options)} in all)" if len(options) > 30 else "")
    raise UsageError(f"unknown {what} {value!r}", field=name,
                     fix=f"valid: {shown}" if options else "there are none to choose from")


def known_key(name: str, key: str, known: Iterable[str], what: str = "key") -> str:
    """A key that must be one of ``known`` (a setting of a plan, a key of a plan file): the error
    suggests the nearest one (difflib), as a typo ``alpah`` is the usual cause, and lists the rest."""
    import difflib

    options = list(dict.fromkeys(str(k) for k in known))
    if key in options:
        return key
    near = difflib.get_close_matches(str(key), options, n=1, cutoff=0.6)
    listed = ", ".join(options)
    raise UsageError(f"unknown {what} {key!r}", field=name,
                     fix=(f"did you mean {near[0]!r}? ({what}s: {listed})" if near else f"{what}s: {listed}"))


def output_file(path: str | os.PathLike, name: str = "--out") -> Path:
    """A file we can create or replace: not a folder, inside a folder we can write to."""
    p = Path(path).expanduser()
    if p.is_dir():
        raise UsageError("is a folder; a file name is needed here", file=str(p), field=name,
                         fix=f"give a file name inside it, e.g. {p}{os.sep}NAME")
    _writable_parent(p, name)
    return p


def output_folder(path: str | os.PathLike, name: str = "--out") -> Path:
    """A folder we can create or write into: not an existing file, under a writable folder."""
    p = Path(path).expanduser()
    if p.exists() and not p.is_dir():
        raise UsageError("is a file; a folder is needed here", file=str(p), field=name,
                         fix="give a new folder name, or move the file away")
    if p.is_dir():
        _probe(p, p, name)
    else:
        _writable_parent(p, name)
    return p


def number(name: str, value: float) -> float:
    """A number (text that reads as one is accepted), never NaN."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"must be a number, got {value!r}", field=name) from None
    if math.isnan(v):
        raise UsageError("must be a number, got NaN", field=name)
    return v


def _writable_parent(p: Path, name: str) -> None:
    """The nearest existing ancestor must be a folder we can create files in."""
    parent = p.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise UsageError(f"cannot create it: {parent} is a file, not a folder", file=str(p), field=name,
                         fix="choose a path inside a folder")
    _probe(parent, p, name)


def _probe(folder: Path, target: Path, name: str) -> None:
    """Create and delete a scratch file: os.access says yes to root on /proc and read-only mounts."""
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".eec-probe-"):
            pass
    except OSError:
        raise UsageError(f"cannot write in {folder}", file=str(target), field=name,
                         fix="choose a folder you can write to (e.g. under out/ or your home)") from None
