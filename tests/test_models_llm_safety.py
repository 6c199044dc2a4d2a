"""LLM folders that must not load: custom code (refused before transformers is asked, so a "y" typed
into a terminal runs nothing), tokenizer/model vocabulary mismatch; mixed prompt languages warned."""
import json
import os
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from engine.models.errors import ModelError  # noqa: E402
from engine.models.scorers.llm import LLMScorer  # noqa: E402
from testkit.tiny_models import make_tiny_causal_lm  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return make_tiny_causal_lm(tmp_path_factory.mktemp("safe") / "m", seed=4)


def _custom_code_folder(tiny, folder: Path, marker: Path, known_type: bool) -> Path:
    """A copy of a tiny model whose config asks for the folder's own code, which would write `marker`."""
    import shutil

    shutil.copytree(tiny, folder)
    cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    if not known_type:
        cfg["model_type"] = "eec_evil"
    cfg["auto_map"] = {"AutoConfig": "configuration_evil.EvilConfig",
                       "AutoModelForCausalLM": "modeling_evil.EvilForCausalLM"}
    (folder / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    code = (f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n"
            "from transformers import LlamaConfig\n\nclass EvilConfig(LlamaConfig):\n    model_type = 'eec_evil'\n")
    (folder / "configuration_evil.py").write_text(code, encoding="utf-8")
    (folder / "modeling_evil.py").write_text(code.replace("Config", "ForCausalLM").replace(
        "LlamaForCausalLM\n\nclass EvilForCausalLM(LlamaForCausalLM):\n    model_type = 'eec_evil'",
        "LlamaForCausalLM\n\nclass EvilForCausalLM(LlamaForCausalLM):\n    pass"), encoding="utf-8")
    return folder


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal (pty)")
def test_a_folder_needing_custom_code_is_refused_even_when_y_is_typed(tiny, tmp_path):
    """transformers asks "Do you wish to run the custom code? [y/N]" on a terminal; a 'y' piped into a
    pseudo-terminal must not run the folder's code: the CLI refuses before transformers is asked."""
    import pty
    import select
    import subprocess
    import time

    marker = tmp_path / "code-ran.txt"
    folder = _custom_code_folder(tiny, tmp_path / "evil", marker, known_type=False)
    master, slave = pty.openpty()
    env = {**os.environ, "HF_MODULES_CACHE": str(tmp_path / "modules"), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "prompts", "show", "anger-en", "--model",
                             f"llm:{folder}"], stdin=slave, stdout=slave, stderr=slave, cwd=str(tmp_path), env=env,
                            start_new_session=True)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if b"[y/N]" in out:
                os.write(master, b"y\n")
        else:
            os.write(master, b"y\n")  # typed ahead too: whatever reads the terminal gets a yes
        if proc.poll() is not None and not select.select([master], [], [], 0.2)[0]:
            break
    proc.wait(timeout=30)
    os.close(master)
    text = out.decode("utf-8", "replace")
    assert not marker.exists(), text
    assert proc.returncode != 0 and "never runs code from a model folder" in text and "Traceback" not in text, text


@pytest.mark.parametrize("known_type", [True, False])
def test_custom_code_is_refused_by_every_loader(tiny, tmp_path, known_type):
    marker = tmp_path / "ran.txt"
    folder = _custom_code_folder(tiny, tmp_path / "evil", marker, known_type=known_type)
    if known_type:  # auto_map alone is enough to refuse
        with pytest.raises(ModelError, match=r"needs its own Python code \('auto_map' names configuration_evil"):
            LLMScorer(folder, device="cpu", prompt="anger-en").score(["x"])
    else:
        (folder / "config.json").write_text(json.dumps({**json.loads((folder / "config.json").read_text()),
                                                        "auto_map": {}}), encoding="utf-8")
        with pytest.raises(ModelError, match="model_type 'eec_evil' is not an architecture transformers"):
            LLMScorer(folder, device="cpu", prompt="anger-en").score(["x"])
    from engine.models.hf_loading import load_model

    with pytest.raises(ModelError):
        load_model(folder, "AutoModelForCausalLM")
    assert not marker.exists()


def test_a_tokenizer_larger_than_the_model_vocabulary_is_refused_naming_both_sizes(tiny, tmp_path):
    import shutil

    from transformers import LlamaConfig, LlamaForCausalLM

    folder = tmp_path / "mismatch"
    shutil.copytree(tiny, folder)
    cfg = LlamaConfig.from_pretrained(str(folder))
    cfg.vocab_size = 50
    LlamaForCausalLM(cfg).save_pretrained(str(folder))
    rows, tokens = 50, len(LLMScorer(tiny, device="cpu").load_tokenizer())
    with pytest.raises(ModelError, match=f"the tokenizer has {tokens:,} token ids but the model's embedding has "
                                         f"{rows:,} rows") as err:
        LLMScorer(folder, device="cpu", prompt="anger-en").score(["She feels angry."])
    assert err.value.field == "tokenizer"


def test_prompts_of_several_languages_are_warned_and_a_foreign_corpus_too(tiny):
    from engine.models.base import language_mismatch

    mixed = LLMScorer(tiny, device="cpu", prompt="anger-es,joy-en")
    assert any("prompts are in several languages (anger-es (es), joy-en (en))" in w for w in mixed.warnings)
    single = LLMScorer(tiny, device="cpu", prompt="anger-en")
    assert not any("several languages" in w for w in single.warnings)
    assert "reads en but the corpus is in es" in language_mismatch(single, "es")
    assert language_mismatch(LLMScorer(tiny, device="cpu", prompt="anger-es"), "es") is None
