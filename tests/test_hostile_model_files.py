"""Issue 40, part 6: model files read at bounded cost, and headers that lie are named (engine/models/file_integrity.py).

Exit 4 (RecursionError) for a safetensors header nested 200,000 deep and a GGUF metadata array
nested 50,000 deep; impossible sizes called "truncated … download it again"; GGUF type 9999 blamed
on the tokenizer; a pickle named model.safetensors "an interrupted download?"; a BOM in
config.json reported as a tokenizer problem; F32 retyped to I32 (safetensors) or F16 (GGUF)
loaded silently with other scores."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("gguf")

from engine.models.errors import ModelError  # noqa: E402
from engine.models.file_integrity import check_model_files  # noqa: E402
from testkit import hostile_files as H  # noqa: E402


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    from testkit.tiny_models import make_tiny_bert, make_tiny_causal_lm, write_tiny_gguf

    root = tmp_path_factory.mktemp("good")
    bert = make_tiny_bert(root / "bert", labels=["neg", "pos"], seed=1)
    lm = make_tiny_causal_lm(root / "lm")
    gguf = write_tiny_gguf(lm, root / "whole.gguf")
    return {"bert": bert, "gguf": Path(gguf), "root": root}


def _refused(path: Path) -> str:
    with pytest.raises(ModelError) as err:
        check_model_files(path)
    return str(err.value)


def test_the_good_files_pass(good):
    assert check_model_files(good["bert"]) == good["bert"]
    assert check_model_files(good["gguf"]) == good["gguf"]


def test_deep_nesting_is_impossible_not_an_internal_error(good, tmp_path):
    line = _refused(H.deep_safetensors(good["bert"], tmp_path / "deep"))
    assert "impossible header: nested deeper than any model file" in line and "download or copy it again" not in line
    line = _refused(H.deep_gguf(tmp_path / "deep.gguf"))
    assert "impossible header: metadata arrays nested more than 4 deep" in line


def test_impossible_sizes_are_called_impossible(good, tmp_path):
    line = _refused(H.huge_offsets_safetensors(good["bert"], tmp_path / "huge"))
    assert "impossible header" in line and "truncated" not in line and "download or copy it again" not in line
    line = _refused(H.huge_count_gguf(tmp_path / "huge.gguf"))
    assert "impossible header: 1,099,511,627,776 tensors" in line and "truncated" not in line


def test_an_unknown_gguf_tensor_type_blames_the_model_file(good, tmp_path):
    line = _refused(H.retyped_gguf(good["gguf"], tmp_path / "t9999.gguf", 9999))
    assert "has type 9999, not a GGML tensor type" in line and "tokenizer" not in line


def test_a_gguf_tensor_retyped_f32_to_f16_is_refused(good, tmp_path):
    line = _refused(H.retyped_gguf(good["gguf"], tmp_path / "f16.gguf", 1))
    assert "of type F16 holds" in line and "its type or shape was changed?" in line or "follow the last tensor" in line, line


def test_a_safetensors_weight_retyped_to_an_integer_type_is_refused(good, tmp_path):
    line = _refused(H.retyped_safetensors(good["bert"], tmp_path / "i32", "I32"))
    assert "is stored as I32, an integer type" in line


def test_a_safetensors_weight_retyped_f32_to_f16_is_refused(good, tmp_path):
    line = _refused(H.retyped_safetensors(good["bert"], tmp_path / "f16", "F16"))
    assert "is F16 of shape" in line and "its type or shape was changed?" in line


def test_a_pickle_named_safetensors_is_called_a_pickle(good, tmp_path):
    line = _refused(H.pickle_as_safetensors(good["bert"], tmp_path / "pickled"))
    assert "a Python pickle named .safetensors" in line and "interrupted download" not in line


def test_a_bom_in_config_json_names_config_json(good, tmp_path):
    line = _refused(H.bom_config(good["bert"], tmp_path / "bom"))
    assert line.startswith(str(tmp_path / "bom" / "config.json")) and "byte-order mark" in line


def test_nan_scores_are_blamed_on_the_model():
    import pandas as pd

    from engine.audit.scoring import score_texts

    class Broken:
        name = "broken-llm"
        dimensions = ["anger"]

        def fingerprint(self):
            return "broken-llm-1"

        def score(self, texts, **_kw):
            return pd.DataFrame({"anger": [float("nan")] * len(texts)})

    with pytest.raises(ModelError) as err:
        score_texts(Broken(), ["Ebony feels angry.", "Tia feels sad."])
    line = str(err.value)
    assert line.startswith("broken-llm [score]: the model gave NaN or infinite scores for 2 of 2 texts")
    assert "the model is broken, not the corpus" in line


def test_an_auto_map_with_a_null_entry_names_the_class(good, tmp_path):
    import json

    from engine.models.hf_loading import refuse_custom_code

    folder = H.copy_model(good["bert"], tmp_path / "automap")
    cfg = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    cfg["auto_map"] = {"AutoTokenizer": [None, "tokenization_x.XTokenizer"]}
    (folder / "tokenizer_config.json").write_text(json.dumps(cfg), encoding="utf-8")
    with pytest.raises(ModelError) as err:
        refuse_custom_code(folder)
    assert "names tokenization_x.XTokenizer for AutoTokenizer" in str(err.value) and "None" not in str(err.value)


def test_a_sentencepiece_only_tokenizer_asks_for_sentencepiece_not_tiktoken(good, tmp_path):
    import importlib.util

    from engine.models.hf_loading import load_tokenizer

    if importlib.util.find_spec("sentencepiece") is not None:
        pytest.skip("sentencepiece is installed here: the folder's tokenizer may load")
    folder = tmp_path / "spm"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "llama"}', encoding="utf-8")
    (folder / "tokenizer.model").write_bytes(b"\n\x0b<unk>")
    with pytest.raises(ModelError) as err:
        load_tokenizer(folder)
    line = str(err.value)
    assert "pip install sentencepiece protobuf" in line and "tiktoken" not in line


def test_a_bom_in_config_json_is_named_before_the_tokenizer_is_blamed(good, tmp_path):
    from engine.models.hf_loading import load_tokenizer

    with pytest.raises(ModelError) as err:
        load_tokenizer(H.bom_config(good["bert"], tmp_path / "bom"))
    assert "config.json: starts with a byte-order mark" in str(err.value) and "tokenizer" not in str(err.value)


def test_allow_pickle_help_says_what_it_does():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "main.py", "audit", "--help"], cwd=Path(__file__).resolve().parents[1],
                         capture_output=True, text=True, timeout=120).stdout
    text = " ".join(out.split())
    assert "torch weights (.bin/.pt: read by torch's restricted loader, which runs no code)" in text


def test_an_impossible_gguf_alignment_is_named(tmp_path):
    import struct

    key = b"general.alignment"
    body = struct.pack("<Q", len(key)) + key + struct.pack("<II", 4, 3)  # uint32 3: not a power of two
    f = tmp_path / "align.gguf"
    f.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + body)
    assert "impossible header: general.alignment = 3" in _refused(f)
