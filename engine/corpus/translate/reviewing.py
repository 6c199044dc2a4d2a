"""The reviewer's step: which items wait for a second native speaker, and marking them reviewed.

Why here: the workbench's filter "translated, not reviewed" and its *Mark reviewed* button, and
the CLI twin ``main.py corpus mark-reviewed``, must agree on the queue and on what a mark
records (status ``reviewed``, the reviewer's name in the item's ``translator`` field).
"""
from __future__ import annotations

import copy
from typing import Any

from engine.common.errors import UsageError
from engine.corpus.definition.model import CorpusDefinition, Review

from .progress import LISTS

#: statuses of items translated (by a person or a machine) and not reviewed yet
AWAITING = ("translated", "machine-translated")


def awaits_review(status: str) -> bool:
    return status in AWAITING


def review_queue(corpus: CorpusDefinition) -> list[tuple[str, str]]:
    """(list, id) of every item translated and not reviewed yet, in file order."""
    return [(name, e.id) for name in LISTS for e in getattr(corpus, name) if awaits_review(e.review.status)]


def reviewed(review: Review, reviewer: str) -> Review:
    """A copy of ``review`` marked reviewed by ``reviewer`` (kept as it was when empty)."""
    new = copy.deepcopy(review)
    new.status = "reviewed"
    if reviewer:
        new.translator = reviewer
    return new


def find_items(corpus: CorpusDefinition, names: list[str]) -> list[tuple[str, str]]:
    """(list, id) for each name: an id (``T01``, ``ana``) or ``LIST:ID`` where an id repeats
    across lists. Raises UsageError naming an unknown or ambiguous one."""
    out = []
    for name in names:
        wanted_list, _, item_id = name.rpartition(":")
        lists = [wanted_list] if wanted_list else list(LISTS)
        if wanted_list and wanted_list not in LISTS:
            raise UsageError(f"no list {wanted_list!r} in {name!r}", field="ITEM",
                             fix=f"write LIST:ID with LIST one of {', '.join(LISTS)}")
        hits = [(ln, item_id) for ln in lists if any(e.id == item_id for e in getattr(corpus, ln))]
        if not hits:
            raise UsageError(f"no item {name!r} in {corpus.id}", field="ITEM",
                             fix="use an id shown by the workbench or the file (templates T01…, persons, emotion words)")
        if len(hits) > 1:
            raise UsageError(f"{item_id!r} is an id in {' and '.join(ln for ln, _ in hits)}", field="ITEM",
                             fix=f"say which: {' or '.join(f'{ln}:{item_id}' for ln, _ in hits)}")
        out.append(hits[0])
    return out


def mark_reviewed(corpus: CorpusDefinition, items: list[tuple[str, str]], reviewer: str) -> int:
    """Mark ``items`` reviewed by ``reviewer`` in place; returns how many changed."""
    changed = 0
    for list_name, item_id in items:
        entry: Any = next(e for e in getattr(corpus, list_name) if e.id == item_id)
        new = reviewed(entry.review, reviewer)
        if new != entry.review:
            entry.review = new
            changed += 1
    return changed
