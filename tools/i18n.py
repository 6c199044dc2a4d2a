#!/usr/bin/env python3
"""Translation catalogs of the EEC Studio UI: extract, update, check, compile (babel, no Qt).

    python tools/i18n.py extract            # gui/**.py -> locales/eec_studio.pot (babel.cfg)
    python tools/i18n.py update             # merge the .pot into every locales/<lang>/LC_MESSAGES/eec_studio.po
    python tools/i18n.py init fr            # start a new language (right plural header)
    python tools/i18n.py check              # untranslated, fuzzy, broken placeholders -> exit 1
    python tools/i18n.py stats              # messages per language
    python tools/i18n.py compile            # .po -> .mo next to it (packaging only; not committed)
    python tools/i18n.py todo ar > ar.json  # what is left to translate, as JSON
    python tools/i18n.py fill ar ar.json    # put translations from that JSON into the catalog
    python tools/i18n.py all                # extract + update + check (what to run after editing gui/)
    python tools/i18n.py screenshot ar docs/screenshots/arabic.png   # the main window in Arabic
    python tools/i18n.py review-sample it --seed 202611272305 --out DIR   # 60 messages for a reviewer

Every command is safe to re-run: the .pot and the .po files are rewritten only when their
messages changed, and the location comments carry file names without line numbers, so an
edit elsewhere in a file does not touch the catalogs.
"""
from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = "eec_studio"
LOCALES = ROOT / "locales"
POT = LOCALES / f"{DOMAIN}.pot"
CFG = ROOT / "babel.cfg"
COMMENT_TAGS = ("TRANSLATORS:",)
PROJECT, VERSION = "EEC Studio", "0.1"
TEAM = "EEC Studio translators"

HEADER = ("# {language} of the EEC Studio user interface.\n"
          "# This file is distributed under the same license as the EEC Studio project (MIT).\n"
          "# Edit with any .po editor (Poedit, Weblate) or tools/i18n.py todo/fill; see docs/i18n.md.")

# Plural-Forms headers as Poedit, Weblate and GNU gettext write them. Babel's own expression for
# Arabic orders the last two forms differently (index 4 = 100-102, 5 = 11-99); the GNU one is
# what translators' tools show, so new and existing Arabic catalogs get this one.
PLURAL_FORMS = {
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
          "n%100>=11 ? 4 : 5);",
    # CLDR adds a third "many" form for round millions ("1 million de fichiers"), which no
    # gettext tool shows; translators' tools use two. French: 0 and 1 take the singular.
    "fr": "nplurals=2; plural=(n > 1);",
    # Italian as Poedit and Weblate write it ("0 errori", "1 errore"; CLDR's "many" for round
    # millions is left out as for French).
    "it": "nplurals=2; plural=(n != 1);",
    # Brazilian Portuguese (Qt ships qtbase_pt_BR only): "0 erros", "1 erro", "2 erros".
    "pt": "nplurals=2; plural=(n != 1);",
}

# {name}, {name:fmt}, {0}, {}, %s, %d, %(name)s, %.2f -- a translation must keep every one.
PLACEHOLDER = re.compile(r"\{[A-Za-z0-9_.\[\]]*(?:![rsa])?(?::[^{}]*)?\}|%(?:\([A-Za-z0-9_]+\))?[-#0+]*\d*(?:\.\d+)?[sdifrxXeEgGc%]")
ACCEL = re.compile(r"(?<!&)&(?=[^\s&])")  # a Qt keyboard accelerator: "&File" (not "&&", not "A & B")
TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*\b[^<>]*>")


def placeholders(text: str) -> list[str]:
    """Format fields and markup a translation must carry over (sorted, with repeats)."""
    return sorted([p for p in PLACEHOLDER.findall(text) if p != "%%"] + TAG.findall(text))


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    return sorted(p.parts[-3] for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=locale, domain=DOMAIN)


def _po_bytes(catalog: Catalog, *, ignore_obsolete: bool = False) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, include_lineno=False, ignore_obsolete=ignore_obsolete)
    return buf.getvalue()


_VOLATILE = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date|Generated-By): .*\\n"\n', re.M)


