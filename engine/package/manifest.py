"""The package manifest: what is inside, its sha256, and what made it.

Why strict: the manifest is the first thing import trusts, so it is validated field by
field (types, known keys, hex digests) before any hash is compared; a package from a newer
format is refused with a message that says so rather than half-read.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .errors import PackageError
from .layout import FORMAT, MANIFEST, check_corpus_id

KIND = "eec-studio corpus package"
TOP_KEYS = {"format", "kind", "app", "app_version", "created", "corpus", "files"}
CORPUS_KEYS = {"id", "name", "language", "sentences", "pairs"}
FILE_KEYS = {"sha256", "bytes"}
_HEX = re.compile(r"^[0-9a-f]{64}$")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class FileEntry:
    sha256: str
    bytes: int


@dataclass
class Manifest:
    corpus_id: str
    corpus_name: str
    language: str
    sentences: int
    pairs: int
    app_version: str
    created: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))
    files: dict[str, FileEntry] = field(default_factory=dict)
    app: str = "eec-studio"

    def add(self, name: str, data: bytes) -> None:
        self.files[name] = FileEntry(sha256(data), len(data))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "kind": KIND, "app": self.app, "app_version": self.app_version, "created": self.created,
            "corpus": {"id": self.corpus_id, "name": self.corpus_name, "language": self.language,
                       "sentences": self.sentences, "pairs": self.pairs},
            "files": {k: {"sha256": v.sha256, "bytes": v.bytes} for k, v in sorted(self.files.items())},
        }

    def to_bytes(self) -> bytes:
        return (json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def parse_manifest(raw: bytes, file: str) -> Manifest:
    """Validate and read manifest.json; every problem is one PackageError naming the field."""

    def bad(where: str, what: str) -> PackageError:
        return PackageError(file, f"manifest field {where}: {what}", member=MANIFEST,
                            fix="the package is damaged or was not made by EEC Studio; export it again")

    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise PackageError(file, f"manifest is not valid UTF-8 JSON ({exc.__class__.__name__})", member=MANIFEST,
                           fix="the package is damaged; export it again") from None
    if not isinstance(data, dict):
        raise bad("(top)", "expected a JSON object")
    unknown = sorted(set(data) - TOP_KEYS)
    missing = sorted(TOP_KEYS - set(data))
    if data.get("format") != FORMAT or isinstance(data.get("format"), bool):
        raise PackageError(file, f"package format {data.get('format')!r} is not supported (this version reads "
                           f"format {FORMAT})", member=MANIFEST, fix="update EEC Studio, or export with this version")
    if data.get("kind") != KIND:
        raise bad("kind", f"expected {KIND!r}")
    if unknown:
        raise bad(unknown[0], "unknown key")
    if missing:
        raise bad(missing[0], "missing")
    for key in ("app", "app_version", "created"):
        if not isinstance(data[key], str):
            raise bad(key, "expected a string")
    corpus = data["corpus"]
    if not isinstance(corpus, dict):
        raise bad("corpus", "expected an object")
    if set(corpus) != CORPUS_KEYS:
        odd = sorted(set(corpus) ^ CORPUS_KEYS)[0]
        raise bad(f"corpus.{odd}", "unknown key" if odd in corpus else "missing")
    for key in ("id", "name", "language"):
        if not isinstance(corpus[key], str):
            raise bad(f"corpus.{key}", "expected a string")
    for key in ("sentences", "pairs"):
        if not isinstance(corpus[key], int) or isinstance(corpus[key], bool) or corpus[key] < 0:
            raise bad(f"corpus.{key}", "expected a whole number ≥ 0")
    check_corpus_id(corpus["id"], file)
    files = data["files"]
    if not isinstance(files, dict) or not files:
        raise bad("files", "expected a non-empty object")
    entries: dict[str, FileEntry] = {}
    for name, entry in files.items():
        if not isinstance(entry, dict) or set(entry) != FILE_KEYS:
            raise bad(f"files[{name!r}]", 'expected {"sha256": ..., "bytes": ...}')
        digest, size = entry["sha256"], entry["bytes"]
        if not isinstance(digest, str) or not _HEX.match(digest):
            raise bad(f"files[{name!r}].sha256", "expected 64 lower-case hex digits")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise bad(f"files[{name!r}].bytes", "expected a whole number ≥ 0")
        entries[name] = FileEntry(digest, size)
    return Manifest(corpus_id=corpus["id"], corpus_name=corpus["name"], language=corpus["language"],
                    sentences=corpus["sentences"], pairs=corpus["pairs"], app_version=data["app_version"],
                    created=data["created"], files=entries, app=data["app"])
