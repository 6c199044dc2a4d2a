"""`python main.py audit …` and `python main.py demo` (thin shells over engine.audit.run_audit)."""
from __future__ import annotations

from engine.common import interrupts
from engine.common.command import command

import argparse
import sys
from pathlib import Path

from .assoc_step import AssocStep
from .plan import AuditPlan, statistic_ids
from .progress_bar import AuditProgress, stderr_line
from engine.models.specs import model_option_help


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    stats = statistic_ids()
    p = subparsers.add_parser("audit", help="score corpora with models and compute bias statistics")
    p.add_argument("--corpus", nargs="+", default=[], metavar="NAME", help="corpus names or definition files")
    p.add_argument("--model", nargs="+", default=[], metavar="SPEC", help=model_option_help())  # the scorer registry
    p.add_argument("--stats", default=",".join(stats), help=f"comma list of {', '.join(stats)}")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for tables, scores and the manifest")
    p.add_argument("--cache-dir", default=None, metavar="DIR", help="score cache (default ~/.cache/eec-studio)")
    add_setting_arguments(p)  # --alpha, --bootstrap, --inference, …: declared by the statistics
    p.add_argument("--allow-pickle", action="store_true", help="allow pickled scikit-learn models (.joblib/.pkl: loading runs the file's code) and torch "
                        "weights (.bin/.pt: read by torch's restricted loader, which runs no code)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes scoring CPU-bound models (VADER, TextBlob, SVM, fastText) at once; default: one "
                        "per core; 1: a single process; the scores are the same for any N")
    p.add_argument("--assoc", nargs="+", default=[], metavar="TEST",
                   help=f"association tests into DIR/assoc (library names as in `{command('assoc list')}`, e.g. weat/T1, "
                        "or test files; prefix seat: or lpbs: to run a word test as SEAT or LPBS)")
    p.add_argument("--vectors", default="glove-6b-50d", metavar="SPEC",
                   help=f"representation for --assoc (as `{command('assoc run --vectors')}`; default glove-6b-50d)")
    p.add_argument("--permutations", type=int, default=10_000, metavar="N",
                   help="permutations for the association tests' p-values (exact when fewer partitions exist)")
    p.add_argument("--report", action="store_true", help="also write an HTML report into DIR/report")
    p.add_argument("--overwrite", "--force", dest="overwrite", action="store_true",
                   help="replace an earlier audit folder at --out (as a whole, when the run completes; "
                        "a folder of other files is never replaced)")
    p.set_defaults(func=cmd_audit)

    d = subparsers.add_parser("demo", help="a real audit with only the installed packages (VADER, TextBlob, GloVe WEAT)")
    d.add_argument("--out", default="eec-demo", metavar="DIR", help="output folder (default ./eec-demo)")
    d.set_defaults(func=cmd_demo)


def add_setting_arguments(parser: argparse.ArgumentParser) -> None:
    """One option per statistic setting (engine.stats.settings), as each declares it: its flag and
    ``--key-with-dashes``, type, choices, default and help. The value lands in ``args.<key>``."""
    from engine.stats.registry import settings

    for s in settings():
        kw: dict = {"dest": s.key, "default": s.default, "help": s.help + (f" (default {s.default})"
                                                                              if s.default is not None and
                                                                              "default" not in s.help else "")}
        if s.kind == "choice":
            kw["choices"] = list(s.accepted_choices)
        else:
            kw["type"] = _setting_type(s)
            kw["metavar"] = s.metavar or ("X" if s.kind == "float" else "N")
        parser.add_argument(*s.flags, **kw)


def _setting_type(s):
    """argparse's type for a declared setting: the text read as its type (a word that is no number is
    argparse's one-line error); the range is checked by AuditPlan.validate, as for a plan built in code,
    so every out-of-range value reads the same ('[--alpha]: must be between 0 and 1 …')."""
    from engine.common.errors import UsageError

    def parse(text: str):
        if s.kind == "range":  # LOW,HIGH: its syntax is the type
            try:
                return s.parse_text(text)
            except UsageError as exc:
                raise argparse.ArgumentTypeError(exc.message + (f" ({exc.fix})" if exc.fix else "")) from None
        try:
            return int(text) if s.kind == "int" else float(text)
        except ValueError:
            what = "a whole number" if s.kind == "int" else "a number"
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None

    parse.__name__ = s.kind  # argparse names the type in its messages
    return parse


