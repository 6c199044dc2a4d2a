"""How big a sweep is, said before any work: cells (corpora × models), a rough time, and a cap.

Why: a plan of a thousand corpora and a thousand models started at once with no word of its size
(10 × 10 took 77 s: 10⁶ cells would be days). The count and a rough time are printed before the
cluster starts; over :data:`MAX_CELLS` a person at the terminal is asked, and a script must say
``--yes`` — otherwise the sweep is refused.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from engine.audit.progress_bar import format_eta as duration_text

from .errors import SweepError

#: cells (corpus × model) a sweep may have without --yes
MAX_CELLS = 1000
#: rough seconds per cell and to start: 1 cell took 12.5 s, 8 cells 25.9 s (vader/textblob on 462-sentence
#: corpora, every statistic, `sweep --jobs 1`, a 2-core machine under load 9.7) — so about 1.9 s a cell
#: and 10 s to start. Neural models and bigger corpora take longer: the figure is a floor, not a promise.
SECONDS_PER_CELL = 1.9
SECONDS_TO_START = 10.0


@dataclass(frozen=True)
class Scale:
    corpora: int
    models: int
    stats: Optional[int]  # None: every statistic

    @property
    def cells(self) -> int:
        return self.corpora * self.models

    @property
    def seconds(self) -> float:
        return SECONDS_TO_START + SECONDS_PER_CELL * self.cells

    def line(self) -> str:
        stats = "every statistic" if self.stats is None else f"{self.stats} statistic(s)"
        return (f"sweep: {self.corpora:,} corpus(es) × {self.models:,} model(s) = {self.cells:,} cell(s), {stats}; "
                f"rough time: {duration_text(self.seconds)} or more (about {SECONDS_PER_CELL:g} s a cell with "
                f"lexicon models on small corpora; neural models take longer)")


def plan_scale(plan) -> Scale:
    return Scale(len(plan.corpora), len(plan.scorers), len(plan.stats) if plan.stats is not None else None)


def confirm_scale(scale: Scale, *, yes: bool, confirm: Callable[[str], bool] | None) -> None:
    """Refuse a sweep over MAX_CELLS cells unless ``yes`` or a person says yes (``confirm``: None in
    scripts and pipes, so a script needs --yes)."""
    if scale.cells <= MAX_CELLS or yes:
        return
    question = f"{scale.cells:,} cells (over {MAX_CELLS:,}) may take {duration_text(scale.seconds)} or more. Start?"
    if confirm is not None and confirm(question):
        return
    raise SweepError(f"{scale.cells:,} cells ({scale.corpora:,} corpus(es) × {scale.models:,} model(s)) is over "
                     f"{MAX_CELLS:,}; rough time {duration_text(scale.seconds)} or more; not started",
                     field="plan", fix="split the plan, or pass --yes to start it anyway")
