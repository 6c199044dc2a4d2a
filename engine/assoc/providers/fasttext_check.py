"""Check a fastText ``.bin`` file's structure before the fastText library reads it.

Why: the library trusts the file. A header followed by garbage makes its dictionary reader
loop forever at end of file (100% CPU until killed); a model cut short by an interrupted
download loads without complaint and gives wrong vectors (d = -0.553 instead of -0.519).
Walking the layout ourselves costs one pass over the dictionary (a few seconds for 2
million words) and never reads past the end: every count is checked against the bytes
that are there, and the size the header implies must equal the file size.

Layout (fastText 0.9, version 12): magic, version, 12 int32 args and a double; the
dictionary (size, nwords, nlabels, ntokens, prune-index size, then per entry a
NUL-terminated word, an int64 count and an int8 type); the prune index; then the input
and output matrices, each a quantised flag byte and, unquantised, int64 rows, int64
columns and rows × columns float32 values.
"""
from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

from ..errors import AssocError

MAGIC = 793712314
VERSIONS = (11, 12)
_ARGS = ("dim", "ws", "epoch", "minCount", "neg", "wordNgrams", "loss", "model", "bucket", "minn", "maxn",
         "lrUpdateRate")
MAX_WORD = 1 << 16  # bytes; real vocabularies stay far below


@dataclass(frozen=True)
class FastTextLayout:
    dim: int
    words: int
    labels: int
    bucket: int
    quantised: bool
    size: int  # bytes the structure occupies (the whole file when unquantised)


def check_fasttext_bin(path: str | Path) -> FastTextLayout:
    """The model's layout, or an AssocError naming the file and what does not add up."""
    p = Path(path)
    name = str(p)
    fix_download = "download the model again (the file is incomplete or damaged)"
    try:
        fh = open(p, "rb")
    except OSError as exc:
        raise AssocError(f"cannot read it ({(exc.strerror or 'error').lower()})", file=name) from None
    with fh:
        total = p.stat().st_size
        if total < 92:
            raise AssocError(f"not a fastText .bin model: only {total} bytes", file=name, fix=fix_download)
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            magic, version = struct.unpack_from("<ii", buf, 0)
            if magic != MAGIC:
                raise AssocError("not a fastText .bin model (wrong magic number)", file=name)
            if version not in VERSIONS:
                raise AssocError(f"unsupported fastText format version {version}", file=name,
                                 fix="save the model with fastText 0.9 (format version 12)")
            args = dict(zip(_ARGS, struct.unpack_from("<12i", buf, 8)))
            dim, bucket = args["dim"], args["bucket"]
            if not 0 < dim <= 100_000 or bucket < 0 or not 0 <= args["minn"] <= args["maxn"] <= 1000 \
                    or args["model"] not in (1, 2, 3):
                raise AssocError(f"damaged fastText header (dim={dim}, bucket={bucket}, minn={args['minn']}, "
                                 f"maxn={args['maxn']})", file=name, fix=fix_download)
            size, nwords, nlabels, ntokens, prune = struct.unpack_from("<iiiqq", buf, 64)
            if size < 0 or nwords < 0 or nlabels < 0 or size != nwords + nlabels or ntokens < 0 or prune < -1:
                raise AssocError(f"damaged fastText dictionary header (size={size}, words={nwords}, "
                                 f"labels={nlabels})", file=name, fix=fix_download)
            pos = 92
            if pos + 10 * size > total:
                raise AssocError(f"truncated: the dictionary alone needs at least {pos + 10 * size:,} bytes, "
                                 f"the file has {total:,}", file=name, fix=fix_download)
            for i in range(size):
                end = buf.find(b"\x00", pos, min(total, pos + MAX_WORD))
                if end < 0:
                    raise AssocError(f"damaged fastText dictionary: entry {i + 1:,} of {size:,} has no end "
                                     f"(at byte {pos:,} of {total:,})", file=name, fix=fix_download)
                pos = end + 1 + 9
                if pos > total:
                    raise AssocError(f"truncated inside the dictionary (entry {i + 1:,} of {size:,}); the file has "
                                     f"{total:,} bytes", file=name, fix=fix_download)
                if buf[pos - 1] not in (0, 1):
                    raise AssocError(f"damaged fastText dictionary: entry {i + 1:,} has type {buf[pos - 1]}",
                                     file=name, fix=fix_download)
            pos += 8 * max(prune, 0)
            quantised = _flag(buf, pos, total, name, "input matrix")
            if quantised:  # product-quantised (.ftz): the library checks its own sizes
                return FastTextLayout(dim, nwords, nlabels, bucket, True, total)
            pos, rows = _matrix(buf, pos + 1, total, name, dim, "input")
            if not nwords <= rows <= nwords + bucket:
                raise AssocError(f"damaged fastText model: the input matrix has {rows:,} rows for {nwords:,} words "
                                 f"and {bucket:,} buckets", file=name, fix=fix_download)
            if _flag(buf, pos, total, name, "output matrix"):
                return FastTextLayout(dim, nwords, nlabels, bucket, True, total)
            pos, _ = _matrix(buf, pos + 1, total, name, dim, "output")
    if pos != total:
        raise AssocError(f"{total - pos:,} extra bytes after the end of the model (its header describes {pos:,} bytes, "
                         f"the file has {total:,})", file=name, fix=fix_download)
    return FastTextLayout(dim, nwords, nlabels, bucket, False, pos)


def _flag(buf: mmap.mmap, pos: int, total: int, name: str, what: str) -> bool:
    if pos >= total:
        raise AssocError(f"truncated before the {what} (byte {pos:,}; the file has {total:,})", file=name,
                         fix="download the model again (the file is incomplete or damaged)")
    if buf[pos] not in (0, 1):
        raise AssocError(f"damaged fastText model: bad flag before the {what}", file=name,
                         fix="download the model again (the file is incomplete or damaged)")
    return bool(buf[pos])


def _matrix(buf: mmap.mmap, pos: int, total: int, name: str, dim: int, what: str) -> tuple[int, int]:
    """(position after the matrix, its rows); the bytes it needs must be there."""
    if pos + 16 > total:
        raise AssocError(f"truncated before the {what} matrix's size (the file has {total:,} bytes)", file=name,
                         fix="download the model again (the file is incomplete or damaged)")
    rows, cols = struct.unpack_from("<qq", buf, pos)
    if cols != dim or rows < 0:
        raise AssocError(f"damaged fastText model: the {what} matrix is {rows:,} × {cols:,}, dimension is {dim}",
                         file=name, fix="download the model again (the file is incomplete or damaged)")
    end = pos + 16 + 4 * rows * cols
    if end > total:
        raise AssocError(f"truncated: the header describes at least {end:,} bytes, the file has {total:,}",
                         file=name, fix="download the model again (the file is incomplete or damaged)")
    return end, rows
