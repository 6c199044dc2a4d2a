"""word2vec / GloVe / fastText ``.vec`` files, converted once to a memory-mapped cache.

Why convert: parsing a 7 GB text file into Python lists would need tens of GB and
minutes on every run. The file is streamed line by line straight into a ``.npy``
memory map (float32) plus a one-word-per-line vocabulary, once; later runs map the
cache and read only the rows a test needs. The cache lives in the user cache folder
(``$EEC_STUDIO_CACHE`` or ``$XDG_CACHE_HOME/eec-studio``, then ``vectors/``), never beside the
input; it is rebuilt when the source's content changes: the key is its size, its modification time in
nanoseconds and a digest of its content (the whole file up to 8 MiB; beyond, its first and last MiB
and 64 blocks spread over it — a 7 GB file is not read whole on every run). Size and mtime alone
served a replaced file of the same size written in the same second from the old cache.

Why validate while converting: a header that promises more rows than the file holds (an
interrupted download), a row with a missing or non-numeric value, or NaN/inf in a vector
would otherwise give a different effect size without a word. Each is an AssocError naming
the file, the line and both counts; a failed conversion leaves no cache folder behind.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import zlib
from pathlib import Path
from typing import IO

import numpy as np

from ..errors import AssocError
from .static import StaticVectors, load_npy

CACHE_VERSION = 3
SMALL_FILE = 8 << 20  # hashed whole below this size
SAMPLE_BLOCKS = 64
MAX_DIM = 100_000
MAX_WORD = 1 << 12  # bytes of one word in a word2vec binary
MAX_LINE = 1 << 22  # bytes of the first line of a text file (300 numbers take about 3 KB)
GZIP_RATIO = 50  # a gzip file inflates at most this much for float text: bounds a header's promise


def _open(path: Path) -> IO[bytes]:
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def vectors_cache_root() -> Path:
    """The user cache folder's ``vectors/`` (the audit's score cache sits beside it)."""
    from engine.common.user_dirs import default_cache_dir

    return default_cache_dir() / "vectors"


def _cache_dir(path: Path, cache_root: Path | None) -> Path:
    if cache_root is None:
        cache_root = vectors_cache_root()
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:16]
    return cache_root / f"{path.name}-{digest}"


def content_digest(path: Path) -> str:
    """A fast digest of the file's content (whole below 8 MiB; else head, tail and sampled blocks)."""
    h = hashlib.blake2b(digest_size=16)
    size = path.stat().st_size
    with open(path, "rb") as fh:
        if size <= SMALL_FILE:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        else:
            for offset in [0, size - (1 << 20)] + [size * i // SAMPLE_BLOCKS for i in range(1, SAMPLE_BLOCKS)]:
                fh.seek(offset)
                h.update(fh.read(1 << 20 if offset in (0, size - (1 << 20)) else 4096))
    return h.hexdigest()


def load_text_vectors(path: str | Path, *, lowercase: bool = False, cache_root: str | Path | None = None,
                      name: str | None = None) -> StaticVectors:
    """Open a word2vec text (with "N D" header), GloVe text (no header) or word2vec binary file."""
    p = Path(path)
    if not p.exists():
        raise AssocError("vector file not found", file=str(p))
    cache = _cache_dir(p, Path(cache_root) if cache_root else None)
    stat = p.stat()
    meta_path = cache / "meta.json"
    if p.is_dir():
        raise AssocError("is a folder, not a vector file", file=str(p), fix="give a .vec/.txt/.bin file")
    want = {"version": CACHE_VERSION, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "content": content_digest(p)}
    fresh = False
    if meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text())
            fresh = all(meta.get(k) == v for k, v in want.items())
        except (OSError, ValueError):
            fresh = False
    if not fresh:
        existed = cache.exists()
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AssocError(f"cannot create the vector cache {cache} ({(exc.strerror or 'error').lower()})",
                             file=str(p), fix="set EEC_STUDIO_CACHE to a folder you can write to") from None
        try:
            if _is_word2vec_binary(p):
                n, d = _convert_w2v_binary(p, cache)
            else:
                n, d = _convert_text(p, cache)
        except (OSError, EOFError, zlib.error) as exc:  # a damaged .gz, a read error
            _discard(cache, existed)
            raise AssocError(f"cannot read it ({_reason(exc)})", file=str(p),
                             fix="check the file (download it again if it is damaged)") from None
        except BaseException:
            _discard(cache, existed)
            raise
        meta_path.write_text(json.dumps({**want, "rows": n, "dim": d, "source": str(p)}))
    return load_npy(cache / "matrix.npy", cache / "vocab.txt", lowercase=lowercase, name=name or p.name)


