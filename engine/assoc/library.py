"""The packaged stimulus library: list tests, resolve a name or a file, build XWEAT.

Why XWEAT is built at run time: XWEAT is "the English WEAT test, every word replaced by
its translation(s)". Shipping one dictionary per language and the English tests keeps
a single source of truth and lets cross-lingual tests (targets in L1, attributes in
L2) be composed for every language pair without 42 extra files.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import AssocError
from .formats import FORMAT, load_test_file
from .stimuli import Term, TestSpec, WordSet

LIBRARY = Path(__file__).resolve().parents[2] / "resources" / "stimuli"
XWEAT_LANGS = ("en", "de", "es", "hr", "it", "ru", "tr")
XWEAT_TESTS = ("T1", "T2", "T6", "T7", "T8", "T9")  # the six run across languages (Lauscher & Glavaš 2019)


@dataclass(frozen=True)
class LibraryEntry:
    id: str
    kind: str
    language: str
    title: str
    path: str


def list_tests() -> list[LibraryEntry]:
    """Every packaged test, XWEAT translations included, in a stable order."""
    out: list[LibraryEntry] = []
    for p in sorted(LIBRARY.rglob("*.json")):
        rel = p.relative_to(LIBRARY).with_suffix("").as_posix()
        data = json.loads(p.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:  # translations, template families
            continue
        out.append(LibraryEntry(rel, data["kind"], data.get("language", ""), data.get("title", ""), str(p)))
    for lang in XWEAT_LANGS[1:]:
        for t in XWEAT_TESTS:
            out.append(LibraryEntry(f"xweat/{lang}/{t}", "weat", lang, f"XWEAT {t} translated to {lang}",
                                    str(LIBRARY / "xweat" / "translations" / f"{lang}.json")))
    return out


@lru_cache(maxsize=None)
def translations(lang: str) -> dict[str, tuple[str, ...]]:
    path = LIBRARY / "xweat" / "translations" / f"{lang}.json"
    if not path.exists():
        raise AssocError(f"no XWEAT translations for language {lang!r}", field="--lang",
                         fix=f"use one of {', '.join(XWEAT_LANGS)}")
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: tuple(v) for k, v in data["translations"].items()}


def translate_set(ws: WordSet, lang: str) -> WordSet:
    """Replace each English term by its translation forms (names stay as they are).

    A lower-case word without a translation keeps an empty form list, so it is
    reported as dropped ("no translation") rather than silently vanishing.
    """
    if lang == "en":
        return ws
    table = translations(lang)
    terms = []
    for t in ws.terms:
        en = t.text
        if en in table:
            terms.append(Term(table[en], gloss=en))
        elif en[:1].isupper():  # proper names were not translated in XWEAT
            terms.append(Term((en,), gloss=en))
        else:
            terms.append(Term((), gloss=en))
    return WordSet(ws.name, tuple(terms))


def xweat_test(test: str, lang: str, attr_lang: str | None = None) -> TestSpec:
    """XWEAT test ``test`` (T1..T10) with targets in ``lang`` and attributes in ``attr_lang``."""
    base = load_test_file(LIBRARY / "weat" / f"{test}.json")
    attr_lang = attr_lang or lang
    for lg in {lang, attr_lang} - {"en"}:
        translations(lg)
    spec = TestSpec(
        id=f"xweat/{lang}/{test}" if attr_lang == lang else f"xweat/{lang}-{attr_lang}/{test}",
        kind="weat", language=lang, attr_language=attr_lang if attr_lang != lang else "",
        title=f"XWEAT {test}: {base.title}" + (f" (targets {lang}, attributes {attr_lang})" if attr_lang != lang else ""),
        source=base.source + ("; translations: Lauscher & Glavaš 2019 (XWEAT)" if {lang, attr_lang} != {"en"} else ""),
        license=base.license, forms="each",
        X=translate_set(base.X, lang), Y=translate_set(base.Y, lang),
        A=translate_set(base.A, attr_lang), B=translate_set(base.B, attr_lang),
        published=base.published, path=str(LIBRARY / "weat" / f"{test}.json"),
    )
    return spec


def resolve(name: str, lang: str | None = None, attr_lang: str | None = None) -> TestSpec:
    """A test from a library name (``weat/T1``, ``T1``, ``xweat/de/T1``, ``it/weat/IT_1``) or a file path."""
    p = Path(name)
    if p.suffix.lower() in (".json", ".jsonl", ".txt", ".csv") and (p.exists() or "/" in name or "\\" in name):
        return load_test_file(p)  # a user file is taken as written; --lang selects translations of T1..T10 only
    key = name.strip().strip("/")
    parts = key.split("/")
    low = key.lower()
    # plain T1..T10 or weat/T1: English, or XWEAT when a language is given
    tname = None
    if len(parts) == 1 and low.startswith("t") and low[1:].isdigit():
        tname = "T" + low[1:]
    elif len(parts) == 2 and parts[0].lower() in ("weat", "xweat") and parts[1].lower().startswith("t"):
        tname = "T" + parts[1][1:]
    if tname is not None:
        if not (LIBRARY / "weat" / f"{tname}.json").exists():
            raise AssocError(f"unknown WEAT test {name!r}", field="--test", fix="WEAT tests are T1 to T10")
        if (lang and lang != "en") or (attr_lang and attr_lang != "en"):
            return xweat_test(tname, lang or "en", attr_lang)
        return load_test_file(LIBRARY / "weat" / f"{tname}.json")
    if len(parts) == 3 and parts[0].lower() == "xweat":
        langs = parts[1].split("-")
        return xweat_test("T" + parts[2][1:], langs[0], langs[1] if len(langs) > 1 else attr_lang)
    for entry in list_tests():
        if entry.id.lower() == low:
            return load_test_file(entry.path, test_id=entry.id)
    matches = [e for e in list_tests() if e.id.lower().endswith("/" + low)]
    if len(matches) == 1:
        return load_test_file(matches[0].path, test_id=matches[0].id)
    hint = f"; did you mean {', '.join(e.id for e in matches[:5])}?" if matches else ""
    raise AssocError(f"unknown test {name!r}{hint}", field="--test",
                     fix="run `assoc list` for the built-in names, or give a path to a test file")


def templates(lang: str) -> dict:
    """SEAT bleached templates for a language: {'default': family, 'families': {...}}."""
    path = LIBRARY / lang / "seat" / "templates.json"
    if lang == "en" or not path.exists():
        path = LIBRARY / "seat_templates" / f"{lang}.json"
    if not path.exists():
        raise AssocError(f"no SEAT templates for language {lang!r}", field="--lang",
                         fix="give --templates FILE (one template per line containing WORD)")
    return json.loads(path.read_text(encoding="utf-8"))


def read_templates(path: str | Path) -> dict:
    """A user template file: one template per line containing WORD; # comments."""
    p = Path(path)
    if not p.exists():
        raise AssocError("template file not found", file=str(p), field="--templates")
    lines = [ln.strip() for ln in p.read_text(encoding="utf-8-sig").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    bad = [ln for ln in lines if "WORD" not in ln]
    if not lines or bad:
        raise AssocError(f"every template needs WORD ({bad[0]!r} has none)" if bad else "no templates in the file",
                         file=str(p), field="--templates")
    return {"default": "custom", "families": {"custom": lines}}
