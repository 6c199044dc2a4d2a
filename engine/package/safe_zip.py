"""Read a zip from elsewhere without trusting it.

Why not ``ZipFile.extractall``: it follows whatever names the archive carries. Here every
member name is checked (no absolute paths, no ``..``, no backslashes, no drive letters),
links and other special entries are refused, declared sizes and compression ratios are
bounded before anything is decompressed, and decompression itself is capped, so a lying
header cannot make us inflate more than we allowed. Nothing here writes to disk: members
come back as bytes and the caller decides.
"""
from __future__ import annotations

import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from .errors import PackageError
from .limits import DEFAULT_LIMITS, Limits

_EOCD = b"PK\x05\x06"
_CHUNK = 1 << 16


@dataclass
class ZipMember:
    name: str
    data: bytes


def unsafe_name(name: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """Why a member name is unsafe to use as a relative path ('' when it is fine)."""
    if not name:
        return "empty name"
    if len(name) > limits.name_chars:
        return "name too long"
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        return "control character in name"
    if "\\" in name:
        return "backslash in name"
    if name.startswith("/"):
        return "absolute path"
    if len(name) >= 2 and name[1] == ":":
        return "drive letter"
    parts = name.split("/")
    if ".." in parts:
        return "'..' in path"
    if any(p in ("", ".") for p in parts):
        return "empty or '.' path component (folder entry?)"
    return ""


def _peek_central_directory(path: Path, file: str, limits: Limits) -> None:
    """Refuse archives with absurd entry counts before zipfile builds its index of them."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            fh.seek(max(0, size - (1 << 16) - 22))
            tail = fh.read()
    except OSError as exc:
        raise PackageError(file, f"cannot read the package ({exc.strerror or exc})") from None
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < 22:
        raise PackageError(file, "not an EEC Studio package (not a zip file)",
                           fix="choose a .eecpkg file made by `package export`")
    _sig, _disk, _cd_disk, _n_disk, n_total, cd_size, _cd_off, _clen = struct.unpack("<4sHHHHIIH", tail[at:at + 22])
    if n_total == 0xFFFF or cd_size == 0xFFFFFFFF:
        raise PackageError(file, "zip64 archives are not accepted as packages",
                           fix="packages are small; export the corpus again with EEC Studio")
    if n_total > limits.members:
        raise PackageError(file, f"the archive has {n_total} entries; a package has at most {limits.members}",
                           fix="this is not a corpus package; do not import it")
    if cd_size > limits.members * (46 + limits.name_chars + 1024):
        raise PackageError(file, "the archive's central directory is implausibly large",
                           fix="this is not a corpus package; do not import it")


def _check_info(info: zipfile.ZipInfo, file: str, limits: Limits) -> None:
    name = info.filename
    why = unsafe_name(name, limits)
    if why:
        raise PackageError(file, f"unsafe member name {name!r} ({why})",
                           fix="packages only hold files under fixed relative names; do not import this file")
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise PackageError(file, f"member {name!r} is a symbolic link", fix="packages hold plain files only")
    if stat.S_IFMT(mode) not in (0, stat.S_IFREG) or info.is_dir():  # 0: a tool that records permissions only
        raise PackageError(file, f"member {name!r} is not a plain file", fix="packages hold plain files only")
    if info.flag_bits & 0x1:
        raise PackageError(file, f"member {name!r} is encrypted", fix="packages are never encrypted; export again")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise PackageError(file, f"member {name!r} uses an unsupported compression method ({info.compress_type})",
                           fix="packages use deflate; export again with EEC Studio")
    if info.file_size > limits.member_bytes:
        raise PackageError(file, f"member {name!r} would unpack to {info.file_size:,} bytes, over the "
                           f"{limits.member_bytes:,}-byte limit", fix="this package is too large or a zip bomb")
    if info.file_size > limits.ratio_floor:
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > limits.ratio:
            raise PackageError(file, f"member {name!r} has a compression ratio of {ratio:,.0f}:1 (limit "
                               f"{limits.ratio:,.0f}:1)", fix="this looks like a zip bomb; do not import it")


def read_zip(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> list[ZipMember]:
    """All members of a zip as bytes, after the checks in the module docstring."""
    path = Path(path)
    file = str(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise PackageError(file, "file not found", fix="check the path") from None
    except OSError as exc:
        raise PackageError(file, f"cannot read the package ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise PackageError(file, "not a regular file", fix="give the path of a .eecpkg file")
    if st.st_size > limits.package_bytes:
        raise PackageError(file, f"file is {st.st_size:,} bytes, over the {limits.package_bytes:,}-byte limit for a "
                           "package", fix="check you chose the right file")
    _peek_central_directory(path, file, limits)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > limits.members:
                raise PackageError(file, f"the archive has {len(infos)} entries; a package has at most {limits.members}")
            seen: set[str] = set()
            declared = 0
            for info in infos:
                _check_info(info, file, limits)
                key = info.filename.casefold()
                if key in seen:
                    raise PackageError(file, f"member {info.filename!r} appears twice",
                                       fix="the package is damaged or was tampered with; do not import it")
                seen.add(key)
                declared += info.file_size
            if declared > limits.total_bytes:
                raise PackageError(file, f"members would unpack to {declared:,} bytes, over the "
                                   f"{limits.total_bytes:,}-byte limit", fix="this package is too large or a zip bomb")
            return [ZipMember(info.filename, _read_capped(zf, info, file)) for info in infos]
    except PackageError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
            ValueError, OSError, struct.error, UnicodeDecodeError, OverflowError) as exc:
        raise PackageError(file, f"not a readable package ({exc.__class__.__name__}: {exc})",
                           fix="the file is damaged or not a .eecpkg; export it again") from None


def _read_capped(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> bytes:
    """Decompress at most the declared size; a member that yields more is refused."""
    out = bytearray()
    with zf.open(info) as fh:
        while True:
            chunk = fh.read(_CHUNK)
            if not chunk:
                break
            out += chunk
            if len(out) > info.file_size:
                raise PackageError(file, f"member {info.filename!r} unpacks to more than its declared size",
                                   fix="the package is damaged or a zip bomb; do not import it")
    if len(out) != info.file_size:
        raise PackageError(file, f"member {info.filename!r} is shorter than its declared size",
                           fix="the package is damaged; export it again")
    return bytes(out)