def setting_values(args: argparse.Namespace) -> dict:
    """{key: value} of every declared setting from the parsed command line."""
    from engine.stats.registry import settings

    return {s.key: getattr(args, s.key) for s in settings()}


def plan_from_args(args: argparse.Namespace) -> AuditPlan:
    """The AuditPlan the command line describes (validated by the pipeline before any work)."""
    stats = [s.strip() for s in args.stats.split(",") if s.strip()]
    assoc = AssocStep(tests=list(args.assoc), vectors=args.vectors, permutations=args.permutations,
                      seed=args.seed) if args.assoc else None
    return AuditPlan(corpora=args.corpus, scorers=args.model, stats=stats, out_dir=Path(args.out),
                     cache_dir=Path(args.cache_dir) if args.cache_dir else None, allow_pickle=args.allow_pickle,
                     settings=setting_values(args), jobs=args.jobs,
                     assoc=assoc, report=args.report, overwrite=args.overwrite)


def cmd_audit(args: argparse.Namespace) -> int:
    from .pipeline import run_audit

    plan = plan_from_args(args)
    if not plan.overwrite:  # asked at the terminal before any work; in a script: refused, naming --overwrite
        from engine.common.io import tty_confirm

        from .out_folder import may_write_audit

        plan.validate()
        may_write_audit(plan.out_dir, overwrite=False, confirm=tty_confirm())
        plan.overwrite = True  # nothing there to lose, or the user said yes
    shown = AuditProgress()
    result = run_audit(plan, progress=shown, on_phase=shown.phase, on_step=shown.step,
                       log=stderr_line, cancel=interrupts.pressed)
    if plan.out_dir is not None:  # the summary the folder holds (made once: 0.05 s for four corpora)
        from engine.results.layout import SUMMARY

        print((plan.out_dir / SUMMARY).read_text(encoding="utf-8"))
    else:
        print(result.summary())
    if result.assoc_overview is not None:
        from engine.results.writer import assoc_markdown

        print("\nAssociation tests\n")
        print(assoc_markdown(result.assoc_overview))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import DEMO_CORPORA, DEMO_SCORERS, has_glove, run_demo

    out = Path(args.out).resolve()
    print(f"EEC Studio demo: {', '.join(DEMO_CORPORA)} scored by {' and '.join(DEMO_SCORERS)}"
          f"{', plus WEAT on GloVe 6B 50d' if has_glove() else ''} -> {out}", file=sys.stderr)
    shown = AuditProgress()
    demo = run_demo(out, progress=shown, on_phase=shown.phase, on_step=shown.step,
                    log=stderr_line, cancel=interrupts.pressed)
    print(demo.audit.summary())
    if demo.weat is not None:
        from engine.results.writer import assoc_markdown

        print("\nWEAT on GloVe 6B 50d (10,000 permutations or exact)\n")
        print(assoc_markdown(demo.weat))
    for note in demo.notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"\nDemo finished in {demo.seconds:.0f} s. Everything is in {out}:", file=sys.stderr)
    from engine.common.extras import available

    tidy = "CSV + parquet" if available("parquet") else "CSV; parquet needs the 'parquet' extra"
    print(f"  {out / 'audit'}   scores, tidy stats ({tidy}), tables (Markdown, LaTeX), manifest.json",
          file=sys.stderr)
    if demo.plots:
        print(f"  plots: {', '.join(str(p.relative_to(out)) for p in demo.plots)}", file=sys.stderr)
    if demo.weat is not None:
        print(f"  {out / 'audit' / 'assoc'}   WEAT on GloVe (tests.csv, word_scores.csv)", file=sys.stderr)
    if demo.report is not None:
        print(f"  report: {demo.report}", file=sys.stderr)
    return 0
