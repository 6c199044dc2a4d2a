"""The checker's findings as a translator reads them: one root cause, one line.

Why a layer over ``check_corpus``: the checker reports every template × person × emotion
combination it cannot realise — right for the engine, a flood for a person. One missing
feminine form of *furious* blocks the same slot in five templates; an untranslated name shows
up once per template. Here findings are grouped by what must be fixed (the entry, the features
it lacks, the code) and each group lists the combinations it blocks. Items not translated yet
are progress (``progress.py``), not problems: their findings are left out unless asked for.
The checker's rules stay untouched; only their presentation is decided here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.corpus.check.checker import CheckReport
from engine.corpus.check.findings import Finding
from engine.corpus.definition.model import CorpusDefinition
from engine.corpus.translate.progress import corpus_progress, untranslated_ids

_ITEM_RX = re.compile(r"^(templates|persons|emotion_words|words)\[(.+)\]$")
_SLOT_RX = re.compile(r"^slot '([^']+)': (?:entry )?'([^']+)'")


def cause_of(f: Finding) -> tuple[str, str] | None:
    """The (list, entry id) a finding asks to fix — where a click on it should jump."""
    m = _ITEM_RX.match(f.item or "")
    if m:
        return m.group(1), m.group(2)
    if f.code in ("E001", "E002", "W109") and f.slot:
        if f.slot == "person" and f.person and "~" not in f.person:
            return "persons", f.person
        if f.slot.startswith("emotion") and f.emotion_word:
            return "emotion_words", f.emotion_word
        m = _SLOT_RX.match(f.message)
        if m:  # a small word (article, reflexive): its id is in the message
            return "words", m.group(2)
    if "~" in (f.person or "") and f.emotion_word:
        return "emotion_words", f.emotion_word  # a pair made one-sided by a missing form of this word
    if f.template:
        return "templates", f.template
    if f.person and "~" not in f.person:
        return "persons", f.person
    if f.emotion_word:
        return "emotion_words", f.emotion_word
    return None


def is_untranslated(f: Finding, todo: dict[str, set[str]]) -> bool:
    """Whether a finding only says that its item is not translated yet."""
    if f.code == "E012":
        return True
    if f.code in ("E026", "E027", "E028"):
        return False  # what keeps the item from being translated: shown, not folded into progress
    cause = cause_of(f)
    if cause is not None and cause[1] in todo.get(cause[0], set()):
        return True
    # a pair's skipped side (W111) whose missing sentence comes from an untranslated item
    return f.code == "W111" and (f.template in todo["templates"] or f.emotion_word in todo["emotion_words"]
                                 or any(p in todo["persons"] for p in (f.person or "").split("~")))


@dataclass
class FindingGroup:
    """One problem to fix and every combination it affects."""

    finding: Finding  # the first finding of the group (its message describes the problem)
    cause: tuple[str, str] | None
    combinations: list[tuple[str, str, str]] = field(default_factory=list)  # (template, person, emotion word)
    untranslated: bool = False

    @property
    def count(self) -> int:
        return max(1, len(self.combinations))

    @property
    def code(self) -> str:
        return self.finding.code

    @property
    def is_error(self) -> bool:
        return self.finding.is_error

    def where(self) -> str:
        """"emotion word furious", "template T05", or the combination when there is only one."""
        if self.cause is None:
            return self.finding.item
        kind = {"templates": "template", "persons": "person", "emotion_words": "emotion word", "words": "word"}
        return f"{kind[self.cause[0]]} {self.cause[1]}"

    def combination_text(self, limit: int = 6) -> str:
        shown = [" · ".join(x for x in c if x) for c in self.combinations[:limit]]
        more = len(self.combinations) - limit
        return ", ".join(shown) + (f", … {more} more" if more > 0 else "")


def _key(f: Finding, cause: tuple[str, str] | None) -> tuple:
    if f.code in ("E001", "E002", "W109") and cause is not None:
        # the same missing form, whatever template or slot name asks for it
        return (f.code, cause, tuple(sorted(f.wanted.items())), f.message if not f.wanted else "")
    if "~" in (f.person or ""):
        return (f.code, cause)  # a pair's consequences, folded per entry
    return (f.code, cause, f.item, f.message)


def group_findings(report: CheckReport, corpus: CorpusDefinition, *,
                   include_untranslated: bool = False) -> list[FindingGroup]:
    """Root causes, errors first, then by code and entry."""
    todo = untranslated_ids(corpus)
    groups: dict[tuple, FindingGroup] = {}
    for f in report.findings:
        cause = cause_of(f)
        untranslated = is_untranslated(f, todo)
        if untranslated and not include_untranslated:
            continue
        # an untranslated item is one line, however many combinations wait for it
        key = ("untranslated", cause) if untranslated and cause is not None else _key(f, cause)
        g = groups.get(key)
        if g is None:
            g = groups[key] = FindingGroup(f, cause, untranslated=untranslated)
        elif f.code == "E012":
            g.finding = f  # "no forms (untranslated)" says it best
        if f.template and (f.person or f.emotion_word):  # a combination, not an item
            combo = (f.template, f.person, f.emotion_word)
            if combo not in g.combinations:
                g.combinations.append(combo)
    return sorted(groups.values(), key=lambda g: (not g.is_error, g.code, g.cause or ("", ""), g.finding.message))


def check_text(report: CheckReport, corpus: CorpusDefinition, *, include_untranslated: bool = False) -> str:
    """What ``corpus check`` prints: the counts (one per root cause) and the progress, then one line
    per root cause. Errors and warnings count problems with what is there; untranslated items are
    the progress ("73 left")."""
    progress = corpus_progress(corpus)
    groups = group_findings(report, corpus, include_untranslated=include_untranslated)
    errors = sum(g.is_error for g in groups)
    lines = [f"{corpus.id}: {errors} error(s), {len(groups) - errors} warning(s); {progress.line()}",
             f"  {report.sentences:,} sentence(s) can be generated"
             + (f", {report.pairs:,} counterfactual pair(s)" if report.pairs else "")]
    for g in groups:
        f = g.finding
        extra = f" (×{g.count} combinations: {g.combination_text()})" if g.count > 1 else ""
        lines.append(f"  {f.severity.upper()} {f.code} {g.where()}: {f.message}{extra}")
        if f.available and f.code in ("E001", "E002"):
            lines.append(f"      forms available: {', '.join(f.available) or 'none'}")
    # items left to do because of a listed E026/E027 (a form missing, two forms in one) are not hidden
    hidden = progress.left - len({g.cause for g in groups if g.code in ("E026", "E027") and g.cause})
    if hidden > 0 and not include_untranslated:
        lines.append(f"  ({hidden:,} item(s) not translated yet are not listed; --untranslated lists them)")
    return "\n".join(lines)