def _write_if_changed(path: Path, data: bytes) -> bool:
    """Write unless only the dates and babel's version differ (keeps re-runs quiet in git)."""
    if path.exists() and _VOLATILE.sub(b"", path.read_bytes()) == _VOLATILE.sub(b"", data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


# -- extract -------------------------------------------------------------------------------
def extract() -> Catalog:
    """Collect _(), N_(), ngettext() ... from the files babel.cfg names into the .pot."""
    with CFG.open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    template = Catalog(project=PROJECT, version=VERSION, msgid_bugs_address=TEAM,
                       copyright_holder="EEC Studio contributors", charset="utf-8", fuzzy=False)
    template.header_comment = HEADER.format(language="Message template")
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map, comment_tags=COMMENT_TAGS, strip_comment_tags=True):
        flags = set()
        text = message if isinstance(message, str) else message[0]
        if PLACEHOLDER.search(text or "") and "{" in (text or ""):
            flags.add("python-brace-format")
        template.add(message, None, [(filename.replace("\\", "/"), lineno)], auto_comments=comments,
                     context=context, flags=flags)
    changed = _write_if_changed(POT, _po_bytes(template))
    print(f"{POT.relative_to(ROOT)}: {len(template)} messages{'' if changed else ' (unchanged)'}")
    return template


def load_template() -> Catalog:
    if not POT.exists():
        return extract()
    return read_catalog(POT)


# -- update / init ---------------------------------------------------------------------------
def _fix_header(catalog: Catalog, lang: str) -> None:
    catalog.project, catalog.version = PROJECT, VERSION
    catalog.msgid_bugs_address = TEAM
    catalog.language_team = catalog.last_translator = TEAM
    from babel import Locale

    catalog.header_comment = HEADER.format(language=Locale.parse(lang).english_name + " translation")
    if lang in PLURAL_FORMS:
        nplurals, plural = re.match(r"nplurals=(\d+); plural=(.*);$", PLURAL_FORMS[lang]).groups()
        catalog._num_plurals, catalog._plural_expr = int(nplurals), plural


def update(langs: list[str] | None = None) -> None:
    """Merge the .pot into each catalog: new messages appear untranslated, removed ones obsolete."""
    template = load_template()
    for lang in langs or languages():
        path = po_path(lang)
        catalog = read_catalog(path, locale=lang)
        catalog.update(template, update_creation_date=False)
        _fix_header(catalog, lang)
        # obsolete messages (#~) are dropped: the .pot is the single list of what the UI shows,
        # and git keeps the old translations should a string come back.
        changed = _write_if_changed(path, _po_bytes(catalog, ignore_obsolete=True))
        print(f"{path.relative_to(ROOT)}: {_summary(catalog)}{'' if changed else ' (unchanged)'}")


def init(lang: str) -> None:
    path = po_path(lang)
    if path.exists():
        sys.exit(f"{path.relative_to(ROOT)} exists; use `update`")
    catalog = Catalog(locale=lang, domain=DOMAIN, charset="utf-8", fuzzy=False)
    _fix_header(catalog, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_po_bytes(catalog))
    update([lang])


# -- check / stats ---------------------------------------------------------------------------
def _forms(msg: Message) -> list[str]:
    return list(msg.string) if isinstance(msg.string, (tuple, list)) else [msg.string or ""]


def single_value_forms(catalog: Catalog) -> set[int]:
    """Plural indices that only one n reaches (Arabic 0, 1, 2; the singular of es/de): these may
    spell the number out ("خطأ واحد", "ein Fehler") instead of using the {n} placeholder."""
    from gettext import c2py

    plural = c2py(catalog.plural_expr)
    hits: dict[int, int] = {}
    for n in range(0, 1200):
        hits[plural(n)] = hits.get(plural(n), 0) + 1
    return {i for i, count in hits.items() if count == 1}


def problems(lang: str) -> list[str]:
    """Everything that stops a catalog from being complete and safe to show."""
    template = load_template()
    catalog = read_catalog(po_path(lang), locale=lang)
    single = single_value_forms(catalog)
    out = []
    if lang in PLURAL_FORMS and catalog.plural_forms != PLURAL_FORMS[lang]:
        out.append(f"{lang}: Plural-Forms is {catalog.plural_forms!r}, expected {PLURAL_FORMS[lang]!r}")
    for tmsg in template:
        if not tmsg.id:
            continue
        msg = catalog.get(tmsg.id, context=tmsg.context)
        label = f"{lang}: {tmsg.id if isinstance(tmsg.id, str) else tmsg.id[0]!r}"
        if msg is None:
            out.append(f"{label}: missing (run `update`)")
            continue
        if msg.fuzzy:
            out.append(f"{label}: fuzzy")
        forms = _forms(msg)
        if isinstance(tmsg.id, (tuple, list)) and len(forms) != catalog.num_plurals:
            out.append(f"{label}: {len(forms)} plural forms, expected {catalog.num_plurals}")
        if any(not f.strip() for f in forms):
            out.append(f"{label}: untranslated")
            continue
        sources = tmsg.id if isinstance(tmsg.id, (tuple, list)) else [tmsg.id]
        wanted = placeholders(sources[-1])
        allowed = set(placeholders(sources[0])) | set(wanted)
        for i, form in enumerate(forms):
            got = placeholders(form)
            if not set(got) <= allowed:
                out.append(f"{label}: form {i} has unknown placeholders {sorted(set(got) - allowed)}")
            elif len(sources) == 1 and got != wanted:
                out.append(f"{label}: placeholders {got} != {wanted}")
            elif len(sources) > 1 and i not in single and set(got) != set(wanted):
                out.append(f"{label}: form {i} placeholders {got} != {wanted}")
        if len(ACCEL.findall(sources[0])) == 1 and any(len(ACCEL.findall(f)) != 1 for f in forms):
            out.append(f"{label}: keyboard accelerator (&) lost or doubled")
    return out


