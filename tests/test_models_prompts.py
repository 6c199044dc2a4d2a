"""Prompt files for LLM scorers: the shipped set, selection, and one file:line error per defect."""
import pytest

from engine.common.errors import UserError
from engine.models.errors import ModelError
from engine.models.prompts import PLACEHOLDER, load_prompt_file, select_prompts, shipped_prompts

LANGS = ("en", "es", "ar", "de", "ja", "zh")
TASKS = ("anger", "fear", "joy", "sadness", "valence", "sentiment")

GOOD = '''language = "en"
answer = "Answer:"

[[prompt]]
id = "a-en"
version = 1
task = "anger"
user = """Rate:
{text}"""
'''


def test_shipped_prompts_cover_every_task_and_language():
    prompts = shipped_prompts()
    for lang in LANGS:
        for task in TASKS:
            p = prompts[f"{task}-{lang}"]
            assert (p.task, p.language, p.version) == (task, lang, 1)
            assert p.user.count(PLACEHOLDER) == 1 and p.system
            assert p.user.endswith(f"\n{PLACEHOLDER}")  # own line (clean token boundary), last (prefix cache)
            if task == "sentiment":
                assert p.kind == "sentiment" and len(p.labels) == 3 and p.values == (0.0, 0.5, 1.0)
            else:
                assert p.labels == tuple(str(i) for i in range(11)) and p.values == tuple(float(i) for i in range(11))
                assert "10" in p.user  # the scale is stated in the prompt
    assert len({p.digest() for p in prompts.values()}) == len(prompts)


def test_sentiment_labels_are_named_in_their_prompt():
    for lang in LANGS:
        p = shipped_prompts()[f"sentiment-{lang}"]
        assert all(label in p.user for label in p.labels), lang


def test_select_by_task_and_language_and_user_file_override(tmp_path):
    assert [p.id for p in select_prompts()] == ["anger-en", "fear-en", "joy-en", "sadness-en"]
    assert [p.id for p in select_prompts(tasks=["valence"], language="ar")] == ["valence-ar"]
    f = tmp_path / "mine.toml"
    f.write_text(GOOD.replace('id = "a-en"', 'id = "anger-en"').replace("version = 1", "version = 7"), encoding="utf-8")
    chosen = select_prompts(ids=["anger-en"], files=[f])
    assert chosen[0].version == 7 and chosen[0].source == str(f)
    assert select_prompts(tasks=["anger"], files=[f])[0].version == 7
    assert [p.id for p in select_prompts(files=[f])] == ["anger-en"]


@pytest.mark.parametrize("edit, line, field, message", [
    (lambda t: t.replace("{text}", "the sentence"), 8, "user", "exactly once"),
    (lambda t: t.replace("version = 1", "version = 0"), 6, "version", "version = N"),
    (lambda t: t.replace('task = "anger"', 'task = "anger"\ncolour = "red"'), 8, "colour", "unknown key"),
    (lambda t: t.replace('task = "anger"', 'task = "anger"\nvalues = [1, 2]'), 8, "values", "2 values for 11 labels"),
    (lambda t: t.replace('task = "anger"', 'task = "anger"\nkind = "ranking"'), 8, "kind", "unknown kind"),
    (lambda t: t.replace('task = "anger"', 'task = "anger"\nlabels = ["yes", "yes"]'), 8, "labels", "two or more"),
    (lambda t: t.replace('task = "anger"', 'task = "anger"\nkind = "sentiment"'), 4, "prompt", "needs labels"),
    (lambda t: t.replace('id = "a-en"', 'id = "a en"'), 5, "id", "characters"),
    (lambda t: t.replace('language = "en"\n', ""), 3, "prompt", "language code"),
    (lambda t: t.replace('version = 1', 'version = 1\nversion = 2'), 7, None, "TOML syntax error"),
    (lambda t: t + t[t.index("[[prompt]]"):], 11, "id", "used twice"),
])
def test_defects_name_file_line_and_field(tmp_path, edit, line, field, message):
    f = tmp_path / "bad.toml"
    f.write_text(edit(GOOD), encoding="utf-8")
    with pytest.raises(ModelError) as err:
        load_prompt_file(f)
    e = err.value
    assert isinstance(e, UserError) and message in str(e)
    assert e.file == str(f) and e.line == line, str(e)
    if field:
        assert e.field == field
    assert "\n" not in str(e)


def test_good_file_and_missing_file(tmp_path):
    f = tmp_path / "ok.toml"
    f.write_text(GOOD, encoding="utf-8")
    (p,) = load_prompt_file(f)
    assert (p.id, p.task, p.kind, p.language, p.answer, p.line) == ("a-en", "anger", "intensity", "en", "Answer:", 4)
    with pytest.raises(ModelError, match="not found"):
        load_prompt_file(tmp_path / "nope.toml")
    with pytest.raises(ModelError, match="no such prompt"):
        select_prompts(ids=["nope"])


def test_copy_round_trips_every_shipped_prompt(tmp_path):
    from engine.models.prompts import prompts_to_toml

    shipped = shipped_prompts()
    f = tmp_path / "all.toml"
    f.write_text(prompts_to_toml(list(shipped.values())), encoding="utf-8")
    back = {p.id: p for p in load_prompt_file(f)}
    assert back.keys() == shipped.keys()
    for pid, p in shipped.items():
        assert back[pid] == p.__class__(**{**p.__dict__, "source": str(f), "line": back[pid].line})
        assert back[pid].digest() == p.digest()


def test_prompts_cli_list_show_copy(tmp_path, capsys):
    from main import main

    assert main(["prompts", "list", "--language", "de"]) == 0
    out = capsys.readouterr().out
    assert "sentiment-de" in out and "negativ, neutral, positiv" in out and "anger-en" not in out
    assert main(["prompts", "show", "joy-zh"]) == 0
    assert "下面这句话所表达的喜悦有多强烈" in capsys.readouterr().out
    target = tmp_path / "mine.toml"
    assert main(["prompts", "copy", "joy-zh", "sentiment-es", "--out", str(target)]) == 0
    assert [p.id for p in load_prompt_file(target)] == ["joy-zh", "sentiment-es"]
    assert main(["prompts", "copy", "joy-zh", "--out", str(target)]) == 2
    assert "file exists" in capsys.readouterr().err
    assert main(["prompts", "show", "nope"]) == 2
