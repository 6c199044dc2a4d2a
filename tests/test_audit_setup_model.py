"""The Audit page's plan as plain data (gui/audit/setup_model.py): no window needed."""
from __future__ import annotations

from pathlib import Path

import pytest

from gui.audit.setup_model import AuditSetup, SetupIncomplete


@pytest.fixture(scope="module")
def defaults():
    return AuditSetup.with_defaults()


def test_defaults_list_corpora_lexicons_and_tests_weat_first(defaults):
    assert "en-kiritchenko2018" in [c.key for c in defaults.corpora]
    assert [c.key for c in defaults.scorers] == ["vader", "textblob"]
    families = [t.kind for t in defaults.tests]
    assert families[0] == "weat" and defaults.tests[0].language == "en"  # not dozens of Italian FISE entries first
    assert families == sorted(families, key=["weat", "seat", "lpbs", "fise"].index)
    assert all(c.checked is False for c in defaults.corpora + defaults.scorers + defaults.tests)


def test_to_plan_carries_every_choice(tmp_path):
    s = AuditSetup.with_defaults()
    seen = []
    s.listeners.append(seen.append)
    s.add_corpus("en-kiritchenko2018")
    s.add_scorer("vader", kind="lexicon")
    s.add_scorer("hf-classifier:/m/tiny", kind="hf-classifier")
    s.set_option("device", "cpu")
    s.set_option("batch_size", 16)
    s.set_option("alpha", 0.01)
    s.set_statistics(["paired"])
    s.add_assoc_test("weat/T1")
    plan = s.to_plan(tmp_path / "out")
    assert plan.corpora == ["en-kiritchenko2018"]
    assert plan.scorers == ["vader", "hf-classifier:/m/tiny?device=cpu&batch_size=16"]
    assert plan.stats == ["paired"] and plan.settings["alpha"] == 0.01
    assert plan.assoc.tests == ["weat/T1"] and plan.out_dir == tmp_path / "out"
    assert seen == ["corpora", "scorers", "scorers", "options", "tests"]
    plan.validate()


def test_incomplete_setups_say_what_is_missing(tmp_path):
    s = AuditSetup.with_defaults()
    with pytest.raises(SetupIncomplete, match="at least one corpus"):
        s.to_plan(tmp_path)
    s.add_corpus("en-kiritchenko2018")
    with pytest.raises(SetupIncomplete, match="at least one system"):
        s.to_plan(tmp_path)
    s.add_assoc_test("weat/T1")  # association tests only is fine, corpora without systems is not
    with pytest.raises(SetupIncomplete, match="one corpus and one system"):
        s.to_plan(tmp_path)
    s.set_checked("corpora", "en-kiritchenko2018", False)
    plan = s.to_plan(tmp_path)
    assert plan.assoc_only and plan.corpora == [] and plan.stats == []


def test_lexicon_systems_cannot_be_removed_and_files_get_their_names(tmp_path):
    s = AuditSetup.with_defaults()
    pred = s.add_scorer(f"predictions:{tmp_path / 'sys.tsv'}?name=mine", kind="predictions")
    corpus = s.add_corpus(str(tmp_path / "fr-test.toml"))
    assert pred.name == "mine" and corpus.name == "fr-test"
    s.remove_scorers(["vader", pred.key])
    assert [c.key for c in s.scorers] == ["vader", "textblob"]


def test_out_dir_defaults_to_a_dated_folder(tmp_path):
    s = AuditSetup()
    auto = s.resolve_out_dir(tmp_path)
    assert auto.parent == tmp_path and auto.name.startswith("audit-")
    s.set_option("out_dir", "~/x")
    assert s.resolve_out_dir(tmp_path) == Path("~/x").expanduser()