def _summary(catalog: Catalog) -> str:
    msgs = [m for m in catalog if m.id]
    done = sum(1 for m in msgs if all(f.strip() for f in _forms(m)) and not m.fuzzy)
    fuzzy = sum(1 for m in msgs if m.fuzzy)
    return f"{done}/{len(msgs)} translated" + (f", {fuzzy} fuzzy" if fuzzy else "")


def stats() -> None:
    print(f"{POT.relative_to(ROOT)}: {len([m for m in load_template() if m.id])} messages")
    for lang in languages():
        print(f"{lang}: {_summary(read_catalog(po_path(lang), locale=lang))}")


def check() -> int:
    found = [p for lang in languages() for p in problems(lang)]
    for p in found:
        print(p)
    print(f"{len(found)} problem(s) in {len(languages())} catalog(s)")
    return 1 if found else 0


# -- compile -----------------------------------------------------------------------------------
def compile_all() -> None:
    for lang in languages():
        catalog = read_catalog(po_path(lang), locale=lang)
        buf = io.BytesIO()
        write_mo(buf, catalog)  # fuzzy entries are left out, as msgfmt does
        mo = po_path(lang).with_suffix(".mo")
        mo.write_bytes(buf.getvalue())
        print(f"{mo.relative_to(ROOT)}: {_summary(catalog)}")


# -- todo / fill: a plain JSON round trip for translating without a .po editor -------------------
def todo(lang: str) -> None:
    template = load_template()
    catalog = read_catalog(po_path(lang), locale=lang)
    left = {}
    for tmsg in template:
        if not tmsg.id:
            continue
        msg = catalog.get(tmsg.id, context=tmsg.context)
        if msg is None or msg.fuzzy or any(not f.strip() for f in _forms(msg)):
            key = json.dumps(list(tmsg.id), ensure_ascii=False) if isinstance(tmsg.id, (tuple, list)) else tmsg.id
            if tmsg.context:
                key = f"{tmsg.context}{CTX}{key}"
            left[key] = [""] * catalog.num_plurals if isinstance(tmsg.id, (tuple, list)) else ""
    json.dump(left, sys.stdout, ensure_ascii=False, indent=1)
    print()


CTX = "\x04"  # gettext's separator between a message context and its id


def fill(lang: str, source: Path) -> None:
    """Set translations from {msgid: text} (plural entries: {json list of msgids: [forms]};
    a message with a context: {"context\\u0004msgid": text})."""
    data = json.loads(source.read_text("utf-8"))
    path = po_path(lang)
    catalog = read_catalog(path, locale=lang)
    done = 0
    for key, value in data.items():
        if not value or (isinstance(value, list) and not all(value)):
            continue
        context, _sep, key = key.rpartition(CTX)
        msgid = tuple(json.loads(key)) if isinstance(value, list) else key
        msg = catalog.get(msgid, context=context or None)
        if msg is None:
            print(f"not in catalog (run update?): {key!r}", file=sys.stderr)
            continue
        msg.string = tuple(value) if isinstance(value, list) else value
        msg.flags.discard("fuzzy")
        done += 1
    _fix_header(catalog, lang)
    import datetime as dt

    catalog.revision_date = dt.datetime.now(dt.timezone.utc)
    _write_if_changed(path, _po_bytes(catalog, ignore_obsolete=True))
    print(f"{path.relative_to(ROOT)}: {done} set; {_summary(catalog)}")


