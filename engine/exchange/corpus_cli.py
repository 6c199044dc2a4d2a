"""`python main.py corpus tm-export|tm-import`: the translation memory as TMX 1.4b, out and in.

Why a module of its own: TMX is this package's format (engine.exchange.tmx_format), above
engine.corpus; main.py loads this module after ``engine.corpus.cli`` and it adds its commands to
the ``corpus`` parser, so the corpus package imports nothing above it.
"""
from __future__ import annotations

import argparse

from engine.common import exits
from engine.common.errors import UsageError
from engine.corpus.cli import add_corpus_command
from engine.corpus.definition.registry import load_corpus


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    te = add_corpus_command(subparsers, "tm-export",
                            help="write the translation memory of a language as TMX 1.4b (for other CAT tools)")
    if te is None:  # engine.corpus.cli not loaded: nothing to attach to
        return
    te.add_argument("out", help="the .tmx file to write")
    te.add_argument("--language", help="target language (every corpus in it, glossaries, imported pairs)")
    te.add_argument("--corpus", help="only this corpus's pairs (its language is the target)")
    te.add_argument("--source-lang", default=None, help="language of the source texts (default: with --corpus, the "
                                                        "language of the corpus it was translated from, else en)")
    te.set_defaults(func=cmd_tm_export)

    ti = add_corpus_command(subparsers, "tm-import", help="add a TMX file's pairs to the translation memory (suggestions)")
    ti.add_argument("tmx", help="a TMX 1.1-1.4b file")
    ti.set_defaults(func=cmd_tm_import)


def cmd_tm_export(args: argparse.Namespace) -> int:
    from engine.exchange.tmx_format import export_tmx

    if bool(args.language) == bool(args.corpus):
        raise UsageError("give --language LANG (the whole memory) or --corpus NAME (one corpus)",
                         field="tm-export", fix="e.g. corpus tm-export memory.tmx --language pt")
    from engine.corpus.translate.source_link import load_source

    corpus = load_corpus(args.corpus) if args.corpus else None
    source = load_source(corpus) if corpus is not None else None
    args.source_lang = args.source_lang or (source.language if source is not None else "en")
    left_out: list[str] = []
    n = export_tmx(args.out, args.language or "", source_lang=args.source_lang, corpus=corpus, without_source=left_out)
    if left_out:
        print(f"note: {len(left_out)} translated item(s) have no recorded source text and are left out "
              f"(an id is no source text): {', '.join(left_out[:6])}{', …' if len(left_out) > 6 else ''}")
    print(f"{n:,} translation unit(s) ({args.source_lang} -> {corpus.language if corpus else args.language}) -> {args.out}")
    return exits.OK


def cmd_tm_import(args: argparse.Namespace) -> int:
    from engine.exchange.tmx_format import import_tmx, store_path

    res = import_tmx(args.tmx)
    print(f"{res.added:,} pair(s) added to the translation memory ({', '.join(res.languages) or '-'}), "
          f"{res.skipped:,} already there -> {store_path()}")
    return exits.OK