def test_a_local_llm_with_edited_prompts_is_saved_validated_and_passed_on(tmp_path):
    from engine.models.errors import ModelError
    from engine.models.prompts import load_prompt_file, prompts_to_toml, shipped_prompts

    s = AuditSetup()
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")  # the spec only names it; loading happens in the audit
    plain = s.add_llm(model, ["anger-en", "joy-en"], name="llama")
    assert plain.key == f"llm:{model}?prompt=anger-en,joy-en&name=llama" and plain.kind == "llm"
    text = prompts_to_toml([shipped_prompts()["anger-en"]]).replace("version = 1", "version = 2")
    edited = s.add_llm(model, ["anger-en"], edited_prompts=text, prompts_dir=tmp_path / "p")
    saved = edited.key.split("prompt_file=")[1]
    assert load_prompt_file(saved)[0].version == 2  # the edited wording is what the scorer reads
    with pytest.raises(ModelError):
        s.add_llm(model, ["anger-en"], edited_prompts="[[prompt]]\nid = 3\n", prompts_dir=tmp_path / "p")
    assert len(list((tmp_path / "p").glob("*.toml"))) == 1  # a rejected edit leaves no file behind
    s.set_option("device", "cpu")
    assert s.checked_scorers()[0].endswith("&device=cpu")  # LLMs take device and batch size like models


def test_run_on_a_dask_scheduler_needs_its_address():
    s = AuditSetup()
    assert s.scheduler_address() is None  # this computer
    s.set_option("run_on", "dask")
    for bad in ("", "localhost:8786", "tcp://host", "http://host:8786"):
        s.set_option("scheduler", bad)
        with pytest.raises(SetupIncomplete, match="tcp://HOST:PORT"):
            s.scheduler_address()
    s.set_option("scheduler", " tcp://10.0.0.5:8786 ")
    assert s.scheduler_address() == "tcp://10.0.0.5:8786"


def test_prediction_file_policy_goes_into_their_specs_only(tmp_path):
    s = AuditSetup()
    s.add_scorer(f"predictions:{tmp_path / 'p.csv'}", kind="predictions")
    s.add_scorer("vader", kind="lexicon")
    s.add_scorer(f"predictions:{tmp_path / 'q.csv'}?on_missing=drop", kind="predictions")
    assert s.checked_scorers()[0] == f"predictions:{tmp_path / 'p.csv'}"  # default: stop with file:line
    s.set_option("prediction_policy", "keep")
    first, lexicon, own = s.checked_scorers()
    assert first.endswith("?on_missing=keep&on_bad=keep") and lexicon == "vader"
    assert own.endswith("?on_missing=drop")  # a policy typed into the spec wins


def test_jobs_reach_the_plan_only_when_chosen(tmp_path):
    s = AuditSetup.with_defaults()
    s.add_corpus("en-kiritchenko2018")
    s.add_scorer("vader", kind="lexicon")
    plan = s.to_plan(tmp_path)
    assert plan.jobs is None and "jobs" not in plan.settings  # the engine's default: one process per core
    s.set_option("jobs", 2)
    plan = s.to_plan(tmp_path)
    assert plan.jobs == 2 and "jobs" not in plan.settings  # a run option, not a statistic setting


def test_inference_pooling_and_score_range_reach_the_plan(tmp_path):
    s = AuditSetup.with_defaults()
    s.add_corpus("en-kiritchenko2018")
    s.add_scorer("vader", kind="lexicon")
    plan = s.to_plan(tmp_path)
    assert (plan.settings["inference"], plan.settings["race_pooling"], plan.settings["score_range"]) == \
        ("person", "paper", None)  # person-robust by default
    s.set_option("inference", "paper")
    s.set_option("race_pooling", "within_gender")
    s.set_option("score_range", " 1, 5 ")
    plan = s.to_plan(tmp_path)
    assert plan.settings["score_range"] == (1.0, 5.0) and plan.settings["inference"] == "paper"
    plan.validate()
    for bad in ("5,1", "1", "a,b", "1,2,3"):
        s.set_option("score_range", bad)
        with pytest.raises(SetupIncomplete, match="LOW,HIGH"):
            s.to_plan(tmp_path)
