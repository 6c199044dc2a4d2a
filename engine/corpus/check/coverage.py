"""Coverage bookkeeping (no Qt): which template × person group × emotion cells are complete.

Why: a translator must see at a glance which combinations the corpus will *not* produce —
a missing feminine form, an untranslatable word, a template with a typo — before running
an audit on a corpus with holes in it. Expected combinations come from each template's slot
filters applied to *all* entries (including untranslated ones); produced ones come from the
engine's generator. Nothing statistical happens here, only set differences.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from engine.corpus.generate.compiled import EMOTION_ATTRS, PERSON_ATTRS, CompiledCorpus
from engine.corpus.definition.model import CorpusDefinition

if TYPE_CHECKING:  # pandas is not needed to import the engine
    import pandas as pd

NEUTRAL = ""  # templates without an emotion slot


@dataclass
class Cell:
    expected: set[tuple[str, str]] = field(default_factory=set)  # (person id, emotion word id)
    produced: set[tuple[str, str]] = field(default_factory=set)

    @property
    def missing(self) -> set[tuple[str, str]]:
        return self.expected - self.produced

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass
class Coverage:
    rows: list[tuple[str, str]]  # (template id, emotion or NEUTRAL)
    groups: list[str]  # person group labels, e.g. "female · European"
    cells: dict[tuple[tuple[str, str], str], Cell]
    unusable: set[str] = field(default_factory=set)  # templates whose text cannot be read
    untranslatable: set[str] = field(default_factory=set)  # entry ids marked untranslatable

    def cell(self, row: tuple[str, str], group: str) -> Cell:
        return self.cells.get((row, group), Cell())

    def skipped(self, cell: Cell) -> set[tuple[str, str]]:
        """Missing combinations the translator skipped on purpose (an untranslatable entry)."""
        return {(p, e) for p, e in cell.missing if p in self.untranslatable or e in self.untranslatable}

    @property
    def missing_total(self) -> int:
        return sum(len(c.missing) for c in self.cells.values())

    @property
    def skipped_total(self) -> int:
        return sum(len(self.skipped(c)) for c in self.cells.values())


def person_group(corpus: CorpusDefinition, person) -> str:
    # one column per cell of the design: gender × every other axis's group (race, religion…)
    second = " · ".join(person.groups[a] for a in corpus.axes if a != "gender" and person.groups.get(a))
    label = "noun phrase" if person.kind == "noun_phrase" else (second or person.kind)
    return f"{person.gender or '?'} · {label}"


def _filters(cc: CompiledCorpus, template_id: str) -> tuple[dict, dict, bool] | None:
    ct = next((t for t in cc.templates if t.id == template_id), None)
    v = ct.first() if ct else None
    if v is None or v.person_slot is None:
        return None
    pf = {k: x for k, x in v.person_slot.fixed.items() if k in PERSON_ATTRS or k in cc.corpus.axes}
    ef = {k: x for k, x in v.emotion_slot.fixed.items() if k in EMOTION_ATTRS} if v.emotion_slot else {}
    return pf, ef, v.emotion_slot is not None


def compute_coverage(corpus: CorpusDefinition, produced: pd.DataFrame,
                     source: CorpusDefinition | None = None) -> Coverage:
    """``produced`` is ``engine.corpus.generate(corpus)``; ``source`` fills in filters of unreadable templates."""
    cc = CompiledCorpus(corpus)
    src_cc = CompiledCorpus(source) if source is not None else None
    groups: list[str] = []
    for p in corpus.persons:
        g = person_group(corpus, p)
        if g not in groups:
            groups.append(g)
    emotions = sorted({e.emotion for e in corpus.emotion_words})
    rows: list[tuple[str, str]] = []
    cells: dict[tuple[tuple[str, str], str], Cell] = {}
    unusable: set[str] = set()
    for t in corpus.templates:
        filt = _filters(cc, t.id)
        if filt is None:
            unusable.add(t.id)
            filt = _filters(src_cc, t.id) if src_cc is not None else None
        if filt is None:
            rows.append((t.id, NEUTRAL))
            continue
        pf, ef, has_emotion = filt
        persons = [p for p in corpus.persons if all({"kind": p.kind, **p.groups}.get(k) == x for k, x in pf.items())]
        words = [e for e in corpus.emotion_words
                 if all({"kind": e.kind, "emotion": e.emotion}.get(k) == x for k, x in ef.items())] if has_emotion else []
        t_rows = [(t.id, em) for em in emotions] if has_emotion else [(t.id, NEUTRAL)]
        rows += t_rows
        for p in persons:
            g = person_group(corpus, p)
            if has_emotion:
                for e in words:
                    cells.setdefault(((t.id, e.emotion), g), Cell()).expected.add((p.id, e.id))
            else:
                cells.setdefault(((t.id, NEUTRAL), g), Cell()).expected.add((p.id, ""))
    person_groups = {p.id: person_group(corpus, p) for p in corpus.persons}
    if len(produced):
        for tid, em, pid, eid in produced[["template_id", "Emotion", "person_id", "emotion_word_id"]].itertuples(index=False):
            key = ((tid, em or NEUTRAL), person_groups.get(pid, "?"))
            cells.setdefault(key, Cell()).produced.add((pid, eid))
    untranslatable = {e.id for e in list(corpus.persons) + list(corpus.emotion_words)
                      if e.review.status == "untranslatable"}
    return Coverage(rows, groups, cells, unusable, untranslatable)
