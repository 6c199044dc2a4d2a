"""The workbench page's state and decisions, held as plain data (no Qt); ``page.py`` is its view.

Why a model apart from the widgets: ``WorkbenchPage`` used to work out its texts, counts and
answers inside its slots, so every question ("what does the progress line say?", "which item
is next to translate?", "which entries does the search show?") needed a window to ask. Like the
Audit page's ``AuditSetup`` (gui/audit/setup_model.py), ``WorkbenchState`` keeps the page's
non-widget state — the filter, the latest check and native-review results, what autosave last
wrote — and answers those questions from the open corpus; the page shows the answers and passes
the user's actions on. Tests drive it without a window or a QApplication.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from engine.common.languages import endonym
from engine.corpus.definition.model import REVIEW_STATUSES, CorpusDefinition
from engine.corpus.translate.progress import LISTS, CorpusProgress, corpus_progress, is_complete, next_to_add, percent_text
from engine.corpus.translate.reviewing import awaits_review

from gui.i18n_core import _, isolated, ngettext, number

from .columns import COLUMNS_FOR, LIST_TITLES, cell_text, status_label
from .native_review import review_text, review_tooltip

#: the status filter's "translated, not reviewed" entry (the reviewer's queue)
TO_REVIEW = "to-review"
#: one entry of the corpus: (list name, id)
Item = tuple[str, str]


class OpenCorpus(Protocol):
    """What the state reads of the open document (``CorpusDocument`` is one; tests use plain data)."""

    corpus: CorpusDefinition
    source: CorpusDefinition | None
    path: Path | None
    revision: int

    @property
    def is_builtin(self) -> bool: ...

    @property
    def modified(self) -> bool: ...


def display_path(path: str | Path) -> str:
    """A file name as a translator thinks of it: in "your corpora", built-in, or under ~."""
    from engine.common.user_dirs import user_corpus_dir
    from engine.corpus.definition.registry import BUILTIN_DIR

    p = Path(path)
    for base, label in ((user_corpus_dir(), _("your corpora")), (BUILTIN_DIR, "")):
        try:
            rel = p.resolve().relative_to(base.resolve())
        except (ValueError, OSError):
            continue
        return f"{label} › {rel}" if label else str(rel)
    try:
        return "~/" + str(p.resolve().relative_to(Path.home().resolve()))
    except (ValueError, OSError):
        return str(p)


def status_filter_choices() -> list[tuple[str, str]]:
    """(label, value) of the status filter's entries: all, the reviewer's queue, then each status."""
    return ([(_("All"), ""), (_("translated, not reviewed"), TO_REVIEW)]
            + [(status_label(s), s) for s in REVIEW_STATUSES])


@dataclass
class EntryFilter:
    """The header's review-status filter and search text: which entries the tables show."""

    status: str = ""  # "" (all), TO_REVIEW, or one review status
    text: str = ""  # as typed; matched case-insensitively against every cell as shown

    def accepts(self, status: str, cells: Iterable[Any]) -> bool:
        """Whether an entry with review ``status`` and these cell texts passes (cells read lazily)."""
        if self.status == TO_REVIEW and not awaits_review(status):
            return False  # the reviewer's queue: translated, not reviewed yet
        if self.status and self.status != TO_REVIEW and status != self.status:
            return False
        if self.text:
            needle = self.text.casefold()
            return any(needle in str(cell or "").casefold() for cell in cells)
        return True


@dataclass
class Heading:
    """The page's title lines: corpus id (starred when unsaved), language, source, and where it lives."""

    corpus_id: str
    modified: bool
    language: str  # "Italiano (it)", or "?" when the corpus names none
    source_note: str  # " · translated from en-kiritchenko2018", or ""
    where: str
    tooltip: str

    def html(self) -> str:
        star = " *" if self.modified else ""
        return (f"<b>{html.escape(self.corpus_id)}</b>{star} · {html.escape(self.language)}"
                f"{html.escape(self.source_note)}<br><small>{html.escape(self.where)}</small>")


def run_check(snapshot: CorpusDefinition) -> tuple[Any, list, list]:
    """The background check (a worker thread): the report, its problem groups, its untranslated groups."""
    from engine.corpus import check_corpus
    from engine.corpus.check.finding_groups import group_findings

    report = check_corpus(snapshot)
    groups = group_findings(report, snapshot, include_untranslated=True)
    return report, [g for g in groups if not g.untranslated], [g for g in groups if g.untranslated]


def run_generation(snapshot: CorpusDefinition, source: CorpusDefinition | None) -> tuple[Any, Any, Any]:
    """The background generation (a worker thread): sentences, pair count, coverage matrix."""
    from engine.corpus import generate
    from engine.corpus.check.coverage import compute_coverage
    from engine.corpus.pairs.tables import pair_count

    frame = generate(snapshot)
    return frame, pair_count(snapshot), compute_coverage(snapshot, frame, source)


