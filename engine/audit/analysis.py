"""The statistics of several corpora side by side: blocks of corpora analysed in worker processes
and in the audit process (the executor's `LocalPool.map`), merged back in corpus order.

Why: in an audit in several processes (engine.audit.pipeline) the corpora's statistics, computed
one by one as each corpus's scores came in, kept the audit process from scoring, so most corpora
completed together at the end (later corpora share most of their texts with earlier ones and need
little new scoring) and their statistics, and rendering their files, ran one after another beside
idle workers: a third of an audit of VADER + TextBlob over the four English corpora on two cores.
Here each block of corpora is analysed, with its files rendered, in one process and into a result
of its own; the blocks are merged in corpus order, so tables, result objects, problems and log
lines are those of the serial run. The pool is made once the scoring is done, so its forked workers
start with the statistics' modules imported and are handed the blocks at the fork (pickling a block
of scored corpora to a worker cost about 0.1 s). A block that fails in a worker in any way (a result
that cannot be pickled, a crash) is redone here by the executor, so the user sees exactly what the
serial path gives. Cancel is checked while waiting and before each statistic here, and stops the
workers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from engine.common.progress import LogFn
from engine.results.result import AuditResult

_BLOCKS = "engine.audit.analysis.blocks"  # the key the blocks are handed to forked workers under


@dataclass
class CorpusStatistics:
    """One scored corpus's statistics as plain data (a task a worker process can be sent).
    `render`: also render the corpus's files (`AuditResult.rendered`) in the same process."""

    corpus: Any
    scores: pd.DataFrame
    pairs: pd.DataFrame | None
    score_cols: dict[str, tuple[str, str]]
    stat_ids: list[str]
    settings: dict[str, Any]
    render: bool = False

    def run(self, into: AuditResult, say: LogFn, stop_here: Callable[[], None]) -> None:
        """Add the plan's statistics on this corpus to `into`."""
        from .statistics_step import run_statistics

        run_statistics(self.stat_ids, self.corpus, self.scores, self.pairs, self.score_cols, self.settings, into,
                       say, stop_here)

    def files(self, out_dir: Path | None) -> tuple[dict[str, bytes], list[str]]:
        """The corpus's files (engine.results.writer.corpus_files) and the problems rendering found."""
        from engine.results.writer import corpus_files

        scratch = AuditResult(out_dir)
        scratch.scores[self.corpus.id] = self.scores
        if self.pairs is not None:
            scratch.pairs[self.corpus.id] = self.pairs
        return corpus_files(scratch, self.corpus.id), scratch.problems


@dataclass
class _Block:
    """What one process computed for its corpora, in a result of its own (plain, picklable data)."""

    result: AuditResult
    lines: list[str] = field(default_factory=list)


def blocks_of(items: list[Any], processes: int) -> list[list[Any]]:
    """Contiguous blocks, the larger ones first: the last, never larger than the others, is the
    audit process's, which also merges the blocks and writes the folder afterwards."""
    n = len(items)
    count = max(1, min(processes, n))
    size, extra = divmod(n, count)
    out, start = [], 0
    for b in range(count):
        end = start + size + (1 if b < extra else 0)
        out.append(items[start:end])
        start = end
    return out


def analyse_together(tasks: list[CorpusStatistics], result: AuditResult, say: LogFn,
                     stop_here: Callable[[], None], *, processes: int) -> None:
    """Run `tasks` in up to `processes` processes (this one included) and add what they compute to
    `result`. `stop_here()` raises the audit's `Cancelled` when the run is to stop."""
    from engine.common.executor import LocalPool

    blocks = blocks_of(tasks, processes)
    if len(blocks) == 1:
        parts = [_analyse_block(blocks[0], result.out_dir, stop_here)]
    else:
        say(f"statistics of {len(tasks)} corpora side by side in {len(blocks)} processes")
        with LocalPool(len(blocks) - 1, inherit={_BLOCKS: blocks}) as pool:
            # in a worker, cancel is not looked at: the audit process checks it and stops the workers
            parts = pool.map(partial(_analyse_handed, out_dir=result.out_dir), range(len(blocks)), cancel=stop_here,
                             here=lambda b: _analyse_block(blocks[b], result.out_dir, stop_here))
    for part in parts:  # corpus order
        _merge(result, part, say)


def _never() -> None:
    pass


def _analyse_handed(b: int, out_dir: Path | None) -> _Block:
    """In a worker: block `b` of those the pool was handed (a worker that was not handed them, not
    being forked, fails, and the executor redoes the block in the audit process)."""
    from engine.common.executor import inherited

    return _analyse_block(inherited(_BLOCKS)[b], out_dir)


def _analyse_block(block: list[CorpusStatistics], out_dir: Path | None,
                   stop_here: Callable[[], None] = _never) -> _Block:
    """A block's statistics (and files) into a fresh result."""
    part = _Block(AuditResult(out_dir))
    for task in block:
        task.run(part.result, part.lines.append, stop_here)
    for task in block:
        if task.render:
            part.result.rendered[task.corpus.id], problems = task.files(out_dir)
            part.result.problems.extend(problems)
    return part


def _merge(result: AuditResult, part: _Block, say: LogFn) -> None:
    """Add a block's result to the audit's, as if its corpora had been analysed here."""
    for line in part.lines:
        say(line)
    for name, frame in part.result.tables.items():
        result.add_table(name, frame)
    for sid, items in part.result.results.items():
        result.results.setdefault(sid, []).extend(items)
    result.problems.extend(part.result.problems)
    result.rendered.update(part.result.rendered)
