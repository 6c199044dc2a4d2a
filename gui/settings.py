"""Preferences and recent files, kept as JSON under the user's EEC Studio home.

Why not QSettings' native store: tests (and several users on one machine) isolate their data
with ``EEC_STUDIO_HOME``; one small JSON file there is easy to inspect and to reset.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from engine.common.user_dirs import user_home

MAX_RECENT = 10
DEFAULTS: dict[str, Any] = {
    "language": "",  # empty: follow the system locale
    "recent_files": [],
    "translator_id": "",
    "autosave_seconds": 5.0,
    "audit_jobs": 0,  # processes scoring CPU-bound systems in an audit; 0: one per core
}


def settings_path() -> Path:
    return user_home() / "settings.json"


def load() -> dict[str, Any]:
    data = dict(DEFAULTS)
    try:
        stored = json.loads(settings_path().read_text("utf-8"))
        if isinstance(stored, dict):
            data.update({k: v for k, v in stored.items() if k in DEFAULTS})
    except (OSError, ValueError):
        pass  # missing or damaged settings: start from defaults rather than refuse to start
    return data


def get(key: str) -> Any:
    return load().get(key, DEFAULTS.get(key))


def put(key: str, value: Any) -> None:
    data = load()
    data[key] = value
    from engine.common.io import atomic_write_bytes

    try:
        atomic_write_bytes(settings_path(), json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8"))
    except OSError:
        pass  # a read-only home must not break editing; preferences simply are not remembered


def autosave_seconds() -> float:
    """Autosave interval; EEC_AUTOSAVE_SECONDS overrides it (the crash test uses a short one)."""
    env = os.environ.get("EEC_AUTOSAVE_SECONDS")
    try:
        return max(0.1, float(env if env else get("autosave_seconds")))
    except (TypeError, ValueError):
        return DEFAULTS["autosave_seconds"]


def recent_files() -> list[str]:
    return [p for p in get("recent_files") if isinstance(p, str)]


def add_recent(path: str | os.PathLike) -> list[str]:
    p = str(Path(path).resolve())
    items = [p] + [x for x in recent_files() if x != p]
    put("recent_files", items[:MAX_RECENT])
    return items[:MAX_RECENT]
