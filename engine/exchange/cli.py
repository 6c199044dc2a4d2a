"""`python main.py exchange export|import` — PO / XLIFF files for translators' tools.

    python main.py exchange export es-camara2022 --out es.po --source en-camara2022-latino
    python main.py exchange import es.po --into es-camara2022 --out my/es-camara2022.toml

Thin shell over engine.exchange.api; every failure is an ExchangeError/PackageError (a
ValueError) that main.py prints as one line. Import never replaces ``--out`` unasked: it
prompts at a terminal and otherwise needs --overwrite (alias --force / --yes).
"""
from __future__ import annotations

import argparse
import sys


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    if "exchange" in getattr(subparsers, "choices", {}):
        return
    p = subparsers.add_parser("exchange", help="export a corpus for translators (PO, XLIFF 2.0) and import their work")
    sub = p.add_subparsers(dest="exchange_cmd", required=True, metavar="COMMAND")
    ex = sub.add_parser("export", help="write every translatable form (templates, person terms, emotion and small "
                                       "words) with its features, source text, note and status")
    ex.add_argument("corpus", metavar="NAME_OR_PATH")
    ex.add_argument("--out", required=True, metavar="FILE", help="FILE.po (gettext) or FILE.xlf (XLIFF 2.0)")
    ex.add_argument("--format", choices=["po", "xliff"], default=None, help="default: from the suffix of FILE")
    ex.add_argument("--source", default=None, metavar="NAME_OR_PATH",
                    help="corpus giving the source-language text (e.g. en-camara2022-latino for es-camara2022)")
    ex.add_argument("--no-source", action="store_true",
                    help="a monolingual file (the corpus's own text as the source), even for a translation whose "
                         "file records the corpus it was translated from (used by default)")
    ex.add_argument("--source-lang", default=None, metavar="TAG", help="language of the source text: XLIFF srcLang, PO X-Source-Language "
                                                                   "(default: the source corpus's, else the corpus's own)")
    ex.add_argument("--overwrite", "--force", "--yes", dest="overwrite", action="store_true",
                    help="replace FILE if it exists")
    ex.set_defaults(func=cmd_export)

    im = sub.add_parser("import", help="check a translated PO/XLIFF file and save the corpus with it applied")
    im.add_argument("file", metavar="FILE")
    im.add_argument("--into", required=True, metavar="NAME_OR_PATH", help="the corpus the file was exported from")
    im.add_argument("--out", default=None, metavar="FILE.toml",
                    help="where to save the updated definition (omit with --dry-run)")
    im.add_argument("--format", choices=["po", "xliff"], default=None, help="default: from the suffix of FILE")
    im.add_argument("--translator", default="", help="record this translator on the changed items "
                                                     "(default: the PO Last-Translator)")
    im.add_argument("--allow-errors", action="store_true", help="save even if the translation adds checker errors")
    im.add_argument("--allow-slot-changes", action="store_true",
                    help="accept translations that drop, add or change a template's slots (refused by default)")
    im.add_argument("--dry-run", action="store_true", help="list the changes and check them; write nothing")
    im.add_argument("--overwrite", "--force", "--yes", dest="overwrite", action="store_true",
                    help="replace --out if it exists (e.g. the corpus's own definition file)")
    im.set_defaults(func=cmd_import)


def cmd_export(args: argparse.Namespace) -> int:
    from engine.common.io import tty_confirm

    from engine.common import validate

    from .api import export_exchange

    validate.output_file(args.out)
    res = export_exchange(args.corpus, args.out, fmt=args.format, source=args.source, source_lang=args.source_lang,
                          overwrite=args.overwrite, confirm=tty_confirm(), recorded_source=not args.no_source)
    for w in res.warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"{res.units} translation units ({res.fmt}) -> {res.path}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from engine.common.io import tty_confirm

    from .api import import_exchange, merge_exchange
    from .errors import ExchangeError

    if args.dry_run:
        res = merge_exchange(args.file, args.into, fmt=args.format, translator=args.translator,
                             allow_errors=args.allow_errors, allow_slot_changes=args.allow_slot_changes)
    else:
        if not args.out:
            raise ExchangeError(args.file, "no --out given", fix="pass --out FILE.toml (or --dry-run to only check)")
        from engine.common import validate

        validate.output_file(args.out)
        res = import_exchange(args.file, args.into, args.out, fmt=args.format, translator=args.translator,
                              allow_errors=args.allow_errors, allow_slot_changes=args.allow_slot_changes,
                              overwrite=args.overwrite, confirm=tty_confirm())
    for w in res.warnings:
        print(f"warning: {w}")
    for c in res.changes:
        print(f"  {c}")
    r = res.report
    print(f"{len(res.changes)} item(s) changed; checker: {len(r.errors)} error(s), {len(r.warnings)} warning(s), "
          f"{r.sentences:,} sentences" + ("" if args.dry_run else f" -> {res.path}"))
    if res.new_errors:
        print(f"  {len(res.new_errors)} new checker error(s), e.g. {res.new_errors[0]}")
    return 0
