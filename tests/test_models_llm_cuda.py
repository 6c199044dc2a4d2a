"""LLM scorer on CUDA: bf16/fp16 weights close to CPU fp32, cache = no cache, real OOM back-off.

Runs only where CUDA is present (skipped on the CPU-only development machines); passed on an NVIDIA H100
(torch 2.11, transformers 5.17) through bench/gpu_check.sh.
"""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (CPU-only machine)")

from engine.models.scorers.llm import LLMScorer  # noqa: E402
from testkit.tiny_models import make_tiny_causal_lm  # noqa: E402

TEXTS = [f"My {w} feels {e} about day {i}." for i in range(20) for w in ("sister", "brother")
         for e in ("angry", "happy", "sad")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_tiny_causal_lm(tmp_path_factory.mktemp("llm-cuda") / "m", seed=3)


def test_auto_precision_loads_half_weights_close_to_cpu(folder):
    cpu = LLMScorer(folder, device="cpu", precision="fp32", task="anger,sentiment").score(TEXTS).to_numpy()
    gpu = LLMScorer(folder, device="cuda", precision="auto", task="anger,sentiment")
    got = gpu.score(TEXTS).to_numpy()
    assert gpu._model.dtype in (torch.bfloat16, torch.float16) and gpu.device.type == "cuda"
    np.testing.assert_allclose(got, cpu, atol=2e-2)


def test_fp32_on_cuda_matches_cpu_and_cache_matches_no_cache(folder):
    cpu = LLMScorer(folder, device="cpu", precision="fp32", prompt="joy-en").score(TEXTS).to_numpy()
    gpu = LLMScorer(folder, device="cuda", precision="fp32", prompt="joy-en", batch_size=16)
    cached = gpu.score(TEXTS).to_numpy()
    plain = gpu.score(TEXTS, prefix_cache=False).to_numpy()
    np.testing.assert_allclose(cached, plain, atol=1e-5)
    np.testing.assert_allclose(cached, cpu, atol=1e-4)


def test_real_oom_halves_the_batch(folder):
    scorer = LLMScorer(folder, device="cuda", precision="fp32", prompt="joy-en", batch_size=32)
    reference = scorer.score(TEXTS).to_numpy()
    real = scorer._forward
    free, _ = torch.cuda.mem_get_info()

    def hog(pp, sentences, use_cache):
        if len(sentences) > 8:
            torch.empty(int(free * 4), dtype=torch.uint8, device="cuda")  # more than the card has: a real OOM
        return real(pp, sentences, use_cache)

    scorer._forward = hog
    np.testing.assert_allclose(scorer.score(TEXTS).to_numpy(), reference, atol=1e-5)
    assert scorer.batch_size == 8
