"""The run manifest: enough to say exactly what produced a set of results."""
from __future__ import annotations

import hashlib
import platform
import sys
from datetime import datetime, timezone
from importlib import metadata
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
