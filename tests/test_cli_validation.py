"""Arguments checked before any work (engine/common/validate.py), exit codes, file modes, data lookup."""
import os
import stat

import pytest

from engine.common import exits, validate
from engine.common.errors import UsageError
from engine.common.io import atomic_write_bytes, current_umask


@pytest.mark.parametrize("value", [0, 1, 5, -0.1, "x", float("nan")])
def test_probability_refuses_values_outside_0_1(value):
    with pytest.raises(UsageError) as e:
        validate.probability("--alpha", value)
    assert e.value.field == "--alpha" and str(e.value).startswith("[--alpha]")


def test_probability_and_fraction_accept_their_range():
    assert validate.probability("--alpha", "0.05") == 0.05
    assert validate.fraction("--min-coverage", 1) == 1.0 and validate.fraction("--min-coverage", 0) == 0.0


def test_output_paths(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    assert validate.output_file(tmp_path / "new" / "deeper" / "a.csv") == tmp_path / "new" / "deeper" / "a.csv"
    assert not (tmp_path / "new").exists()  # checking creates nothing
    with pytest.raises(UsageError, match="is a folder; a file name is needed"):
        validate.output_file(tmp_path)
    with pytest.raises(UsageError, match="is a file; a folder is needed"):
        validate.output_folder(tmp_path / "f.txt")
    with pytest.raises(UsageError, match=r"cannot create it: .*f\.txt is a file"):
        validate.output_file(tmp_path / "f.txt" / "x.csv")
    with pytest.raises(UsageError, match="cannot write in /proc"):
        validate.output_file("/proc/x.csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]  # no probe file left behind


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_output_folder_in_a_read_only_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(UsageError, match="cannot write in"):
            validate.output_folder(ro / "out")
    finally:
        ro.chmod(0o755)


def test_one_of_lists_the_valid_ids():
    with pytest.raises(UsageError, match=r"unknown template 'T99' — valid: T01, T02"):
        validate.one_of("--template", "T99", ["T01", "T02"], "template")


def test_new_files_get_the_umask_and_replaced_files_keep_their_mode(tmp_path):
    old = os.umask(0o027)
    try:
        assert current_umask() == 0o027
        atomic_write_bytes(tmp_path / "new.csv", b"a")
        assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o666 & ~0o027
        shared = tmp_path / "shared.csv"
        shared.write_bytes(b"old")
        shared.chmod(0o664)
        atomic_write_bytes(shared, b"new")  # a re-export keeps the group's write bit
        assert stat.S_IMODE(shared.stat().st_mode) == 0o664 and shared.read_bytes() == b"new"
    finally:
        os.umask(old)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp file left


def test_corpus_export_honours_the_umask(tmp_path, run):
    old = os.umask(0o002)
    try:
        res = run("corpus", "export", "en-kiritchenko2018", "--out", str(tmp_path / "e.csv"))
    finally:
        os.umask(old)
    assert res.returncode == exits.OK
    assert stat.S_IMODE((tmp_path / "e.csv").stat().st_mode) == 0o664


def test_train_finds_semeval_data_through_the_environment(tmp_path, run, monkeypatch):
    from engine.models.training.cli import default_data_dir

    monkeypatch.setenv("EEC_SEMEVAL_DIR", str(tmp_path / "ait"))
    assert default_data_dir() == tmp_path / "ait"
    res = run("train", "--system", "svm-tfidf", "--out", str(tmp_path / "m"))
    assert res.returncode == exits.USAGE and "SemEval data folder not found" in res.stderr
    assert not (tmp_path / "m").exists()


def test_exit_codes_are_distinct():
    codes = [exits.OK, exits.FINDINGS, exits.USAGE, exits.REFUSED, exits.INTERNAL, exits.CANCELLED]
    assert len(set(codes)) == len(codes)


def test_each_command_line_builds_only_its_own_commands_and_the_table_is_complete():
    """main.COMMANDS says which modules add which command (a command line imports only those): every
    module's commands are in the table under its own name, and each command's parser is the one the
    full parser has (same options, same sub-commands)."""
    import argparse
    from importlib import import_module

    import main

    added = {}
    for name in main.CLI_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        if name in main.COMMANDS["corpus"][1:]:
            import_module("engine.corpus.cli").add_parser(sub)  # these attach to `corpus`
        before = set(sub.choices)
        import_module(name).add_parser(sub)
        for command in set(sub.choices) - before:
            added[command] = name
    assert added and all(name in main.COMMANDS[command] for command, name in added.items())
    assert set(main.COMMANDS) == set(added)  # no command listed that no module adds

    def shape(p: argparse.ArgumentParser) -> list:
        out = []
        for a in p._actions:
            out.append((tuple(a.option_strings), a.dest))
            if isinstance(a, argparse._SubParsersAction):
                out.extend((k, shape(v)) for k, v in sorted(a.choices.items()))
        return out

    full = main.build_parser()
    full_sub = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    for command in main.COMMANDS:
        only = main.build_parser(command)
        only_sub = next(a for a in only._actions if isinstance(a, argparse._SubParsersAction))
        assert shape(only_sub.choices[command]) == shape(full_sub.choices[command]), command
    assert main.build_parser("no-such-command") is not None  # an unknown word: the full parser says what exists
    assert "corpus" in next(a for a in main.build_parser("x")._actions
                            if isinstance(a, argparse._SubParsersAction)).choices


@pytest.mark.parametrize("settings, field", [
    ({"alpha": "abc"}, "--alpha"), ({"alpha": 5}, "--alpha"), ({"alpha": float("nan")}, "--alpha"),
    ({"n_resamples": -1}, "--bootstrap"), ({"n_resamples": "many"}, "--bootstrap"),
    ({"band_share": 1.0}, "--band"), ({"band_share": "x"}, "--band"),
    ({"inference": "sentence"}, "--inference"), ({"race_pooling": "pooled"}, "--race-pooling"),
    ({"score_range": 5}, "--score-range"), ({"score_range": (5, 1)}, "--score-range"),
    ({"score_range": ("a", "b")}, "--score-range"),
    ({"n_permutations": -5}, "--person-permutations"), ({"jobs": "2"}, "--jobs"), ({"jobs": -1}, "--jobs"),
    ({"jobs": True}, "--jobs"),
])
def test_an_audit_plan_from_a_notebook_is_checked_like_the_command_line(settings, field):
    """A plan built in code, a sweep file or the GUI: one UsageError naming the option, never a
    TypeError or ValueError from deep inside (AuditPlan.validate uses engine.common.validate)."""
    from engine.audit import AuditPlan

    with pytest.raises(UsageError) as e:
        AuditPlan(["en-kiritchenko2018"], ["vader"], settings=settings).validate()
    assert e.value.field == field


def test_a_sound_audit_plan_passes():
    from engine.audit import AuditPlan

    AuditPlan(["en-kiritchenko2018"], ["vader"], settings={
        "alpha": 0.05, "n_resamples": 0, "band_share": 0.0, "inference": "paper", "race_pooling": "within_gender",
        "score_range": (1, 5), "n_permutations": 0, "jobs": 0}).validate()
