"""Is a weights file whole? GGUF and safetensors files say how long they must be; check before loading.

Why: an interrupted download leaves a file that starts exactly like the real one. transformers
then fails somewhere inside its reader — for a .gguf cut in half, while building the tokenizer
from the file's metadata, so the message blamed the tokenizer — and the user re-downloads the
wrong thing or gives up. Both formats declare where every tensor ends: a safetensors file is an
8-byte header length, a JSON header with each tensor's ``data_offsets``, then the data; a GGUF file
is a binary header (metadata and each tensor's type, shape and offset), padding to its alignment,
then the data. Reading only the headers (never the weights) tells the bytes the file must hold;
fewer is "truncated: N bytes, the file has M".
"""
from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import BinaryIO

from .errors import ModelError

MAX_HEADER = 100 * 1024 * 1024  # safetensors' own limit for the JSON header
FIX = "the file is incomplete (an interrupted download or copy?): download or copy it again"


def check_model_files(path: str | Path) -> Path:
    """Check a .gguf file, or every .safetensors file of a model folder; return ``path``.

    ModelError when a file is shorter than its header says (truncated) or its header cannot be
    read; files of other formats are left to their loaders."""
    p = Path(path)
    if p.is_file():
        files = [p]
    elif p.is_dir():
        files = sorted(p.glob("*.safetensors")) + sorted(p.glob("*.gguf"))
    else:
        return p
    for f in files:
        suffix = f.suffix.lower()
        if suffix == ".safetensors":
            _check(f, _safetensors_size)
        elif suffix == ".gguf":
            _check(f, _gguf_size)
    return p


def _check(path: Path, needed_size) -> None:
    have = path.stat().st_size
    with open(path, "rb") as fh:
        try:
            need = needed_size(fh, have)
        except _Short as exc:
            raise ModelError(str(path), f"truncated: its header runs past the end of the file ({exc.need:,} bytes "
                                        f"needed, the file has {have:,})", fix=FIX) from None
    if have < need:
        raise ModelError(str(path), f"truncated: its header promises {need:,} bytes, the file has {have:,} "
                                    f"({100 * have / need:.0f}%)", fix=FIX)


class _Short(Exception):
    def __init__(self, need: int) -> None:
        super().__init__(need)
        self.need = need


def _read(fh: BinaryIO, n: int) -> bytes:
    data = fh.read(n)
    if len(data) < n:
        raise _Short(fh.tell() - len(data) + n)
    return data


def _safetensors_size(fh: BinaryIO, have: int) -> int:
    (n,) = struct.unpack("<Q", _read(fh, 8))
    if n > MAX_HEADER:
        raise ModelError(fh.name, f"not a safetensors file (header length {n:,})", fix=FIX)
    try:
        header = json.loads(_read(fh, n))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelError(fh.name, "not a safetensors file (its header is not JSON)", fix=FIX) from None
    if not isinstance(header, dict):
        raise ModelError(fh.name, "not a safetensors file (its header is not a JSON object)", fix=FIX)
    end = 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        offsets = info.get("data_offsets") if isinstance(info, dict) else None
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(x, int) for x in offsets)):
            raise ModelError(fh.name, f"not a safetensors file (tensor {name!r} has no data_offsets)", fix=FIX)
        end = max(end, offsets[1])
    return 8 + n + end


# GGUF metadata value types: fixed sizes; 8 = string, 9 = array
_GGUF_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def _gguf_size(fh: BinaryIO, have: int) -> int:
    if _read(fh, 4) != b"GGUF":
        raise ModelError(fh.name, "not a GGUF file (it does not start with 'GGUF')", fix=FIX)
    version, n_tensors, n_kv = struct.unpack("<IQQ", _read(fh, 20))
    if version < 2:
        return 0  # GGUF v1 (32-bit counts): left to the loader
    if n_tensors > have or n_kv > have:  # each needs bytes of its own: a count beyond the file size is garbage
        raise _Short(max(n_tensors, n_kv))
    alignment = 32
    for _ in range(n_kv):
        key = _gguf_string(fh, have)
        (vtype,) = struct.unpack("<I", _read(fh, 4))
        value = _gguf_value(fh, vtype, have)
        if key == "general.alignment" and isinstance(value, int) and value > 0:
            alignment = value
    end = 0
    for _ in range(n_tensors):
        _gguf_string(fh, have)
        (n_dims,) = struct.unpack("<I", _read(fh, 4))
        if n_dims > 8:
            raise ModelError(fh.name, f"not a readable GGUF file (a tensor with {n_dims} dimensions)", fix=FIX)
        dims = struct.unpack(f"<{n_dims}Q", _read(fh, 8 * n_dims))
        ttype, offset = struct.unpack("<IQ", _read(fh, 12))
        end = max(end, offset + _tensor_bytes(ttype, dims))
    start = -(-fh.tell() // alignment) * alignment
    return start + end


def _gguf_string(fh: BinaryIO, have: int) -> str:
    (n,) = struct.unpack("<Q", _read(fh, 8))
    if n > have:
        raise _Short(fh.tell() + n)
    return _read(fh, n).decode("utf-8", "replace")


def _gguf_value(fh: BinaryIO, vtype: int, have: int) -> object:
    if vtype in _GGUF_FIXED:
        size = _GGUF_FIXED[vtype]
        raw = _read(fh, size)
        return int.from_bytes(raw, "little") if vtype in (4, 10) else None
    if vtype == 8:
        _gguf_string(fh, have)
        return None
    if vtype == 9:
        (itype,) = struct.unpack("<I", _read(fh, 4))
        (count,) = struct.unpack("<Q", _read(fh, 8))
        if count > have:
            raise _Short(fh.tell() + count)
        if itype in _GGUF_FIXED:
            _read_skip(fh, count * _GGUF_FIXED[itype], have)
        else:
            for _ in range(count):
                _gguf_value(fh, itype, have)
        return None
    raise ModelError(fh.name, f"not a readable GGUF file (metadata value type {vtype})", fix=FIX)


def _read_skip(fh: BinaryIO, n: int, have: int) -> None:
    if fh.tell() + n > have:
        raise _Short(fh.tell() + n)
    fh.seek(n, 1)


def _tensor_bytes(ttype: int, dims: tuple[int, ...]) -> int:
    """Bytes of one tensor's data (0 for a type this gguf package does not know: not checked)."""
    try:
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

        block, size = GGML_QUANT_SIZES[GGMLQuantizationType(ttype)]
    except (ImportError, ValueError, KeyError):
        return 0
    n = 1
    for d in dims:
        n *= d
    return n // block * size
