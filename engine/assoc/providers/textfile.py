"""word2vec / GloVe / fastText ``.vec`` files, converted once to a memory-mapped cache.

Why convert: parsing a 7 GB text file into Python lists would need tens of GB and
minutes on every run. The file is streamed line by line straight into a ``.npy``
memory map (float32) plus a one-word-per-line vocabulary, once; later runs map the
cache and read only the rows a test needs. The cache sits next to the file when that
folder is writable, else under ``~/.cache/eec-studio/vectors``; it is rebuilt when the
source's size or modification time changes.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path
from typing import IO

import numpy as np

from ..errors import AssocError
from .static import StaticVectors, load_npy

CACHE_VERSION = 1


def _open(path: Path) -> IO[bytes]:
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def _cache_dir(path: Path, cache_root: Path | None) -> Path:
    if cache_root is None:
        sibling = path.parent / (path.name + ".eec-cache")
        if sibling.exists() or os.access(path.parent, os.W_OK):
            return sibling
        cache_root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "eec-studio" / "vectors"
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:16]
    return cache_root / f"{path.name}-{digest}"


def load_text_vectors(path: str | Path, *, lowercase: bool = False, cache_root: str | Path | None = None,
                      name: str | None = None) -> StaticVectors:
    """Open a word2vec text (with "N D" header), GloVe text (no header) or word2vec binary file."""
    p = Path(path)
    if not p.exists():
        raise AssocError("vector file not found", file=str(p))
    cache = _cache_dir(p, Path(cache_root) if cache_root else None)
    stat = p.stat()
    meta_path = cache / "meta.json"
    want = {"version": CACHE_VERSION, "size": stat.st_size, "mtime": int(stat.st_mtime)}
    fresh = False
    if meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text())
            fresh = all(meta.get(k) == v for k, v in want.items())
        except (OSError, ValueError):
            fresh = False
    if not fresh:
        cache.mkdir(parents=True, exist_ok=True)
        if _is_word2vec_binary(p):
            n, d = _convert_w2v_binary(p, cache)
        else:
            n, d = _convert_text(p, cache)
        meta_path.write_text(json.dumps({**want, "rows": n, "dim": d, "source": str(p)}))
    return load_npy(cache / "matrix.npy", cache / "vocab.txt", lowercase=lowercase, name=name or p.name)


def _header(line: bytes) -> tuple[int, int] | None:
    parts = line.split()
    if len(parts) == 2 and all(x.isdigit() for x in parts):
        return int(parts[0]), int(parts[1])
    return None


def _is_word2vec_binary(p: Path) -> bool:
    if p.suffix not in (".bin", ".gz") or p.name.endswith(".txt.gz") or p.name.endswith(".vec.gz"):
        return False
    with _open(p) as fh:
        head = fh.readline(100)
        if _header(head) is None:
            return False
        rest = fh.read(4096)
    return b"\x00" in rest or any(b > 127 for b in rest[:64]) and not _looks_utf8_text(rest)


def _looks_utf8_text(b: bytes) -> bool:
    try:
        b.decode("utf-8")
        return b.count(b" ") > 10
    except UnicodeDecodeError:
        return False


def _count_lines(p: Path) -> int:
    n = 0
    with _open(p) as fh:
        for block in iter(lambda: fh.read(1 << 24), b""):
            n += block.count(b"\n")
    return n


def _convert_text(p: Path, cache: Path) -> tuple[int, int]:
    with _open(p) as fh:
        first = fh.readline()
    hdr = _header(first)
    if hdr is not None:
        n, d = hdr
    else:  # GloVe: no header; the first line gives the dimension, a pass counts the rows
        d = len(first.rstrip().split(b" ")) - 1
        n = _count_lines(p) + (0 if first.endswith(b"\n") else 1)
    if d <= 0:
        raise AssocError("cannot read the vector dimension from the first line", file=str(p),
                         fix="a text vector file has 'word v1 v2 ...' per line, optionally after an 'N D' header")
    matrix = np.lib.format.open_memmap(cache / "matrix.npy.part", mode="w+", dtype=np.float32, shape=(n, d))
    row = 0
    with _open(p) as fh, open(cache / "vocab.txt.part", "w", encoding="utf-8") as vocab:
        if hdr is not None:
            fh.readline()
        for lineno, raw in enumerate(fh, start=2 if hdr else 1):
            raw = raw.rstrip(b"\r\n")
            if not raw.strip():
                continue
            parts = raw.rsplit(b" ", d)
            if len(parts) != d + 1:
                parts = raw.rstrip().rsplit(b" ", d)
            if len(parts) != d + 1:
                raise AssocError(f"line {lineno} has {len(parts) - 1} numbers, expected {d}", file=str(p))
            if row >= n:
                raise AssocError(f"more rows than the header's {n}", file=str(p), fix="correct the 'N D' header")
            matrix[row] = np.array(parts[1:], dtype=np.float32)
            vocab.write(parts[0].decode("utf-8", errors="replace").replace("\n", " ") + "\n")
            row += 1
    matrix.flush()
    del matrix
    if row != n:
        _shrink(cache, row, d)
    os.replace(cache / "matrix.npy.part", cache / "matrix.npy")
    os.replace(cache / "vocab.txt.part", cache / "vocab.txt")
    return row, d


def _shrink(cache: Path, rows: int, d: int) -> None:
    src = np.load(cache / "matrix.npy.part", mmap_mode="r")
    dst = np.lib.format.open_memmap(cache / "matrix.npy.tmp", mode="w+", dtype=np.float32, shape=(rows, d))
    for s in range(0, rows, 1 << 16):
        dst[s:s + (1 << 16)] = src[s:s + (1 << 16)]
    dst.flush()
    del dst, src
    os.replace(cache / "matrix.npy.tmp", cache / "matrix.npy.part")


def _convert_w2v_binary(p: Path, cache: Path) -> tuple[int, int]:
    with _open(p) as fh:
        n, d = _header(fh.readline()) or (0, 0)
        matrix = np.lib.format.open_memmap(cache / "matrix.npy.part", mode="w+", dtype=np.float32, shape=(n, d))
        width = 4 * d
        with open(cache / "vocab.txt.part", "w", encoding="utf-8") as vocab:
            for row in range(n):
                word = bytearray()
                while True:
                    ch = fh.read(1)
                    if not ch:
                        raise AssocError(f"file ends at row {row} of {n}", file=str(p))
                    if ch == b" ":
                        break
                    if ch != b"\n":
                        word += ch
                buf = fh.read(width)
                if len(buf) != width:
                    raise AssocError(f"file ends inside row {row}", file=str(p))
                matrix[row] = np.frombuffer(buf, dtype="<f4")
                vocab.write(word.decode("utf-8", errors="replace") + "\n")
    matrix.flush()
    del matrix
    os.replace(cache / "matrix.npy.part", cache / "matrix.npy")
    os.replace(cache / "vocab.txt.part", cache / "vocab.txt")
    return n, d
