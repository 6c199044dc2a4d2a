"""Issue 40, part 1: users' regular expressions run with a deadline (engine/common/patterns.py).

A corpus or a shared package carries patterns ([[restrictions]], [expect], [derive]); one that
backtracks without end froze `corpus check`, `package verify` and `package import` past 120 s,
deaf to Ctrl+C. Now such a pattern is refused, naming file, line, field and pattern."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.common import patterns
from engine.common.patterns import PatternError, user_pattern
from testkit.audit_fixtures import write_mini_corpus

ROOT = Path(__file__).resolve().parents[1]
EXPLODES = r"^(\w|\w)*$"  # the regex module backtracks on this one too


def _corpus(tmp_path: Path, extra: str) -> Path:
    path = write_mini_corpus(tmp_path / "c")
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def _restriction(pattern: str, key: str = "sentence") -> str:
    return f"\n[[restrictions]]\ncode = \"E022\"\nmessage = \"a test rule\"\n{key} = '{pattern}'\n"


def _cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "main.py", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_a_backtracking_pattern_is_refused_with_file_field_and_pattern():
    with pytest.raises(PatternError) as err:
        user_pattern(EXPLODES, file="x.toml", field="restrictions[0].sentence", line=7)
    text = str(err.value)
    assert text.startswith("x.toml:7 [restrictions[0].sentence]: pattern '^(\\\\w|\\\\w)*$' refused")
    assert "catastrophic backtracking" in text


def test_every_match_has_a_deadline_even_without_the_probe(monkeypatch):
    monkeypatch.setattr(patterns, "MATCH_DEADLINE_S", 0.2)
    rx = user_pattern(r"^(x|x)*$", file="c.toml", field="expect.position.attr", probe=False)
    assert rx.search("xxx") is not None  # works as re does
    with pytest.raises(PatternError, match=r"c\.toml \[expect\.position\.attr\]: pattern .* 0\.2 s deadline"):
        rx.search("x" * 60 + "!")


def test_the_issues_patterns_run_in_linear_time_and_keep_re_semantics():
    for p in (r"^(\w+\s?)*$", r"^((\w+)+\s?)*$"):
        rx = user_pattern(p, field="f")
        assert rx.search("Alonzo feels angry about the situation today a" * 3 + ".") is None
        assert rx.search("Alonzo feels angry") is not None
    assert user_pattern(r"(?P<en>lo|la)\s+$").search("se la ").group("en") == "la"


def test_invalid_and_non_string_patterns_name_their_field():
    with pytest.raises(PatternError, match=r"\[derive\.gender\.f\]: not a valid regular expression"):
        user_pattern("(", field="derive.gender.f")
    with pytest.raises(PatternError, match="expected a regular expression string, got int"):
        user_pattern(5, field="restrictions[0].word")


@pytest.mark.parametrize("section, field", [
    (_restriction(EXPLODES), "restrictions[0].sentence"),
    (_restriction(r"^(a|aa)*$", "word"), "restrictions[0].word"),
    ("\n[expect.role]\nsubject = '^((ab|ab)+)*$'\n", "expect.role.subject"),
    ("\n[derive.gender]\nf = '^(a|a)*$'\n", "derive.gender.f"),
])
def test_corpus_check_refuses_within_seconds(tmp_path, section, field):
    path = _corpus(tmp_path, section)
    start = time.monotonic()
    res = _cli("corpus", "check", str(path))
    took = time.monotonic() - start
    assert res.returncode == 2, res.stderr
    line = res.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {path}:") and f"[{field}]: pattern" in line and "refused" in line, line
    assert took < 20, took  # no hang (a generous bound for a loaded machine; the refusal takes < 1 s)


def test_the_issues_restriction_no_longer_hangs(tmp_path):
    path = _corpus(tmp_path, _restriction(r"^(\w+\s?)*$"))
    res = _cli("corpus", "check", str(path))
    assert res.returncode == 0, res.stderr
    assert "462 sentence(s)" in res.stdout


def test_a_pattern_slow_on_every_sentence_is_stopped_by_its_budget(monkeypatch):
    """Each match under the per-match deadline, but thousands of them: the pattern's budget ends it
    (the clock is simulated: every match "takes" 0.25 s)."""
    import itertools

    ticks = itertools.count()
    monkeypatch.setattr(patterns.time, "perf_counter", lambda: next(ticks) * 0.25)
    monkeypatch.setattr(patterns, "TOTAL_BUDGET_S", 10.0)
    rx = user_pattern(r"feels", file="c.toml", field="restrictions[0].sentence", probe=False)
    with pytest.raises(PatternError, match=r"its matches took over 10 s in all \(41 texts"):
        for _ in range(1000):
            rx.search("Ebony feels angry.")


def test_a_huge_pattern_is_refused_before_compiling():
    with pytest.raises(PatternError, match="a pattern of 20,000 characters"):
        user_pattern("a" * 20_000, field="restrictions[0].word")


@pytest.mark.parametrize("pattern, risky", [
    (r"^(\w+\s?)*$", True), (r"^(\w|\w)*$", True), (r"(a|aa)*", True), (r".*a.*b.*c", True), (r"(x)\1", True),
    (r"\bfeel", False), (r"^\w+(?:e|en|em|er|es)\b", False), (r"(?:^|\s)(?:me|te|se)\s+siento", False),
])
def test_only_patterns_that_may_backtrack_pay_for_the_timeout(pattern, risky):
    assert patterns.needs_deadline(pattern) is risky


def test_a_sane_pattern_is_never_refused_for_being_used_often(monkeypatch):
    """The budget was fixed per process: a sane pattern of a language file, matched on every sentence of
    every check of a long session (the test suite: ~575,000 sentences), was refused at 30 s. It now grows
    with the runs (1 ms a text on average), so only a pattern that is slow on average is refused."""
    from engine.common import patterns

    monkeypatch.setattr(patterns, "TOTAL_BUDGET_S", 0.0005)  # as if the fixed budget were spent already
    p = patterns.user_pattern(r"(?i)\bse\s+sienta\s+con\s+(?:un|una)\b", file="es.toml", field="restrictions[3]")
    for _ in range(3000):
        assert p.search("María se siente furiosa.") is None
