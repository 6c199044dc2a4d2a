"""The corpus's native-speaker review, as one line beside the translation progress.

Why composed here: ``engine.corpus.translate.review_record`` keeps the record and says it in English
("native review: 100 pairs, 1 error, 0.025–5.4 %"); the workbench says the same from the
record's fields in the interface language (in English, word for word the engine's text).
Finding out whether the reviewed text has changed since regenerates the corpus (about a
second for a large one), so the page runs ``review_state`` in the background.
"""
from __future__ import annotations

import copy
from pathlib import Path

from engine.corpus.definition.model import CorpusDefinition
from engine.common.fmt import percent
from engine.corpus.translate.review_record import ReviewStatus, review_status

from gui.i18n_core import _, ngettext, number


def review_state(corpus: CorpusDefinition, path: str | Path | None) -> ReviewStatus:
    """The latest review of the corpus saved at ``path`` and how much of it is stale (worker thread).

    The record lives beside the file the document is saved to, which may differ from the file
    the definition was read from (Save As). An unreadable record raises (the caller says so);
    a half-typed corpus that cannot be generated still shows its review, without the staleness.
    """
    snapshot = copy.copy(corpus)
    snapshot.path = str(path) if path else ""
    quick = review_status(snapshot, check_stale=False)
    if quick.record is None:
        return quick
    try:
        return review_status(snapshot, check_stale=True)
    except Exception:  # noqa: BLE001 - the corpus does not generate right now: the record still counts
        return quick


def review_text(status: ReviewStatus | None) -> str:
    """"native review: 100 pairs, 1 error, 0.025–5.4 %" (or "no blind sample rated yet"), in the interface language."""
    if status is None or status.record is None:
        # not "not reviewed": beside "19 of 19 reviewed" (the items marked by a reviewer) that read as a
        # contradiction (issue 39); this line is about the blind sample of sentences rated by a native speaker
        return _("native review: no blind sample rated yet")
    rec = status.record
    lo, hi = rec.interval
    if rec.unit == "pairs":
        sample = ngettext("{n} pair", "{n} pairs", rec.n).format(n=rec.n)
    elif rec.unit == "sentences":
        sample = ngettext("{n} sentence", "{n} sentences", rec.n).format(n=rec.n)
    else:  # "items": pairs and the single sentences no pair covers, as the engine's summary says
        pairs, singles = rec.pairs_reviewed, rec.n - rec.pairs_reviewed
        # TRANSLATORS: a review sample of pairs and single sentences, e.g. "100 items (17 pairs, 83 sentences)"
        sample = ngettext("{n} item ({pairs}, {sentences})", "{n} items ({pairs}, {sentences})", rec.n).format(
            n=rec.n, pairs=ngettext("{n} pair", "{n} pairs", pairs).format(n=pairs),
            sentences=ngettext("{n} sentence", "{n} sentences", singles).format(n=singles))
    errors = ngettext("{n} error", "{n} errors", rec.errors).format(n=rec.errors)
    # TRANSLATORS: the error rate of a blind native-speaker review: its sample ("100 pairs"), the errors
    # found ("1 error") and the 95 % confidence interval of the rate, e.g. "0.025–5.4 %"
    text = _("native review: {sample}, {errors}, {low}–{high} %").format(
        sample=sample, errors=errors, low=percent(lo), high=percent(hi))
    if status.stale:
        # TRANSLATORS: after the review, the corpus text changed: {n} of the {total} reviewed items now read differently
        text += " " + ngettext("(text changed since: {n} of {total} reviewed items differ)",
                               "(text changed since: {n} of {total} reviewed items differ)",
                               status.stale).format(n=status.stale, total=rec.n)
    return text


def review_tooltip(status: ReviewStatus | None) -> str:
    """What the line means, and where a review comes from."""
    lines = [_("Error rate of a blind native-speaker review, with its exact 95 % Clopper–Pearson interval."),
             _("Draw a sample with `main.py corpus review-sample`; store the filled-in sheet with "
               "`main.py corpus review-import`.")]
    if status is not None and status.record is not None:
        rec = status.record
        lines.append(_("Reviewer: {reviewer}, {date}; {awkward} awkward; sample of {population} (seed {seed})").format(
            reviewer=rec.reviewer, date=rec.date, awkward=rec.awkward, population=number(rec.population),
            seed=rec.seed))
        if status.stale:
            lines.append(_("The corpus has changed since the review: its items no longer read as reviewed."))
    return "\n".join(lines)
