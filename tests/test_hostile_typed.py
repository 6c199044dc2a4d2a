"""Issue 40, part 5: settings convert as well as validate; corpus fields are type-checked with file:line:field.

A sweep's `alpha = "0.05"` passed validation as a string and failed after the cluster had scored
everything (exit 4); `score_range = ["0","1"]` was recorded as strings; `[[restrictions]] words =
"angry"` became the letter set {a,n,g,r,y}; `emotions = 5` ended in an internal error."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from engine.common.errors import UsageError
from engine.stats import settings as S
from engine.stats.registry import settings as declared
from testkit.audit_fixtures import write_mini_corpus


def _setting(key: str) -> S.Setting:
    return next(s for s in declared() if s.key == key)


def test_check_returns_the_declared_type():
    alpha = _setting("alpha").check("0.05")
    assert alpha == 0.05 and type(alpha) is float
    assert type(_setting("alpha").check(1 / 20)) is float
    n = _setting("n_resamples").check("1000")
    assert n == 1000 and type(n) is int
    assert _setting("score_range").check(["0", "1"]) == (0.0, 1.0)
    assert all(type(v) is float for v in _setting("score_range").check([0, 1]))
    assert _setting("inference").check("paper") == "paper"


@pytest.mark.parametrize("key, value, says", [
    ("alpha", "abc", "must be a number, got 'abc'"),
    ("alpha", "inf", "must be a finite number"),
    ("alpha", True, "must be a number, got True"),
    ("alpha", [0.05], "must be a number"),
    ("n_resamples", 2.5, "must be a whole number, got 2.5"),
    ("n_resamples", "many", "must be a whole number"),
    ("score_range", ["0", "x"], "must be a number, got 'x'"),
    ("inference", 5, "must be one of"),
])
def test_check_refuses_what_does_not_convert(key, value, says):
    with pytest.raises(UsageError, match=says):
        _setting(key).check(value)


def test_a_statistic_reads_the_typed_value_even_from_a_hand_built_plan():
    assert _setting("alpha").value_or_default({"alpha": "0.01"}) == 0.01
    assert _setting("score_range").value_or_default({"score_range": ["0", "1"]}) == (0.0, 1.0)


def test_a_sweep_plans_strings_become_numbers(tmp_path):
    from engine.sweep.plan_file import load_sweep_plan

    plan = tmp_path / "plan.toml"
    plan.write_text('[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nalpha = "0.05"\n'
                    'score_range = ["0", "1"]\nbootstrap = "200"\n', encoding="utf-8")
    settings = load_sweep_plan(plan).audit.settings
    assert settings["alpha"] == 0.05 and type(settings["alpha"]) is float
    assert settings["score_range"] == (0.0, 1.0) and settings["n_resamples"] == 200


def _check(tmp_path: Path, extra: str) -> tuple[int, str, Path]:
    import main

    path = write_mini_corpus(tmp_path / "c")
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main.main(["corpus", "check", str(path)])
    return code, err.getvalue().strip(), path


_RULE = '\n[[restrictions]]\ncode = "E022"\nmessage = "a rule"\nsentence = "feels"\n'


@pytest.mark.parametrize("line, field, says", [
    ('words = "angry"', "words", "expected an array of strings, got a string ('angry')"),
    ("emotions = 5", "emotions", "expected an array of strings, got int (5)"),
    ('emotions = ["rage"]', "emotions", "'rage' is not one of"),
    ('experiencer = [1]', "experiencer", "entry 1 is 1, not a non-empty string"),
    ('words = [""]', "words", "entry 1 is '', not a non-empty string"),
])
def test_restriction_fields_are_typed_with_file_line_and_field(tmp_path, line, field, says):
    code, err, path = _check(tmp_path, _RULE + line + "\n")
    assert code == 2, err
    assert err.startswith(f"error: {path}:") and f"[restrictions[0].{field}]: {says}" in err, err
    assert "unexpected" not in err


@pytest.mark.parametrize("entry", ['"two words"', '"a\\u0000b"', "5"])
def test_spelling_accept_entries_written_by_hand_are_one_word(tmp_path, entry):
    code, err, path = _check(tmp_path, f"\n[spelling]\naccept = [{entry}]\n")
    assert code == 2 and "[spelling.accept[0]]" in err, err


def test_spelling_add_says_a_long_list_in_one_short_line(tmp_path, capsys):
    import main

    path = write_mini_corpus(tmp_path / "c")
    words = [f"Wort{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{chr(97 + i // 676)}" for i in range(2000)]
    assert main.main(["corpus", "spelling-add", str(path), *words]) == 0
    out = capsys.readouterr().out.strip()
    assert out.endswith("… and 1,990 more") and len(out) < 400, out
    from engine.corpus.definition.loader import load_definition

    assert len(load_definition(path).spelling_accept) == 2000


def test_the_writing_direction_is_ltr_or_rtl(tmp_path):
    import main

    path = write_mini_corpus(tmp_path / "c")
    path.write_text(path.read_text(encoding="utf-8").replace('language = "en"', 'language = "en"\ndirection = "sideways"', 1),
                    encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main.main(["corpus", "check", str(path)]) == 2
    assert f"{path}:5 [direction]: 'sideways' is not a writing direction" in err.getvalue()