def _discard(cache: Path, existed: bool) -> None:
    """Remove what a failed conversion wrote (the whole folder when it made it)."""
    if not existed:
        shutil.rmtree(cache, ignore_errors=True)
        return
    for part in cache.glob("*.part"):
        part.unlink(missing_ok=True)
    for tmp in cache.glob("*.tmp"):
        tmp.unlink(missing_ok=True)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = str(exc) or type(exc).__name__
    return "not a valid gzip file" if "gzip" in text.lower() or isinstance(exc, (EOFError, zlib.error)) else text


def _check_header(p: Path, n: int, d: int, min_row_bytes: int) -> None:
    """The header's promise must fit in the file: a truncated file is refused before reading it."""
    name = str(p)
    if n < 1 or not 0 < d <= MAX_DIM:
        raise AssocError(f"header says {n:,} rows of {d:,} dimensions", file=name, line=1,
                         fix="the first line is 'ROWS DIMENSIONS' (e.g. '2000000 300')")
    size = p.stat().st_size
    if p.suffix == ".gz":
        if n * min_row_bytes > GZIP_RATIO * size:
            raise AssocError(f"header promises {n:,} rows of {d:,} numbers, far more than {size:,} compressed "
                             f"bytes can hold", file=name, line=1, fix="download the file again, or fix the header")
        return
    if n * min_row_bytes > size:
        raise AssocError(f"truncated: the header's {n:,} rows × {d:,} dimensions need at least "
                         f"{n * min_row_bytes:,} bytes, the file has {size:,}", file=name,
                         fix="download the file again (it is incomplete)")


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


def _second_line(p: Path) -> bytes:
    with _open(p) as fh:
        fh.readline(MAX_LINE)
        return fh.readline(MAX_LINE)


