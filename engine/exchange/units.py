"""Translatable units of a corpus: one per form (templates: one per variant).

Why one unit per form: CAT tools (Poedit, Weblate) translate strings, not inflection
tables. Each form keeps its grammatical features in its key, the translator sees the
source-language text, the item's note and status, and a read-only explanation (what the
item is, which slots a template must keep), so nothing the corpus knows is lost on the way.

Source-language text, in one declared language: with a source corpus, the same form there
(matched by features in the item with the same id, or for a template in the one its
``source_template`` names, e.g. the English EEC for a Spanish one), else the item's
recorded ``source`` (the text it was translated from), else the form's own text; without a
source corpus, the form's own text (a monolingual review file in the corpus's language; the
recorded ``source`` is shown in the context instead). Templates' source text is written with
the form's own slots (``slots.py``) so that translators' tools check slots without noise.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.corpus import CorpusDefinition
from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template

from .keys import SECTIONS, Key, make_key
from .slots import with_target_slots


@dataclass
class FormView:
    """A form or template variant, seen the same way for every section."""

    text: str
    features: dict[str, str]
    absent: str = ""


@dataclass
class Unit:
    key: Key
    source: str
    target: str
    status: str
    note: str  # the item's note, carried by the first unit of each item only
    context: str  # read-only explanation for the translator
    translator: str = ""
    absent: str = ""

    @property
    def first(self) -> bool:
        return self.key.index == 0


def forms_of(section: str, item: Any) -> list[FormView]:
    if section == "templates":
        return [FormView(v.text, dict(v.features)) for v in item.variants]
    return [FormView(f.text, dict(f.features), getattr(f, "absent", "") or "") for f in item.forms]


def items_of(corpus: CorpusDefinition, section: str) -> list[Any]:
    return list(getattr(corpus, section))


def find_item(corpus: CorpusDefinition, section: str, entry: str) -> Any | None:
    return next((it for it in items_of(corpus, section) if it.id == entry), None)


def source_item(section: str, item: Any, source: CorpusDefinition) -> Any | None:
    """The item of ``source`` that ``item`` translates: a template by its ``source_template`` link
    (by its own id when it declares none), every other item by its id."""
    link = getattr(item, "source_template", "") if section == "templates" else ""
    return find_item(source, section, link or item.id)


def meaning_slots(template: Any) -> list[tuple[str, str]]:
    """The slots that carry a template's meaning, sorted: each person slot and each emotion slot
    with its kind ("*" when any). Small-word slots (articles, reflexives) belong to one language's
    grammar and are left out: "a/an {emotion}" and "una situación {emotion}" mean the same."""
    out = []
    for v in template.variants[:1]:
        try:
            slots = parse_template(v.text).slots
        except TemplateSyntaxError:
            continue
        for s in slots:
            if s.source == "person":
                out.append(("person", ""))
            elif s.source == "emotion":
                out.append(("emotion", s.fixed.get("kind", "*")))
    return sorted(out)


def _slots_agree(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> bool:
    if len(a) != len(b):
        return False
    return all(x[0] == y[0] and (x[1] == y[1] or "*" in (x[1], y[1])) for x, y in zip(a, b))


def _slots_text(slots: list[tuple[str, str]]) -> str:
    return ", ".join(f"{{{src}{' kind=' + k if k not in ('', '*') else ''}}}" for src, k in slots) or "no slots"


def _definition_name(corpus: CorpusDefinition) -> str:
    """The definition file, relative to the checkout for a built-in corpus (templates/es/…)."""
    from pathlib import Path

    from engine.corpus.definition.registry import BUILTIN_DIR

    if not corpus.path:
        return corpus.id
    try:
        return Path(corpus.path).resolve().relative_to(BUILTIN_DIR.parent).as_posix()
    except ValueError:
        return corpus.path


def check_source_links(corpus: CorpusDefinition, source: CorpusDefinition) -> list[str]:
    """Check that every template of ``corpus`` is shown beside the source template it translates.

    Raises ExchangeError for a ``source_template`` naming a template ``source`` lacks, or one whose
    person and emotion slots differ (the translator would see another sentence as the source);
    returns warnings for templates without a link (paired by id, the ids may not line up)."""
    from .errors import ExchangeError

    where = _definition_name(corpus)
    unlinked, missing = [], []
    for i, t in enumerate(corpus.templates):
        other = source_item("templates", t, source)
        if t.source_template and other is None:
            raise ExchangeError(where, f"template {t.id} names source_template {t.source_template!r}, which "
                                f"source corpus {source.id!r} does not have", entry=f"templates[{i}].source_template",
                                fix=f"name one of {source.id}'s templates ({', '.join(x.id for x in source.templates[:12])}"
                                    f"{', ...' if len(source.templates) > 12 else ''}) or choose the right --source")
        if other is None:
            missing.append(t.id)
            continue
        if not t.source_template:
            unlinked.append(t.id)
        mine, theirs = meaning_slots(t), meaning_slots(other)
        if mine and theirs and not _slots_agree(mine, theirs):
            how = f"source_template {t.source_template!r}" if t.source_template else "its id (no source_template)"
            raise ExchangeError(where, f"template {t.id} is paired by {how} with {source.id}'s {other.id}, which has "
                                f"other slots ({_slots_text(theirs)} there, {_slots_text(mine)} here): a translator "
                                "would see another sentence as its source", entry=f"templates[{i}].source_template",
                                fix=f"give --source the corpus {corpus.id} was translated from, or set source_template "
                                    f"to the {source.id} template that {t.id} translates")
    warnings = []
    if unlinked:
        warnings.append(f"{len(unlinked)} template(s) of {corpus.id} declare no source_template ({', '.join(unlinked)}): "
                        f"each is shown beside the {source.id} template with the same id; if the ids do not line up, "
                        "add source_template = \"ID\" to those templates")
    if missing:
        warnings.append(f"{source.id} has no template to pair with {', '.join(missing)}: their recorded source "
                        "text (or their own text) is shown instead")
    return warnings


def _source_text(section: str, item: Any, form: FormView | None, source: CorpusDefinition | None) -> str | None:
    """The source-language text of one form; None when a source corpus is given and neither it nor
    the item's recorded ``source`` has one (the form's own text is in the target language: it must
    never be written under the source language's header)."""
    if source is not None:
        other = source_item(section, item, source)
        if other is not None:
            candidates = [f for f in forms_of(section, other) if f.text]
            wanted = form.features if form else {}
            exact = [f for f in candidates if f.features == wanted]
            fits = [f for f in candidates if all(f.features.get(k, v) == v for k, v in wanted.items())]
            for group in (exact, fits, candidates):
                if group:
                    return group[0].text
        return item.review.source or None
    if form is not None and form.text:
        return form.text
    return item.review.source or item.id


