"""The statistics of several corpora side by side: one step per statistic and corpus (and one per
corpus's files to render), computed in worker processes and in the audit process (the executor's
`LocalPool.map`), merged back in the serial order.

Why: in an audit in several processes (engine.audit.pipeline) the corpora's statistics, computed
one by one as each corpus's scores came in, kept the audit process from scoring, so most corpora
completed together at the end (later corpora share most of their texts with earlier ones and need
little new scoring) and their statistics, and rendering their files, ran one after another beside
idle workers: a third of an audit of VADER + TextBlob over the four English corpora on two cores.
Here each step is computed in one process into a result of its own, and the results are merged in
the serial order (corpus, then statistic), so tables, result objects, problems and log lines are
those of the serial run. Steps, not blocks of corpora: one long statistic (a Beta regression on a
large corpus) no longer holds back a whole block, the processes stay busy to the end, and the
statistics phase reports progress per statistic and corpus (`StepTracker`: a step handed to a worker
or started here is named, each finished one counted). The pool is made once the scoring is done, so
its forked workers start with the statistics' modules imported and are handed the scored corpora at
the fork (pickling them to a worker cost about 0.1 s). A step that fails in a worker in any way (a
result that cannot be pickled, a crash) is redone here by the executor, so the user sees exactly
what the serial path gives. Cancel is checked while waiting and before each statistic here, and
stops the workers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from engine.common.progress import LogFn, StepTracker
from engine.results.result import AuditResult

_BLOCKS = "engine.audit.analysis.steps"  # the key the corpora and steps are handed to forked workers under


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

    def statistics(self) -> list[Any]:
        """The registry entries this corpus runs, in order: one step each."""
        from .statistics_step import planned

        return planned(self.stat_ids)

    def run(self, into: AuditResult, say: LogFn, stop_here: Callable[[], None],
            steps: StepTracker | None = None) -> None:
        """Add the plan's statistics on this corpus to `into`."""
        for stat in self.statistics():
            self.run_step(stat, into, say, stop_here, steps)

    def run_step(self, stat: Any, into: AuditResult, say: LogFn, stop_here: Callable[[], None],
                 steps: StepTracker | None = None) -> None:
        """One statistic on this corpus into `into`."""
        from .statistics_step import run_statistic

        run_statistic(stat, self.corpus, self.scores, self.pairs, self.score_cols, self.settings, into, say,
                      stop_here, steps)

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
    """What one step computed, in a result of its own (plain, picklable data)."""

    result: AuditResult
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Step:
    """One task of the side-by-side statistics: statistic `stat` (a registry id) of corpus `k`, or,
    with `stat` None, the rendering of corpus `k`'s files."""

    k: int
    stat: str | None = None


def steps_of(tasks: list[CorpusStatistics]) -> list[Step]:
    """Every corpus's statistics in corpus order (the serial path's, in which their results are
    merged), then the files to render; `handing_order` says in which order they are handed out."""
    out = [Step(k, stat.id) for k, task in enumerate(tasks) for stat in task.statistics()]
    return out + [Step(k) for k, task in enumerate(tasks) if task.render]


def handing_order(tasks: list[CorpusStatistics], plan: list[Step], processes: int = 2) -> list[int]:
    """The steps' indices in the order a pool hands them out: the workers take from the front and the
    audit process from the back (``LocalPool.map``), so each end starts with its longest steps and the
    two meet on the shortest.

    Which end a step is put at follows the longest-first rule (LPT) over ``processes`` processes:
    the steps, longest expected first (a statistic's ``cost`` times its corpus's sentences; ties in
    the serial order), each go to the process that is expected to be free first; the audit process's
    steps are laid from the back. Where the estimates are off, the processes still take from their
    ends until they meet, so no step waits for a process that is busy.

    Why: sorted longest first with the audit process taking from the back, the worker took every Beta
    regression and then a paired analysis, while the audit process ended its short steps and waited
    for it (0.28 s of a 1.74 s statistics phase, four English corpora, 2026-11-28 14:20 UTC); before,
    in the serial order, a long statistic of a late corpus was often the last step (0.27 s of 1.5 s)."""
    from engine.stats import registry

    def cost(i: int) -> float:
        step = plan[i]
        per_row = 1.0 if step.stat is None else float(registry.get(step.stat).cost)
        return per_row * len(tasks[step.k].scores)

    longest = sorted(range(len(plan)), key=lambda i: -cost(i))
    free_at = [0.0] * max(2, processes)  # [0]: the audit process
    front: list[int] = []
    back: list[int] = []
    for i in longest:
        p = min(range(len(free_at)), key=lambda q: (free_at[q], -q))  # a tie goes to a worker
        free_at[p] += cost(i)
        (back if p == 0 else front).append(i)
    return front + back[::-1]


