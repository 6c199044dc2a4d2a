"""A corpus's checker and native-review status, kept between runs and keyed by content.

Why: `corpus list` (the first command a newcomer types) and the app's Corpora page show, for
every corpus, its size, the checker's error and warning counts and the native review with how
many reviewed items the corpus no longer generates. Finding those checks and realises every
sentence of every corpus: seconds of CPU per call for the 18 built-ins. The answer depends
only on the definition file, its review record, the code that checks and generates, and the
spelling dictionaries installed, so it is kept under the user's cache folder
(``default_cache_dir()/corpus-status``, one small JSON file per corpus file) with a key made of
all of them. A change to any of them — an edited corpus, a new review, an updated EEC Studio, a
dictionary installed — changes the key, and the corpus is checked again (once: the review
column reuses the sentences the check realised). A cache that cannot be read or written is
ignored; the answer is then computed, never wrong.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.common.user_dirs import default_cache_dir

FORMAT = 2  # bump when CorpusStatus changes shape
# the code whose behaviour the status depends on: the corpus engine (checker, grammar data,
# generation, pairs, reviews) and the common helpers it uses
_CODE_DIRS = (Path(__file__).resolve().parents[1], Path(__file__).resolve().parents[2] / "common")
# where Hunspell/Enchant/MeCab find dictionaries (a dictionary installed later changes W113/W114)
_DICTIONARY_DIRS = ("/usr/share/hunspell", "/usr/share/myspell", "/usr/share/myspell/dicts",
                    "/usr/local/share/hunspell", "/usr/share/enchant", "/usr/share/enchant-2",
                    "~/.config/enchant", "~/.local/share/enchant", "~/Library/Spelling")
_SPELLING_PACKAGES = ("enchant", "fugashi", "unidic_lite")


@dataclass(frozen=True)
class CorpusStatus:
    """What `corpus list` and the Corpora page show of one corpus."""

    id: str
    language: str
    name: str
    sentences: int
    pairs: int
    errors: int
    warnings: int
    review: str  # ReviewStatus.text(): 'not reviewed', or the summary with its interval and stale items
    labels: str = "-"  # the latest review's label errors (ReviewRecord.label_text()), '-' without a review

    def checker_text(self) -> str:
        """'ok', 'ok, 2 warning(s)', '3 error(s), 1 warning(s)'."""
        out = "ok" if not self.errors else f"{self.errors} error(s)"
        return out + (f", {self.warnings} warning(s)" if self.warnings else "")


def corpus_status(path: str | os.PathLike, *, refresh: bool = False) -> CorpusStatus:
    """The status of the corpus file at ``path``: from the cache when nothing it depends on has
    changed (``refresh``: compute it anyway, and keep the new answer). Raises what loading or
    checking the corpus raises (a broken file is never cached)."""
    status = corpus_statuses([path], refresh=refresh, jobs=1)[0]
    if isinstance(status, Exception):
        raise status
    return status


def corpus_statuses(paths: list[str | os.PathLike], *, refresh: bool = False,
                    jobs: int | None = None) -> list[CorpusStatus | Exception]:
    """The status of each corpus file, in order, or the exception loading or checking it raised (one
    broken user file must not hide the others: ``corpus list`` shows it in its row). Those not in the
    cache are computed in up to ``jobs`` processes (None: one per core), the cached ones read here.

    Why: on a first run — the first line of ``make run`` — every built-in corpus is checked, about
    10 s of CPU for the 21 built-ins; the corpora are independent, so the cores share them."""
    out: list[CorpusStatus | Exception | None] = [None] * len(paths)
    todo: list[tuple[int, Path, str]] = []
    for i, raw in enumerate(paths):
        path = Path(raw)
        try:
            key = status_key(path, path.read_bytes())
        except OSError as exc:
            out[i] = exc
            continue
        found = None if refresh else _read(_cache_file(path), key)
        if found is not None:
            out[i] = found
        else:
            todo.append((i, path, key))
    if todo:
        from engine.common.executor import local_executor, resolve_jobs

        with local_executor(min(resolve_jobs(jobs), len(todo))) as ex:
            computed = ex.map(_status_or_error, [path for _i, path, _key in todo])
        for (i, path, key), status in zip(todo, computed):
            out[i] = status
            if isinstance(status, CorpusStatus):
                _write(_cache_file(path), key, status)
    return out  # type: ignore[return-value]


def _status_or_error(path: Path) -> CorpusStatus | Exception:
    """A task of ``corpus_statuses``: the error is returned, not raised, so the other corpora go on."""
    try:
        return compute_status(path)
    except Exception as exc:  # noqa: BLE001 - shown in the corpus's row
        return exc


def compute_status(path: Path) -> CorpusStatus:
    """Check the corpus and read its review; the sentences are realised once for both."""
    from engine.corpus.check.checker import check_corpus
    from engine.corpus.definition.registry import load_corpus
    from engine.corpus.generate.compiled import CompiledCorpus
    from engine.corpus.translate.review_record import review_status

    corpus = load_corpus(path)
    cc = CompiledCorpus(corpus)
    report = check_corpus(corpus, cc, keep_sentences=True)
    review = review_status(corpus, compiled=cc)
    labels = review.record.label_text() if review.record is not None else "-"
    return CorpusStatus(corpus.id, corpus.language, corpus.name, report.sentences, report.pairs,
                        len(report.errors), len(report.warnings), review.text(), labels)


def status_key(path: Path, data: bytes) -> str:
    """sha256 of everything the status depends on: the file's bytes, its review record's bytes,
    the corpus engine's code and data, the spelling dictionaries on this machine."""
    from engine.corpus.translate.review_record import RECORD_SUFFIX

    h = hashlib.sha256()
    h.update(f"{FORMAT}\0{path.resolve()}\0".encode())
    h.update(data)
    record = path.with_name(path.stem + RECORD_SUFFIX)
    h.update(b"\0review\0" + (record.read_bytes() if record.is_file() else b"-"))
    h.update(b"\0" + code_fingerprint().encode() + b"\0" + dictionaries_fingerprint().encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sha256 of the corpus engine's files (code and grammar data; once per process, ~0.5 MB)."""
    h = hashlib.sha256()
    for root in _CODE_DIRS:
        for f in sorted(root.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def dictionaries_fingerprint() -> str:
    """Names, sizes and times of the dictionary files and spelling packages this machine has."""
    import importlib.util

    parts = []
    dirs = [Path(d).expanduser() for d in _DICTIONARY_DIRS]
    dirs += [Path(d) for d in os.environ.get("DICPATH", "").split(os.pathsep) if d]
    for d in dirs:
        if d.is_dir():
            for f in sorted(d.iterdir()):
                st = f.stat()
                parts.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
    for name in _SPELLING_PACKAGES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None and spec.origin else "-"
        parts.append(f"{name}:{origin}:{os.stat(origin).st_mtime_ns if origin != '-' else 0}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def cache_dir() -> Path:
    return default_cache_dir() / "corpus-status"


def _cache_file(path: Path) -> Path:
    """One file per corpus file (overwritten when the key changes, so the folder does not grow)."""
    return cache_dir() / (hashlib.sha1(str(path.resolve()).encode()).hexdigest() + ".json")


def _read(where: Path, key: str) -> CorpusStatus | None:
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
        return CorpusStatus(**data["status"]) if data.get("key") == key else None
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent, half-written by an older version, or not ours: compute again


def _write(where: Path, key: str, status: CorpusStatus) -> None:
    from engine.common.io import atomic_write_text

    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(where, json.dumps({"key": key, "status": asdict(status)}, ensure_ascii=False) + "\n")
    except OSError:
        pass  # a read-only cache folder costs the next call its speed, not its answer
