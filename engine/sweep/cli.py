"""`python main.py sweep PLAN.toml --out DIR [--scheduler tcp://HOST:PORT] [--jobs N]`
(a thin shell over engine.sweep.run_sweep)."""
from __future__ import annotations

from engine.common.command import command

import argparse
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("sweep", help="an audit plan (TOML) scored on a Dask cluster: local processes or a scheduler",
                              description="Score corpora × models as Dask tasks, then compute the statistics as "
                                          f"`{command('audit')}` does. Plan format: docs/sweep.md.")
    p.add_argument("plan", metavar="PLAN.toml", help="the sweep plan ([sweep] corpora, models, stats, …)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for tables, scores and the manifest")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="a running `dask scheduler` (default: a local cluster of --jobs worker processes)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="local worker processes (default: one per core; at most 4 per core)")
    p.add_argument("--scheduler-timeout", type=float, default=None, metavar="S",
                   help="seconds the scheduler may take to connect and answer (default: 15)")
    p.add_argument("--yes", action="store_true",
                   help="start a sweep of over 1,000 cells (corpus × model) without asking")
    p.add_argument("--cache-dir", default=None, metavar="DIR",
                   help="score cache (default: the plan's cache_dir, else ~/.cache/eec-studio)")
    p.add_argument("--overwrite", "--force", dest="overwrite", action="store_true",
                   help=f"replace an earlier audit folder at --out (as `{command('audit --overwrite')}`)")
    p.set_defaults(func=cmd_sweep)


def cmd_sweep(args: argparse.Namespace) -> int:
    from engine.audit.progress_bar import ProgressBar, stderr_line

    from .errors import SweepError
    from .plan_file import load_sweep_plan
    from .run import run_sweep

    from engine.common import interrupts
    from engine.common.io import tty_confirm

    from .cluster import HANDSHAKE_S, check_address, check_jobs
    from .scale import confirm_scale, plan_scale

    check_jobs(args.jobs)
    if args.scheduler is not None:
        check_address(args.scheduler)
    timeout = HANDSHAKE_S if args.scheduler_timeout is None else args.scheduler_timeout
    if not 0 < timeout <= 3600:
        raise SweepError(f"--scheduler-timeout must be between 0 and 3600 seconds, not {timeout:g}",
                         field="--scheduler-timeout", fix="e.g. --scheduler-timeout 30")
    sweep = load_sweep_plan(args.plan, out_dir=Path(args.out), cache_dir=args.cache_dir)
    scale = plan_scale(sweep.audit)
    print(scale.line(), file=sys.stderr)  # before any work: how big, and roughly how long
    confirm_scale(scale, yes=args.yes, confirm=tty_confirm())
    if sweep.audit.out_dir is not None:  # refused before any task is scored, as `main.py audit` does
        from engine.audit.out_folder import may_write_audit

        sweep.audit.validate()
        may_write_audit(sweep.audit.out_dir, overwrite=args.overwrite, confirm=tty_confirm())
        sweep.audit.overwrite = True
    bars = {"sweep": ProgressBar("scoring tasks"), "scoring": ProgressBar("reading scores back"),
            "statistics": ProgressBar("statistics"), "assoc": ProgressBar("association tests")}
    current = {"bar": bars["sweep"], "name": "sweep"}

    def on_phase(name: str, _total: int) -> None:
        current["bar"], current["name"] = bars.get(name), name

    def on_step(what: str, on: str) -> None:
        if current["name"] == "statistics":
            bars["statistics"].step(f"{what} on {on}")

    def progress(done: int, total: int, eta: float | None) -> None:
        if current["bar"] is not None:
            current["bar"](done, total, eta)

    result = run_sweep(sweep.audit, scheduler=args.scheduler, jobs=args.jobs, chunk_size=sweep.chunk_size,
                       retries=sweep.retries, progress=progress, on_phase=on_phase, on_step=on_step,
                       scheduler_timeout=timeout, cancel=interrupts.pressed,
                       log=stderr_line)
    print(result.audit.summary())
    rec = result.record
    if rec:
        lost = [w["address"] for w in rec["workers"] if w["lost"]]
        print(f"\nsweep: {rec['tasks']} tasks on {len(rec['workers'])} worker(s) via {rec['scheduler']}"
              + (f"; lost and retried elsewhere: {', '.join(lost)}" if lost else ""), file=sys.stderr)
    return 0
