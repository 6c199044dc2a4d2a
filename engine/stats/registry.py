"""The statistics registry: every statistic of an audit is one entry here.

Why a registry: the pipeline, the audit-folder reader, the HTML report and the GUI all iterate
over the statistics; before, each declared its own list of ids, labels, titles and needed
columns, and adding a statistic meant editing about eight files. Now a statistic is its module
(the computation, e.g. ``engine/stats/hypothesis_tests/counterfactual.py``) and one entry
(``engine/stats/entries/<id>.py``, found there by name). See docs/stats.md,
"Adding a statistic".

Importing this module is cheap: entries import their statistics lazily.

Besides the statistics, ``TABLES`` names every tidy table an audit folder may hold (including
the association tests' tables, which come from ``engine.assoc`` rather than from a statistic),
with its label and the columns its readers rely on.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd

from engine.common.i18n import N_

from engine.stats.context import StatContext
from engine.stats.errors import StatisticError, UnknownStatisticError
from engine.stats.settings import SHARED, Setting, merged

#: the built-in entry modules in display order; any other module in entries/ (a new statistic's entry)
#: is found there and comes after them, by name — adding a statistic edits no list
_ENTRY_MODULES = ("beta", "paired", "counterfactual")


def _entry_module_names() -> list[str]:
    import pkgutil

    from engine.stats import entries

    found = sorted(m.name for m in pkgutil.iter_modules(entries.__path__) if not m.name.startswith("_"))
    return list(_ENTRY_MODULES) + [name for name in found if name not in _ENTRY_MODULES]


@dataclass(frozen=True)
class PlotSpec:
    """A forest plot of one tidy table, for ``engine.common.svg.forest``."""

    title: str
    x_label: str
    rows: list[Any]  # engine.common.svg.Row


@dataclass(frozen=True)
class KeyRow:
    """One headline result for the report's key-results table and charts."""

    statistic: str
    corpus: str
    model: str
    emotion: str
    effect: str
    value: float
    low: float
    high: float
    p: float
    verdict: str = ""


@dataclass(frozen=True)
class Statistic:
    """One statistic of an audit.

    ``compute(ctx)`` returns a list of result objects (each with ``to_frame()`` and ``summary()``)
    for one corpus; it may call ``ctx.note(msg)`` for problems that do not stop it, and raises
    StatisticError (a ValueError) when the input does not allow it (the pipeline records that and goes
    on). ``applies(ctx)`` says why the statistic does not apply to a corpus (None: it does).
    ``extra_tables(result)`` gives further tidy tables ({name: frame}) a result carries (the
    paired analysis's one-row-per-pair table). ``plot(frame)`` and ``key_rows(frame)`` turn the
    tidy table back into a chart and headline rows; ``tables(frame, width)`` lays the tidy table out
    as paper tables, ``(main, extra)`` lists of ``engine.stats.present.tables.Table`` for ``width``
    "page" or "column" (rendered to LaTeX, Markdown and CSV by engine.stats.present; the built-in
    layouts: ``entries._shared.paper_layouts``); None: no paper table, its CSV is the table.
    Each entry owns its tables, plot and headline rows: adding one edits no other file.
    """

    id: str
    label: str  # short, translatable (N_): GUI checkboxes and tabs
    title: str  # with the paper: report headings, table labels
    paper: str  # translatable one-liner: what it computes, after whom
    compute: Callable[[StatContext], list[Any]]
    needs: tuple[str, ...]  # columns every reader of the tidy table relies on
    x_label: str = ""
    applies: Callable[[StatContext], str | None] = lambda ctx: None
    needs_pairs: bool = False  # the pipeline builds the counterfactual pair table only when one asks
    # modules `compute` imports when it first runs (scipy, statsmodels): an audit scoring in several
    # processes imports them while its workers score, and the children that compute the statistics
    # side by side inherit them
    modules: tuple[str, ...] = ()
    # about how long it takes per scored sentence, relative to rendering a corpus's files (1.0): an
    # audit in several processes hands the longest steps out first, so that no process is left with a
    # long one at the end while the other waits (engine.audit.analysis.handing_order)
    cost: float = 1.0
    extra_tables: Callable[[Any], dict[str, pd.DataFrame]] = lambda res: {}
    plot: Callable[[pd.DataFrame], PlotSpec] | None = None
    key_rows: Callable[[pd.DataFrame], list[KeyRow]] = lambda frame: []
    tables: Callable[[pd.DataFrame, str], tuple[list[Any], list[Any]]] | None = None
    extra_table_labels: dict[str, str] = field(default_factory=dict)
    #: the settings ``compute`` reads with ``ctx.setting(key)`` (engine.stats.settings): the CLI flags,
    #: the sweep plan keys, the GUI form, validation and defaults are generated from them
    settings: tuple[Setting, ...] = ()


