"""`python main.py package export|import|verify` (thin shells over the engine).

Handlers return an exit code; every failure is a PackageError (a ValueError) that main.py
prints as one line. `exchange` and `report` have their own modules (engine.exchange.cli,
engine.report.cli). Nothing is replaced unasked: a y/N prompt at a terminal, otherwise
--overwrite (alias --force / --yes).
"""
from __future__ import annotations

import argparse
from engine.common import exits, validate
from engine.common.io import tty_confirm


def _add(subparsers: argparse._SubParsersAction, name: str, **kw) -> argparse.ArgumentParser | None:
    if name in getattr(subparsers, "choices", {}):  # another module already owns this command
        return None
    return subparsers.add_parser(name, **kw)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    _add_package(subparsers)


# -- package -----------------------------------------------------------------------
def _add_package(subparsers: argparse._SubParsersAction) -> None:
    p = _add(subparsers, "package", help="export, verify and import corpus packages (.eecpkg)")
    if p is None:
        return
    sub = p.add_subparsers(dest="package_cmd", required=True, metavar="COMMAND")
    ex = sub.add_parser("export", help="write a corpus with its datasheet, checker report and manifest to one file")
    ex.add_argument("corpus", metavar="NAME_OR_PATH")
    ex.add_argument("--out", required=True, metavar="FILE", help="the .eecpkg file to write")
    ex.add_argument("--overwrite", "--force", "--yes", dest="overwrite", action="store_true",
                    help="replace FILE if it exists")
    ex.set_defaults(func=cmd_package_export)
    im = sub.add_parser("import", help="verify a package and unpack it into your corpus folder")
    im.add_argument("file", metavar="FILE")
    im.add_argument("--dest", default=None, metavar="DIR",
                    help="folder to import into (default: your corpus folder, $EEC_STUDIO_HOME/corpora)")
    im.add_argument("--overwrite", "--force", "--yes", dest="overwrite", action="store_true",
                    help="replace a corpus of the same id in DIR")
    im.add_argument("--allow-errors", action="store_true", help="import even if the checker finds errors")
    im.add_argument("--accept-modified", action="store_true",
                    help="import a package whose content differs from what its definition and datasheet state")
    im.set_defaults(func=cmd_package_import)
    ve = sub.add_parser("verify", help="check a package (hashes, schema, checker) without importing it")
    ve.add_argument("file", metavar="FILE")
    ve.add_argument("--accept-modified", action="store_true",
                    help="list the differences from its definition and datasheet as warnings instead of refusing")
    ve.set_defaults(func=cmd_package_verify)


def cmd_package_export(args: argparse.Namespace) -> int:
    from .export import export_package

    validate.output_file(args.out)
    res = export_package(args.corpus, args.out, overwrite=args.overwrite, confirm=tty_confirm())
    m = res.manifest
    print(f"{m.corpus_id}: {m.sentences:,} sentences" + (f", {m.pairs:,} pairs" if m.pairs else "")
          + f", {len(m.files) + 1} files -> {res.path}")
    return 0


def cmd_package_import(args: argparse.Namespace) -> int:
    from .importer import import_package

    if args.dest is not None:
        validate.output_folder(args.dest, "--dest")
    res = import_package(args.file, args.dest, overwrite=args.overwrite, confirm=tty_confirm(),
                         allow_errors=args.allow_errors, accept_modified=args.accept_modified)
    m = res.package.manifest
    print(f"{m.corpus_id}: imported {m.sentences:,} sentences into {res.folder}" + (" (replaced)" if res.replaced else ""))
    print(f"  definition: {res.definition}")
    for note in res.notes:
        print(f"  note: {note}")
    return 0


def cmd_package_verify(args: argparse.Namespace) -> int:
    from .verify import verify_package

    pkg = verify_package(args.file, allow_errors=True, accept_modified=args.accept_modified)
    print(pkg.summary())
    if pkg.report.errors:
        print("  the definition has checker errors; `package import` refuses it without --allow-errors")
        return exits.FINDINGS
    print("  OK")
    return 0
