"""The statistics of an audit: every registry entry the plan names, on every scored corpus.

Why a loop over the registry: the pipeline knows nothing about any one statistic; an entry says
whether it applies to a corpus, computes its results and names the extra tables they carry.
One degenerate input (a constant score column, too few pairs) must not sink the audit: the
entry's ValueError/KeyError becomes a problem line and the other statistics go on.
"""
from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from engine.common.errors import UserError
from engine.common.progress import Cancelled, LogFn, StepTracker
from engine.stats import registry
from engine.stats.errors import BrokenEntryError

from engine.results.result import AuditResult



def mark_language(frame: pd.DataFrame, warnings: dict[str, str]) -> pd.DataFrame:
    """Rows of a scorer that does not read the corpus's language get ``language_warning`` and a note."""
    if not warnings or "model" not in frame.columns or frame.empty:
        return frame
    frame = frame.copy()
    warn = frame["model"].astype(str).map(warnings).fillna("")
    frame["language_warning"] = warn
    if "note" in frame.columns:
        frame["note"] = [f"{w}; {n}" if w and isinstance(n, str) and n else (w or n)
                         for w, n in zip(warn, frame["note"])]
    return frame


def planned(stat_ids: list[str]) -> list[Any]:
    """The registry entries of ``stat_ids``, in the registry's order (the order of every table)."""
    return [stat for stat in registry.statistics() if stat.id in stat_ids]


def run_statistics(stat_ids: list[str], corpus: Any, scores: pd.DataFrame, pairs: pd.DataFrame | None,
                   score_cols: dict[str, tuple[str, str]], settings: dict[str, Any], result: AuditResult,
                   say: LogFn, stop_here: Callable[[], None] = lambda: None,
                   steps: StepTracker | None = None) -> None:
    """Compute each statistic on one corpus; tables and result objects accumulate in ``result``.
    ``steps``: told as each statistic starts and ends (the statistics phase's progress)."""
    for stat in planned(stat_ids):
        run_statistic(stat, corpus, scores, pairs, score_cols, settings, result, say, stop_here, steps)


def run_statistic(stat: Any, corpus: Any, scores: pd.DataFrame, pairs: pd.DataFrame | None,
                  score_cols: dict[str, tuple[str, str]], settings: dict[str, Any], result: AuditResult,
                  say: LogFn, stop_here: Callable[[], None] = lambda: None,
                  steps: StepTracker | None = None) -> None:
    """One statistic on one corpus (one step of the statistics phase; a worker process may run it)."""

    def note(msg: str) -> None:
        result.problems.append(msg)
        say(f"  note: {msg}")

    ctx = registry.context(corpus=corpus, scores=scores, score_cols=score_cols, pairs=pairs, settings=settings,
                           note=note)
    why_not = stat.applies(ctx)
    if why_not:
        say(f"  {stat.label}: not applicable to {corpus.id} ({why_not})")
        if steps is not None:
            steps.skip()
        return
    stop_here()
    say(f"  {stat.label} on {corpus.id}")
    if steps is not None:
        steps.start(stat.label, corpus.id)
    try:
        items = stat.compute(ctx)
    except (ValueError, KeyError) as exc:  # StatisticError: the data does not allow it (degenerate input)
        from .problems import told

        msg = told("statistic_skipped", statistic=stat.id, corpus=corpus.id, reason=str(exc))
        result.problems.append(msg)
        say(f"  skipped: {msg}")
        items = []
    except (UserError, Cancelled):
        raise
    except Exception as exc:  # noqa: BLE001 - TypeError, AttributeError…: the entry's code, not the input
        raise BrokenEntryError(stat, f"{type(exc).__name__} on {corpus.id}: {exc}") from exc
    for res in items:
        result.results.setdefault(stat.id, []).append(res)
        result.add_table(stat.id, mark_language(declared_frame(stat, res), settings.get("language_warnings") or {}))
        for name, frame in stat.extra_tables(res).items():
            result.add_table(name, frame)
    if steps is not None:
        steps.finish()


def declared_frame(stat: registry.Statistic, res: Any) -> pd.DataFrame:
    """The result's tidy table, when it has the columns the entry declares (``needs``: what every
    reader of the folder relies on); else BrokenEntryError naming the entry — found here, before a
    folder the reader would refuse is written and the user is told to run the audit again."""
    frame = res.to_frame()
    if not isinstance(frame, pd.DataFrame):
        raise BrokenEntryError(stat, f"to_frame() returned {type(frame).__name__}, not a DataFrame")
    missing = [c for c in stat.needs if c not in frame.columns]
    if missing and len(frame):
        raise BrokenEntryError(stat, f"its table lacks the column(s) it declares in `needs`: {', '.join(missing)}")
    return frame
