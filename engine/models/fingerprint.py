"""Content fingerprints of model files and folders.

Why content (not path or mtime): the score cache and run manifests must recognise the
same model copied elsewhere and must notice a changed file under the same name. Large
files (multi-GB fastText .bin) get a "quick" digest of size + first and last 16 MiB —
stated in the digest prefix so nobody mistakes it for a full hash.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

QUICK_LIMIT = 512 * 1024 * 1024  # above this, hash head+tail+size instead of everything
_EDGE = 16 * 1024 * 1024
_memo: dict[tuple[str, int, int], str] = {}

# Files in a Hugging Face folder that can change a model's outputs.
_HF_SKIP = {"README.md", ".gitattributes"}


def file_sha256(path: str | Path) -> str:
    """Full sha256 (or `quick:` digest above QUICK_LIMIT), memoised by (path, size, mtime)."""
    path = Path(path)
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key in _memo:
        return _memo[key]
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        if st.st_size <= QUICK_LIMIT:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
            digest = h.hexdigest()
        else:
            h.update(str(st.st_size).encode())
            h.update(fh.read(_EDGE))
            fh.seek(st.st_size - _EDGE)
            h.update(fh.read(_EDGE))
            digest = "quick:" + h.hexdigest()
    _memo[key] = digest
    return digest


def folder_fingerprint(folder: str | Path) -> str:
    """sha256 over (relative path, file digest) of every file in a model folder."""
    folder = Path(folder)
    h = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name in _HF_SKIP or name.startswith("."):
                continue
            full = Path(root) / name
            rel = full.relative_to(folder).as_posix()
            h.update(rel.encode("utf-8"))
            h.update(file_sha256(full).encode())
    return h.hexdigest()
