"""Size limits for reading a package: a zip from elsewhere may be a zip bomb.

Why these numbers: the largest built-in corpus packs into about 0.3 MB (8,640 sentences,
2.9 MB of CSV + 4.7 MB of JSONL uncompressed). The limits leave room for corpora two
orders of magnitude larger (about 1 million sentences) while bounding what a malicious
package can make us decompress and hold in memory. The ratio limit is above what real
corpora reach (JSONL compresses about 32:1, CSV about 20:1) and far below what bombs
need (deflate reaches ~1000:1); it applies only to members large enough to matter.
"""
from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    package_bytes: int = 256 * MiB  # the .eecpkg file itself
    members: int = 32  # a package has at most 8 members today
    member_bytes: int = 256 * MiB  # one member, uncompressed
    total_bytes: int = 512 * MiB  # all members together, uncompressed
    ratio: float = 200.0  # uncompressed : compressed, per member
    ratio_floor: int = 1 * MiB  # members smaller than this are never a bomb, whatever their ratio
    name_chars: int = 255
    manifest_bytes: int = 1 * MiB
    text_bytes: int = 16 * MiB  # README.md, checker report


DEFAULT_LIMITS = Limits()
