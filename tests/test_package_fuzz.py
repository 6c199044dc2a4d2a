"""Fuzz package import: 240 mutated packages, 0 crashes, 0 files written outside the import folder.

Every mutant goes through import_package (verify, then unpack). Allowed outcomes: a
PackageError (one message), or a clean import whose files all lie inside its own import
folder (a mutation may be harmless, e.g. a flipped byte in a zip timestamp). Anything else
is a crash (a manifest edit of a free-text field such as ``created``, or a README edited
and re-hashed, is a valid package: hashes protect integrity, not authorship). Mutations: byte flips, truncation, member renames, path traversal names,
symlink/special entries, huge-ratio members, lying central-directory headers, manifest
edits, and consistent tampering (member edited and the manifest re-hashed to match).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import random
import stat
import struct
import warnings
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from engine.package import PackageError, export_package, import_package

N = 240
EVIL_ABS = f"/tmp/eec-fuzz-evil-{os.getpid()}.txt"
TRAVERSAL = ["../evil.txt", "../../evil.txt", "../../../../evil.txt", EVIL_ABS, "definition/../../evil.txt",
             "C:/evil.txt", "..\\..\\evil.txt", "./README.md", "corpus//x.csv", "corpus/./x.csv", "evil\n.txt",
             "corpus/mini-es.csv/", "\\\\server\\share\\evil.txt", "~/evil.txt", "corpus/\x00evil"]


def _zip(entries) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are one of the mutations
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in entries:
                zf.writestr(name, data)
    return buf.getvalue()


def _info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _rehash(d: dict[str, bytes]) -> dict[str, bytes]:
    try:
        m = json.loads(d["manifest.json"])
        m["files"] = {k: {"sha256": hashlib.sha256(v).hexdigest(), "bytes": len(v)}
                      for k, v in sorted(d.items()) if k != "manifest.json"}
        return {**d, "manifest.json": json.dumps(m).encode()}
    except (KeyError, ValueError, TypeError):
        return d


def _edit_json(rng: random.Random, obj):
    """One random structural edit somewhere in a JSON value."""
    if isinstance(obj, dict) and obj:
        key = rng.choice(list(obj))
        choice = rng.randrange(5)
        if choice == 0:
            del obj[key]
        elif choice == 1:
            obj[key + "_x"] = obj[key]
        elif choice == 2:
            obj[key] = rng.choice([None, True, -1, 10 ** 12, "", "../../evil", [], {}, "x" * 300, 1.5])
        else:
            obj[key] = _edit_json(rng, obj[key])
        return obj
    if isinstance(obj, list) and obj:
        obj[rng.randrange(len(obj))] = None
        return obj
    if isinstance(obj, str):
        return rng.choice(["", obj[::-1], obj + "0", "../" + obj, "f" * 64, obj.upper()])
    if isinstance(obj, int) and not isinstance(obj, bool):
        return rng.choice([obj + 1, -obj, 0, 2 ** 40])
    return rng.choice([None, 0, "x"])


def _patch_central(raw: bytes, rng: random.Random) -> bytes:
    """Lie in a central-directory header: sizes, method, flags, name length."""
    b = bytearray(raw)
    starts = [i for i in range(len(b) - 4) if b[i:i + 4] == b"PK\x01\x02"]
    if not starts:
        return raw
    at = rng.choice(starts)
    field = rng.choice(["usize", "csize", "method", "flags", "namelen", "attr"])
    if field == "usize":
        struct.pack_into("<I", b, at + 24, rng.choice([0, 1, 0x7FFFFFFF, 0xFFFFFFFF]))
    elif field == "csize":
        struct.pack_into("<I", b, at + 20, rng.choice([0, 1, 0xFFFFFFFF]))
    elif field == "method":
        struct.pack_into("<H", b, at + 10, rng.choice([1, 12, 14, 99]))
    elif field == "flags":
        struct.pack_into("<H", b, at + 8, rng.choice([1, 0x41, 0x2000]))
    elif field == "namelen":
        struct.pack_into("<H", b, at + 28, rng.choice([0, 1, 0xFFFF]))
    else:
        struct.pack_into("<I", b, at + 38, rng.choice([stat.S_IFLNK | 0o777, stat.S_IFDIR | 0o755, 0x10]) << 16)
    return bytes(b)


def mutate(rng: random.Random, raw: bytes, d: dict[str, bytes], i: int) -> tuple[str, bytes]:
    kind = ["flip", "truncate", "rename", "traversal", "special", "ratio", "central", "manifest", "tamper",
            "duplicate"][i % 10]
    names = list(d)
    if kind == "flip":
        b = bytearray(raw)
        for _ in range(rng.randint(1, 16)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return kind, bytes(b)
    if kind == "truncate":
        return kind, raw[:rng.randrange(len(raw))]
    if kind == "rename":
        old = rng.choice(names)
        new = rng.choice([n for n in ["corpus/other.csv", old.upper(), old + ".bak", "definition/other.toml",
                                      "pairs/mini-es.csv", "README.MD", "manifest.json", old.replace("/", "_"),
                                      ".hidden", "corpus/mini-es.toml"] if n != old])  # a real rename
        return kind, _zip([(new if n == old else n, v) for n, v in d.items()])
    if kind == "traversal":
        name = rng.choice(TRAVERSAL)
        if rng.random() < 0.5:  # replace a real member's name, or add one
            old = rng.choice(names)
            return kind, _zip([(name if n == old else n, v) for n, v in d.items()])
        return kind, _zip(list(d.items()) + [(name, b"evil")])
    if kind == "special":
        mode = rng.choice([stat.S_IFLNK | 0o777, stat.S_IFDIR | 0o755, stat.S_IFIFO | 0o644, stat.S_IFCHR | 0o644])
        target = rng.choice([b"/etc/passwd", b"../../", EVIL_ABS.encode(), b"README.md"])
        old = rng.choice(names + ["link"])
        return kind, _zip([(n, v) for n, v in d.items() if n != old] + [(_info(old, mode), target)])
    if kind == "ratio":
        size = rng.choice([2, 4, 8]) << 20
        unit = rng.choice([b"\0", b"a", b"ab,"])
        blob = unit * (size // len(unit))
        if rng.random() < 0.5:  # a listed member blown up, manifest re-hashed to match
            victim = rng.choice([n for n in names if n != "manifest.json"])
            return kind, _zip(list(_rehash({**d, victim: blob}).items()))
        return kind, _zip(list(d.items()) + [("corpus/zeros.csv", blob)])
    if kind == "central":
        return kind, _patch_central(raw, rng)
    if kind == "manifest":
        try:
            m = json.loads(d["manifest.json"])
            for _ in range(rng.randint(1, 3)):
                m = _edit_json(rng, m)
            text = json.dumps(m).encode()
        except (ValueError, TypeError, RecursionError):
            text = b"{"
        if rng.random() < 0.2:
            text = rng.choice([b"", b"[]", b"null", b"\xff\xfe{}", b"{" * 5000, text[: len(text) // 2]])
        return kind, _zip([(n, text if n == "manifest.json" else v) for n, v in d.items()])
    if kind == "tamper":
        victim = rng.choice([n for n in names if n != "manifest.json"])
        data = bytearray(d[victim])
        op = rng.randrange(4)
        if op == 0 and data:
            lines = bytes(data).split(b"\n")
            del lines[rng.randrange(len(lines))]
            data = bytearray(b"\n".join(lines))
        elif op == 1 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif op == 2:
            data += rng.choice([b"\n[[persons]]\nid = 1\n", b"\nx,y\n", b'{"a": 1}\n', b"\xff"])
        else:
            data = bytearray(rng.choice([b"", b"\n", b"id = \"../../evil\"\n"]))
        return kind, _zip(list(_rehash({**d, victim: bytes(data)}).items()))
    dup = rng.choice(names)
    return kind, _zip(list(d.items()) + [(dup, d[dup] if rng.random() < 0.5 else b"other")])


def snapshot(root: Path) -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for f in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            out.add(os.path.relpath(os.path.join(dirpath, f), root))
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    from test_exchange import MINI_ES_TOML

    d = tmp_path_factory.mktemp("fuzzbase")
    (d / "mini-es.toml").write_text(MINI_ES_TOML, encoding="utf-8")
    export_package(d / "mini-es.toml", d / "mini-es.eecpkg")
    raw = (d / "mini-es.eecpkg").read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    return raw, members


def test_fuzz_import_never_crashes_and_never_writes_outside(tmp_path, base):
    raw, members = base
    rng = random.Random(20240608)
    sandbox = tmp_path / "sandbox"
    pkgs = sandbox / "pkgs"
    pkgs.mkdir(parents=True)
    (sandbox / "bystander.txt").write_text("keep me")
    parent_before = snapshot(tmp_path.parent) if len(os.listdir(tmp_path.parent)) < 200 else None
    outcomes: Counter = Counter()
    crashes: list[str] = []
    imported = 0
    for i in range(N):
        kind, data = mutate(rng, raw, members, i)
        p = pkgs / f"m{i:03d}.eecpkg"
        p.write_bytes(data)
        dest = sandbox / "work" / f"import{i:03d}"
        try:
            res = import_package(p, dest)
        except PackageError as exc:
            outcomes[(kind, "refused")] += 1
            assert str(exc).startswith(str(p)) or str(exc).startswith(str(dest)), str(exc)
            assert "\n" not in str(exc).strip() or kind in ("traversal", "rename"), str(exc)
            continue
        except Exception as exc:  # noqa: BLE001 - the point of the test
            crashes.append(f"m{i:03d} ({kind}): {type(exc).__name__}: {exc}")
            continue
        imported += 1
        outcomes[(kind, "imported")] += 1
        assert res.folder.resolve().parent == dest.resolve()
    written = {f for f in snapshot(sandbox) if not f.startswith(("pkgs" + os.sep, "work" + os.sep))}
    inside = snapshot(sandbox / "work") if (sandbox / "work").exists() else set()
    stray = {f for f in inside if not f.split(os.sep)[0].startswith("import")}
    leftovers = {f for f in inside if os.sep + "." in os.sep + f.split(os.sep, 1)[-1]}  # staging/backup folders
    summary = ", ".join(f"{k}:{v}" for k, v in sorted(outcomes.items()))
    print(f"\nfuzz: {N} mutants, {sum(v for (k, o), v in outcomes.items() if o == 'refused')} refused, "
          f"{imported} imported cleanly, {len(crashes)} crashes; {summary}")
    assert crashes == [], crashes[:5]
    assert written == {"bystander.txt"}, written
    assert stray == set() and leftovers == set(), (stray, leftovers)
    assert not os.path.exists(EVIL_ABS)
    if parent_before is not None:
        new = {f for f in snapshot(tmp_path.parent) - parent_before if not f.startswith(tmp_path.name + os.sep)}
        assert new == set(), new
    kinds = {k for k, _o in outcomes}
    assert len(kinds) == 10 and sum(outcomes.values()) == N
    for k in ("traversal", "special", "ratio", "duplicate", "rename", "truncate"):
        assert outcomes[(k, "imported")] == 0, k  # none of these may ever get through
