"""The statistics of several corpora side by side: split between the audit process and forked
children, merged back in corpus order.

Why: an audit in several processes (engine.audit.pipeline) computes its corpora's statistics once
the workers are done. Computed one by one as each corpus's scores came in, they kept the audit
process from scoring, so most corpora completed together at the end (later corpora share most of
their texts with earlier ones and need little new scoring) and their statistics, and rendering
their files, ran one after another beside idle workers: a third of an audit of VADER + TextBlob
over the four English corpora on two cores. Here each block of corpora is analysed, with its files
rendered, in its own process and into a result of its own; the blocks are merged in corpus order,
so tables, result objects, problems and log lines are those of the serial run. A child that fails
in any way (a result that cannot be pickled, a crash) is redone here, so the user sees exactly
what the serial path gives. Cancel is checked while waiting, and stops the children.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .result import AuditResult

LogFn = Callable[[str], None]
POLL_S = 0.1  # how often the audit process looks at `cancel` while children analyse


@dataclass
class CorpusAnalysis:
    """One corpus's statistics: `run(into, say, stop_here)` adds them to a result; `render()`, when
    given, returns the corpus's files (`AuditResult.rendered`), rendered in the same process."""

    corpus_id: str
    run: Callable[[AuditResult, LogFn, Callable[[], None]], None]
    render: Callable[[], dict[str, bytes]] | None = None


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


def analyse_together(jobs: list[CorpusAnalysis], result: AuditResult, say: LogFn, stop_here: Callable[[], None], *,
                     processes: int) -> None:
    """Run `jobs` in up to `processes` processes (forked children where forking is safe, else here)
    and add what they compute to `result`."""
    from engine.models.base import Cancelled

    from .forked import ForkedCall
    from .parallel import can_fork

    blocks = blocks_of(jobs, processes if can_fork() else 1)
    children = [ForkedCall(_analyse_block, block, result.out_dir, lambda: None) for block in blocks[:-1]]
    if children:
        say(f"statistics of {len(jobs)} corpora side by side in {len(blocks)} processes")
    try:
        try:
            own, failed = _analyse_block(blocks[-1], result.out_dir, stop_here), None
        except Cancelled:
            raise
        except Exception as exc:  # raised once the earlier corpora had theirs: the serial path's order
            own, failed = None, exc
        parts = []
        for child, block in zip(children, blocks[:-1]):
            while not child.wait(POLL_S):
                stop_here()
            ok, value = child.result()
            # a child that failed is redone here: the error, if any, is then the serial path's
            parts.append(value if ok else _analyse_block(block, result.out_dir, stop_here))
        if failed is not None:
            raise failed
        for part in [*parts, own]:  # corpus order
            _merge(result, part, say)
    except BaseException:
        for child in children:
            child.abandon()
        raise


def _analyse_block(block: list[CorpusAnalysis], out_dir: Any, stop_here: Callable[[], None]) -> _Block:
    """A block's statistics (and files) into a fresh result. In a child, `stop_here` does nothing:
    cancel is the audit process's to check, and it abandons the child."""
    part = _Block(AuditResult(out_dir))
    for job in block:
        job.run(part.result, part.lines.append, stop_here)
    for job in block:
        if job.render is not None:
            part.result.rendered[job.corpus_id] = job.render()
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
