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
INTERNAL_ERRORS = {"TemplateSyntaxError": "a template's syntax problem becomes a checker finding (E0xx)"}


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
            "AuditError", "UsageError"} <= set(seen)


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
