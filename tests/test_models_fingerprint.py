"""Model-file digests are remembered in the user cache folder and recomputed when a file changes."""
import hashlib
import os

import pytest

import engine.models.fingerprint as fpmod
from engine.models.fingerprint import file_sha256, folder_fingerprint


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "user-cache"
    monkeypatch.setenv("EEC_STUDIO_CACHE", str(home))
    monkeypatch.setattr(fpmod, "_memo", {})
    return home


def _hash_calls(monkeypatch):
    """Count the files really hashed (sha256 objects fed from a file)."""
    calls = []
    real = hashlib.sha256

    def counting(*a, **kw):
        calls.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(fpmod.hashlib, "sha256", counting)
    return calls


def test_digest_is_read_back_in_a_new_process_and_lives_in_the_user_cache(tmp_path, cache_home, monkeypatch):
    model = tmp_path / "model"
    model.mkdir()
    (model / "weights.safetensors").write_bytes(b"w" * 5000)
    (model / "config.json").write_text('{"a": 1}')
    first = folder_fingerprint(model)
    assert (cache_home / "fingerprints.sqlite").exists()
    assert sorted(p.name for p in model.iterdir()) == ["config.json", "weights.safetensors"]  # nothing beside it
    fpmod._memo.clear()  # as a new process would start
    calls = _hash_calls(monkeypatch)
    assert folder_fingerprint(model) == first
    assert len(calls) == 1  # only the folder's own combining hash; no file was read
    monkeypatch.undo()
    monkeypatch.setenv("EEC_STUDIO_CACHE", str(cache_home))
    assert file_sha256(model / "config.json") == hashlib.sha256(b'{"a": 1}').hexdigest()


def test_a_changed_file_is_hashed_again(tmp_path, cache_home, monkeypatch):
    f = tmp_path / "weights.bin"
    f.write_bytes(b"a" * 100)
    old = file_sha256(f)
    st = f.stat()
    # same size, mtime set back to the old value: the inode/ctime stamp still tells them apart
    f.write_bytes(b"b" * 100)
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    fpmod._memo.clear()
    assert file_sha256(f) == hashlib.sha256(b"b" * 100).hexdigest() != old
    # another size
    f.write_bytes(b"b" * 101)
    fpmod._memo.clear()
    assert file_sha256(f) == hashlib.sha256(b"b" * 101).hexdigest()
    # a later mtime with the same content and size: hashed again (and the same digest)
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    fpmod._memo.clear()
    want = hashlib.sha256(b"b" * 101).hexdigest()
    calls = _hash_calls(monkeypatch)
    assert file_sha256(f) == want and len(calls) == 1


def test_an_unusable_cache_folder_only_costs_the_hashing(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("EEC_STUDIO_CACHE", str(blocker / "sub"))
    monkeypatch.setattr(fpmod, "_memo", {})
    f = tmp_path / "m.bin"
    f.write_bytes(b"xyz")
    assert file_sha256(f) == hashlib.sha256(b"xyz").hexdigest()
