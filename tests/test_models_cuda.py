"""CUDA path: autocast checked against fp32, same scores as CPU. Runs only where CUDA is present."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (CPU-only machine)")

from engine.models.device import PRECISION_TOLERANCE, select_device  # noqa: E402
from engine.models.scorers.encoder_head import EncoderHeadScorer  # noqa: E402
from engine.models.scorers.hf_classifier import SequenceClassifierScorer  # noqa: E402
from engine.models.scorers.hf_encoder import HFEncoder  # noqa: E402
from engine.models.training.regression_head import build_head  # noqa: E402
from testkit.tiny_models import make_tiny_bert  # noqa: E402
from engine.audit.scoring import score_texts  # noqa: E402

TEXTS = [f"She feels {w} about day {i}." for i in range(50) for w in ("happy", "sad", "angry")]


def test_auto_device_is_cuda():
    assert select_device().type == "cuda"


def test_encoder_head_cuda_autocast_matches_cpu(tmp_path):
    enc_dir = make_tiny_bert(tmp_path / "enc", seed=1)
    torch.manual_seed(0)
    heads = {"anger": build_head(32).eval(), "joy": build_head(32).eval()}
    cpu = EncoderHeadScorer(HFEncoder(enc_dir, device="cpu"), heads, precision="fp32")
    gpu = EncoderHeadScorer(HFEncoder(enc_dir, device="cuda"), heads, precision="auto")
    a = score_texts(cpu, TEXTS).to_numpy()
    b = score_texts(gpu, TEXTS).to_numpy()
    check = gpu.precision_check
    assert check.used in ("bf16", "fp16", "fp32") and check.tolerance == PRECISION_TOLERANCE
    if check.used != "fp32":
        assert check.max_abs_diff <= PRECISION_TOLERANCE
    assert np.max(np.abs(a - b)) <= PRECISION_TOLERANCE
    fp32 = score_texts(EncoderHeadScorer(HFEncoder(enc_dir, device="cuda"), heads, precision="fp32"), TEXTS).to_numpy()
    assert np.max(np.abs(a - fp32)) < 1e-4


def test_classifier_cuda_probabilities(tmp_path):
    folder = make_tiny_bert(tmp_path / "cls", labels=["neg", "neu", "pos"], seed=2)
    cpu = SequenceClassifierScorer(folder, device="cpu", precision="fp32").score(TEXTS)
    gpu_scorer = SequenceClassifierScorer(folder, device="cuda", precision="auto")
    gpu = gpu_scorer.score(TEXTS)
    assert gpu_scorer.device.type == "cuda"
    np.testing.assert_allclose(gpu.filter(like="p_").to_numpy(), cpu.filter(like="p_").to_numpy(),
                               atol=PRECISION_TOLERANCE)


def test_real_oom_halves_batch(tmp_path):
    enc_dir = make_tiny_bert(tmp_path / "enc", seed=1)
    enc = HFEncoder(enc_dir, device="cuda", batch_size=64)
    enc.load()
    real = enc.forward_ids
    free, _ = torch.cuda.mem_get_info()

    def hog(seqs, dtype=None):
        if len(seqs) > 8:
            torch.empty(int(free * 4), dtype=torch.uint8, device="cuda")  # more than the card has: a real OOM
        return real(seqs, dtype)

    enc.forward_ids = hog
    out = enc.embed(TEXTS)
    assert enc.batch_size == 8 and out.shape == (len(TEXTS), 32)