@dataclass(frozen=True)
class TableInfo:
    """A tidy table an audit folder may hold: where it lives, its label, the columns readers need."""

    id: str
    label: str  # translatable (N_)
    folder: str  # "stats" or "assoc"
    file: str  # file stem inside the folder
    needs: tuple[str, ...] = ()


_ENTRIES: dict[str, Statistic] | None = None


def _load() -> dict[str, Statistic]:
    global _ENTRIES
    if _ENTRIES is None:
        entries = {}
        for name in _entry_module_names():
            entry = importlib.import_module(f"{__package__}.entries.{name}").ENTRY
            entries[entry.id] = entry
        _ENTRIES = entries
    return _ENTRIES


def register(entry: Statistic) -> None:
    """Add a statistic at run time (a notebook's own, or a plug-in); built-ins are the modules of
    ``entries/``. An id already taken is refused."""
    entries = _load()
    if entry.id in entries:
        raise StatisticError(f"a statistic with id {entry.id!r} is already registered",
                             fix="give the new statistic an id of its own")
    entries[entry.id] = entry


def unregister(stat_id: str) -> None:
    _load().pop(stat_id, None)


def statistics() -> list[Statistic]:
    """Every statistic, in display order."""
    return list(_load().values())


def ids() -> tuple[str, ...]:
    return tuple(_load())


def settings() -> list[Setting]:
    """Every statistic's settings, each once: the shared ones first (in ``SHARED``'s order), then each
    statistic's own in display order. A key declared twice differently is refused (a declaration bug)."""
    own = merged([s.settings for s in statistics()])
    used = {s.key for s in own}
    return merged([tuple(s for s in SHARED if s.key in used), tuple(own)])


def setting(key: str) -> Setting | None:
    """The declaration of one setting by its key (None: no statistic declares it)."""
    return next((s for s in settings() if s.key == key), None)


def context(**fields: Any) -> StatContext:
    """A ``StatContext`` (its fields by name) that knows every statistic's declared settings, so
    ``ctx.setting(key)`` gives the plan's value or the declared default."""
    return StatContext(**fields, declared={s.key: s for s in settings()})


def get(stat_id: str) -> Statistic:
    try:
        return _load()[stat_id]
    except KeyError:
        raise UnknownStatisticError(f"unknown statistic {stat_id!r}; choose from {', '.join(ids())}") from None


ASSOC_TABLES = (
    TableInfo("assoc", N_("Association tests (WEAT, SEAT, LPBS)"), "assoc", "tests", ("test", "effect_size", "p_value")),
    TableInfo("assoc_words", N_("Association tests: per-word scores"), "assoc", "word_scores"),
    TableInfo("fise_quadrants", N_("FISE quadrants"), "assoc", "fise_quadrants"),
    TableInfo("fise_words", N_("FISE words"), "assoc", "fise_words"),
)


def tables() -> list[TableInfo]:
    """Every tidy table of an audit folder: each statistic's own and extra tables, then the
    association tests' tables."""
    out = []
    for s in statistics():
        out.append(TableInfo(s.id, s.title, "stats", s.id, s.needs))
        out += [TableInfo(k, v, "stats", k) for k, v in s.extra_table_labels.items()]
    return out + list(ASSOC_TABLES)


def table(table_id: str) -> TableInfo | None:
    return next((t for t in tables() if t.id == table_id), None)


def needed_columns(table_id: str) -> list[str] | None:
    t = table(table_id)
    return list(t.needs) if t is not None and t.needs else None


def assoc_file_tables() -> dict[str, str]:
    """assoc/<file>.csv -> table id."""
    return {t.file: t.id for t in ASSOC_TABLES}


def labels_for(keys: Sequence[str]) -> dict[str, str]:
    """Untranslated labels of table ids (GUI translates them with gettext)."""
    return {k: (t.label if (t := table(k)) is not None else k) for k in keys}