def analyse_together(tasks: list[CorpusStatistics], result: AuditResult, say: LogFn,
                     stop_here: Callable[[], None], *, processes: int, steps: StepTracker | None = None,
                     meanwhile: Callable[[], None] | None = None) -> None:
    """Run `tasks` in up to `processes` processes (this one included) and add what they compute to
    `result`, in the serial path's order. `stop_here()` raises the audit's `Cancelled` when the run is
    to stop; `steps` is told as each statistic starts here and as each one ends, here or in a worker.
    `meanwhile()` runs once in this process, as the first step starts (a worker's: the audit commits
    the score cache's last rows while it computes), or first where no worker is used; an error it
    raises stops the run there."""
    from engine.common.executor import LocalPool
    from engine.common.executor.handoff import handoff_folder, take_over
    from engine.stats import registry

    plan = steps_of(tasks)
    first = [meanwhile] if meanwhile is not None else []

    def before_own_step() -> None:
        while first:
            first.pop()()

    if processes < 2 or len(plan) < 2:
        before_own_step()
        parts = [_run_step(tasks, step, result.out_dir, stop_here, steps) for step in plan]
    else:
        say(f"statistics of {len(tasks)} corpora side by side in {processes} processes")
        counted = [step.stat is not None for step in plan]

        taken: dict[int, _Block] = {}

        def done(i: int, part: _Block | Path) -> None:
            if isinstance(part, Path):  # a worker's rendered files, through a file: read while it computes on
                try:
                    taken[i] = take_over(part)
                except Exception:  # noqa: BLE001 - unreadable: made here, as after any failure in a worker
                    taken[i] = _run_step(tasks, plan[i], result.out_dir, stop_here)
            if steps is not None and counted[i]:
                steps.finish()

        def started(i: int) -> None:
            # the first step to start is the worker's: `meanwhile` runs as it computes. Here, not in the
            # step this process computes, so that its error (a full disk under the score cache) stops
            # the run at once, as with one process, and is not held as that step's error
            before_own_step()
            if steps is not None and counted[i]:
                steps.start(registry.get(plan[i].stat).label, tasks[plan[i].k].corpus.id)

        with handoff_folder() as folder, LocalPool(processes - 1, inherit={_BLOCKS: (tasks, plan)}) as pool:
            # in a worker, cancel is not looked at: the audit process checks it and stops the workers
            parts = pool.map(partial(_step_handed, out_dir=result.out_dir, folder=folder), range(len(plan)),
                             cancel=stop_here, here=lambda i: _run_step(tasks, plan[i], result.out_dir, stop_here),
                             on_result=done, on_start=started, order=handing_order(tasks, plan, processes))
        parts = [taken.get(i, part) for i, part in enumerate(parts)]  # (`done` saw every worker's value)
        before_own_step()  # (no step started: nothing to hand out)
    for part in parts:  # the serial order
        _merge(result, part, say)


def _never() -> None:
    pass


def _step_handed(i: int, out_dir: Path | None, folder: Path | None = None) -> _Block | Path:
    """In a worker: step `i` of those the pool was handed (a worker that was not handed them, not
    being forked, fails, and the executor redoes the step in the audit process). A corpus's rendered
    files (2–3 MB for 8,640 sentences) come back through a file in `folder`, as the generated corpora
    do (engine.common.executor.handoff: through the pool's pipe, 4 MB took 0.16 s while the audit
    process computed); a statistic's tables are small and take the pipe."""
    from engine.common.executor import inherited

    tasks, plan = inherited(_BLOCKS)
    part = _run_step(tasks, plan[i], out_dir)
    if folder is not None and plan[i].stat is None:
        from engine.common.executor.handoff import hand_over

        return hand_over(part, folder)
    return part


def _run_step(tasks: list[CorpusStatistics], step: Step, out_dir: Path | None,
              stop_here: Callable[[], None] = _never, steps: StepTracker | None = None) -> _Block:
    """A step's statistic (or files) into a fresh result."""
    from engine.stats import registry

    task = tasks[step.k]
    part = _Block(AuditResult(out_dir))
    if step.stat is None:
        part.result.rendered[task.corpus.id], problems = task.files(out_dir)
        part.result.problems.extend(problems)
    else:
        task.run_step(registry.get(step.stat), part.result, part.lines.append, stop_here, steps)
    return part


def _merge(result: AuditResult, part: _Block, say: LogFn) -> None:
    """Add a step's result to the audit's, as if it had been computed here."""
    for line in part.lines:
        say(line)
    for name, frame in part.result.tables.items():
        result.add_table(name, frame)
    for sid, items in part.result.results.items():
        result.results.setdefault(sid, []).extend(items)
    result.problems.extend(part.result.problems)
    result.rendered.update(part.result.rendered)
