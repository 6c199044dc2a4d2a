"""The audit's statistics options (inference, race pooling, score range, permutations) and its
language warning, without running a whole audit."""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from engine.audit.cli import plan_from_args
from engine.audit.pipeline import _declared_scales, _language_warnings
from engine.results.result import AuditResult
from engine.audit.statistics_step import mark_language
from engine.common.errors import UserError
from engine.models.scorers.lexicon import VaderScorer
from main import build_parser


def _args(*extra):
    return build_parser().parse_args(["audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--out", "o",
                                      *extra])


def test_cli_options_reach_the_plan_settings():
    s = plan_from_args(_args()).settings
    assert (s["inference"], s["race_pooling"], s["score_range"], s["n_permutations"]) == ("crossed", "paper", None, 2000)  # issue 37: crossed by default
    s = plan_from_args(_args("--inference", "paper", "--race-pooling", "within_gender", "--score-range", "1,5",
                             "--person-permutations", "500")).settings
    assert (s["inference"], s["race_pooling"], s["score_range"], s["n_permutations"]) == ("paper", "within_gender",
                                                                                          (1.0, 5.0), 500)


@pytest.mark.parametrize("bad,msg", [("5,1", "HIGH must be greater than LOW"), ("1", "is not LOW,HIGH"),
                                     ("a,b", "is not LOW,HIGH")])
def test_bad_score_range_is_one_clear_line(bad, msg, capsys):
    with pytest.raises(SystemExit):
        _args("--score-range", bad)
    err = capsys.readouterr().err
    assert f"'{bad}'" in err and msg in err and "e.g. --score-range" in err


def test_plan_validation_names_the_option():
    plan = plan_from_args(_args())
    plan.settings["inference"] = "sentences"
    with pytest.raises(UserError, match="--inference"):
        plan.validate()


def test_language_mismatch_is_warned_and_marked():
    result = AuditResult(out_dir=None, manifest={})
    said = []
    corpora = [(SimpleNamespace(id="es-x", language="es"), None, None),
               (SimpleNamespace(id="en-x", language="en"), None, None)]
    warnings = _language_warnings(corpora, [VaderScorer()], result, said.append)
    assert list(warnings) == ["es-x"] and "vader reads en but the corpus is in es" in warnings["es-x"]["vader"]
    assert any("es-x" in p for p in result.problems) and result.manifest["language_warnings"][0]["scorer"] == "vader"
    assert said and said[0].startswith("warning:")
    frame = pd.DataFrame({"model": ["vader", "svm"], "note": ["", "n"]})
    marked = mark_language(frame, warnings["es-x"])
    assert marked["language_warning"].tolist()[1] == "" and "reads en" in marked["note"].iloc[0]
    assert _declared_scales([VaderScorer()], {"vader:valence": ("vader", "valence")}) == {"vader:valence": (0.0, 1.0)}
