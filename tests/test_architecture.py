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
INTERNAL_ERRORS: dict[str, str] = {
    "BrokenEntryError": "a registered statistic that breaks its contract is a bug in its entry (exit 4, named)",
}
#: bare ``raise ValueError``/``KeyError`` that remain in the engine: internal consistency checks (a bug
#: when they fire, so main.py reports exit 4), or input a calling module converts itself
BARE_RAISES_ALLOWED = {
    "engine/stats/models/cluster_robust.py": "the bread matrix and CR kind are passed between our own functions",
    "engine/audit/cache.py": "a scorer returning another number of rows than texts is a scorer bug",
    "engine/stats/settings.py": "a setting declared wrongly (kind, two declarations of one key) is a code bug",
    "engine/common/extras.py": "an extra or module name unknown to EXTRAS is a mistake in our own code",
    "engine/corpus/generate/export.py": "the CLI offers only FORMATS (argparse choices)",
    "engine/common/executor/local.py": "a map `order` that is not the task indices once each is a bug in the caller",
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


def test_the_state_model_of_the_workbench_page_is_qt_free():
    """And what it imports from gui/ (tests/test_workbench_state.py imports it with Qt blocked)."""
    for rel in ("workbench/page_state.py", "workbench/columns.py", "workbench/finding_text.py",
                "workbench/native_review.py", "i18n_core.py"):
        assert not [m for m in _imports(ROOT / "gui" / rel) if m.startswith(("PySide6", "gui.i18n"))
                    and m != "gui.i18n_core"], rel


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


# ---- the import table (docs/ARCHITECTURE.md, "Packages"), kept on every import of every file -------
#
# Why every import, lazy ones inside functions included: a lazy import is still a dependency (it
# runs when the function does), and "only lazily" is how the upward edges of issue 41 went unseen.
# Why the whole file graph: the table is about packages, circles are about files; both are read
# from one graph of the source (ast; nothing is imported).

#: engine package -> the engine packages (or single modules, "stats.registry") its files may import
IMPORT_TABLE: dict[str, tuple[str, ...]] = {
    "common": (),
    "corpus": ("common",),
    "models": ("common",),
    "stats": ("common",),
    "assoc": ("common", "models"),
    "results": ("common", "stats"),
    "package": ("common", "corpus"),
    "exchange": ("common", "corpus", "package"),
    "report": ("common", "stats", "corpus", "package", "results"),
    "audit": ("common", "corpus", "models", "stats", "assoc", "results"),
    "sweep": ("common", "corpus", "models", "stats.registry", "audit"),
}
#: (importing module prefix, imported module prefix) -> why this edge runs against the table. Each
#: must be a lazy import (inside a function): it never runs when the importing module is imported.
BACK_EDGES: dict[tuple[str, str], str] = {
    ("engine.audit", "engine.report"): "the pipeline's optional last step builds the report",
    ("engine.models.training", "engine.audit.cache"): "training scores its dev set through the score cache",
    ("engine.models.training", "engine.assoc"): "the fastText + MLP system reads named word vectors",
}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: Path, folders: tuple[str, ...] = ("engine", "gui")) -> dict[str, dict[str, bool]]:
    """{module: {imported module of this tree: imported at module level}} for every file under
    ``folders`` of ``root``. ``from pkg import name`` is an edge to ``pkg.name`` when that is a module
    of the tree, else to ``pkg``; imports inside functions count (flagged lazy)."""
    files = [p for folder in folders for p in sorted((root / folder).rglob("*.py"))]
    names = {_module_name(p, root): p for p in files}
    graph: dict[str, dict[str, bool]] = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lazy_nodes = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                      for n in ast.walk(f)}
        edges: dict[str, bool] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = _resolve(node, name, path.name == "__init__.py")
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in names else base for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in names:  # `import engine.stats.x as y` of a module, or a name
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[target] = edges.get(target, False) or id(node) not in lazy_nodes
        graph[name] = edges
    return graph


