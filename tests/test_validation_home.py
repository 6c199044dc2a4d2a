"""One validation home (issue 41 part 5): a statistic setting is checked only by its ``Setting``, so a
bad value reads the same from the command line, a plan built in code, a sweep file and a statistic
function called in a notebook; ``AuditPlan.settings`` holds only statistic settings, refusing an
unknown key with the nearest known one; GUI and CLI call the same errors the user's."""
from __future__ import annotations

import pandas as pd
import pytest

from engine.common.errors import UsageError, UserError

ALPHA_LINE = "must be between 0 and 1 (exclusive), got 5 — e.g. 0.05 for a 5% level"


def test_alpha_reads_the_same_wherever_it_is_checked():
    from engine.audit import AuditPlan
    from engine.stats.hypothesis_tests.km import km_paired_analysis
    from engine.stats.settings import ALPHA

    with pytest.raises(UsageError) as plan:
        AuditPlan(["en-kiritchenko2018"], ["vader"], settings={"alpha": 5}).validate()
    with pytest.raises(UsageError) as direct:
        km_paired_analysis(pd.DataFrame(), "s", alpha=5)
    with pytest.raises(UsageError) as setting:
        ALPHA.check(5, "alpha")
    assert str(plan.value) == f"[--alpha]: {ALPHA_LINE}"
    assert str(direct.value) == str(setting.value) == f"[alpha]: {ALPHA_LINE}"


def test_inference_and_race_pooling_are_checked_by_their_settings():
    from engine.stats.inference import InferenceOptions, race_by_gender_from

    with pytest.raises(UsageError, match=r"^\[inference\]: must be one of person, crossed, paper, not 'sentence'"):
        InferenceOptions(inference="sentence")
    with pytest.raises(UsageError, match=r"^\[race_pooling\]: must be one of paper, within_gender, not 'pooled'"):
        race_by_gender_from("pooled", None)


def test_the_inference_has_one_name_in_the_gui_and_the_plots():
    from engine.stats.entries._shared import inference_suffix
    from engine.stats.settings import INFERENCE, INFERENCE_NAMES

    assert INFERENCE.choice_labels == tuple(INFERENCE_NAMES.values())
    for choice, name in INFERENCE_NAMES.items():
        assert inference_suffix(pd.DataFrame({"inference": [choice]})) == f" (p: {name})"


def test_an_unknown_setting_is_refused_with_the_nearest_one_as_a_sweep_file_refuses_it(tmp_path):
    from engine.audit import AuditPlan
    from engine.sweep import SweepError, parse_sweep_plan

    with pytest.raises(UsageError) as err:
        AuditPlan(["en-kiritchenko2018"], ["vader"], settings={"alpah": 0.1}).validate()
    assert err.value.message == "unknown setting 'alpah'" and err.value.fix.startswith("did you mean 'alpha'?")
    with pytest.raises(SweepError) as sweep:
        parse_sweep_plan('[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\nalpah = 0.1\n', "p.toml")
    assert "unknown key 'alpah'" in str(sweep.value) and "did you mean 'alpha'?" in str(sweep.value)


def test_run_options_are_not_statistic_settings():
    from engine.audit import AuditPlan

    plan = AuditPlan(["en-kiritchenko2018"], ["vader"], settings={"alpha": 0.1}, jobs=2)
    assert plan.settings == {"alpha": 0.1} and plan.jobs == 2
    older = AuditPlan(["en-kiritchenko2018"], ["vader"], settings={"jobs": 3})  # the older spelling
    assert older.settings == {} and older.jobs == 3
    older.validate()
    with pytest.raises(UsageError) as err:
        AuditPlan(["en-kiritchenko2018"], ["vader"], jobs=-1).validate()
    assert err.value.field == "--jobs"


def test_the_gui_calls_a_bare_value_error_a_bug_as_the_command_line_does():
    from gui.errors import friendly

    bug = friendly(ValueError("shapes (3,) and (4,) not aligned"))
    assert bug.title == "Something went wrong" and bug.log_file  # exit 4 on the command line
    mine = friendly(UserError("this corpus has no file yet", fix="use Save As to choose one"))
    assert (mine.title, mine.text, mine.fix) == ("Cannot continue", "this corpus has no file yet", "use Save As to choose one")


def test_the_gui_raises_user_errors_for_what_a_user_can_fix(tmp_path):
    from gui.workbench.document import CorpusDocument
    from engine.corpus import parse_definition
    from testkit.corpus_fixtures import mini

    doc = CorpusDocument(parse_definition(mini()), None)
    with pytest.raises(UserError, match="no file yet"):
        doc.save()
