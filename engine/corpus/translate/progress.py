"""Translation progress: how much of a corpus is translated and reviewed (as Weblate shows it).

Why progress is not an error count: a fresh translation of the 111-item EEC is 0 % done, not
"111 errors"; each item typed moves the bar. An item counts as *translated* when it has
content — a template with text in every variant, an entry with at least one form — or when
the translator marked it *untranslatable* (a decision, not a gap); *reviewed* is the review
status a second native speaker sets. An entry that lacks a form an agreeing slot needs (one form
typed for *furioso* where the slot asks gender=f: checker code E026) is not translated. What is wrong with the translated part is the checker's
business (``finding_groups``), not this module's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.corpus.check.agreement import entries_with_gaps, incomplete
from engine.corpus.definition.model import CorpusDefinition

LISTS = ("templates", "persons", "emotion_words", "words")


def has_content(list_name: str, entry: Any) -> bool:
    """Whether the translator has filled the item in (the review status is not consulted)."""
    if list_name == "templates":
        return bool(entry.variants) and all(v.text.strip() for v in entry.variants)
    return any(f.text.strip() or f.absent for f in entry.forms)


def is_done(list_name: str, entry: Any, corpus: CorpusDefinition | None = None) -> bool:
    """Translated (or marked untranslatable). Given the corpus, an entry that lacks a form an
    agreeing slot needs (E026: *furioso* alone where the slot asks gender=f) or holds two forms
    typed as one (E027) is not done."""
    if entry.review.status == "untranslatable":
        return True
    if not has_content(list_name, entry):
        return False
    return corpus is None or not incomplete(corpus, list_name, entry)


def is_complete(corpus: CorpusDefinition, list_name: str, entry: Any, source_entry: Any = None) -> bool:
    """Done, and — while its status is still *new* — no form the templates need is missing: *angry*
    with only its feminine form has content but is not translated yet (the progress bar and
    Ctrl+Shift+Down agree with its status). A status the translator set (translated, reviewed) is
    their word that the item is done."""
    if entry.review.status == "untranslatable":
        return True
    if not has_content(list_name, entry) or incomplete(corpus, list_name, entry):
        return False  # E026/E027 (a form an agreeing slot needs, two forms in one) whatever the status
    if list_name == "templates" or entry.review.status != "new":
        return True
    from engine.corpus.check.agreement import missing_forms

    return not missing_forms(corpus, list_name, entry, source_entry)


def untranslated_ids(corpus: CorpusDefinition) -> dict[str, set[str]]:
    """Per list, the ids of items not translated yet (no content, or a needed form missing (E026);
    not marked untranslatable)."""
    gaps = entries_with_gaps(corpus)
    return {name: {e.id for e in getattr(corpus, name) if not is_done(name, e) or (name, e.id) in gaps}
            for name in LISTS}


@dataclass
class ListProgress:
    name: str
    total: int = 0
    translated: int = 0  # done: has content or is marked untranslatable
    reviewed: int = 0

    @property
    def left(self) -> int:
        return self.total - self.translated

    @property
    def percent(self) -> float:
        """Share translated, 0–100 (an empty list is complete: nothing is left to do)."""
        return 100.0 if not self.total else 100.0 * self.translated / self.total


@dataclass
class CorpusProgress:
    lists: dict[str, ListProgress] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(p.total for p in self.lists.values())

    @property
    def translated(self) -> int:
        return sum(p.translated for p in self.lists.values())

    @property
    def reviewed(self) -> int:
        return sum(p.reviewed for p in self.lists.values())

    @property
    def left(self) -> int:
        return self.total - self.translated

    @property
    def percent(self) -> float:
        """Share translated, 0–100. An empty corpus is 0 %: nothing is done yet (never "100 %")."""
        return 0.0 if not self.total else 100.0 * self.translated / self.total

    def line(self) -> str:
        """One line for the CLI: "34% translated (38 of 111 items), 2 reviewed, 73 left"."""
        return (f"{percent_text(self.percent)} translated ({self.translated:,} of {self.total:,} items), "
                f"{self.reviewed:,} reviewed, {self.left:,} left")


def next_to_add(corpus: CorpusDefinition) -> str:
    """The list a corpus still needs its first entry in ("templates", "persons", "emotion_words"),
    in the order a corpus is built; '' when each has one. An empty corpus says what to add next."""
    for name in ("templates", "persons", "emotion_words"):
        if not getattr(corpus, name):
            return name
    return ""


def percent_text(p: float) -> str:
    """Whole percent, but never "100%" before the last item nor "0%" after the first."""
    if 0 < p < 1:
        return "<1%"
    if 99 < p < 100:
        return ">99%"
    return f"{round(p)}%"


def corpus_progress(corpus: CorpusDefinition) -> CorpusProgress:
    out = CorpusProgress()
    gaps = entries_with_gaps(corpus)  # lacking a needed form (E026): not translated yet
    for name in LISTS:
        lp = ListProgress(name)
        for e in getattr(corpus, name):
            lp.total += 1
            lp.translated += is_complete(corpus, name, e) and (name, e.id) not in gaps
            lp.reviewed += e.review.status == "reviewed"
        out.lists[name] = lp
    return out


def auto_status(list_name: str, entry: Any, missing: list, translator: str | None = None) -> str:
    """Move ``entry``'s review status with the work and return it: *new* becomes *translated* when
    it has content and no needed form is ``missing``; *translated* goes back to *new* when not; a
    *reviewed* item whose text is edited is *translated* again (or *new*), by ``translator`` when
    given — a review is of a text, not of an id, and the reviewer's initials no longer apply.
    Machine-translated and untranslatable stay the translator's to set."""
    complete = has_content(list_name, entry) and not missing
    if entry.review.status == "reviewed":
        entry.review.status = "translated" if complete else "new"
        if translator is not None:
            entry.review.translator = translator
    elif complete and entry.review.status == "new":
        entry.review.status = "translated"
    elif not complete and entry.review.status == "translated":
        entry.review.status = "new"
    return entry.review.status
