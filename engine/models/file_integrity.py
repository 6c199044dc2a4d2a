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
#: for sizes no download can explain: the header was damaged or made by hand
IMPOSSIBLE_FIX = ("the file's header describes no possible model (damaged or altered, not an interrupted "
                  "download): get the model again from its source, and do not load files you cannot trust")
#: no model file is this big (16 TiB): a larger declared size or offset is impossible, not truncated
MAX_PLAUSIBLE_BYTES = 1 << 44
MAX_COUNT = 1 << 24  # tensors or metadata entries of one GGUF file (real files: hundreds)
MAX_NESTING = 4  # GGUF metadata arrays of arrays (real files: 1)
#: bytes per element of the safetensors dtypes
SAFETENSORS_DTYPES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2,
                      "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
_FLOAT_DTYPES = {"F16": "float16", "BF16": "bfloat16", "F32": "float32", "F64": "float64"}


def check_model_files(path: str | Path) -> Path:
    """Check a .gguf file, or every .safetensors file of a model folder; return ``path``.

    ModelError when a file is shorter than its header says (truncated), when its header describes
    something no file can be (impossible sizes, nesting, types, tensors that do not tile the data),
    or when its weights' types contradict the folder's config.json; files of other formats are left
    to their loaders."""
    p = Path(path)
    if p.is_file():
        files = [p]
    elif p.is_dir():
        files = sorted(p.glob("*.safetensors")) + sorted(p.glob("*.gguf"))
    else:
        return p
    dtypes: dict[str, str] = {}
    for f in files:
        suffix = f.suffix.lower()
        if suffix == ".safetensors":
            dtypes.update(_check(f, _safetensors_size))
        elif suffix == ".gguf":
            _check(f, _gguf_size)
    if p.is_dir() and dtypes:
        check_dtypes_against_config(p, dtypes)
    return p


def _check(path: Path, needed_size) -> dict[str, str]:
    have = path.stat().st_size
    with open(path, "rb") as fh:
        try:
            need, extra = needed_size(fh, have)
        except _Short as exc:
            raise ModelError(str(path), f"truncated: its header runs past the end of the file ({exc.need:,} bytes "
                                        f"needed, the file has {have:,})", fix=FIX) from None
        except RecursionError:
            raise ModelError(str(path), "impossible header: nested deeper than any model file",
                             fix=IMPOSSIBLE_FIX) from None
    if have < need:
        raise ModelError(str(path), f"truncated: its header promises {need:,} bytes, the file has {have:,} "
                                    f"({100 * have / need:.0f}%)", fix=FIX)
    return extra


class _Short(Exception):
    def __init__(self, need: int) -> None:
        super().__init__(need)
        self.need = need


def _impossible(fh: BinaryIO, what: str) -> ModelError:
    return ModelError(fh.name, f"impossible header: {what}", fix=IMPOSSIBLE_FIX)


def _read(fh: BinaryIO, n: int) -> bytes:
    data = fh.read(n)
    if len(data) < n:
        raise _Short(fh.tell() - len(data) + n)
    return data


def _not_safetensors(fh: BinaryIO, head: bytes) -> ModelError:
    """What a file named .safetensors is when its first 8 bytes are no header length."""
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return ModelError(fh.name, "a Python pickle named .safetensors, not a safetensors file",
                          fix="a pickle runs code when loaded: get the model's real .safetensors file from its "
                              "source (or rename a trusted pytorch_model.bin back and pass --allow-pickle)")
    if head[:4] == b"PK\x03\x04":
        return ModelError(fh.name, "a zip archive (a PyTorch .bin/.pt file?) named .safetensors, not a safetensors file",
                          fix="rename it to pytorch_model.bin if it is one, or get the real .safetensors file")
    if head.lstrip()[:1] in (b"<", b"{"):
        return ModelError(fh.name, "a text file (an HTML error page or JSON?) named .safetensors, not weights",
                          fix=FIX)
    n = int.from_bytes(head, "little")
    return ModelError(fh.name, f"not a safetensors file (header length {n:,}, over safetensors' "
                               f"{MAX_HEADER:,}-byte limit)", fix=IMPOSSIBLE_FIX)


def _safetensors_size(fh: BinaryIO, have: int) -> tuple[int, dict[str, str]]:
    head = _read(fh, 8)
    (n,) = struct.unpack("<Q", head)
    if n > MAX_HEADER:
        raise _not_safetensors(fh, head)
    try:
        header = json.loads(_read(fh, n))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelError(fh.name, "not a safetensors file (its header is not JSON)", fix=FIX) from None
    if not isinstance(header, dict):
        raise ModelError(fh.name, "not a safetensors file (its header is not a JSON object)", fix=IMPOSSIBLE_FIX)
    spans, dtypes = [], {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        offsets = info.get("data_offsets") if isinstance(info, dict) else None
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(x, int) for x in offsets)):
            raise ModelError(fh.name, f"not a safetensors file (tensor {name!r} has no data_offsets)", fix=IMPOSSIBLE_FIX)
        spans.append((offsets[0], offsets[1], name))
        dtypes[name] = _safetensors_tensor(fh, name, info, offsets)
    spans.sort()
    end = 0
    for begin, stop, name in spans:  # safetensors' data is the tensors back to back, in offset order
        if begin != end:
            raise _impossible(fh, f"tensor {name!r} starts at byte {begin:,} of the data, the previous one ends at "
                                  f"{end:,} (the tensors must lie back to back)")
        end = stop
    return 8 + n + end, dtypes