_MARKUP_RX = re.compile(r"\{[^{}]*\}|<[^<>]*>|[^\w\s]")


def _words(text: str) -> list[str]:
    """A sentence's words without slots (``{person}``, ``<person subject>``) or punctuation."""
    return _MARKUP_RX.sub(" ", text).casefold().split()


def wording_differs(recorded: str, shown: str) -> bool:
    """Whether the recorded source text says other words than the source shown (slots, a/an and
    himself/herself aside): ja-goldfarb2023 T10 was translated from Kiritchenko's "found
    himself/herself in a … situation", and en-goldfarb2023's T09 beside it says "was in a … situation"."""
    a, b = set(_words(recorded.split("‖")[0])), set(_words(shown))
    return bool(a and b) and not (a <= b or b <= a)


def source_language(corpus: CorpusDefinition, source: CorpusDefinition | None) -> str:
    """The language the source texts are in (see the module docstring)."""
    return source.language if source is not None else corpus.language


def _shown_source(section: str, raw: str, target: str) -> str:
    return with_target_slots(raw, target) if section == "templates" else raw


def _slot_texts(text: str) -> list[str]:
    out, start = [], 0
    i = 0
    while i < len(text):
        if text.startswith("{{", i) or text.startswith("}}", i):
            i += 2
            continue
        if text[i] == "{":
            start = i
        elif text[i] == "}":
            out.append(text[start:i + 1])
        i += 1
    return out


def _usage(corpus: CorpusDefinition) -> dict[tuple[str, str], list[str]]:
    """Which templates use each small word and each emotion kind (for the translator's context)."""
    used: dict[tuple[str, str], list[str]] = {}
    for t in corpus.templates:
        for v in t.variants[:1]:
            try:
                slots = parse_template(v.text).slots
            except TemplateSyntaxError:
                continue
            for s in slots:
                if s.source == "emotion":
                    used.setdefault(("emotion", s.fixed.get("kind", "*")), []).append(t.id)
                elif s.source != "person":
                    used.setdefault(("word", s.source), []).append(t.id)
    return used


