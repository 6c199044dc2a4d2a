"""The safe-loading policy for every weights file the product opens.

Policy (stated once, applied everywhere):
* safetensors (and skops for scikit-learn) are always accepted: they hold data only.
* Pickle-based files (`pytorch_model.bin`, `.pt`, `.pth`, `.ckpt`, `.joblib`, `.pkl`) are
  refused unless the caller passes `allow_pickle=True` (CLI `--allow-pickle`), because
  unpickling a file can run arbitrary code.
* Even when allowed, torch weights go through `torch.load(weights_only=True)` (the
  restricted unpickler: tensors and plain containers only). Only joblib/pickle files of
  scikit-learn models are fully unpickled, and only with `allow_pickle=True`.
* skops files are loaded with an explicit allow-list of the types our own models need;
  any other type in the file is refused with its name.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.models.errors import ModelError, UnsafeWeightsError

PICKLE_SUFFIXES = {".bin", ".pt", ".pth", ".ckpt", ".joblib", ".pkl", ".pickle"}

#: Non-primitive types that skops files written by this product may contain.
SKOPS_TRUSTED = [
    "scipy.sparse._csr.csr_matrix",
    "scipy.sparse._csc.csc_matrix",
    "sklearn.neural_network._stochastic_optimizers.AdamOptimizer",
    "sklearn.neural_network._stochastic_optimizers.SGDOptimizer",
]


def refuse_pickle(path: str | Path, what: str = "the weights") -> None:
    verb = "are" if what.endswith("weights") else "is"
    raise UnsafeWeightsError(
        str(path),
        f"{what} {verb} stored with pickle, which can run code when loaded",
        fix="convert the file to safetensors, or pass allow_pickle=True / --allow-pickle if you trust its source",
    )


def load_torch_state(path: str | Path, *, allow_pickle: bool = False) -> dict[str, Any]:
    """Load a tensor dict: safetensors always; torch pickles only with allow_pickle (weights_only)."""
    path = Path(path)
    if not path.exists():
        raise ModelError(str(path), "weights file not found", fix="check the path")
    if path.suffix == ".safetensors":
        from safetensors.torch import load_file

        try:
            return load_file(str(path))
        except Exception as exc:  # corrupt or truncated file
            raise ModelError(str(path), f"cannot read safetensors file ({exc})") from None
    if path.suffix in PICKLE_SUFFIXES:
        if not allow_pickle:
            refuse_pickle(path)
        import torch

        try:
            state = torch.load(str(path), map_location="cpu", weights_only=True)
        except Exception as exc:
            raise ModelError(str(path), restricted_unpickler_refusal(exc),
                             fix="re-save the weights as safetensors (save_file / save_pretrained)") from None
        if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
            raise ModelError(str(path), f"holds a {type(state).__name__}, not a dictionary of tensors",
                             fix="give the weights file the model was saved with (state_dict), as safetensors")
        return state
    raise ModelError(str(path), f"unknown weights format '{path.suffix}'", fix="use a .safetensors file")


def restricted_unpickler_refusal(exc: BaseException) -> str:
    """Our words for a failed safe torch load; torch's own advice (turn the safety off) is not passed on."""
    text = str(exc)
    if "weights_only" in text or "Weights only load failed" in text or "Unsupported global" in text:
        return "holds Python objects besides tensors, which the safe loader refuses to run"
    if "zip" in text.lower() or "magic number" in text.lower() or isinstance(exc, EOFError):
        return "not a readable torch file (truncated or not torch weights)"
    return f"cannot read the weights ({type(exc).__name__})"


def hf_weights_policy(folder: str | Path, *, allow_pickle: bool = False) -> bool:
    """Decide `use_safetensors` for `from_pretrained` on a local folder, refusing pickles.

    Returns True when the folder has safetensors weights (always preferred), False when
    only pickle weights exist and the caller allowed them (transformers then uses
    torch.load(weights_only=True)). Raises otherwise.
    """
    folder = Path(folder)
    if any(folder.glob("*.safetensors")):
        from .file_integrity import check_model_files

        check_model_files(folder)  # a cut file is "truncated", not a loader's deserialising error
        return True
    pickles = [p for p in folder.iterdir() if p.suffix in PICKLE_SUFFIXES and p.is_file()]
    if pickles:
        if not allow_pickle:
            refuse_pickle(pickles[0], "this model's weights")
        return False
    raise ModelError(str(folder), "no weights file (*.safetensors) in the model folder",
                     fix="point to a folder written by save_pretrained()")


def save_sklearn(obj: Any, path: str | Path) -> None:
    """Save a scikit-learn object in skops format (no pickle)."""
    import skops.io as sio

    sio.dump(obj, str(path))


def load_sklearn(path: str | Path, *, allow_pickle: bool = False, require: str = "predict") -> Any:
    """Load a scikit-learn object: skops with an allow-list, or joblib/pickle only if allowed.

    The result must have the method ``require``: allowed pickle code that produces something
    else (a number, a dict) is reported as such, not as an AttributeError at scoring time.
    """
    path = Path(path)
    if not path.exists():
        raise ModelError(str(path), "model file not found", fix="check the path or retrain")
    if path.suffix == ".skops":
        try:
            import skops.io as sio
        except ImportError:
            raise ModelError(str(path), "reading .skops files needs the 'skops' package",
                             fix="pip install skops") from None
        try:
            untrusted = sio.get_untrusted_types(file=str(path))
        except Exception as exc:
            raise ModelError(str(path), f"not a readable skops file ({exc})") from None
        unknown = [t for t in untrusted if t not in SKOPS_TRUSTED]
        if unknown:
            raise ModelError(str(path), f"file contains types outside the allow-list: {', '.join(unknown)}",
                             fix="only load skops files written by EEC Studio, or retrain the model")
        return _require(sio.load(str(path), trusted=untrusted), path, require)
    if path.suffix in PICKLE_SUFFIXES:
        if not allow_pickle:
            refuse_pickle(path, "this scikit-learn model")
        import joblib

        try:
            obj = joblib.load(str(path))
        except Exception as exc:  # the file's own code failed, or it is not a pickle at all
            raise ModelError(str(path), f"loading it failed ({type(exc).__name__}: {str(exc).splitlines()[0][:120]})"
                             if str(exc) else f"loading it failed ({type(exc).__name__})",
                             fix="give a model file saved by scikit-learn (joblib.dump), or retrain") from None
        return _require(obj, path, require)
    raise ModelError(str(path), f"unknown model format '{path.suffix}'", fix="use a .skops file")


def _require(obj: Any, path: Path, method: str) -> Any:
    if not callable(getattr(obj, method, None)):
        raise ModelError(str(path), f"the file holds a Python {type(obj).__name__} object, not a scikit-learn model "
                         f"(no {method}() method)", fix="give the model file itself (joblib.dump of the fitted "
                         "estimator), or retrain")
    return obj
