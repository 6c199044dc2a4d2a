"""Re-exporting a Hugging Face dataset folder replaces it as a whole (engine.common.staged_folder):
a failure half-way leaves the earlier export as it was, never a folder with the old one deleted."""
from __future__ import annotations

import pytest

from engine.package import hf_dataset


def test_a_failed_re_export_leaves_the_earlier_folder_whole(tmp_path, monkeypatch):
    out = tmp_path / "hf"
    hf_dataset.export_hf_dataset("en-kiritchenko2018", out, data_format="jsonl")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert before

    calls = {"n": 0}
    real = hf_dataset.atomic_write_bytes

    def fail_on_second(path, data):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(hf_dataset, "atomic_write_bytes", fail_on_second)
    with pytest.raises(OSError):
        hf_dataset.export_hf_dataset("en-kiritchenko2018", out, overwrite=True, data_format="jsonl")
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir()] == ["hf"]  # no staging folder left behind
