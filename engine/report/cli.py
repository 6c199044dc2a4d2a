"""`python main.py report AUDIT_DIR --out DIR` (a thin shell over build_report).

A destination that exists and is not an earlier report is replaced only after a yes at the
terminal or with --overwrite (alias --force / --yes); errors are ReportError (a ValueError)
that main.py prints as one line.
"""
from __future__ import annotations

from engine.common.command import command

import argparse
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    if "report" in getattr(subparsers, "choices", {}):
        return
    p = subparsers.add_parser("report", help="build a self-contained HTML report (and LaTeX/CSV tables) of an audit")
    p.add_argument("audit_dir", metavar="AUDIT_DIR", help=f"the --out folder of `{command('audit')}`")
    p.add_argument("--out", default=None, metavar="DIR", help="report folder (default: AUDIT_DIR/report)")
    p.add_argument("--overwrite", "--force", "--yes", dest="overwrite", action="store_true",
                   help="replace DIR even if it is not an earlier report")
    p.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from engine.common import validate
    from engine.common.io import tty_confirm

    from .build import build_report

    out = validate.output_folder(Path(args.out) if args.out else Path(args.audit_dir) / "report")
    path = build_report(args.audit_dir, out, overwrite=args.overwrite, confirm=tty_confirm())
    print(f"report: {path}")
    return 0
