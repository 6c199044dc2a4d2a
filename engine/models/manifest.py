"""The manifest written next to every trained model, and package-version capture.

Why: a bias measurement is only meaningful if one can say exactly which model produced
the scores. The manifest records the system, the data files (sha256), the base model id
and fingerprint, seeds, settings, test metrics and package versions, and it is what
`load_scorer` reads to rebuild the scorer.
"""
from __future__ import annotations

import json
import platform
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from engine.common.command import command
from engine.common.io import atomic_write_bytes
from engine.models.errors import ModelError

MANIFEST_NAME = "manifest.json"
FORMAT = "eec-studio-model"
FORMAT_VERSION = 1

_DISTRIBUTIONS = [
    "eec-studio", "numpy", "pandas", "scipy", "torch", "transformers", "safetensors", "tokenizers",
    "scikit-learn", "skops", "fasttext-numpy2-wheel", "fasttext-numpy2", "vadersentiment", "textblob",
    "gguf", "accelerate",
]


def package_versions() -> dict[str, str]:
    """Installed versions of the packages that can change scores (read without importing them)."""
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for dist in _DISTRIBUTIONS:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def utc_now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def write_manifest(folder: str | Path, content: dict[str, Any]) -> Path:
    """Write `manifest.json` (format header, versions and creation time added)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    full = {"format": FORMAT, "format_version": FORMAT_VERSION, "created": utc_now(), **content,
            "versions": package_versions()}
    path = folder / MANIFEST_NAME
    # atomic: a model folder whose manifest is half-written would load as "not a model"
    atomic_write_bytes(path, (json.dumps(full, indent=2, ensure_ascii=False, default=str) + "\n").encode("utf-8"))
    return path


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """Read and check a model folder's manifest."""
    folder = Path(folder)
    path = folder / MANIFEST_NAME
    if not path.exists():
        raise ModelError(str(folder), f"no {MANIFEST_NAME} in the folder",
                         fix=f"give a folder written by `{command('train')}`, or an hf-classifier:/predictions: spec")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(str(path), f"not valid JSON ({exc})", fix="restore the file or retrain") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelError(str(path), "not an EEC Studio model manifest", field="format")
    if int(data.get("format_version", 0)) > FORMAT_VERSION:
        raise ModelError(str(path), f"written by a newer EEC Studio (format {data.get('format_version')})",
                         field="format_version", fix="update EEC Studio")
    for key in ("system", "dimensions"):
        if key not in data:
            raise ModelError(str(path), f"missing '{key}'", field=key, fix=f"retrain with `{command('train')}`")
    return data
