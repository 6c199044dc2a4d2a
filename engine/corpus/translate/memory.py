"""Translation memory: what earlier corpora in the same language said for the same source.

Why from every corpus on disk: the built-in Spanish EEC already translates *angry* as
*enojado / enojada*; a translator starting a new Spanish corpus should be offered that, and
their own earlier corpora (the user folder) and glossaries, exactly as Poedit and Weblate
offer their memories. A unit is one translated item: its source text (``review.source``, the
text it was translated from) and its target forms. An item without a recorded source has no
unit: its id is no source text (de-goldfarb2023's ``empoert`` is German, ``np_my_mother`` an
internal name), and a TMX pairing *empört* with ``empoert`` as English pollutes a memory.
Matches are exact (same source, case and spacing ignored) or fuzzy (rapidfuzz's ratio, so
*annoyed* finds *annoying* but *angry* does not find *hungry* at the top).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.corpus.translate.glossary import read_glossary
from engine.common.languages import base_language
from engine.corpus.definition.model import CorpusDefinition, Form
from engine.corpus.translate.progress import LISTS, has_content

GLOSSARY = "glossary"
IMPORTED = "imported"  # pairs from a TMX of another tool (engine.exchange.tmx_format): any list


@dataclass
class MemoryUnit:
    list_name: str  # templates | persons | emotion_words | words | glossary | imported
    source: str
    forms: list[Form]
    corpus_id: str
    item_id: str = ""

    def text(self) -> str:
        return " / ".join(f.text for f in self.forms)


@dataclass
class Suggestion:
    unit: MemoryUnit
    score: float  # 100 = exact
    exact: bool


def _norm(s: str) -> str:
    return " ".join(s.casefold().split())


def units_of(corpus: CorpusDefinition, without_source: list[str] | None = None) -> list[MemoryUnit]:
    """The translated items of one corpus (and its glossary) as memory units; the items left out for
    want of a recorded source text are named in ``without_source`` ("emotion_words[empoert]")."""
    out: list[MemoryUnit] = []
    for name in LISTS:
        for e in getattr(corpus, name):
            if not has_content(name, e) or e.review.status == "untranslatable":
                continue
            source = e.review.source.strip()
            if not source:
                if without_source is not None:
                    without_source.append(f"{name}[{e.id}]")
                continue
            if name == "templates":
                forms = [Form(v.text, dict(v.features)) for v in e.variants]
            else:
                forms = [Form(f.text, dict(f.features)) for f in e.forms if f.text and not f.absent]
            if forms:
                out.append(MemoryUnit(name, source, forms, corpus.id, e.id))
    for t in read_glossary(corpus):
        if t.forms:
            out.append(MemoryUnit(GLOSSARY, t.source, list(t.forms), corpus.id, ""))
    return out


@dataclass
class TranslationMemory:
    units: list[MemoryUnit] = field(default_factory=list)
    #: units imported from TMX files, indexed (engine.exchange.tmx_store.ImportedIndex); not in ``units``
    imported: Any = None

    def all_units(self) -> list[MemoryUnit]:
        """``units`` and every imported unit of the memory's language (read from the store)."""
        if self.imported is None or not len(self.imported):
            return list(self.units)
        return self.units + self.imported.units()

    @classmethod
    def for_language(cls, language: str, *, exclude: set[str] | None = None,
                     extra: list[CorpusDefinition] | None = None,
                     imported: Any = None) -> "TranslationMemory":
        """Every built-in and user corpus in ``language`` (its base language: es-MX uses es too).

        ``imported``: the indexed pairs from the TMX of other tools (``ImportedIndex``: ``suggest``,
        ``units``, ``len``); the memory the workbench suggests from,
        with the store of imported pairs, is ``engine.exchange.tmx_format.translation_memory``
        (the exchange package reads TMX; this package imports nothing above it).

        ``exclude`` names corpus ids to leave out (the one being edited: it would suggest itself);
        a user file that cannot be read is skipped — the corpora page reports it.
        """
        from engine.corpus.definition.registry import list_corpora, load_corpus

        want = base_language(language)
        tm = cls()
        for entry in list_corpora():
            if exclude and entry.id in exclude:
                continue
            try:
                c = load_corpus(entry.path)
            except Exception:  # noqa: BLE001 - one broken file must not hide the others' memory
                continue
            if base_language(c.language) == want and c.id not in (exclude or set()):
                tm.units += units_of(c)
        for c in extra or []:
            tm.units += units_of(c)
        tm.imported = imported  # TMX imported from other tools (docs/gui.md): an index (engine.exchange.tmx_store)
        return tm

    def suggest(self, list_name: str, source: str, *, limit: int = 6, cutoff: float = 60.0) -> list[Suggestion]:
        """Best matches for ``source``: exact first, then fuzzy above ``cutoff``; glossary terms
        match any list. Identical suggestions from several corpora are shown once."""
        from rapidfuzz import fuzz, process

        query = _norm(source)
        if not query:
            return []
        pool = [u for u in self.units if u.list_name in (list_name, GLOSSARY, IMPORTED)]
        found = process.extract(query, [_norm(u.source) for u in pool], scorer=fuzz.ratio,
                                score_cutoff=cutoff, limit=None)
        candidates = [Suggestion(pool[i], float(score), _norm(pool[i].source) == query) for _c, score, i in found]
        if self.imported is not None:
            candidates += self.imported.suggest(list_name, query, limit=limit, cutoff=cutoff)
        out: list[Suggestion] = []
        seen: set[tuple] = set()
        for s in sorted(candidates, key=lambda s: (-s.score, s.unit.list_name in (GLOSSARY, IMPORTED))):
            key = tuple((f.text, tuple(sorted(f.features.items()))) for f in s.unit.forms)
            if key in seen:
                continue
            seen.add(key)
            out.append(s)
            if len(out) >= limit:
                break
        return out
