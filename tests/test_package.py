"""Corpus packages (.eecpkg): contents, datasheet, verify, import safety and the CLI."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from engine.corpus import PUBLISHED_COLUMNS, generate, load_corpus, parse_definition
from engine.package import PackageError, build_package, export_package, import_package, verify_package
from engine.common.overwrite import OverwriteError
from engine.package.version import app_version

def _mini_text() -> str:
    from test_exchange import MINI_ES_TOML

    return MINI_ES_TOML


@pytest.fixture(scope="module")
def mini_def(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("def")
    p = d / "mini-es.toml"
    p.write_text(_mini_text(), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def mini_pkg(tmp_path_factory, mini_def) -> Path:
    out = tmp_path_factory.mktemp("pkg") / "mini-es.eecpkg"
    export_package(mini_def, out)
    return out


@pytest.fixture(scope="module")
def kiri_pkg(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kiri") / "kiri.eecpkg"
    export_package("en-kiritchenko2018", out)
    return out


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def rezip(entries: list[tuple[str | zipfile.ZipInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buf.getvalue()


def rehash(data: dict[str, bytes]) -> dict[str, bytes]:
    """Make the manifest agree with edited members (a tamperer who knows the format)."""
    m = json.loads(data["manifest.json"])
    m["files"] = {k: {"sha256": hashlib.sha256(v).hexdigest(), "bytes": len(v)}
                  for k, v in sorted(data.items()) if k != "manifest.json"}
    return {**data, "manifest.json": json.dumps(m).encode()}


def write(tmp_path: Path, data: dict[str, bytes] | bytes, name: str = "x.eecpkg") -> Path:
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else rezip(list(data.items())))
    return p


# --------------------------------------------------------------------------- contents
def test_package_holds_every_part_with_matching_hashes(kiri_pkg):
    data = members(kiri_pkg)
    cid = "en-kiritchenko2018"
    assert set(data) == {"manifest.json", "README.md", "ATTRIBUTION.md", "checker.txt", "checker.json",
                         f"definition/{cid}.toml", f"corpus/{cid}.csv", f"corpus/{cid}.jsonl", f"pairs/{cid}.csv"}
    man = json.loads(data["manifest.json"])
    assert man["app_version"] == app_version() and man["corpus"]["sentences"] == 8640
    assert man["corpus"]["pairs"] > 0
    assert set(man["files"]) == set(data) - {"manifest.json"}
    for name, entry in man["files"].items():
        assert hashlib.sha256(data[name]).hexdigest() == entry["sha256"] and len(data[name]) == entry["bytes"]
    rows = list(csv.reader(io.StringIO(data[f"corpus/{cid}.csv"].decode())))
    assert rows[0][:8] == PUBLISHED_COLUMNS and len(rows) == 8641
    expected = generate(load_corpus(cid))
    assert [r[1] for r in rows[1:]] == list(expected.Sentence)
    jsonl = data[f"corpus/{cid}.jsonl"].decode().splitlines()
    assert len(jsonl) == 8640 and json.loads(jsonl[0])["Sentence"] == expected.Sentence.iloc[0]
    assert data[f"definition/{cid}.toml"] == (ROOT / "templates" / "en" / f"{cid}.toml").read_bytes()
    assert json.loads(data["checker.json"])["errors"] == 0
    assert "0 error(s)" in data["checker.txt"].decode()


def test_datasheet_sections(mini_pkg):
    readme = members(mini_pkg)["README.md"].decode()
    for needle in ["# Mini Spanish EEC — mini-es", "Spanish (`es`)", "## Identity axes and groups",
                   "| Gender | female (2 terms), male (2 terms) | male |", "## Where the names come from",
                   "Source: Invented for tests", "| female | Latino | 1 | María |",
                   "## Translators and reviewers", "| Ana Translator | 0 | 0 | 1 | 2 | 0 | 3 |",
                   "| all items | 1 | 1 | 2 | 5 | 0 | 9 |", "reviewed by Rosa Reviewer",
                   "## Known limitations", "Only two names per group.", "enfadado",
                   "## Licence", "CC0-1.0", "## How to cite", "Nobody (2024). Mini EEC."]:
        assert needle in readme, needle


def test_same_corpus_gives_same_members_except_manifest_time(mini_def):
    a, _ = build_package(parse_definition(mini_def.read_bytes(), str(mini_def)))
    b, _ = build_package(parse_definition(mini_def.read_bytes(), str(mini_def)))
    ma, mb = members_bytes(a), members_bytes(b)
    assert {k: v for k, v in ma.items() if k != "manifest.json"} == {k: v for k, v in mb.items() if k != "manifest.json"}


def members_bytes(raw: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


# --------------------------------------------------------------------------- verify
def test_verify_clean_package(mini_pkg):
    pkg = verify_package(mini_pkg)
    assert pkg.manifest.corpus_id == "mini-es" and pkg.report.errors == [] and pkg.warnings == []
    assert "every sha256 matches" in pkg.summary()


@pytest.mark.parametrize("edit, match", [
    (lambda d: {**d, "corpus/mini-es.csv": d["corpus/mini-es.csv"] + b"x"}, r"corpus/mini-es.csv does not match its sha256"),
    (lambda d: {k: v for k, v in d.items() if k != "checker.txt"}, r"checker.txt is listed in the manifest but missing"),
    (lambda d: {**d, "notes.txt": b"hi"}, r"unknown member 'notes.txt'"),
    (lambda d: {k: v for k, v in d.items() if k != "manifest.json"}, r"no manifest.json"),
    (lambda d: {**d, "manifest.json": b"{nope"}, r"\[manifest.json\]: manifest is not valid UTF-8 JSON"),
])
def test_verify_refuses_damaged_packages(tmp_path, mini_pkg, edit, match):
    p = write(tmp_path, edit(members(mini_pkg)))
    with pytest.raises(PackageError, match=match) as ei:
        verify_package(p)
    assert str(p) in str(ei.value) and " — " in str(ei.value)  # names the file and says what to do


def test_verify_schema_and_checker_after_consistent_tampering(tmp_path, mini_pkg):
    d = members(mini_pkg)
    # a row dropped from the CSV, manifest re-hashed: the schema check still catches it
    lines = d["corpus/mini-es.csv"].split(b"\n")
    p = write(tmp_path, rehash({**d, "corpus/mini-es.csv": b"\n".join(lines[:1] + lines[2:])}), "a.eecpkg")
    with pytest.raises(PackageError, match="the corpus table has 15 rows, the manifest says 16"):
        verify_package(p)
    # a definition edited to break agreement: the checker refuses it (unless allow_errors)
    bad = d["definition/mini-es.toml"].replace(b'{ text = "enojada", gender = "f" }', b'{ text = "enojada", gender = "m" }')
    p = write(tmp_path, rehash({**d, "definition/mini-es.toml": bad}), "b.eecpkg")
    with pytest.raises(PackageError, match=r"agreement checker finds \d+ error"):
        verify_package(p)
    with pytest.raises(PackageError, match="not what its definition and datasheet state"):  # issue 29
        verify_package(p, allow_errors=True)
    assert verify_package(p, allow_errors=True, accept_modified=True).report.errors


# --------------------------------------------------------------------------- zip safety
def _traversal(d, name):
    return rezip(list(d.items()) + [(name, b"evil")])


def _symlink(d):
    info = zipfile.ZipInfo("README.md")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return rezip([(k, v) for k, v in d.items() if k != "README.md"] + [(info, b"/etc/passwd")])


@pytest.mark.parametrize("make, match", [
    (lambda d: _traversal(d, "../evil.txt"), r"unsafe member name '../evil.txt' \('..' in path\)"),
    (lambda d: _traversal(d, "/tmp/evil.txt"), r"absolute path"),
    (lambda d: _traversal(d, "corpus/../../evil.txt"), r"'..' in path"),
    (lambda d: _traversal(d, "C:/evil.txt"), r"drive letter"),
    (lambda d: _traversal(d, "..\\evil.txt"), r"backslash"),
    (_symlink, r"member 'README.md' is a symbolic link"),
    (lambda d: rezip(list(d.items()) + [("corpus/zeros.csv", b"\0" * (4 << 20))]), r"compression ratio of [\d,]+:1"),
    (lambda d: rezip([(f"f{i}.txt", b"") for i in range(40)]), r"the archive has 40 entries"),
    (lambda d: b"PK\x03\x04 not really a zip", r"not an EEC Studio package \(not a zip file\)"),
])
def test_import_refuses_unsafe_archives_and_writes_nothing(tmp_path, mini_pkg, make, match):
    dest = tmp_path / "work" / "corpora"
    p = write(tmp_path, make(members(mini_pkg)))
    with pytest.raises(PackageError, match=match):
        import_package(p, dest)
    assert not dest.exists() and not (tmp_path / "evil.txt").exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["x.eecpkg"]


# --------------------------------------------------------------------------- import
def test_import_then_refuse_overwrite_without_confirmation(tmp_path, mini_pkg):
    dest = tmp_path / "corpora"
    res = import_package(mini_pkg, dest)
    assert res.folder == dest / "mini-es" and res.definition.is_file() and not res.replaced
    assert load_corpus(str(res.definition)).id == "mini-es"
    mine = res.definition
    mine.write_text(mine.read_text() + "\n# my local edit\n")
    with pytest.raises(OverwriteError, match="corpus folder already exists; nothing was changed — pass --overwrite"):
        import_package(mini_pkg, dest)
    asked = []
    with pytest.raises(OverwriteError):
        import_package(mini_pkg, dest, confirm=lambda q: asked.append(q) or False)
    assert asked and "Replace this corpus folder?" in asked[0]
    assert mine.read_text().endswith("# my local edit\n")  # untouched after both refusals
    res = import_package(mini_pkg, dest, confirm=lambda q: True)
    assert res.replaced and not res.definition.read_text().endswith("# my local edit\n")
    assert sorted(p.name for p in dest.iterdir()) == ["mini-es"]  # no staging or backup left behind


def test_import_refuses_second_definition_of_same_id(tmp_path, mini_pkg, mini_def):
    dest = tmp_path / "corpora"
    (dest / "mine").mkdir(parents=True)
    (dest / "mine" / "mini-es.toml").write_bytes(mini_def.read_bytes())
    with pytest.raises(PackageError, match="already has another definition of corpus 'mini-es'"):
        import_package(mini_pkg, dest)
    assert not (dest / "mini-es").exists()


# --------------------------------------------------------------------------- CLI
def cli(capsys, *args: str) -> tuple[int, str, str]:
    from main import main

    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_export_verify_import(tmp_path, mini_def, capsys, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("EEC_STUDIO_HOME", str(home))
    pkg = tmp_path / "m.eecpkg"
    rc, out, err = cli(capsys, "package", "export", str(mini_def), "--out", str(pkg))
    assert rc == 0 and "mini-es: 16 sentences" in out, err
    rc, out, err = cli(capsys, "package", "export", str(mini_def), "--out", str(pkg))
    assert rc == 2 and "already exists" in err
    rc, out, err = cli(capsys, "package", "verify", str(pkg))
    assert rc == 0 and "every sha256 matches the manifest" in out and "OK" in out
    rc, out, err = cli(capsys, "package", "import", str(pkg))
    assert rc == 0, err
    assert (home / "corpora" / "mini-es" / "definition" / "mini-es.toml").is_file()
    rc, out, err = cli(capsys, "package", "import", str(pkg))
    assert rc == 2 and err.count("\n") == 1 and "--overwrite" in err
    rc, out, err = cli(capsys, "package", "import", str(pkg), "--force")
    assert rc == 0 and "(replaced)" in out
    rc, out, err = cli(capsys, "package", "import", str(pkg), "--dest", str(tmp_path / "elsewhere"), "--yes")
    assert rc == 0 and (tmp_path / "elsewhere" / "mini-es" / "manifest.json").is_file()


def test_cli_bad_package_is_one_line_without_traceback(tmp_path, mini_pkg):
    bad = write(tmp_path, _traversal(members(mini_pkg), "../../evil.sh"), "bad.eecpkg")
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "package", "import", str(bad), "--dest",
                        str(tmp_path / "d")], capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"error: {bad}: unsafe member name '../../evil.sh' ('..' in path) — packages only hold "
                        "files under fixed relative names; do not import this file\n")
    assert not (tmp_path / "d").exists()


def test_datasheet_lists_the_glossary_when_there_is_one(mini_def):
    from engine.corpus.translate.glossary import GlossaryTerm, parse_forms, with_glossary
    from engine.package.datasheet import build_datasheet

    corpus = parse_definition(mini_def.read_bytes(), str(mini_def))
    assert "## Glossary" not in build_datasheet(corpus).to_markdown()  # none recorded: no empty section
    corpus.extra = with_glossary(corpus.extra, [
        GlossaryTerm("furious", parse_forms("furioso (gender=m) / furiosa (gender=f)"), "not 'enojado'"),
        GlossaryTerm("situation", parse_forms("situación"))])
    md = build_datasheet(corpus).to_markdown()
    assert "## Glossary" in md
    assert "| furious | furioso (gender=m) / furiosa (gender=f) | not 'enojado' |" in md
    assert "| situation | situación |" in md
    assert md.index("## Translators and reviewers") < md.index("## Glossary") < md.index("## Known limitations")
