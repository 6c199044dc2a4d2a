"""Transformer paths on tiny locally-made BERT models (CPU): encoder + head, classifier, ensemble."""
import json

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")

from engine.common.progress import Cancelled
from engine.models.training.datasets import LabeledData, TaskSplits  # noqa: E402
from engine.models.device import resolve_precision, select_device  # noqa: E402
from engine.models.scorers.encoder_head import EncoderHeadScorer  # noqa: E402
from engine.models.errors import ModelError  # noqa: E402
from engine.models.scorers.hf_classifier import SequenceClassifierScorer, label_values, majority_vote  # noqa: E402
from engine.models.scorers.hf_encoder import HFEncoder  # noqa: E402
from engine.models.specs import load_scorer  # noqa: E402
from testkit.tiny_models import make_tiny_bert  # noqa: E402
from engine.models.training.train import TrainSettings, train_regression  # noqa: E402
from engine.audit.scoring import score_texts  # noqa: E402

SENTS = ["She feels happy.", "He is sad", "My day was terrible!!", "I love the great man.",
         "The situation made a woman feel afraid, very afraid indeed.", "ok", "He feels angry about my day."]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    return {"encoder": make_tiny_bert(root / "enc", seed=1),
            "encoder2": make_tiny_bert(root / "enc2", seed=2),
            "stars": make_tiny_bert(root / "stars", labels=["1 star", "2 stars", "3 stars", "4 stars", "5 stars"], seed=3)}


def _manual_cls(folder, text, pooling="cls"):
    from transformers import AutoModel, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModel.from_pretrained(str(folder)).eval()
    enc = tok(text, return_tensors="pt")
    with torch.no_grad():
        h = model(**enc).last_hidden_state[0]
    return (h[0] if pooling == "cls" else h.mean(0)).numpy()


@pytest.mark.parametrize("pooling", ["cls", "mean"])
def test_dynamic_padding_matches_unpadded_forward(tiny, pooling):
    enc = HFEncoder(tiny["encoder"], pooling=pooling, batch_size=3)
    emb = enc.embed(SENTS)
    assert emb.shape == (len(SENTS), 32) and emb.dtype == np.float32
    for i in (0, 4, 5):  # padded in a batch with longer/shorter sentences
        np.testing.assert_allclose(emb[i], _manual_cls(tiny["encoder"], SENTS[i], pooling), atol=1e-5)


def test_embeddings_computed_once(tiny, monkeypatch):
    enc = HFEncoder(tiny["encoder"], batch_size=4)
    first = enc.embed(SENTS)
    calls = []
    real = enc.forward_ids
    monkeypatch.setattr(enc, "forward_ids", lambda seqs, dt=None: calls.append(len(seqs)) or real(seqs, dt))
    again = enc.embed(SENTS[::-1] + ["a new one"])
    assert calls == [1]  # only the unseen text went through the model
    np.testing.assert_array_equal(again[: len(SENTS)], first[::-1])


def test_oom_halves_batch_and_continues(tiny, monkeypatch):
    enc = HFEncoder(tiny["encoder"], batch_size=8)
    expected = enc.embed(SENTS)
    enc.clear_memo()
    real = enc.forward_ids
    sizes = []

    def flaky(seqs, dtype=None):
        sizes.append(len(seqs))
        if len(seqs) > 2:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(seqs, dtype)

    monkeypatch.setattr(enc, "forward_ids", flaky)
    got = enc.embed(SENTS)
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert enc.batch_size == 2 and sizes[:3] == [7, 4, 2]


def test_cancel_between_batches(tiny):
    enc = HFEncoder(tiny["encoder"], batch_size=2)
    calls = []
    with pytest.raises(Cancelled):
        enc.embed(SENTS, progress=lambda d, t, e: calls.append(d), cancel=lambda: bool(calls))
    assert calls == [2]


