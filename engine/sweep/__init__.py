"""Audit sweeps: corpora × models × statistics with the scoring spread over a Dask cluster
(a local cluster on this machine, or a running ``dask scheduler``: the executor's Dask backend),
the statistics computed by the one audit pipeline. ``run_sweep`` is the entry point (CLI:
``main.py sweep``); docs/sweep.md."""
from .errors import SweepError
from .plan_file import SweepPlan, load_sweep_plan, parse_sweep_plan
from .run import SweepResult, run_sweep

__all__ = ["SweepError", "SweepPlan", "SweepResult", "load_sweep_plan", "parse_sweep_plan", "run_sweep"]
