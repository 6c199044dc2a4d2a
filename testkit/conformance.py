"""Conformance checks of registry entries, in the manner of scikit-learn's ``check_estimator``.

Why: the registries are open — a statistic is an entry module in engine/stats/entries/, a scorer a
``ScorerKind`` registration — so no test may pin their lists. Instead every entry, built-in or
registered at run time by a plug-in or a notebook, must pass the same checks:

* ``check_statistic(entry, folder)``: its declaration (id, labels, the paper line, the columns it
  declares, its settings with help, label and a valid default, a bad value refused), its command-line
  flags, an audit of a small corpus (testkit.audit_fixtures) whose tidy table has the declared columns,
  its paper tables (LaTeX with a ``\\label`` on every float, Markdown), its plot and headline rows, the
  one reader and the report; with ``gui=True`` also its Audit-page checkbox and form rows and its
  Results tab.
* ``check_scorer(kind, spec)``: its help in ``audit --help``, the Audit page's list of systems (a kind
  without a target), and a loaded scorer that follows ``engine.models.base.Scorer`` (name, dimensions,
  a stable fingerprint, one float row per text).

A failure raises ``ConformanceError`` whose message starts with the entry's name.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

#: settings that make the small audit fast wherever a statistic declares them
FAST_SETTINGS = {"n_resamples": 20, "n_permutations": 50}


class ConformanceError(AssertionError):
    """An entry breaks the contract of its registry; the message names the entry."""


def _fail(what: str, problem: str) -> None:
    raise ConformanceError(f"{what}: {problem}")


def _statistic(entry: Any) -> Any:
    from engine.stats import registry

    return registry.get(entry) if isinstance(entry, str) else entry


# -- statistics ---------------------------------------------------------------------------------------


def check_statistic(entry: Any, folder: str | Path, *, gui: bool = False) -> None:
    """Every check of one registered statistic (its id or its ``Statistic``); ``folder``: a new
    temporary folder for the small audit it runs."""
    stat = _statistic(entry)
    name = f"statistic {stat.id!r}"
    check_statistic_declaration(stat, name)
    check_statistic_settings(stat, name)
    out = check_statistic_audit(stat, name, Path(folder))
    if gui:
        check_statistic_gui(stat, name, out)


def check_statistic_declaration(stat: Any, name: str) -> None:
    from engine.stats import registry

    if registry.get(stat.id) is not stat:
        _fail(name, "is not the registered entry of its id (register it first)")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", stat.id):
        _fail(name, "its id must be lower-case letters, digits and _ (a file stem and a plan-file word)")
    for attr in ("label", "title", "paper"):
        if not str(getattr(stat, attr, "")).strip():
            _fail(name, f"has no {attr} (the GUI, the report and --help show it)")
    missing = [c for c in ("corpus", "model", "emotion") if c not in stat.needs]
    if missing:
        _fail(name, f"`needs` must name the columns every reader relies on; missing {', '.join(missing)}")
    if not callable(stat.compute):
        _fail(name, "compute is not callable")


def check_statistic_settings(stat: Any, name: str) -> None:
    """Each setting: help, label, a default its own check accepts, a value out of range refused; the
    registry merges it with the others; the audit command has its flag."""
    from engine.common.errors import UsageError
    from engine.stats import registry

    try:
        registry.settings()
    except ValueError as exc:
        _fail(name, f"its settings clash with another statistic's: {exc}")
    for s in stat.settings:
        where = f"{name}, setting {s.key!r}"
        if not s.help.strip() or not s.label.strip():
            _fail(where, "needs a help text (--help) and a label (the Audit page's form)")
        if s.default is not None and s.check(s.default) != s.default:
            _fail(where, f"its default {s.default!r} is refused by its own check")
        bad = (s.high + 1) if s.high is not None else (s.low - 1) if s.low is not None else None
        if s.kind in ("int", "float") and bad is not None:
            try:
                s.check(int(bad) if s.kind == "int" else float(bad))
            except UsageError:
                pass
            else:
                _fail(where, f"accepts {bad!r}, outside its declared range")
    import argparse

    from main import build_parser

    sub = next(a for a in build_parser("audit")._actions if isinstance(a, argparse._SubParsersAction))
    text = sub.choices["audit"].format_help()
    for s in stat.settings:
        if s.flag not in text:
            _fail(f"{name}, setting {s.key!r}", f"{s.flag} is not an option of `audit`")


def check_statistic_audit(stat: Any, name: str, folder: Path) -> Path:
    """A small audit with only this statistic: its table, files, plot, headline rows, reader, report."""
    from engine.audit import AuditPlan, run_audit

    from testkit.audit_fixtures import write_mini_corpus, write_predictions

    folder.mkdir(parents=True, exist_ok=True)
    corpus = write_mini_corpus(folder)
    pred = write_predictions(corpus, folder / "system.tsv")
    out = folder / "audit"
    keys = {s.key for s in stat.settings}
    settings = {k: v for k, v in FAST_SETTINGS.items() if k in keys}
    result = run_audit(AuditPlan([str(corpus)], [f"predictions:{pred}?name=sys"], stats=[stat.id], out_dir=out,
                                 settings=settings))
    frame = result.tables.get(stat.id)
    if frame is None or frame.empty:
        _fail(name, f"produced no table on the small audit (problems: {'; '.join(result.problems) or 'none'})")
    check_statistic_outputs(stat, name, frame, out)
    return out


def check_statistic_outputs(stat: Any, name: str, frame: pd.DataFrame, out: Path) -> None:
    from engine.common.svg import forest
    from engine.results import read_audit
    from engine.stats.registry import KeyRow, PlotSpec

    if stat.tables is not None:
        for rel in (f"tables/{stat.id}.tex", f"tables/{stat.id}-wide.tex", f"tables/{stat.id}.md"):
            if not (out / rel).is_file():
                _fail(name, f"declares paper tables but the audit wrote no {rel}")
        for rel in (f"tables/{stat.id}.tex", f"tables/{stat.id}-wide.tex"):
            tex = (out / rel).read_text(encoding="utf-8")
            floats = len(re.findall(r"\\begin\{table\*?\}", tex))
            if floats == 0 or len(re.findall(r"\\label\{", tex)) < floats:
                _fail(name, f"{rel}: every table float needs a \\label ({floats} floats)")
    if stat.plot is not None:
        spec = stat.plot(frame)
        if not isinstance(spec, PlotSpec) or not spec.rows:
            _fail(name, "plot(frame) must return a PlotSpec with rows")
        if "<svg" not in forest(spec.rows, title=spec.title, x_label=spec.x_label):
            _fail(name, "its plot does not render as SVG")
    rows = stat.key_rows(frame)
    if not isinstance(rows, list) or not all(isinstance(r, KeyRow) for r in rows):
        _fail(name, "key_rows(frame) must return a list of KeyRow")
    read = read_audit(out)  # the one reader: the columns it needs, every file the manifest lists
    if stat.id not in read.tables:
        _fail(name, "the reader does not find its table in the folder")
    from engine.report import build_report

    html = build_report(out, out.parent / "report").read_text(encoding="utf-8")
    if stat.title not in __import__("html").unescape(html):
        _fail(name, "the report has no section titled with its title")


def check_statistic_gui(stat: Any, name: str, out: Path) -> None:
    """The Audit page's checkbox and form rows, the Results page's tab (a QApplication must exist)."""
    from gui.audit.setup_model import AuditSetup
    from gui.audit.setup_view import AuditSetupView
    from gui.results.page import BESPOKE, ResultsPage

    view = AuditSetupView(AuditSetup.with_defaults())
    try:
        if stat.id not in view.stat_checks:
            _fail(name, "has no checkbox on the Audit page")
        missing = [s.key for s in stat.settings if s.key not in view.settings_form.widgets]
        if missing:
            _fail(name, f"the Audit page's form has no row for {', '.join(missing)}")
    finally:
        _dispose(view)
    page = ResultsPage()
    try:
        tab = BESPOKE[stat.id][0] if stat.id in BESPOKE else stat.id  # the papers' three: views of their own
        if tab not in page.views:
            _fail(name, "has no tab on the Results page")
    finally:
        _dispose(page)


def _dispose(widget: Any) -> None:
    """Delete a probe widget now: deleteLater waits for an event loop, and a widget left alive is
    retranslated by the next language change — after a toy statistic it was built for is gone."""
    import shiboken6

    shiboken6.delete(widget)


# -- scorers ------------------------------------------------------------------------------------------


def check_scorer(kind: Any, spec: str | None = None, *, gui: bool = False) -> None:
    """Every check of one registered scorer kind (its name or its ``ScorerKind``); ``spec`` loads one
    (default: the kind itself, for a kind that needs no file)."""
    from engine.models import specs

    entry = next((k for k in specs.scorer_kinds() if k.kind == kind), None) if isinstance(kind, str) else kind
    name = f"scorer kind {getattr(entry, 'kind', kind)!r}"
    if entry is None or entry not in specs.scorer_kinds():
        _fail(name, "is not registered (engine.models.specs.register_scorer)")
    if not entry.help.strip():
        _fail(name, "has no help text (audit --help, docs)")
    if entry.usage not in specs.model_option_help():
        _fail(name, f"{entry.usage} is missing from the --model help")
    if gui and not entry.needs_target:
        from gui.audit.setup_model import AuditSetup

        if entry.kind not in [c.key for c in AuditSetup.with_defaults().scorers]:
            _fail(name, "needs no file, yet the Audit page does not list it among the systems")
    if spec is None and entry.needs_target:
        return  # nothing to load without a file: the declaration is all that can be checked
    check_scorer_object(name, specs.load_scorer(spec or entry.kind))


def check_scorer_object(name: str, scorer: Any) -> None:
    """``engine.models.base.Scorer``: name, dimensions, a stable fingerprint, one float row per text."""
    from engine.models.base import Scorer

    if not isinstance(scorer, Scorer):
        _fail(name, "its loader returned an object without name, dimensions, fingerprint() and score()")
    if not isinstance(scorer.name, str) or not scorer.name:
        _fail(name, "its scorer has no name")
    dims = list(scorer.dimensions)
    if not dims or not all(isinstance(d, str) and d for d in dims):
        _fail(name, "its scorer must list at least one named dimension")
    fp = scorer.fingerprint()
    if not isinstance(fp, str) or not fp or fp != scorer.fingerprint():
        _fail(name, "fingerprint() must be a non-empty string, the same on every call (the score cache's key)")
    texts = ["I feel happy.", "My sister feels angry.", ""]
    frame = pd.DataFrame(scorer.score(texts))
    if frame.shape != (len(texts), len(dims)):
        _fail(name, f"score() of {len(texts)} texts returned shape {frame.shape}, not ({len(texts)}, {len(dims)})")
    if not all(pd.api.types.is_float_dtype(t) for t in frame.dtypes):
        _fail(name, "score() must return floats (engine.models.base.make_frame)")
