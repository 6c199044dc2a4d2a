"""The corpus datasheet: what a researcher needs to know before using a corpus.

Why generated from the definition: a hand-written README drifts from the data. Everything
here (language, axes and groups, where names come from, who translated and reviewed what,
known limitations, licence, citation) is read from the definition and the checker, so a
package always describes exactly the corpus it carries. Optional ``[meta]`` keys of the
definition add what the data cannot say: ``translators``, ``reviewers`` and
``limitations`` (lists of strings).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable

from engine.corpus import CheckReport, CorpusDefinition, check_corpus
from engine.corpus.definition.model import REVIEW_STATUSES
from engine.corpus.translate.review_record import review_status
from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template

from engine.common.languages import language_name

from .document import Bullets, Document, Section, Table
from .version import app_version

SECTIONS = ("templates", "persons", "emotion_words", "words")
MAX_LISTED = 30


def _items(corpus: CorpusDefinition) -> Iterable[tuple[str, object]]:
    for section in SECTIONS:
        for item in getattr(corpus, section):
            yield section, item


def meta_list(corpus: CorpusDefinition, key: str) -> list[str]:
    meta = corpus.extra.get("meta") if isinstance(corpus.extra, dict) else None
    value = meta.get(key) if isinstance(meta, dict) else None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, (str, int, float))]
    return []


def _limited(lines: list[str]) -> list[str]:
    if len(lines) <= MAX_LISTED:
        return lines
    return lines[:MAX_LISTED] + [f"… and {len(lines) - MAX_LISTED} more (see the definition file)"]


@dataclass(frozen=True)
class Shipped:
    """What travels with the datasheet, so that it names only files its reader has.

    The same datasheet is a package's README.md, a Hugging Face card's body and a report's
    datasheets/<id>.md; each carries other files. '' = not shipped with it."""

    attribution: str = "ATTRIBUTION.md in this package"  # the source, licence and attribution texts
    review: str = ""  # the native-review record with every verdict
    fingerprint: str = "the package file's sha256"  # what identifies exactly these sentences


IN_PACKAGE = Shipped()
#: a report's datasheet: the audit's manifest identifies the sentences; no attribution file is copied
IN_REPORT = Shipped(attribution="", fingerprint="the sentences' sha256 in the run manifest (manifest.json)")


def build_datasheet(corpus: CorpusDefinition, report: CheckReport | None = None, *,
                    pairs: int | None = None, shipped: Shipped = IN_PACKAGE) -> Document:
    report = report or check_corpus(corpus)
    doc = Document(title=corpus.name if corpus.name == corpus.id else f"{corpus.name} — {corpus.id}")
    if corpus.description:
        doc.intro.append(corpus.description)
    doc.sections = [_overview(corpus, report, pairs), _native_review(corpus, shipped), _axes(corpus),
                    _names(corpus), _people(corpus)]
    glossary = _glossary(corpus)
    if glossary is not None:
        doc.sections.append(glossary)
    doc.sections += [_limitations(corpus, report), _licence(corpus, shipped), _cite(corpus, shipped)]
    return doc


def _has_emotion_slot(template) -> bool:
    for v in template.variants:
        try:
            if any(s.source == "emotion" for s in parse_template(v.text).slots):
                return True
        except TemplateSyntaxError:
            continue
    return False


def _overview(corpus: CorpusDefinition, report: CheckReport, pairs: int | None) -> Section:
    neutral = sum(1 for t in corpus.templates if not _has_emotion_slot(t))
    kinds = Counter(p.kind for p in corpus.persons)
    emotions = Counter(e.emotion for e in corpus.emotion_words)
    rows = [
        ["Language", f"{language_name(corpus.language)} (`{corpus.language}`), "
                     f"{'right to left' if corpus.direction == 'rtl' else 'left to right'}"],
        ["Sentences", f"{report.sentences:,}"],
        ["Checker", f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)"],
        ["Templates", f"{len(corpus.templates)} ({len(corpus.templates) - neutral} with an emotion word, {neutral} neutral)"],
        ["Person terms", ", ".join(f"{n} {k.replace('_', ' ')}(s)" for k, n in sorted(kinds.items())) or "none"],
        ["Emotion words", f"{len(corpus.emotion_words)} (" + ", ".join(f"{k} {n}" for k, n in sorted(emotions.items()))
                          + ")" if corpus.emotion_words else "none"],
    ]
    if pairs is not None:
        rows.append(["Counterfactual pairs", f"{pairs:,}"])
    rows.append(["Native review", review_status(corpus, check_stale=False).text()])
    rows.append(["Made with", f"EEC Studio {app_version()}"])
    return Section("Overview", [Table(["", "value"], rows)])


def _native_review(corpus: CorpusDefinition, shipped: Shipped = IN_PACKAGE) -> Section:
    """The measured error rate of the latest blind native-speaker review, and who gave it."""
    status = review_status(corpus)
    rec = status.record
    if rec is None:
        blocks = ["Not reviewed: no blind native-speaker review is recorded for this corpus "
                  "(EEC Studio: `corpus review-sample`, then `corpus review-import`)."]
        if status.awaiting and not status.signed:
            blocks.append(f"Status: translated, not native-signed — {status.awaiting} items are translated and none "
                          "is signed by a second native speaker yet.")
        return Section("Native review", blocks)
    classes = ", ".join(f"{k} {v}" for k, v in sorted(rec.error_classes().items())) or "none"
    rows = [["Result", rec.summary() + " (95 % Clopper–Pearson interval)"],
            ["Sample", f"{rec.n} of {rec.population:,} {rec.unit}, drawn with seed {rec.seed}"],
            ["Errors by class", classes],
            ["Label errors (the sentence does not express its emotion label)", rec.label_text()],
            ["Awkward (grammatical, unnatural; not counted as errors)", str(rec.awkward)],
            ["Reviewer, date", f"{rec.reviewer}, {rec.date}"]]
    if status.stale:
        rows.append(["Text changed since", f"{status.stale} of the {rec.n} reviewed items no longer read as reviewed"])
    blocks: list = [Table(["", "value"], rows),
                    "Every sampled item has a verdict (ok, awkward or error), an error class and a "
                    "correction; the signed record with every verdict is "
                    + (f"{shipped.review}." if shipped.review else "kept beside the corpus definition in EEC Studio.")]
    if status.awaiting and not status.signed:  # a blind sample was rated; no item is signed by a native speaker
        blocks.append(f"Status: translated, not native-signed — {status.awaiting} items are translated and none "
                      "is signed by a second native speaker yet.")
    return Section("Native review", blocks)


def _axes(corpus: CorpusDefinition) -> Section:
    rows = []
    for name, axis in corpus.axes.items():
        counts = Counter(p.groups.get(name) for p in corpus.persons)
        groups = ", ".join(f"{g} ({counts.get(g, 0)} terms)" for g in axis.groups)
        rows.append([axis.display, groups, axis.reference])
    blocks: list = [Table(["axis", "groups (person terms)", "reference group"], rows)]
    blocks.append("The reference group is the majority group that bias statistics compare the others with.")
    return Section("Identity axes and groups", blocks)


def _names(corpus: CorpusDefinition) -> Section:
    race = corpus.race_axis
    cells: dict[tuple[str, str], list[str]] = defaultdict(list)
    for p in corpus.persons:
        if p.kind != "name":
            continue
        text = p.forms[0].text if p.forms else f"({p.id})"
        cells[(p.gender, p.groups.get(race.name, "") if race else "")].append(text)
    blocks: list = []
    blocks.append(f"Source: {corpus.source}" if corpus.source else
                  "Source: not stated in the definition (add `source = \"...\"`).")
    # a translated corpus keeps its source paper but draws its names (or group terms) from elsewhere
    blocks += [f"Names: {line}" for line in meta_list(corpus, "name_sources")]
    with_source = [p for p in corpus.persons if p.kind == "name" and p.review.source]
    if with_source:
        blocks.append(f"{len(with_source)} of the names record the source-language name they were adapted from "
                      "(e.g. " + ", ".join(f"{p.forms[0].text if p.forms else p.id} ← {p.review.source}"
                                           for p in with_source[:3]) + ").")
    if cells:
        rows = [[g, r or "–", str(len(names)), ", ".join(names)] for (g, r), names in sorted(cells.items())]
        blocks.append(Table(["gender", race.display if race else "group", "names", "given names"], rows))
    nps = [p for p in corpus.persons if p.kind != "name"]
    if nps:
        blocks.append(f"Noun phrases and identity terms: {len(nps)} — "
                      + ", ".join(p.forms[0].text if p.forms else p.id for p in nps[:40])
                      + (" …" if len(nps) > 40 else "") + ".")
    return Section("Where the names come from", blocks)


def _people(corpus: CorpusDefinition) -> Section:
    per: dict[str, Counter] = defaultdict(Counter)
    total: Counter = Counter()
    for _section, item in _items(corpus):
        r = item.review
        per[r.translator or "(not recorded)"][r.status] += 1
        total[r.status] += 1
    statuses = list(REVIEW_STATUSES) + sorted(s for s in total if s not in REVIEW_STATUSES)
    rows = [[who] + [str(c.get(s, 0)) for s in statuses] + [str(sum(c.values()))]
            for who, c in sorted(per.items(), key=lambda kv: (kv[0] == "(not recorded)", kv[0]))]
    rows.append(["all items"] + [str(total.get(s, 0)) for s in statuses] + [str(sum(total.values()))])
    blocks: list = ["Review status of every template, person term, emotion word and small word, by the "
                    "translator recorded on the item (`translator = ...`)."]
    blocks.append(Table(["translator"] + statuses + ["total"], rows))
    translators, reviewers = meta_list(corpus, "translators"), meta_list(corpus, "reviewers")
    if translators:
        blocks.append("Translators: " + "; ".join(translators) + ".")
    reviewed = f"Reviewed items: {total.get('reviewed', 0)} of {sum(total.values())}"
    if reviewers:
        blocks.append(f"{reviewed}, reviewed by " + "; ".join(reviewers) + ".")
    else:
        blocks.append(f"{reviewed}. Reviewers are not named in the definition (add `[meta] reviewers = [...]`).")
    return Section("Translators and reviewers", blocks)


def _glossary(corpus: CorpusDefinition) -> Section | None:
    """The translation's agreed terms (`[meta] glossary`), when it has any: a researcher reading
    results sees how a recurring word was rendered (furious → furieux / furieuse)."""
    from engine.corpus.translate.glossary import forms_label, read_glossary

    terms = read_glossary(corpus)
    if not terms:
        return None
    rows = [[term.source, forms_label(term.forms) or "–", term.note] for term in terms]
    shown = rows[:MAX_LISTED * 3]
    blocks: list = ["Agreed translations of recurring terms, kept with the definition (`[meta] glossary`) "
                    "and offered to translators as suggestions.", Table(["term", "translation", "note"], shown)]
    if len(rows) > len(shown):
        blocks.append(f"… and {len(rows) - len(shown)} more terms (see the definition file).")
    return Section("Glossary", blocks)


def _limitations(corpus: CorpusDefinition, report: CheckReport) -> Section:
    lines = list(meta_list(corpus, "limitations"))
    for section, item in _items(corpus):
        if item.review.status == "untranslatable":
            lines.append(f"{section}[{item.id}] is marked untranslatable; its combinations are not generated"
                         + (f" ({item.review.note})" if item.review.note else "") + ".")
        for f in getattr(item, "forms", []) or []:
            if getattr(f, "absent", ""):
                feats = ", ".join(f"{k}={v}" for k, v in f.features.items())
                lines.append(f"{section}[{item.id}] has no form for {feats or 'this slot'}: {f.absent}.")
    pending = Counter(item.review.status for _s, item in _items(corpus)
                      if item.review.status not in ("reviewed", "untranslatable"))
    if pending:
        lines.append("Not yet reviewed: " + ", ".join(f"{n} {s}" for s, n in sorted(pending.items())) + " item(s).")
    for f, n in report.grouped():
        if f.code == "W108":  # untranslatable items are listed above
            continue
        lines.append(f"Checker {f.code} ({f.severity}): {f.item or f.template or ''} {f.message}"
                     + (f" (×{n})" if n > 1 else ""))
    blocks: list = [Bullets(_limited(lines))] if lines else ["None recorded."]
    notes = [f"{section}[{item.id}]: {item.review.note}" for section, item in _items(corpus) if item.review.note]
    if notes:
        blocks.append("Translator notes (deviations from the source and other decisions):")
        blocks.append(Bullets(_limited(notes)))
    return Section("Known limitations", blocks)


def _licence(corpus: CorpusDefinition, shipped: Shipped = IN_PACKAGE) -> Section:
    where = (f"are copied into {shipped.attribution}." if shipped.attribution else
             "are in the ATTRIBUTION.md of the corpus's package (EEC Studio: `package export`).")
    return Section("Licence", [corpus.licence or "Not stated in the definition (add `licence = \"...\"`). "
                                                "Ask the corpus authors before redistributing.",
                               f"The source, licence and attribution texts the corpus cites {where}"])


def _cite(corpus: CorpusDefinition, shipped: Shipped = IN_PACKAGE) -> Section:
    blocks: list = [corpus.cite or "No citation given in the definition (add `cite = \"...\"`)."]
    blocks.append(f"When you publish results, name the corpus id (`{corpus.id}`), {shipped.fingerprint} and the "
                  f"EEC Studio version ({app_version()}) so others can regenerate exactly these sentences.")
    return Section("How to cite", blocks)