# -- review-sample: an independent reviewer's sheet -------------------------------------------------
def review_sample(lang: str, n: int, seed: int, out: Path) -> None:
    """``n`` messages of ``lang`` drawn with ``seed`` (random.Random(seed).sample over the .pot's
    order), each beside its English source, context and translator comment: sample.json (the
    shape of docs/reviews/ui-strings-*.json, verdicts empty) and sample.csv for a spreadsheet."""
    import csv
    import random

    template = [m for m in load_template() if m.id]
    catalog = read_catalog(po_path(lang), locale=lang)
    picked = sorted(random.Random(seed).sample(range(len(template)), min(n, len(template))))
    items = []
    for k, i in enumerate(picked, 1):
        tmsg = template[i]
        msg = catalog.get(tmsg.id, context=tmsg.context)
        sources = [tmsg.id] if isinstance(tmsg.id, str) else list(tmsg.id)
        items.append({"item": k, "lang": lang, "english": " | ".join(sources),
                      "translation": " | ".join(_forms(msg)) if msg else "",
                      "context": tmsg.context or "", "note": " ".join(tmsg.auto_comments),
                      "where": ", ".join(sorted({f for f, _line in tmsg.locations})),
                      "plural": len(sources) > 1, "verdict": "", "class": "", "correction": "", "comment": ""})
    out.mkdir(parents=True, exist_ok=True)
    sheet = {"what": f"{len(items)} of the {len(template)} messages of the {lang} interface catalog, drawn at random",
             "seed": seed, "catalog": str(po_path(lang).relative_to(ROOT)), "reviewer": "", "result": "",
             "items": items}
    (out / "sample.json").write_text(json.dumps(sheet, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    with (out / "sample.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(items[0]))
        writer.writeheader()
        writer.writerows(items)
    print(f"{out}: {len(items)} of {len(template)} {lang} messages, seed {seed}")


# -- screenshot: the main window in a language, made by the app itself (offscreen) ---------------
def screenshot(lang: str, out: Path, page: str = "corpora") -> None:
    """Grab the main window in ``lang`` once every corpus in the list has been checked."""
    import os
    import tempfile
    import time

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["EEC_STUDIO_HOME"] = tempfile.mkdtemp(prefix="eec_shot_")  # no personal files in it
    sys.path.insert(0, str(ROOT))
    from gui import i18n as ui
    from gui.app import MainWindow, make_app

    app = make_app()
    ui.set_language(lang)
    win = MainWindow()
    win.show()
    deadline = time.monotonic() + 120
    while not win.corpora.ready and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    win.show_page(page)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not win.grab().save(str(out)):
        sys.exit(f"could not write {out}")
    print(f"{out}: {win.width()}x{win.height()}, {ui.language_name(lang)}, "
          f"{'right to left' if win.isRightToLeft() else 'left to right'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/i18n.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("extract", help="gui/ -> locales/eec_studio.pot")
    p = sub.add_parser("update", help="merge the .pot into the catalogs")
    p.add_argument("langs", nargs="*")
    p = sub.add_parser("init", help="start a catalog for a new language")
    p.add_argument("lang")
    sub.add_parser("check", help="untranslated/fuzzy/placeholder problems; exit 1 if any")
    sub.add_parser("stats", help="translated messages per language")
    sub.add_parser("compile", help=".po -> .mo (packaging)")
    p = sub.add_parser("todo", help="untranslated messages of LANG as JSON on stdout")
    p.add_argument("lang")
    p = sub.add_parser("fill", help="set translations of LANG from a JSON file")
    p.add_argument("lang")
    p.add_argument("json", type=Path)
    sub.add_parser("all", help="extract + update + check")
    p = sub.add_parser("review-sample", help="a random sample of LANG's messages for an independent reviewer")
    p.add_argument("lang")
    p.add_argument("--n", type=int, default=60)
    p.add_argument("--seed", type=int, required=True, help="a number nobody has used, e.g. the date and time")
    p.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("screenshot", help="the main window in LANG as a PNG (offscreen)")
    p.add_argument("lang")
    p.add_argument("out", type=Path)
    p.add_argument("--page", default="corpora", choices=["corpora", "workbench", "audit", "results"])
    args = parser.parse_args(argv)
    if args.cmd == "extract":
        extract()
    elif args.cmd == "update":
        update(args.langs)
    elif args.cmd == "init":
        init(args.lang)
    elif args.cmd == "check":
        return check()
    elif args.cmd == "stats":
        stats()
    elif args.cmd == "compile":
        compile_all()
    elif args.cmd == "todo":
        todo(args.lang)
    elif args.cmd == "fill":
        fill(args.lang, args.json)
    elif args.cmd == "review-sample":
        review_sample(args.lang, args.n, args.seed, args.out)
    elif args.cmd == "screenshot":
        screenshot(args.lang, args.out, args.page)
    elif args.cmd == "all":
        extract()
        update()
        return check()
    return 0


if __name__ == "__main__":
    sys.exit(main())
