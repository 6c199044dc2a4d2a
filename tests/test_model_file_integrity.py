"""Issue 29, part 6: a truncated GGUF or safetensors file is called truncated.

Before, a .gguf cut in half was blamed on its tokenizer ("cannot read the tokenizer in this GGUF
file (ValueError: cannot reshape array …)") and a cut model.safetensors on the folder ("cannot load
model (SafetensorError …)"). The headers of both formats say how long the file must be.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.models.errors import ModelError
from engine.models.file_integrity import check_model_files


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    from testkit.tiny_models import make_tiny_bert, make_tiny_causal_lm, write_tiny_gguf

    root = tmp_path_factory.mktemp("weights")
    lm = make_tiny_causal_lm(root / "lm")
    (root / "g").mkdir()
    gguf = write_tiny_gguf(lm, root / "g" / "tiny.gguf")
    bert = make_tiny_bert(root / "bert", labels=["neg", "pos"], seed=1)
    return root, Path(gguf), bert


def test_whole_files_pass_and_their_exact_size_is_known(weights):
    _root, gguf, bert = weights
    assert check_model_files(gguf) == gguf and check_model_files(bert) == bert
    cut = gguf.with_name("one_short.gguf")
    cut.write_bytes(gguf.read_bytes()[:-1])  # one byte short: the size is computed exactly, not guessed
    with pytest.raises(ModelError, match=r"truncated: its header promises [\d,]+ bytes"):
        check_model_files(cut)


@pytest.mark.parametrize("keep", [0.5, 0.01])
def test_a_cut_gguf_is_called_truncated_by_the_audit(weights, tmp_path, run, keep):
    _root, gguf, _bert = weights
    data = gguf.read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[: int(len(data) * keep)])
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path / "corpus")
    res = run("audit", "--corpus", str(corpus), "--model", f"llm:{cut}", "--stats", "paired", "--out", str(tmp_path / "o"))
    assert res.returncode == 2
    assert "cut.gguf: truncated" in res.stderr and "tokenizer" not in res.stderr


def test_a_cut_safetensors_is_called_truncated_by_the_audit(weights, tmp_path, run):
    import shutil

    _root, _gguf, bert = weights
    folder = tmp_path / "bert"
    shutil.copytree(bert, folder)
    st = folder / "model.safetensors"
    st.write_bytes(st.read_bytes()[: st.stat().st_size // 2])
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path / "corpus")
    res = run("audit", "--corpus", str(corpus), "--model", f"hf-classifier:{folder}", "--stats", "paired",
              "--out", str(tmp_path / "o"))
    assert res.returncode == 2
    assert "model.safetensors: truncated: its header promises" in res.stderr and "(50%)" in res.stderr