@dataclass
class WorkbenchState:
    """Everything the workbench page knows besides its widgets, and the answers it shows."""

    doc: OpenCorpus
    filter: EntryFilter = field(default_factory=EntryFilter)
    report: Any = None  # the latest checker report (None: none yet, or the check failed)
    #: per list, id -> "error" | "warning" of the latest check that ran (kept when a check fails)
    problems: dict[str, dict[str, str]] = field(default_factory=dict)
    review: Any = None  # engine.corpus.translate.review_record.ReviewStatus, once known
    review_error: str = ""  # why the review record cannot be read
    generated: Any = None  # the latest generated sentences (preview, coverage)
    generation_stale: bool = True
    autosaved_revision: int = -1

    def __post_init__(self) -> None:
        # an unmodified document is what its file (or recovery file) holds: nothing to autosave yet
        self.autosaved_revision = self.doc.revision if not self.doc.modified else -1

    @property
    def corpus(self) -> CorpusDefinition:
        return self.doc.corpus

    def entry(self, list_name: str, item_id: str) -> Any:
        """The first entry of ``list_name`` with this id (None when there is none)."""
        return next((e for e in getattr(self.corpus, list_name) if e.id == item_id), None)

    def source_entry(self, list_name: str, item_id: str) -> Any:
        source = self.doc.source
        return None if source is None else next((e for e in getattr(source, list_name) if e.id == item_id), None)

    # -- the header -------------------------------------------------------------
    def heading(self) -> Heading:
        doc, c = self.doc, self.doc.corpus
        where = display_path(doc.path) if doc.path else _("not saved yet")
        if doc.is_builtin:
            where = _("built-in corpus ({file}): Save writes a copy to your corpora").format(file=isolated(where))
        src = (" · " + _("translated from {corpus}").format(corpus=isolated(doc.source.id))) if doc.source else ""
        lang = f"{endonym(c.language)} ({c.language})" if c.language else "?"
        return Heading(c.id, doc.modified, lang, src, where, f"{c.name}\n{doc.path or ''}".strip())

    def progress(self) -> CorpusProgress:
        return corpus_progress(self.corpus)

    # ``p``: the corpus_progress already computed for this update (tens of ms on a large corpus; the
    # page's one update after an edit reads it three times), else computed here
    def progress_permille(self, p: CorpusProgress | None = None) -> int:
        """The progress bar's value: translated share in tenths of a percent (0–1000)."""
        return round(10 * (p or self.progress()).percent)

    def progress_text(self, p: CorpusProgress | None = None) -> str:
        """"34% translated · 73 items left · 2 of 111 reviewed" (the bar's caption)."""
        p = p or self.progress()
        parts = [_("{percent} translated").format(percent=percent_text(p.percent))]
        todo = next_to_add(self.corpus)
        if todo:  # a corpus still being built: say what comes next instead of "100 %" or "no problems"
            parts.append({"templates": _("next: add a template (Templates tab, Add)"),
                          "persons": _("next: add persons (Persons tab, Add)"),
                          "emotion_words": _("next: add emotion words (Emotion words tab, Add)")}[todo])
        if p.left:
            parts.append(ngettext("{n} item left", "{n} items left", p.left).format(n=number(p.left)))
        # TRANSLATORS: {n} of the {total} entries (templates, persons, words) are reviewed; {n} picks the form
        parts.append(ngettext("{n} of {total} reviewed", "{n} of {total} reviewed", p.reviewed).format(
            n=number(p.reviewed), total=number(p.total)))
        return " · ".join(parts)

    def review_counts(self) -> dict[str, int]:
        """How many entries (templates, persons, emotion words, words) have each review status."""
        counts = {s: 0 for s in REVIEW_STATUSES}
        for name in LISTS:
            for e in getattr(self.corpus, name):
                counts[e.review.status] = counts.get(e.review.status, 0) + 1
        return counts

    def review_summary(self) -> str:
        """The progress line's tooltip: "Review: 2 of 111 reviewed · 30 translated · 79 new"."""
        counts = self.review_counts()
        total, reviewed = sum(counts.values()), counts.get("reviewed", 0)
        # TRANSLATORS: {n} of the {total} entries (templates, persons, words) are reviewed; {n} picks the form
        parts = [ngettext("{n} of {total} reviewed", "{n} of {total} reviewed", reviewed).format(
            n=number(reviewed), total=number(total))]
        for status in ("translated", "machine-translated", "new", "untranslatable"):
            if counts.get(status):
                parts.append(f"{counts[status]} {status_label(status)}")
        return _("Review: ") + " · ".join(parts)

    def tab_titles(self, p: CorpusProgress | None = None) -> list[tuple[str, str]]:
        """(title, tooltip) of each list's tab: "Persons 12/60" (translated of total) while items are left."""
        progress = p or self.progress()
        out = []
        for name in LISTS:
            lp = progress.lists[name]
            title = _(LIST_TITLES[name])
            out.append((f"{title} {lp.translated}/{lp.total}" if lp.left else title,
                        _("{done} of {total} translated, {reviewed} reviewed").format(
                            done=lp.translated, total=lp.total, reviewed=lp.reviewed)))
        return out

    # -- the filter -------------------------------------------------------------
    def visible_ids(self, list_name: str) -> list[str]:
        """The ids the list's table shows under the current filter, in table order."""
        columns = COLUMNS_FOR[list_name](self.corpus)
        return [e.id for e in getattr(self.corpus, list_name)
                if self.filter.accepts(e.review.status, (cell_text(c, e) for c in columns))]

    # -- the latest check and native review -------------------------------------
    def take_check(self, report: Any, groups: list) -> None:
        """A check finished: keep its report, and per entry the worst severity of the problems it causes."""
        self.report = report
        problems: dict[str, dict[str, str]] = {name: {} for name in LISTS}
        for g in groups:
            target = g.cause
            if target and target[0] in problems and problems[target[0]].get(target[1]) != "error":
                problems[target[0]][target[1]] = g.finding.severity
        self.problems = problems

    def check_failed(self) -> None:
        """A half-typed definition the checker cannot read: no report (the entries' marks stay)."""
        self.report = None

    def take_review(self, status: Any) -> None:
        self.review, self.review_error = status, ""

    def review_failed(self, reason: str) -> None:
        self.review, self.review_error = None, reason

    def review_line(self) -> tuple[str, str]:
        """(text, tooltip) of the native-review line beside the progress."""
        if self.review_error:
            return _("native review: the record cannot be read"), self.review_error
        return review_text(self.review), review_tooltip(self.review)

    # -- Poedit-like navigation ---------------------------------------------------
    def items_in_order(self) -> list[Item]:
        """Every entry, tab by tab, in table order."""
        return [(name, e.id) for name in LISTS for e in getattr(self.corpus, name)]

    def next_item(self, here: Item | None, step: int, wanted: Callable[[str, str], bool]) -> Item | None:
        """The first item after ``here`` (before it when ``step`` is -1), wrapping around, that is ``wanted``;
        ``here`` itself comes last. None when no item is."""
        items = self.items_in_order()
        start = items.index(here) if here in items else -1
        for k in range(1, len(items) + 1):
            item = items[(start + step * k) % len(items)]
            if wanted(*item):
                return item
        return None

    def is_untranslated(self, list_name: str, item_id: str) -> bool:
        """Still to translate (as the progress bar counts: no content, a needed form missing)."""
        return not is_complete(self.corpus, list_name, self.entry(list_name, item_id),
                               self.source_entry(list_name, item_id))

    def next_untranslated(self, here: Item | None, step: int = 1) -> Item | None:
        """Ctrl+Shift+Down / Up: the next (previous) item still to translate."""
        return self.next_item(here, step, self.is_untranslated)

    def next_problem(self, here: Item | None, step: int = 1) -> Item | None:
        """Ctrl+Alt+Down / Up: the next (previous) item with a problem: errors first, then warnings."""
        problems = self.problems
        errors = any(v == "error" for d in problems.values() for v in d.values())
        wanted = ("error",) if errors else ("error", "warning")
        return self.next_item(here, step, lambda name, item_id: problems.get(name, {}).get(item_id) in wanted)

    # -- the file on disk --------------------------------------------------------
    def disk_notice(self) -> tuple[str, bool]:
        """What the banner says once another program changed the file, and whether Reload is offered."""
        name = self.doc.path.name if self.doc.path else ""
        if self.doc.path is None or not self.doc.path.exists():
            return _("{file} was deleted or moved on disk. Save writes it again.").format(file=isolated(name)), False
        if self.doc.modified:
            return _("{file} changed on disk, and you have unsaved edits. Reload takes the file's "
                     "version (Undo brings your edits back); Keep mine leaves the file to be "
                     "overwritten at the next Save.").format(file=isolated(name)), True
        return _("{file} changed on disk. Reload it?").format(file=isolated(name)), True

    # -- autosave ---------------------------------------------------------------
    def autosave_due(self) -> bool:
        """Unsaved edits the recovery file does not hold yet."""
        return self.doc.modified and self.doc.revision != self.autosaved_revision

    def autosaved(self) -> None:
        """The recovery file (or a save) now holds the document as it is."""
        self.autosaved_revision = self.doc.revision
