"""A scorer the client hands to the audit pipeline in place of a model that ran on the workers.

Why: after a sweep every score is in the client's score cache under the fingerprint the workers
computed. The pipeline only needs the scorer's name, dimensions and fingerprint to read them back,
and its description for the run manifest. Loading the model again on the client would need the
model files and (for a GPU model) a GPU there, and could compute another fingerprint (the
precision a GPU picks) and rescore everything locally. ``spec`` keeps the manifest's spec string.
"""
from __future__ import annotations

from typing import Any

from .errors import SweepError


class ScoredOnWorkers:
    def __init__(self, spec: str, info: dict[str, Any]) -> None:
        self.spec = spec
        self.name = info["name"]
        self.dimensions = list(info["dimensions"])
        self._fingerprint = info["fingerprint"]
        if "describe" in info:
            described = info["describe"]
            self.describe = lambda: described
        if isinstance(info.get("manifest"), dict):
            self.manifest = info["manifest"]

    def fingerprint(self) -> str:
        return self._fingerprint

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        # every text was scored on a worker and cached before the pipeline runs
        raise SweepError(f"{len(texts)} texts were not scored on the workers", field=self.name,
                         fix="run the sweep again (the score cache keeps what was done)")
