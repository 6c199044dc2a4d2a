"""The layering the architecture promises (docs/ARCHITECTURE.md), checked on the source."""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import engine
from engine.common.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
#: error classes that never reach a user: the caller turns them into a finding or a UserError
INTERNAL_ERRORS: dict[str, str] = {}
#: bare ``raise ValueError``/``KeyError`` that remain in the engine: internal consistency checks (a bug
#: when they fire, so main.py reports exit 4), or input a calling module converts itself
BARE_RAISES_ALLOWED = {
    "engine/stats/models/cluster_robust.py": "the bread matrix and CR kind are passed between our own functions",
    "engine/audit/cache.py": "a scorer returning another number of rows than texts is a scorer bug",
    "engine/stats/settings.py": "a setting declared wrongly (kind, two declarations of one key) is a code bug",
    "engine/common/extras.py": "an extra or module name unknown to EXTRAS is a mistake in our own code",
    "engine/corpus/generate/export.py": "the CLI offers only FORMATS (argparse choices)",
}
#: a function longer than this reads top-down only when split into named steps (issue 27)
MAX_FUNCTION_LINES = 80
#: "path:function" over MAX_FUNCTION_LINES whose docstring gives no "Long because …", and why they stay
LONG_FUNCTIONS_ALLOWED: dict[str, str] = {}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_gui_audit_uses_only_the_pipeline_entry_point_and_the_registry():
    allowed_engine = ("engine.audit", "engine.sweep", "engine.stats.registry", "engine.common", "engine.models",
                      "engine.corpus", "engine.report")
    for path in sorted((ROOT / "gui" / "audit").glob("*.py")):
        for mod in _imports(path):
            if mod.startswith("engine.stats") and mod != "engine.stats.registry":
                raise AssertionError(f"{path.name} imports {mod}; only the statistics registry may be used")
            assert not mod.startswith("engine.assoc"), f"{path.name} imports {mod}; use engine.audit's functions"
            if mod.startswith(("engine.audit", "engine.sweep")):
                assert mod in ("engine.audit", "engine.sweep"), f"{path.name} imports the pipeline's internals ({mod})"
            if mod.startswith("engine."):
                assert mod.startswith(allowed_engine), f"{path.name} imports {mod}"


def test_engine_imports_no_qt():
    for path in sorted((ROOT / "engine").rglob("*.py")):
        bad = [m for m in _imports(path) if m.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "gui", "pyqtgraph")]
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_setup_model_of_the_audit_page_is_qt_free():
    assert not [m for m in _imports(ROOT / "gui" / "audit" / "setup_model.py") if m.startswith("PySide6")]


def test_every_engine_error_class_derives_from_the_one_base():
    seen = []
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != info.name or not issubclass(cls, Exception) or not name.endswith("Error"):
                continue
            seen.append(name)
            if name in INTERNAL_ERRORS:
                assert not issubclass(cls, UserError)
                continue
            assert issubclass(cls, UserError), f"{info.name}.{name} does not derive from engine.common.errors.UserError"
    assert {"DefinitionError", "ModelError", "AssocError", "PackageError", "ExchangeError", "ReportError",
            "AuditError", "UsageError", "StatisticError", "TemplateSyntaxError"} <= set(seen)


def test_errors_a_user_can_fix_keep_their_builtin_bases():
    """``except ValueError`` / ``except KeyError`` callers (notebooks, the statistics step) keep working."""
    from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template
    from engine.stats import registry
    from engine.stats.errors import StatisticError, UnknownStatisticError

    assert issubclass(StatisticError, ValueError) and issubclass(TemplateSyntaxError, ValueError)
    try:
        registry.get("no-such-statistic")
    except KeyError as exc:
        assert isinstance(exc, UnknownStatisticError) and isinstance(exc, UserError)
        assert str(exc).startswith("unknown statistic 'no-such-statistic'; choose from beta")  # not quoted
    try:
        parse_template("{person")
    except UserError as exc:
        assert str(exc) == "unclosed '{' at character 1"


def test_the_engine_raises_no_bare_value_or_key_error_a_user_could_fix():
    """Bad input raises a UserError subclass; a bare ValueError/KeyError is left only where it is a bug."""
    import re

    found = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        n = len(re.findall(r"raise (?:ValueError|KeyError)\b", path.read_text(encoding="utf-8")))
        rel = path.relative_to(ROOT).as_posix()
        if n and rel not in BARE_RAISES_ALLOWED:
            found[rel] = n
    assert found == {}, f"raise a UserError subclass (e.g. StatisticError, UsageError) instead: {found}"


