"""Model files whose headers lie (issue 40): built from the tiny test models, for the tests and the
bad-input matrix. Each builder copies a good file and changes only what its name says."""
from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path


def safetensors_parts(path: Path) -> tuple[dict, bytes]:
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def write_safetensors(path: Path, header: dict | bytes, data: bytes) -> Path:
    head = header if isinstance(header, bytes) else json.dumps(header).encode("utf-8")
    path.write_bytes(struct.pack("<Q", len(head)) + head + data)
    return path


def copy_model(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    return dest


def retyped_safetensors(src: Path, dest: Path, to: str, *, keep_offsets: bool = True) -> Path:
    """The first float weight's dtype changed to ``to`` (its bytes and offsets kept)."""
    folder = copy_model(src, dest)
    header, data = safetensors_parts(folder / "model.safetensors")
    name = next(k for k, v in header.items() if k.endswith(".weight") and isinstance(v, dict) and v["dtype"] == "F32")
    header[name]["dtype"] = to
    write_safetensors(folder / "model.safetensors", header, data)
    return folder


def deep_safetensors(src: Path, dest: Path, depth: int = 200_000) -> Path:
    folder = copy_model(src, dest)
    _header, data = safetensors_parts(folder / "model.safetensors")
    write_safetensors(folder / "model.safetensors", b'{"__metadata__":' + b"[" * depth + b"]" * depth + b"}", data)
    return folder


def huge_offsets_safetensors(src: Path, dest: Path) -> Path:
    folder = copy_model(src, dest)
    header, data = safetensors_parts(folder / "model.safetensors")
    name = next(k for k in header if k != "__metadata__")
    header[name]["data_offsets"] = [0, 1 << 60]
    write_safetensors(folder / "model.safetensors", header, data)
    return folder


def pickle_as_safetensors(src: Path, dest: Path) -> Path:
    import pickle

    folder = copy_model(src, dest)
    (folder / "model.safetensors").write_bytes(pickle.dumps({"w": list(range(10))}, protocol=4))
    return folder


def bom_config(src: Path, dest: Path) -> Path:
    folder = copy_model(src, dest)
    cfg = folder / "config.json"
    cfg.write_bytes(b"\xef\xbb\xbf" + cfg.read_bytes())
    return folder


# --------------------------------------------------------------------------- GGUF
def _gguf_walk(raw: bytes) -> list[tuple[str, int]]:
    """(tensor name, byte position of its type field) of every tensor info of a GGUF v3 file."""
    pos = 4
    _version, n_tensors, n_kv = struct.unpack_from("<IQQ", raw, pos)
    pos += 20
    fixed = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}

    def string(p: int) -> tuple[str, int]:
        (n,) = struct.unpack_from("<Q", raw, p)
        return raw[p + 8:p + 8 + n].decode("utf-8"), p + 8 + n

    def value(p: int, vtype: int) -> int:
        if vtype in fixed:
            return p + fixed[vtype]
        if vtype == 8:
            return string(p)[1]
        itype, count = struct.unpack_from("<IQ", raw, p)
        p += 12
        for _ in range(count):
            p = value(p, itype)
        return p

    for _ in range(n_kv):
        _key, pos = string(pos)
        (vtype,) = struct.unpack_from("<I", raw, pos)
        pos = value(pos + 4, vtype)
    out = []
    for _ in range(n_tensors):
        name, pos = string(pos)
        (n_dims,) = struct.unpack_from("<I", raw, pos)
        pos += 4 + 8 * n_dims
        out.append((name, pos))
        pos += 12
    return out


def retyped_gguf(src: Path, dest: Path, ttype: int, *, which: str = "F32") -> Path:
    """The first tensor of type ``which`` (F32 = 0) gets type number ``ttype``."""
    raw = bytearray(src.read_bytes())
    want = {"F32": 0, "F16": 1}[which]
    for _name, pos in _gguf_walk(bytes(raw)):
        if struct.unpack_from("<I", raw, pos)[0] == want:
            struct.pack_into("<I", raw, pos, ttype)
            break
    else:
        raise AssertionError(f"no {which} tensor in {src}")
    dest.write_bytes(bytes(raw))
    return dest


def deep_gguf(dest: Path, depth: int = 50_000) -> Path:
    """A GGUF header of one metadata key whose value is an array of an array of … ``depth`` deep."""
    key = b"general.deep"
    body = struct.pack("<Q", len(key)) + key + struct.pack("<I", 9)
    body += struct.pack("<IQ", 9, 1) * depth + struct.pack("<IQ", 4, 0)
    dest.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + body)
    return dest


def huge_count_gguf(dest: Path) -> Path:
    dest.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 1 << 40, 1 << 40) + b"\0" * 64)
    return dest