class _Seen:
    """Words already read, to refuse a duplicate with both lines (the lookup would take the first
    row silently, so the second would never be used)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.first: dict[str, int] = {}

    def add(self, word: str, where: int, unit: str = "line") -> None:
        before = self.first.setdefault(word, where)
        if before != where:
            raise AssocError(f"the word {word[:40]!r} occurs twice ({unit}s {before:,} and {where:,})",
                             file=str(self.path), line=where if unit == "line" else None,
                             fix="remove one of the two rows (which vector is meant cannot be guessed)")


def _convert_text(p: Path, cache: Path) -> tuple[int, int]:
    with _open(p) as fh:
        first = fh.readline(MAX_LINE)
    hdr = _header(first)
    if hdr is not None:
        n, d = hdr
        _check_header(p, n, d, 2 * d + 2)  # 'w' + d × ' 0' + newline
    else:  # GloVe: no header; the first line gives the dimension, a pass counts the rows
        d = len(first.rstrip().split(b" ")) - 1
        if not 0 < d <= MAX_DIM or (len(first) == MAX_LINE and not first.endswith(b"\n")):
            raise AssocError("cannot read the vector dimension from the first line", file=str(p), line=1,
                             fix="a text vector file has 'word v1 v2 ...' per line, optionally after an 'N D' header")
        second = _second_line(p)
        d2 = len(second.rstrip().split(b" ")) - 1 if second.strip() else d
        if d2 != d:
            raise AssocError(f"the first row has {d} numbers, the second {d2}: every row must have the same count",
                             file=str(p), line=1 if d2 > d else 2,
                             fix="repair the row with the missing (or extra) value; every later row would be read "
                                 "with the first row's count")
        n = _count_lines(p) + (0 if first.endswith(b"\n") else 1)
    matrix = np.lib.format.open_memmap(cache / "matrix.npy.part", mode="w+", dtype=np.float32, shape=(n, d))
    row = 0
    seen = _Seen(p)
    with _open(p) as fh, open(cache / "vocab.txt.part", "w", encoding="utf-8") as vocab:
        if hdr is not None:
            fh.readline()
        for lineno, raw in enumerate(fh, start=2 if hdr else 1):
            if not raw.endswith(b"\n") and raw.strip():  # '0.1234' cut to '0.12' would still parse
                raise AssocError("the last line has no line end: the file may be cut short", file=str(p),
                                 line=lineno, fix="download the file again, or end the file with a newline if it "
                                                  "is complete")
            raw = raw.rstrip(b"\r\n")
            if not raw.strip():
                continue
            parts = raw.rsplit(b" ", d)
            if len(parts) != d + 1:
                parts = raw.rstrip().rsplit(b" ", d)
            if len(parts) != d + 1:
                raise AssocError(f"{len(parts) - 1} numbers, expected {d}", file=str(p),
                                 line=lineno, fix="every line is a word and then exactly the same count of numbers")
            if row >= n:
                raise AssocError(f"more rows than the header's {n:,}", file=str(p), line=lineno,
                                 fix="correct the 'N D' header")
            matrix[row] = _floats(parts[1:], p, lineno)
            word = parts[0].decode("utf-8", errors="replace").replace("\n", " ")
            seen.add(word, lineno)
            vocab.write(word + "\n")
            row += 1
    matrix.flush()
    del matrix
    if row == 0:
        raise AssocError("no vectors in the file", file=str(p), fix="give a file with 'word v1 v2 ...' lines")
    if hdr is not None and row != n:
        raise AssocError(f"truncated: the header promises {n:,} rows, the file has {row:,}", file=str(p),
                         fix="download the file again (it is incomplete), or correct the 'N D' header")
    if row != n:
        _shrink(cache, row, d)
    os.replace(cache / "matrix.npy.part", cache / "matrix.npy")
    os.replace(cache / "vocab.txt.part", cache / "vocab.txt")
    return row, d


def _floats(cells: list[bytes], p: Path, lineno: int) -> np.ndarray:
    """One row of finite numbers; anything else names the line (a NaN vector poisons every cosine)."""
    try:
        row = np.array(cells, dtype=np.float64)
    except ValueError:
        bad = next(c for c in cells if not _is_float(c))
        raise AssocError(f"not a number: {bad[:40].decode('utf-8', errors='replace')!r}", file=str(p), line=lineno,
                         fix="every value after the word must be a number") from None
    if not np.isfinite(row).all() or (np.abs(row) > np.finfo(np.float32).max).any():
        raise AssocError("a value is NaN, infinite or beyond float32", file=str(p), line=lineno,
                         fix="re-export the vectors; cosine similarity needs finite numbers")
    return row.astype(np.float32)


def _is_float(b: bytes) -> bool:
    try:
        float(b)
        return True
    except ValueError:
        return False


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
        _check_header(p, n, d, 4 * d + 2)  # one-byte word, space, d float32
        matrix = np.lib.format.open_memmap(cache / "matrix.npy.part", mode="w+", dtype=np.float32, shape=(n, d))
        width = 4 * d
        seen = _Seen(p)
        with open(cache / "vocab.txt.part", "w", encoding="utf-8") as vocab:
            for row in range(n):
                word = bytearray()
                while True:
                    ch = fh.read(1)
                    if not ch:
                        raise AssocError(f"truncated: the file ends at row {row + 1:,} of {n:,}", file=str(p),
                                         fix="download the file again (it is incomplete)")
                    if ch == b" ":
                        break
                    if ch != b"\n":
                        word += ch
                    if len(word) > MAX_WORD:
                        raise AssocError(f"row {row + 1:,}: a word longer than {MAX_WORD:,} bytes", file=str(p),
                                         fix="is this a word2vec binary file? (the header line, then word, "
                                             "space and float32 values per row)")
                buf = fh.read(width)
                if len(buf) != width:
                    raise AssocError(f"truncated: the file ends inside row {row + 1:,} of {n:,}", file=str(p),
                                     fix="download the file again (it is incomplete)")
                vec = np.frombuffer(buf, dtype="<f4")
                if not np.isfinite(vec).all():
                    raise AssocError(f"row {row + 1:,} ({word[:40].decode('utf-8', errors='replace')!r}) holds NaN "
                                     f"or infinite values", file=str(p), fix="re-export the vectors")
                matrix[row] = vec
                text = word.decode("utf-8", errors="replace")
                seen.add(text, row + 1, unit="row")
                vocab.write(text + "\n")
            rest = fh.read(1 << 16).strip(b"\n")
            if rest:
                raise AssocError(f"the header says {n:,} rows, but the file goes on after row {n:,}: it holds more "
                                 f"rows than declared", file=str(p), line=1,
                                 fix="correct the 'N D' header (the rows beyond it would be ignored)")
    matrix.flush()
    del matrix
    os.replace(cache / "matrix.npy.part", cache / "matrix.npy")
    os.replace(cache / "vocab.txt.part", cache / "vocab.txt")
    return n, d