def test_main_reports_user_errors_as_usage_and_internal_errors_as_bugs(monkeypatch, capsys):
    """A UserError (StatisticError too) exits 2 with its line; a bare ValueError is a bug: exit 4."""
    import argparse

    import main
    from engine.common import exits
    from engine.stats.errors import StatisticError

    def parser_raising(exc):
        parser = argparse.ArgumentParser()
        parser.add_argument("command")
        parser.set_defaults(func=lambda args: (_ for _ in ()).throw(exc))
        return lambda command=None: parser

    monkeypatch.delenv("EEC_DEBUG", raising=False)
    monkeypatch.setattr(main, "build_parser", parser_raising(StatisticError("scores outside [0, 1]", field="s")))
    assert main.main(["x"]) == exits.USAGE
    assert capsys.readouterr().err.strip() == "error: [s]: scores outside [0, 1]"
    monkeypatch.setattr(main, "build_parser", parser_raising(ValueError("shapes (3,) and (4,) not aligned")))
    assert main.main(["x"]) == exits.INTERNAL
    err = capsys.readouterr().err
    assert err.startswith("error: unexpected ValueError: shapes (3,) and (4,) not aligned") and "a bug" in err


def test_user_errors_read_as_one_line_with_their_fix():
    from engine.exchange.errors import ExchangeError
    from engine.models.errors import ModelError
    from engine.package.errors import PackageError

    assert str(ModelError("", "no weights", fix="save it again")) == "model: no weights — save it again"
    err = PackageError("x.eecpkg", "bad hash", member="corpus.toml", fix="export again")
    assert str(err) == "x.eecpkg [corpus.toml]: bad hash — export again" and err.field == "corpus.toml"
    assert ExchangeError("a.po", "lost slot", entry="T01").text_without_fix() == "a.po [T01]: lost slot"


def test_nothing_outside_engine_audit_composes_an_audit():
    """run_audit is called, never re-implemented: no other module scores corpora and runs statistics."""
    composers = []
    for path in list((ROOT / "engine").rglob("*.py")) + list((ROOT / "gui").rglob("*.py")):
        if path.parts[-2] == "audit" and path.parent.parent.name == "engine":
            continue
        text = path.read_text(encoding="utf-8")
        if "score_texts(" in text and "registry.statistics()" in text:
            composers.append(str(path.relative_to(ROOT)))
    assert composers == []


def test_the_results_folder_has_one_package_below_the_audit_and_the_report():
    """engine/results owns the folder's layout, writer and reader; it and the report never import the
    pipeline's package, and nobody else reads manifest.json or parses the folder's tables."""
    for pkg in ("results", "report"):
        for path in sorted((ROOT / "engine" / pkg).glob("*.py")):
            bad = [m for m in _imports(path) if m.startswith("engine.audit")]
            assert not bad, f"engine/{pkg}/{path.name} imports {bad}; read and write folders through engine.results"
    readers = []
    for path in list((ROOT / "engine").rglob("*.py")) + list((ROOT / "gui").rglob("*.py")):
        if path.parent.name == "results" and path.parent.parent.name == "engine":
            continue
        text = path.read_text(encoding="utf-8")
        if '"manifest.json"' in text and "json.loads" in text and "stats" in text:
            readers.append(str(path.relative_to(ROOT)))
    assert readers == []


def test_no_function_is_long_without_a_reason_in_its_docstring():
    """Every function of engine/, gui/ and main.py over MAX_FUNCTION_LINES lines (def to last line,
    docstring included) is split into steps, or says "Long because …" in its docstring."""
    paths = sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "gui").rglob("*.py")) + [ROOT / "main.py"]
    long = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            n = node.end_lineno - node.lineno + 1
            where = f"{rel}:{node.name}"
            if n > MAX_FUNCTION_LINES and "Long because" not in (ast.get_docstring(node) or "") \
                    and where not in LONG_FUNCTIONS_ALLOWED:
                long.append(f"{where} ({n} lines)")
    assert not long, "split into well-named steps, or say 'Long because …' in the docstring: " + ", ".join(long)