def _safetensors_tensor(fh: BinaryIO, name: str, info: dict, offsets: list[int]) -> str:
    begin, stop = offsets
    if not 0 <= begin <= stop or stop > MAX_PLAUSIBLE_BYTES:
        raise _impossible(fh, f"tensor {name!r} has data_offsets {offsets} (no file holds that)")
    dtype, shape = info.get("dtype"), info.get("shape")
    if dtype not in SAFETENSORS_DTYPES:
        raise _impossible(fh, f"tensor {name!r} has dtype {dtype!r}, not one of {', '.join(SAFETENSORS_DTYPES)}")
    if not (isinstance(shape, list) and len(shape) <= 16
            and all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= MAX_PLAUSIBLE_BYTES for d in shape)):
        raise _impossible(fh, f"tensor {name!r} has shape {str(shape)[:80]}")
    size = SAFETENSORS_DTYPES[dtype]
    for d in shape:
        size *= d
    if size != stop - begin:
        raise _impossible(fh, f"tensor {name!r} is {dtype} of shape {shape}: {size:,} bytes, but its data_offsets "
                              f"hold {stop - begin:,} (its type or shape was changed?)")
    return dtype


def check_dtypes_against_config(folder: Path, dtypes: dict[str, str]) -> None:
    """Weights whose stored types contradict the model: an integer type where a weight must be a
    float (F32 retyped to I32 keeps every byte but changes every score), or one float type among
    weights of the type config.json declares. A quantised model (``quantization_config``) is left
    to its loader."""
    config = read_config(folder)
    if config is None or config.get("quantization_config") or config.get("quantization"):
        return
    weights = {k: v for k, v in dtypes.items() if k.endswith((".weight", ".bias")) or k in ("weight", "bias")}
    for name, dtype in weights.items():
        if dtype not in _FLOAT_DTYPES and dtype not in ("F8_E5M2", "F8_E4M3"):
            raise ModelError(str(folder), f"weight {name!r} is stored as {dtype}, an integer type: a model's weights "
                                          "are floating-point numbers (the file was altered?)", fix=IMPOSSIBLE_FIX)
    declared = config.get("torch_dtype") or config.get("dtype")
    matching = [n for n, d in weights.items() if _FLOAT_DTYPES.get(d) == declared]
    other = [n for n, d in weights.items() if d in _FLOAT_DTYPES and _FLOAT_DTYPES[d] != declared]
    if isinstance(declared, str) and matching and other:  # mixed: some weights retyped
        name = other[0]
        raise ModelError(str(folder), f"weight {name!r} is stored as {weights[name]}, but config.json declares "
                                      f"{declared} and {len(matching):,} other weights are {declared}"
                                      + (f" ({len(other) - 1:,} more like it)" if len(other) > 1 else ""),
                         fix=IMPOSSIBLE_FIX)


def read_config(folder: Path) -> dict | None:
    """A model folder's config.json as a dict (None when absent); a ModelError naming config.json when
    it cannot be read — before a loader blames the tokenizer for it."""
    path = folder / "config.json"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ModelError(str(path), f"cannot read it ({(exc.strerror or str(exc)).lower()})") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ModelError(str(path), "starts with a byte-order mark (BOM), which the model loader cannot read",
                         fix="save config.json as UTF-8 without a BOM (most editors: 'UTF-8', not 'UTF-8 with BOM')")
    try:
        config = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ModelError(str(path), f"not valid JSON ({getattr(exc, 'msg', type(exc).__name__)})",
                         fix="restore the model's config.json") from None
    if not isinstance(config, dict):
        raise ModelError(str(path), "not a JSON object", fix="restore the model's config.json")
    return config


