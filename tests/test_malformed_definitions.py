"""Malformed definition files end in one clean DefinitionError (file, line/field, fix), never a crash."""
import random
import subprocess
import sys

import pytest

from conftest import ROOT
from engine.corpus import DefinitionError, check_corpus, generate, load_definition, parse_definition

GOOD = (ROOT / "templates/en/en-kiritchenko2018.toml").read_text(encoding="utf-8")
# pair declarations, [expect] rules and declared-absent forms live in the Goldfarb-Tarrant corpora
GOOD_DE = (ROOT / "templates/de/de-goldfarb2023.toml").read_text(encoding="utf-8")
GOOD_JA = (ROOT / "templates/ja/ja-goldfarb2023.toml").read_text(encoding="utf-8")


def _mutations() -> list[tuple[str, bytes]]:
    rnd = random.Random(1234)
    cases: list[tuple[str, bytes]] = []
    lines = GOOD.splitlines(keepends=True)
    # truncated in the middle of a line (always broken TOML or a broken entry)
    for i in range(20):
        n = rnd.randrange(40, len(lines) - 1)
        cut = "".join(lines[:n]) + lines[n][: max(1, len(lines[n]) // 2)]
        if lines[n].strip():
            cases.append((f"truncated-{i}", cut.encode()))
    wrong_types = [
        ('format = 1', 'format = "one"'), ('format = 1', 'format = 2'), ('id = "en-kiritchenko2018"', 'id = 7'),
        ('id = "en-kiritchenko2018"', 'id = "has space"'), ('language = "en"', 'language = ["en"]'),
        ('language = "en"', 'language = "e n"'), ('capitalize = true', 'capitalize = "yes"'),
        ('groups = ["female", "male"]', 'groups = "female, male"'), ('groups = ["female", "male"]', 'groups = ["female"]'),
        ('reference = "male"', 'reference = "men"'), ('reference = "male"', 'reference = 1'),
        ('role = ["subject", "object"]', 'role = "subject"'), ('text = "Ebony"', 'text = 3'),
        ('text = "Ebony"', 'text = ["Ebony"]'), ('gender = "female"', 'gender = true'),
        ('kind = "state"', 'kind = 1.5'), ('id = "T01"', 'id = ""'), ('id = "T02"', 'id = "T01"'),
        ('text = "{person role=subject} feels {emotion kind=state}."', 'variants = "x"'),
        ('text = "{person role=subject} feels {emotion kind=state}."', 'text = 12'),
        ('forms = [{ text = "herself", gender = "f" }, { text = "himself", gender = "m" }]', 'forms = "herself"'),
        ('forms = [{ text = "herself", gender = "f" }, { text = "himself", gender = "m" }]', 'forms = [{ gender = "f" }]'),
        ('forms = [{ text = "herself", gender = "f" }, { text = "himself", gender = "m" }]', 'forms = [{ text = "x", gender = 1 }]'),
        ('[axes.race]', '[axes.race.x]'), ('[[templates]]', '[templates]'),
        ('feature = { female = "f", male = "m" }', 'feature = ["f", "m"]'),
        ('[[persons]]', '[[persons]]\nnickname = "x"'), ('[[emotion_words]]', '[[emotion_words]]\ncolour = "red"'),
        ('[[templates]]', '[[templates]]\nslots = 3'), ('format = 1', 'format = 1\ncolour = "red"'),
        ('[axes.gender]', '[axes.gender]\nweight = 2'), ('[axes.gender]', '[axes.sex]\ngroups=["a","b"]\nreference="a"\n[axes.other]'),
        ('text = "Ebony"', 'text = "Ebony"\nforms = ["Ebony"]'), ('id = "en-kiritchenko2018"', ''),
        ('[axes.gender]', '[axes.gender2]'),
    ]
    for i, (old, new) in enumerate(wrong_types):
        assert old in GOOD, old
        cases.append((f"shape-{i}", GOOD.replace(old, new, 1).encode()))
    syntax = ['id = "unclosed', 'x = [1, 2', '[[persons]', 'key = = 1', 'a.b = 1\na = 2', '= "no key"',
              'text = """never closed', 'dup = 1\ndup = 2']
    for i, bad in enumerate(syntax):
        cases.append((f"syntax-{i}", (GOOD + "\n" + bad + "\n").encode()))
    raw = GOOD.encode()
    for i in range(6):
        pos = rnd.randrange(len(raw))
        cases.append((f"bad-utf8-{i}", raw[:pos] + b"\xff\xfe\xc3" + raw[pos:]))
    cases.append(("latin1", GOOD.replace("Câmara", "C\u00e2mara").encode("latin-1", errors="replace") + "é".encode("latin-1")))
    cases.append(("empty", b""))
    pair_shapes = [
        (GOOD_DE, '\nmatch = "cross"', '\nmatch = "all"'), (GOOD_DE, '\nmatch = "cross"', '\nmatch = 1'),
        (GOOD_DE, 'privileged = ["np_dieser_mann", "np_diese_frau"]', 'privileged = []'),
        (GOOD_DE, 'privileged = ["np_dieser_mann", "np_diese_frau"]', 'privileged = 3'),
        (GOOD_DE, 'privileged = ["np_dieser_mann", "np_diese_frau"]', 'privileged = [["np_er"]]'),
        (GOOD_DE, 'privileged = ["np_dieser_mann", "np_diese_frau"]', 'privileged = ["np er"]'),
        (GOOD_DE, 'id = "race-this"\nvariable = "race"', 'id = "race-this"'),
        (GOOD_DE, 'id = "race-this"', 'id = "gender"'),
        (GOOD_DE, 'id = "race-this"\nvariable = "race"', 'id = "race-this"\nvariable = ["race"]'),
        (GOOD_DE, 'shared = ["case"]', 'shared = "case"'), (GOOD_DE, 'shared = ["case"]', 'shared = [1]'),
        (GOOD_DE, 'shared = ["case"]', 'shared = ["case"]\nside = "left"'),
        (GOOD_DE, '[[pairs]]\nid = "gender"', '[pairs]\nid = "gender"'),
        (GOOD_DE, "attr = '^\\w+(?:e|en|em|er|es)\\b'", "attr = '^(unclosed'"),
        (GOOD_DE, "attr = '^\\w+(?:e|en|em|er|es)\\b'", "attr = 3"),
        (GOOD_DE, "[expect.position]", "[expect]\nposition = 'x'\n[expect.other]"),
        (GOOD_JA, '{ absent = "active only', '{ text = "x", absent = "active only'),
        (GOOD_JA, '{ absent = "active only in the published sheet (atama ni kuru has no natural causative)"', '{ absent = ""'),
        (GOOD_JA, '{ absent = "active only in the published sheet (atama ni kuru has no natural causative)"', '{ absent = 7'),
    ]
    for i, (base, old, new) in enumerate(pair_shapes):
        assert old in base, old
        cases.append((f"pairs-{i}", base.replace(old, new, 1).encode()))
    cases.append(("binary", bytes(range(256)) * 4))
    cases.append(("deep-nesting", b"x = " + b"[" * 5000 + b"]" * 5000))
    return cases


CASES = _mutations()


def test_enough_cases():
    assert len(CASES) >= 50


@pytest.mark.parametrize("name,data", CASES, ids=[c[0] for c in CASES])
def test_malformed_is_clean(name, data, tmp_path):
    path = tmp_path / f"{name}.toml"
    path.write_bytes(data)
    try:
        corpus = load_definition(path)
    except DefinitionError as exc:
        msg = str(exc)
        assert str(path) in msg and "\n" not in msg
        assert exc.line is not None or exc.field, msg
        if name.startswith(("pairs-", "shape-")) and "missing" not in msg and "no gender axis" not in msg:
            assert exc.line is not None, msg  # a translator gets a line to jump to
        return
    # a mutation may leave a valid but different corpus: it must still check and generate
    rep = check_corpus(corpus)
    generate(corpus)
    assert name.startswith(("truncated", "shape-")), f"{name} loaded without error"
    assert rep is not None


def test_huge_file_refused_early(tmp_path):
    path = tmp_path / "huge.toml"
    with open(path, "wb") as fh:
        fh.write(b"# padding\n" * 1_000_000)
    with pytest.raises(DefinitionError, match="limit"):
        load_definition(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(DefinitionError, match="not found"):
        load_definition(tmp_path / "nope.toml")
    with pytest.raises(DefinitionError, match="folder"):
        load_definition(tmp_path)


def test_error_names_line_and_field():
    text = GOOD.replace('text = "Ebony"', 'text = 3', 1)
    with pytest.raises(DefinitionError) as info:
        parse_definition(text, "x.toml")
    exc = info.value
    assert exc.field == "persons[0].text"
    assert GOOD.splitlines()[exc.line - 1].strip() == 'text = "Ebony"'
    text = GOOD.replace('[[emotion_words]]', '[[emotion_words]]\ncolour = "red"', 1)
    with pytest.raises(DefinitionError, match="unknown key 'colour'") as info:
        parse_definition(text, "x.toml")
    assert "allowed keys" in str(info.value)
    with pytest.raises(DefinitionError) as info:
        parse_definition(GOOD + '\nbroken = "\n', "x.toml")
    assert info.value.line == len(GOOD.splitlines()) + 2


@pytest.mark.parametrize("data", [b"\xff\xfe", b'format = 1\nid = "x"\nlanguage = "en"\n[axes.gender]\ngroups = 3'])
def test_cli_prints_one_line_no_traceback(data, tmp_path, capsys):
    import main

    path = tmp_path / "bad.toml"
    path.write_bytes(data)
    commands = [["corpus", "check", str(path)], ["corpus", "export", str(path), "--out", str(tmp_path / "o.csv")],
                ["corpus", "pairs", str(path), "--out", str(tmp_path / "o.csv")],
                ["corpus", "preview", str(path)]]
    results = []
    if data.startswith(b"\xff"):  # the real entry point once: no traceback reaches the terminal
        proc = subprocess.run([sys.executable, str(ROOT / "main.py"), *commands[0]], capture_output=True, text=True)
        results.append((proc.returncode, proc.stdout, proc.stderr))
    for args in commands:  # every command in-process, through the same main()
        capsys.readouterr()
        code = main.main(args)
        out = capsys.readouterr()
        results.append((code, out.out, out.err))
    for code, out, err in results:
        assert code != 0
        assert "Traceback" not in err + out
        lines = [l for l in err.splitlines() if l.strip()]
        assert len(lines) == 1 and str(path) in lines[0]
    assert not (tmp_path / "o.csv").exists()


def test_field_paths_locate_their_line():
    from engine.common.toml_file import locate

    lines = GOOD_DE.splitlines()
    for path, expected in [("axes.gender.reference", 'reference = "male"'), ("axes.race", "[axes.race]"),
                           ("features.case", 'case = ["nom", "acc", "dat"]'), ("expect.position", "[expect.position]"),
                           ("expect.position.attr", "attr = "), ("pairs[1].match", 'match = "cross"'),
                           ("pairs[1]", "[[pairs]]"), ("capitalize", "capitalize = true")]:
        line = locate(GOOD_DE, path)
        assert line is not None and lines[line - 1].startswith(expected), (path, line)
    assert locate(GOOD_DE, "nonexistent") is None and locate(GOOD_DE, "persons[999].id") is None
