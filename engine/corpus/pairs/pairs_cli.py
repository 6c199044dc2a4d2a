"""`python main.py corpus pairs NAME --out FILE`: export counterfactual pairs (or K&M name groups).

Why a module of its own: main.py loads it after ``engine.corpus.cli`` and it hooks a
``pairs`` command into the existing ``corpus`` parser, so the corpus CLI stays untouched.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.common.command import command
from engine.common import exits, validate

from engine.corpus.cli import add_corpus_command
from engine.corpus.generate.compiled import CompiledCorpus
from engine.corpus.generate.export import FORMATS, export_table
from engine.corpus.pairs.pair_checks import check_pairs
from engine.corpus.pairs.tables import generate_group_comparisons, generate_pairs
from engine.corpus.definition.registry import load_corpus


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    pp = add_corpus_command(subparsers, "pairs", help="export counterfactual sentence pairs (or name-group comparisons)")
    if pp is None:  # engine.corpus.cli not loaded: nothing to attach to
        return
    pp.add_argument("corpus", metavar="NAME_OR_PATH")
    pp.add_argument("--out", required=True, metavar="FILE", help="output file")
    pp.add_argument("--format", choices=FORMATS, default=None, help="default: from the --out suffix, else csv")
    pp.add_argument("--groups", action="store_true",
                    help="Kiritchenko & Mohammad name-group comparisons (sentence IDs per side) instead of pairs")
    pp.set_defaults(func=cmd_pairs)


def cmd_pairs(args: argparse.Namespace) -> int:
    validate.output_file(args.out)
    c = load_corpus(args.corpus)
    cc = CompiledCorpus(c)
    df = generate_group_comparisons(c, cc) if args.groups else generate_pairs(c, cc)
    what = "name-group comparisons" if args.groups else "counterfactual pairs"
    if df.empty:
        if not args.groups and (c.pairs or any(p.pair for p in c.persons)):
            print(f"{c.id}: no usable {what}: the checker rejects every declared pair; "
                  f"see `{command('corpus check ' + args.corpus)}`", file=sys.stderr)
        else:
            print(f"{c.id}: no {what} (declare [[pairs]] or `pair` on persons; see docs/pairs.md)", file=sys.stderr)
        return exits.FINDINGS
    out = Path(args.out)
    export_table(df, out, args.format)
    counts = ", ".join(f"{k} {v:,}" for k, v in df["variable"].value_counts(sort=False).items())
    print(f"{c.id}: {len(df):,} {what} ({counts}) -> {out}")
    if not args.groups:
        _, findings = check_pairs(c, cc)
        left_out = [f for f in findings if f.is_error or f.code == "W111"]
        if left_out:  # rows the checker rejects are left out, never patched: say so, once
            print(f"note: {len(left_out):,} pair finding(s) left pairs out of the table; "
                  f"see `{command('corpus check ' + args.corpus)}`", file=sys.stderr)
    return 0
