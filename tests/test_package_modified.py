"""Issue 29, part 6: a package whose content is not what its definition and datasheet state.

A definition edited after export, with its sha256 in manifest.json updated to match, passes every
hash check; before, it imported with only a note. It is refused unless --accept-modified.
"""
from __future__ import annotations

import hashlib
import json
import zipfile

import pytest

from testkit.audit_fixtures import write_mini_corpus


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    import contextlib
    import io

    import main

    root = tmp_path_factory.mktemp("pkg")
    corpus = write_mini_corpus(root / "corpus")
    pkg = root / "mini.eecpkg"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main.main(["package", "export", str(corpus), "--out", str(pkg)]) == 0
    with zipfile.ZipFile(pkg) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    man = json.loads(members["manifest.json"])
    name = next(k for k in members if k.endswith(".toml"))
    members[name] = members[name].replace(b'"Tia"', b'"Tiana"')  # a name changed, the hash updated to match
    man["files"][name] = {"sha256": hashlib.sha256(members[name]).hexdigest(), "bytes": len(members[name])}
    members["manifest.json"] = (json.dumps(man, indent=2) + "\n").encode("utf-8")
    edited = root / "edited.eecpkg"
    with zipfile.ZipFile(edited, "w") as z:
        for k, v in members.items():
            z.writestr(k, v)
    return root, pkg, edited


def test_an_edited_and_rehashed_package_is_refused(packages, run):
    root, _pkg, edited = packages
    res = run("package", "import", str(edited), "--dest", str(root / "imp"))
    assert res.returncode == 2
    assert "not what its definition and datasheet state" in res.stderr and "--accept-modified" in res.stderr
    assert "(21 of 462 rows)" in res.stderr
    assert not (root / "imp" / "gui-mini").exists()
    res = run("package", "verify", str(edited))
    assert res.returncode == 2 and "--accept-modified" in res.stderr


def test_accept_modified_imports_it_and_lists_every_difference(packages, run):
    root, _pkg, edited = packages
    res = run("package", "import", str(edited), "--dest", str(root / "imp2"), "--accept-modified")
    assert res.returncode == 0, res.stderr
    notes = [ln for ln in res.stdout.splitlines() if ln.strip().startswith("note:")]
    assert any("21 of 462 rows" in n for n in notes) and any("README.md" in n for n in notes)
    assert (root / "imp2" / "gui-mini" / "definition" / "gui-mini.toml").is_file()


def test_an_unmodified_package_imports_without_warnings(packages, run):
    root, pkg, _edited = packages
    from engine.package import verify_package

    assert verify_package(pkg).warnings == []
    res = run("package", "import", str(pkg), "--dest", str(root / "imp3"))
    assert res.returncode == 0 and "note:" not in res.stdout