def test_precision_check_falls_back_to_fp32():
    dev = select_device("cpu")
    dtype, check = resolve_precision(dev, "bf16", lambda dt: np.array([0.5, 0.5]) if dt is None else np.array([0.5, 0.6]))
    assert dtype is None and check.used == "fp32" and check.max_abs_diff == pytest.approx(0.1)
    dtype, check = resolve_precision(dev, "bf16", lambda dt: np.array([0.5, 0.501]))
    assert dtype == torch.bfloat16 and check.used == "bf16"
    assert resolve_precision(dev, "auto", lambda dt: 1 / 0)[1].used == "fp32"  # CPU auto = fp32, no probe run


def test_bf16_autocast_on_cpu_within_tolerance(tiny):
    heads = {"x": torch.nn.Sequential(torch.nn.Linear(32, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1), torch.nn.Flatten(0))}
    s = EncoderHeadScorer(HFEncoder(tiny["encoder"], device="cpu"), heads, precision="bf16")
    out = s.score(SENTS)
    assert s.precision_check.used in ("bf16", "fp32")
    assert s.precision_check.max_abs_diff is not None and np.isfinite(out.to_numpy()).all()


def _csv_task(tmp_path, name, n=40, seed=0):
    rng = np.random.default_rng(seed)
    words = ["happy", "sad", "angry", "afraid", "great", "terrible", "love", "hate"]
    texts = [f"{rng.choice(['He', 'She', 'I'])} feels {rng.choice(words)} {i}" for i in range(n)]
    y = [0.9 if ("happy" in t or "great" in t or "love" in t) else 0.2 for t in texts]
    path = tmp_path / f"{name}.csv"
    pd.DataFrame({"text": texts, "label": y}).to_csv(path, index=False)
    return LabeledData(texts, y, name, str(path), sha256="f" * 64)


def test_encoder_head_train_save_reload(tiny, tmp_path):
    tasks = [TaskSplits("joy", _csv_task(tmp_path, "joy"), _csv_task(tmp_path, "dev", 12, 1), _csv_task(tmp_path, "test", 20, 2)),
             TaskSplits("anger", _csv_task(tmp_path, "anger", seed=3), None, _csv_task(tmp_path, "t2", 20, 4))]
    out = tmp_path / "model"
    settings = TrainSettings("encoder-head", out, language="en", seed=5, encoder=str(tiny["encoder"]), batch_size=8,
                             embedding_cache=tmp_path / "emb")
    report = train_regression(tasks, settings)
    assert [r.dimension for r in report.results] == ["joy", "anger"]
    assert all(r.value is None or -1 <= r.value <= 1 for r in report.results) and report.results[0].n_test == 20
    files = sorted(p.name for p in out.iterdir())
    assert files == ["heads.safetensors", "manifest.json"]
    man = json.loads((out / "manifest.json").read_text())
    assert man["system"] == "encoder-head" and man["seed"] == 5 and man["dimensions"] == ["joy", "anger"]
    assert man["model_fingerprint"] and "torch" in man["versions"] and "transformers" in man["versions"]
    assert {d["role"] for d in man["data"]} >= {"train", "dev (validation)", "test"}

    scorer = load_scorer(str(out), device="cpu")
    assert isinstance(scorer, EncoderHeadScorer) and scorer.dimensions == ["joy", "anger"]
    a = score_texts(scorer, SENTS)
    b = load_scorer(f"model:{out}").score(SENTS)
    np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), atol=1e-6)
    assert load_scorer(str(out)).fingerprint() == scorer.fingerprint()

    # same seed -> same heads, bit for bit (and so the same fingerprint)
    out2 = tmp_path / "model2"
    train_regression(tasks, TrainSettings("encoder-head", out2, seed=5, encoder=str(tiny["encoder"]), batch_size=8))
    from safetensors.torch import load_file

    h1, h2 = load_file(str(out / "heads.safetensors")), load_file(str(out2 / "heads.safetensors"))
    assert h1.keys() == h2.keys() and all(torch.equal(h1[k], h2[k]) for k in h1)
    assert load_scorer(str(out2)).fingerprint() == scorer.fingerprint()

    with pytest.raises(ModelError, match="encoder differs"):
        EncoderHeadScorer.load(out, encoder=str(tiny["encoder2"]))


