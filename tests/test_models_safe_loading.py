"""Safe loading: safetensors/skops always, pickles only with allow_pickle (and torch via weights_only)."""
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine.models.errors import ModelError, UnsafeWeightsError  # noqa: E402
from engine.models.scorers.hf_classifier import SequenceClassifierScorer  # noqa: E402
from engine.models.scorers.hf_encoder import HFEncoder  # noqa: E402
from engine.models.training.regression_head import load_heads  # noqa: E402
from engine.models.safe_load import load_sklearn, load_torch_state, save_sklearn  # noqa: E402
from engine.models.specs import load_scorer  # noqa: E402
from testkit.tiny_models import make_tiny_bert  # noqa: E402


def _to_pickle_folder(folder):
    """Replace model.safetensors by a torch-pickled pytorch_model.bin (what old checkpoints look like)."""
    from safetensors.torch import load_file

    state = load_file(str(folder / "model.safetensors"))
    torch.save(state, folder / "pytorch_model.bin")
    (folder / "model.safetensors").unlink()
    return folder


class Exploit:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_pickled_hf_weights_refused_unless_allowed(tmp_path):
    ref = make_tiny_bert(tmp_path / "ref", labels=["neg", "pos"], seed=4)
    old = _to_pickle_folder(make_tiny_bert(tmp_path / "old", labels=["neg", "pos"], seed=4))
    with pytest.raises(UnsafeWeightsError, match="allow_pickle") as e:
        SequenceClassifierScorer(old).score(["hello"])
    assert "pytorch_model.bin" in str(e.value)
    with pytest.raises(UnsafeWeightsError):
        HFEncoder(old).load()
    with pytest.raises(UnsafeWeightsError):
        load_scorer(f"hf-classifier:{old}").score(["x"])
    allowed = SequenceClassifierScorer(old, allow_pickle=True).score(["hello there", "sad day"])
    expected = SequenceClassifierScorer(ref).score(["hello there", "sad day"])
    np.testing.assert_allclose(allowed.to_numpy(), expected.to_numpy(), atol=1e-6)


def test_malicious_pickle_never_executes(tmp_path):
    marker = tmp_path / "pwned"
    bad = tmp_path / "heads.bin"
    torch.save({"x": Exploit(str(marker))}, bad)
    with pytest.raises(UnsafeWeightsError):
        load_torch_state(bad)
    with pytest.raises(ModelError, match="safe loader refuses to run") as e:
        load_torch_state(bad, allow_pickle=True)  # allowed, yet the restricted unpickler refuses code
    assert "weights_only" not in str(e.value)  # torch's advice (turn the safety off) is not passed on
    with pytest.raises(ModelError):
        load_heads(bad, allow_pickle=True)
    assert not marker.exists()


def test_sklearn_pickles_need_allow_pickle(tmp_path):
    import joblib
    from sklearn.linear_model import Ridge

    model = Ridge().fit(np.eye(3), [0, 1, 2])
    joblib.dump(model, tmp_path / "m.joblib")
    with pytest.raises(UnsafeWeightsError, match="allow_pickle"):
        load_sklearn(tmp_path / "m.joblib")
    assert load_sklearn(tmp_path / "m.joblib", allow_pickle=True).predict(np.eye(3)).shape == (3,)
    with pytest.raises(UnsafeWeightsError, match="this scikit-learn model is stored with pickle"):
        load_sklearn(tmp_path / "m.joblib")
    joblib.dump(5, tmp_path / "int.joblib")  # allowed code that does not produce a model
    with pytest.raises(ModelError, match=r"holds a Python int object, not a scikit-learn model \(no predict\(\) method\)"):
        load_sklearn(tmp_path / "int.joblib", allow_pickle=True)
    save_sklearn(model, tmp_path / "m.skops")
    np.testing.assert_allclose(load_sklearn(tmp_path / "m.skops").predict(np.eye(3)), model.predict(np.eye(3)))


def test_skops_outside_allow_list_refused(tmp_path):
    import skops.io as sio
    from sklearn.preprocessing import FunctionTransformer

    sio.dump(FunctionTransformer(func=os.system), tmp_path / "f.skops")
    with pytest.raises(ModelError, match="allow-list: posix.system"):
        load_sklearn(tmp_path / "f.skops")


def test_missing_and_unknown_weight_files(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        load_torch_state(tmp_path / "nope.safetensors")
    (tmp_path / "w.npz").write_bytes(b"x")
    with pytest.raises(ModelError, match="unknown weights format"):
        load_torch_state(tmp_path / "w.npz")
    (tmp_path / "broken.safetensors").write_bytes(b"not really")
    with pytest.raises(ModelError, match="cannot read safetensors"):
        load_torch_state(tmp_path / "broken.safetensors")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="config.json"):
        HFEncoder(tmp_path / "empty").load()
