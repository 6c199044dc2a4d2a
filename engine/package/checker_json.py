"""The checker report as JSON, so a package carries machine-readable findings.

Why both text and JSON: the text is for people opening the package; the JSON lets import
compare the packaged findings with what this version's checker finds.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from engine.corpus import CheckReport


def report_to_dict(report: CheckReport) -> dict[str, Any]:
    return {"corpus": report.corpus_id, "sentences": report.sentences, "errors": len(report.errors),
            "warnings": len(report.warnings),
            "findings": [{"severity": f.severity, **asdict(f)} for f in report.findings]}


def report_to_bytes(report: CheckReport) -> bytes:
    return (json.dumps(report_to_dict(report), indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def summary_counts(raw: bytes) -> tuple[int, int, int] | None:
    """(sentences, errors, warnings) of a packaged checker.json, or None when it is not readable."""
    try:
        data = json.loads(raw.decode("utf-8"))
        counts = tuple(data[k] for k in ("sentences", "errors", "warnings"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, KeyError, TypeError):
        return None
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
        return None
    return counts  # type: ignore[return-value]
