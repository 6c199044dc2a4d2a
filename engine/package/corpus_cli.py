"""`python main.py corpus hf-export NAME --out FOLDER`: a Hugging Face dataset folder of a corpus.

Why a module of its own: the dataset folder is written by this package (engine.package.hf_dataset),
which stands above engine.corpus; main.py loads this module after ``engine.corpus.cli`` and it adds
its command to the ``corpus`` parser, so the corpus package imports nothing above it.
"""
from __future__ import annotations

import argparse

from engine.common import exits
from engine.corpus.cli import add_corpus_command


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    hf = add_corpus_command(subparsers, "hf-export", help="write a Hugging Face dataset folder (data files + dataset card)")
    if hf is None:  # engine.corpus.cli not loaded: nothing to attach to
        return
    hf.add_argument("corpus", metavar="NAME_OR_PATH")
    hf.add_argument("--out", required=True, metavar="FOLDER")
    hf.add_argument("--format", choices=("parquet", "jsonl"), default=None,
                    help="the data files' format (default: parquet with the 'parquet' extra installed, else jsonl)")
    hf.add_argument("--overwrite", "--force", dest="overwrite", action="store_true", help="replace FOLDER if it exists")
    hf.set_defaults(func=cmd_hf_export)


def cmd_hf_export(args: argparse.Namespace) -> int:
    from engine.package.hf_dataset import DATA_FORMATS, export_hf_dataset

    res = export_hf_dataset(args.corpus, args.out, overwrite=args.overwrite, data_format=args.format)
    kind = DATA_FORMATS[res.data_format]
    if res.data_format == "jsonl" and args.format is None:  # chosen for the user: say why, and how to get parquet
        from engine.common.extras import install_command

        kind += f"; parquet needs the 'parquet' extra: {install_command('parquet')}"
    print(f"{res.rows:,} sentences" + (f", {res.pairs:,} pairs" if res.pairs else "") + f" -> {res.path} ({kind})")
    return exits.OK