def _context(section: str, item: Any, form: FormView, n_forms: int, corpus: CorpusDefinition,
             usage: dict[tuple[str, str], list[str]], raw: str = "", shown: str = "") -> str:
    feats = ", ".join(f"{k}={v}" for k, v in form.features.items())
    if section == "templates":
        lines = [f"Template {item.id}" + (f", variant for {feats}" if feats else "") + "."]
        slots = _slot_texts(form.text)
        if slots:
            lines.append("Keep every slot in braces exactly as written (you may move it): " + " ".join(slots))
        published = item.published or (item.variants[0].published if item.variants else "")
        if published:
            lines.append(f"Published text: {published}")
    elif section == "persons":
        groups = ", ".join(f"{k}={v}" for k, v in item.groups.items())
        lines = [f"Person term {item.id!r} ({item.kind.replace('_', ' ')}; {groups})."]
        if feats:
            lines.append(f"This form: {feats} (one of {n_forms}).")
    elif section == "emotion_words":
        lines = [f"Emotion word {item.id!r} ({item.emotion}, emotional {item.kind})."]
        templates = usage.get(("emotion", item.kind), []) + usage.get(("emotion", "*"), [])
        if templates:
            lines.append(f"Used in templates {', '.join(templates)}.")
        if feats:
            lines.append(f"This form: {feats} (one of {n_forms}).")
    else:
        lines = [f"Small word {item.id!r}" + (f" used in templates {', '.join(usage[('word', item.id)])}"
                                                if ("word", item.id) in usage else "") + "."]
        if feats:
            lines.append(f"This form: {feats} (one of {n_forms}).")
    if form.absent:
        lines.append(f"No such form in this language (absent): {form.absent}")
    if raw != shown:
        lines.append(f"Source text with its own slots: {raw}")
    if item.review.source and item.review.source not in (form.text, shown, raw):
        if section == "templates" and wording_differs(item.review.source, raw):
            lines.append(f"Translated from another wording than the source text shown: {item.review.source}")
        else:
            lines.append(f"Translated from: {item.review.source}")
    lines.append(f"Status at export: {item.review.status}"
                 + (f", translator {item.review.translator}" if item.review.translator else "") + ".")
    return "\n".join(lines)


def extract_units(corpus: CorpusDefinition, source: CorpusDefinition | None = None,
                  missing: list[str] | None = None) -> list[Unit]:
    """Every translatable form of ``corpus`` in file order; items without forms get one empty unit.

    With a ``source``, a form without a source-language text is left out and named in ``missing``
    ("persons[jude] form 0"), never written with its own (target-language) text as the source."""
    usage = _usage(corpus)
    units: list[Unit] = []
    for section in SECTIONS:
        for item in items_of(corpus, section):
            forms = forms_of(section, item) or [FormView("", {})]
            for i, form in enumerate(forms):
                raw = _source_text(section, item, form if form.text or form.features else None, source)
                if raw is None:
                    if missing is not None:
                        missing.append(f"{section}[{item.id}]" + (f" form {i}" if len(forms) > 1 else ""))
                    continue
                shown = _shown_source(section, raw, form.text)
                units.append(Unit(
                    key=make_key(section, item.id, i, form.features),
                    source=shown,
                    target=form.text, status=item.review.status, note=item.review.note if i == 0 else "",
                    context=_context(section, item, form, len(forms), corpus, usage, raw, shown),
                    translator=item.review.translator, absent=form.absent))
    return units


def missing_source_warning(missing: list[str], corpus: CorpusDefinition, source: CorpusDefinition) -> str:
    """One line naming the units left out for want of a source-language text."""
    items = list(dict.fromkeys(m.split(" form ")[0] for m in missing))  # in file order, once each
    shown = ", ".join(items[:8]) + (f", … {len(items) - 8} more" if len(items) > 8 else "")
    return (f"{len(missing)} unit(s) of {len(items)} item(s) have no {source.language} source text (no item with "
            f"the same id in {source.id} and no recorded source) and are left out: {shown}; export without "
            f"--source to review them in {corpus.language}, or record their source text")