def test_classifier_as_is_columns(tiny):
    s = SequenceClassifierScorer(tiny["stars"], batch_size=2)
    assert s.values == [1.0, 2.0, 3.0, 4.0, 5.0] and s.values_from == "label names"
    out = s.score(SENTS)
    assert list(out.columns) == ["expected", "expected_01", "argmax"] + [f"p_{k}" for k in s.labels]
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(tiny["stars"]))
    model = AutoModelForSequenceClassification.from_pretrained(str(tiny["stars"])).eval()
    with torch.no_grad():
        p = torch.softmax(model(**tok(SENTS[4], return_tensors="pt")).logits, -1)[0].numpy()
    row = out.iloc[4]
    np.testing.assert_allclose(row[[f"p_{k}" for k in s.labels]].to_numpy(dtype=float), p, atol=1e-5)
    assert row["expected"] == pytest.approx(float(p @ np.arange(1, 6)), abs=1e-5)
    assert row["argmax"] == float(np.argmax(p) + 1)
    assert row["expected_01"] == pytest.approx((row["expected"] - 1) / 4)
    np.testing.assert_allclose(out.filter(like="p_").sum(axis=1), 1.0, atol=1e-5)


def test_label_values_and_vote():
    assert label_values(["negative", "neutral", "positive"]) == ([0.0, 1.0, 2.0], "class index")
    assert label_values(["LABEL_0", "LABEL_1"]) == ([0.0, 1.0], "LABEL_k index")
    a = np.array([[0.6, 0.4], [0.2, 0.8]])
    b = np.array([[0.7, 0.3], [0.45, 0.55]])
    c = np.array([[0.1, 0.9], [0.9, 0.1]])
    winner, share = majority_vote([a, b, c])
    assert list(winner) == [0, 1] and list(share) == pytest.approx([2 / 3, 2 / 3])
    winner, share = majority_vote([a[:1], c[:1]])  # 1-1 tie: higher mean probability wins (0.35 vs 0.65)
    assert list(winner) == [1] and share[0] == 0.5


def test_fine_tune_two_seed_ensemble(tiny, tmp_path):
    from engine.models.training.fine_tune import FineTuneConfig
    from engine.models.training.train import train_classifier

    texts = [f"{w} day {i}" for i in range(12) for w in ("great", "terrible", "ok")]
    labels = ["5" if t.startswith("great") else "1" if t.startswith("terrible") else "3" for t in texts]
    train = LabeledData(texts, labels, "stars", "mem")
    report = train_classifier(train, train, base_model=str(tiny["encoder"]), out_dir=tmp_path / "ens", seeds=[1, 2],
                              config=FineTuneConfig(epochs=1, batch_size=8, lr=1e-3), device="cpu")
    assert (tmp_path / "ens" / "seed-1" / "model.safetensors").exists()
    assert report.results[0].metric == "accuracy" and 0 <= report.results[0].value <= 1
    ens = load_scorer(str(tmp_path / "ens"))
    assert ens.labels == ["1", "3", "5"] and ens.dimensions[:2] == ["vote", "vote_share"]
    out = score_texts(ens, SENTS)
    assert set(out["vote"]) <= {1.0, 3.0, 5.0}
    assert set(np.round(out["vote_share"], 3)) <= {0.5, 1.0}


def test_cpu_thread_rule(monkeypatch):
    from engine.models.device import cpu_threads

    monkeypatch.delenv("EEC_TORCH_THREADS", raising=False)
    assert cpu_threads(16, 0.2) == 16  # idle machine: every usable core
    assert cpu_threads(2, 2.5) == 1  # busy shared machine: barriers would wait on descheduled threads
    assert cpu_threads(8, 3.0) == 5
    monkeypatch.setenv("EEC_TORCH_THREADS", "3")
    assert cpu_threads(16, 0.0) == 3
    monkeypatch.setenv("EEC_TORCH_THREADS", "many")
    with pytest.raises(ModelError, match="EEC_TORCH_THREADS"):
        cpu_threads()