# GGUF metadata value types: fixed sizes; 8 = string, 9 = array
_GGUF_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def _gguf_size(fh: BinaryIO, have: int) -> tuple[int, dict[str, str]]:
    if _read(fh, 4) != b"GGUF":
        raise ModelError(fh.name, "not a GGUF file (it does not start with 'GGUF')", fix=FIX)
    version, n_tensors, n_kv = struct.unpack("<IQQ", _read(fh, 20))
    if version < 2:
        return 0, {}  # GGUF v1 (32-bit counts): left to the loader
    if n_tensors > MAX_COUNT or n_kv > MAX_COUNT:
        raise _impossible(fh, f"{n_tensors:,} tensors and {n_kv:,} metadata entries (real files have hundreds)")
    if n_tensors > have or n_kv > have:  # each needs bytes of its own: a count beyond the file size is cut short
        raise _Short(max(n_tensors, n_kv))
    alignment = 32
    for _ in range(n_kv):
        key = _gguf_string(fh, have)
        (vtype,) = struct.unpack("<I", _read(fh, 4))
        value = _gguf_value(fh, vtype, have)
        if key == "general.alignment" and isinstance(value, int):
            if not 0 < value <= 1 << 20 or value & (value - 1):
                raise _impossible(fh, f"general.alignment = {value:,} (a power of two up to 1 MiB)")
            alignment = value
    tensors = [_gguf_tensor(fh, have) for _ in range(n_tensors)]
    start = -(-fh.tell() // alignment) * alignment
    end = 0
    for (name, ttype, offset, size), nxt in zip(sorted(tensors, key=lambda t: t[2]),
                                                [*sorted(t[2] for t in tensors)[1:], None]):
        end = max(end, offset + (size or 0))
        if size is None or nxt is None:
            continue
        gap = nxt - (offset + size)
        if gap < 0 or gap >= max(alignment, 1):  # tensors lie back to back, each padded to the alignment
            raise _impossible(fh, f"tensor {name!r} of type {_gguf_type_name(ttype)} holds {size:,} bytes, but the "
                                  f"next tensor starts {nxt - offset:,} bytes after it (its type or shape was changed?)")
    if tensors and start + end <= have and have - (start + end) >= max(alignment, 1):
        last = max(tensors, key=lambda t: t[2])
        if last[3] is not None:
            raise _impossible(fh, f"{have - (start + end):,} bytes follow the last tensor ({last[0]!r} of type "
                                  f"{_gguf_type_name(last[1])}): the header does not describe the data (a type changed?)")
    return start + end, {}


def _gguf_tensor(fh: BinaryIO, have: int) -> tuple[str, int, int, int | None]:
    name = _gguf_string(fh, have)
    (n_dims,) = struct.unpack("<I", _read(fh, 4))
    if n_dims > 8:
        raise _impossible(fh, f"tensor {name!r} has {n_dims:,} dimensions")
    dims = struct.unpack(f"<{n_dims}Q", _read(fh, 8 * n_dims))
    ttype, offset = struct.unpack("<IQ", _read(fh, 12))
    if offset > MAX_PLAUSIBLE_BYTES or any(d > MAX_PLAUSIBLE_BYTES for d in dims):
        raise _impossible(fh, f"tensor {name!r} has offset {offset:,} and shape {list(dims)}")
    size = _tensor_bytes(ttype, dims)
    if size is False:
        raise _impossible(fh, f"tensor {name!r} has type {ttype}, not a GGML tensor type")
    if size is not None and size > MAX_PLAUSIBLE_BYTES:
        raise _impossible(fh, f"tensor {name!r} would hold {size:,} bytes")
    return name, ttype, offset, size


def _gguf_type_name(ttype: int) -> str:
    try:
        from gguf.constants import GGMLQuantizationType

        return GGMLQuantizationType(ttype).name
    except (ImportError, ValueError):
        return str(ttype)


def _gguf_string(fh: BinaryIO, have: int) -> str:
    (n,) = struct.unpack("<Q", _read(fh, 8))
    if n > MAX_PLAUSIBLE_BYTES:
        raise _impossible(fh, f"a string of {n:,} bytes")
    if n > have:
        raise _Short(fh.tell() + n)
    return _read(fh, n).decode("utf-8", "replace")


def _gguf_value(fh: BinaryIO, vtype: int, have: int, depth: int = 0) -> object:
    if vtype in _GGUF_FIXED:
        size = _GGUF_FIXED[vtype]
        raw = _read(fh, size)
        return int.from_bytes(raw, "little") if vtype in (4, 10) else None
    if vtype == 8:
        _gguf_string(fh, have)
        return None
    if vtype == 9:
        if depth >= MAX_NESTING:
            raise _impossible(fh, f"metadata arrays nested more than {MAX_NESTING} deep")
        (itype,) = struct.unpack("<I", _read(fh, 4))
        (count,) = struct.unpack("<Q", _read(fh, 8))
        if count > MAX_PLAUSIBLE_BYTES:
            raise _impossible(fh, f"a metadata array of {count:,} values")
        if count > have:
            raise _Short(fh.tell() + count)
        if itype in _GGUF_FIXED:
            _read_skip(fh, count * _GGUF_FIXED[itype], have)
        else:
            for _ in range(count):
                _gguf_value(fh, itype, have, depth + 1)
        return None
    raise _impossible(fh, f"metadata value type {vtype} (GGUF has types 0-12)")


def _read_skip(fh: BinaryIO, n: int, have: int) -> None:
    if fh.tell() + n > have:
        raise _Short(fh.tell() + n)
    fh.seek(n, 1)


def _tensor_bytes(ttype: int, dims: tuple[int, ...]) -> int | None | bool:
    """Bytes of one tensor's data; None when the gguf package is not installed (not checked); False
    for a type number GGML does not have."""
    try:
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType
    except ImportError:
        return None
    try:
        block, size = GGML_QUANT_SIZES[GGMLQuantizationType(ttype)]
    except (ValueError, KeyError):
        return False
    n = 1
    for d in dims:
        n *= d
    return n // block * size
