"""The run manifest: enough to say exactly what produced a set of results."""
from __future__ import annotations

import hashlib
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

PACKAGES = ("eec-studio", "numpy", "pandas", "scipy", "statsmodels", "scikit-learn", "torch", "transformers",
            "vadersentiment", "textblob")


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def package_versions() -> dict[str, str]:
    from importlib import metadata  # 0.1 s to import: asked for when a run starts, not at `import engine.audit`

    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def device_info() -> dict[str, Any]:
    info: dict[str, Any] = {"python": sys.version.split()[0], "platform": platform.platform(),
                            "machine": platform.machine()}
    if "torch" in sys.modules:  # only report what was actually used; never import torch just for this
        torch = sys.modules["torch"]
        info["torch_threads"] = torch.get_num_threads()
        info["cuda"] = bool(torch.cuda.is_available())
        if info["cuda"]:
            info["cuda_device"] = torch.cuda.get_device_name(0)
    return info


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def spec_label(spec: Any) -> str:
    """A scorer's spec string; a scorer object that stands for one (engine.sweep's scores computed on
    workers) says so in its ``spec`` attribute; any other object is named by its class."""
    if isinstance(spec, str):
        return spec
    named = getattr(spec, "spec", None)
    return named if isinstance(named, str) else f"<object {type(spec).__name__}>"


def scorer_record(spec: Any, scorer: Any) -> dict[str, Any]:
    """What the run manifest says about one scorer: spec, fingerprint, and how it was built and run."""
    rec: dict[str, Any] = {"spec": spec_label(spec),
                           "fingerprint": scorer.fingerprint(), "dimensions": list(scorer.dimensions)}
    describe = getattr(scorer, "describe", None)
    if callable(describe):
        try:
            rec["describe"] = describe()
        except Exception as exc:  # noqa: BLE001 - a description must never sink the audit
            rec["describe"] = {"error": f"{type(exc).__name__}: {exc}"}
    trained = getattr(scorer, "manifest", None)
    if isinstance(trained, dict) and trained:
        keep = ("system", "name", "language", "model_id", "model_fingerprint", "seed", "seeds", "created",
                "preprocess", "metrics", "paper_row")
        rec["trained"] = {k: trained[k] for k in keep if k in trained}
        rec["trained"]["data"] = [{k: d.get(k) for k in ("role", "path", "sha256", "rows")}
                                  for d in trained.get("data", []) if isinstance(d, dict)]
        rec["trained"]["versions"] = trained.get("versions", {})
    return rec
