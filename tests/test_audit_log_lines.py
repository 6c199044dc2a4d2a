"""Log lines say what will actually happen (issue 31, part 6): a sweep whose scores all come from the
cache said "scoring 34,560 texts … in up to 2 processes" just before reporting that every one was cached."""
from __future__ import annotations

from engine.audit import AuditPlan, run_audit


def _lines(tmp_path, out: str) -> list[str]:
    lines: list[str] = []
    plan = AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["paired"], out_dir=tmp_path / out,
                     cache_dir=tmp_path / "cache", settings={"n_resamples": 0, "jobs": 2})
    run_audit(plan, log=lines.append)
    return lines


def test_the_scoring_line_says_what_is_scored_and_what_comes_from_the_cache(tmp_path):
    first = [line for line in _lines(tmp_path, "a") if "texts (" in line]
    assert len(first) == 1 and "scoring 8,640" in first[0] and "from the score cache" not in first[0], first
    again = [line for line in _lines(tmp_path, "b") if "texts (" in line]
    assert again == ["8,640 texts (1 corpus × 1 scorer): all from the score cache, nothing to score"], again
