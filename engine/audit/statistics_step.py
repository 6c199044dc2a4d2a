"""The statistics of an audit: every registry entry the plan names, on every scored corpus.

Why a loop over the registry: the pipeline knows nothing about any one statistic; an entry says
whether it applies to a corpus, computes its results and names the extra tables they carry.
One degenerate input (a constant score column, too few pairs) must not sink the audit: the
entry's ValueError/KeyError becomes a problem line and the other statistics go on.
"""
from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from engine.common.progress import LogFn, StepTracker
from engine.stats import registry
from engine.stats.context import StatContext

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

    ctx = StatContext(corpus=corpus, scores=scores, score_cols=score_cols, pairs=pairs, settings=settings, note=note)
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
    except (ValueError, KeyError) as exc:
        msg = f"{stat.id} on {corpus.id}: {exc}"
        result.problems.append(msg)
        say(f"  skipped: {msg}")
        items = []
    for res in items:
        result.results.setdefault(stat.id, []).append(res)
        result.add_table(stat.id, mark_language(res.to_frame(), settings.get("language_warnings") or {}))
        for name, frame in stat.extra_tables(res).items():
            result.add_table(name, frame)
    if steps is not None:
        steps.finish()