def table_violations(graph: dict[str, dict[str, bool]], table: dict[str, tuple[str, ...]] = IMPORT_TABLE,
                     back_edges: dict[tuple[str, str], str] = BACK_EDGES) -> list[str]:
    """Every import of an engine package that the table does not allow, as 'importer -> imported'."""
    bad = []
    for module, edges in sorted(graph.items()):
        parts = module.split(".")
        if parts[0] != "engine" or len(parts) < 2:
            continue
        for target, eager in sorted(edges.items()):
            tparts = target.split(".")
            if tparts[0] != "engine" or len(tparts) < 2 or tparts[1] == parts[1]:
                continue
            allowed = table.get(parts[1], ())
            if any(target == f"engine.{a}" or target.startswith(f"engine.{a}.") for a in allowed):
                continue
            reason = next((why for (a, b), why in back_edges.items()
                           if (module == a or module.startswith(a + ".")) and (target == b or target.startswith(b + "."))), None)
            if reason is None or eager:
                bad.append(f"{module} -> {target}" + (" (a declared back-edge, but imported at module level)" if reason else ""))
    return bad


def import_circles(graph: dict[str, dict[str, bool]]) -> list[list[str]]:
    """The files that import each other in a circle (strongly connected components of two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_every_engine_import_keeps_the_import_table():
    """Lazy imports too: the table of docs/ARCHITECTURE.md is the rule, BACK_EDGES its written exceptions."""
    assert table_violations(import_graph(ROOT)) == []


def test_no_files_import_each_other_in_a_circle():
    assert import_circles(import_graph(ROOT, ("engine", "gui"))) == []


def test_the_import_table_check_fails_on_a_planted_upward_import(tmp_path):
    """The check itself: a statistic importing the sweep (the top) inside a function is caught, and so
    is a declared back-edge done at module level; two files importing each other make a circle."""
    stats = tmp_path / "engine" / "stats"
    (tmp_path / "engine" / "sweep").mkdir(parents=True)
    stats.mkdir(parents=True)
    for pkg in (tmp_path / "engine", stats, tmp_path / "engine" / "sweep"):
        (pkg / "__init__.py").write_text("")
    (tmp_path / "engine" / "sweep" / "run.py").write_text("from engine.stats import registry\n")
    (stats / "registry.py").write_text("from engine.common import fmt\n")
    (stats / "a.py").write_text("from . import b\n\ndef f():\n    from engine.sweep.run import g\n")
    (stats / "b.py").write_text("from .a import f\n")
    for pkg in ("audit", "report", "common"):
        (tmp_path / "engine" / pkg).mkdir()
        (tmp_path / "engine" / pkg / "__init__.py").write_text("")
    (tmp_path / "engine" / "report" / "build.py").write_text("")
    (tmp_path / "engine" / "common" / "fmt.py").write_text("")
    (tmp_path / "engine" / "audit" / "pipeline.py").write_text("import engine.report.build\n")
    graph = import_graph(tmp_path, ("engine",))
    assert table_violations(graph) == [
        "engine.audit.pipeline -> engine.report.build (a declared back-edge, but imported at module level)",
        "engine.stats.a -> engine.sweep.run",
    ]
    assert import_circles(graph) == [["engine.stats.a", "engine.stats.b"]]


#: bare ``raise ValueError``/``KeyError`` left in gui/: internal, never a user's mistake
GUI_BARE_RAISES_ALLOWED = {
    "gui/workbench/exporting.py": "the export kinds are the menu's own (a kind outside them is a bug)",
}


def test_the_gui_raises_user_errors_not_bare_value_errors():
    """A message a user can act on is a UserError (gui/errors.friendly shows its fix); a bare
    ValueError there is a bug, as on the command line (issue 41: 4 such messages were ValueErrors)."""
    import re

    found = {}
    for path in sorted((ROOT / "gui").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        n = len(re.findall(r"raise (?:ValueError|KeyError)\b", path.read_text(encoding="utf-8")))
        if n and rel not in GUI_BARE_RAISES_ALLOWED:
            found[rel] = n
    assert found == {}, f"raise engine.common.errors.UserError (with its fix) instead: {found}"
