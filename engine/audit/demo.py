"""`python main.py demo`: a real audit with nothing but the installed packages.

What it runs (all offline, all from PyPI packages the product depends on):
* the English corpora (Kiritchenko & Mohammad's EEC, Câmara et al.'s Latino and Arab
  variants, the English counterfactual pair corpus where present) scored by VADER and
  TextBlob, with every statistic that applies: Beta regression, the paired analysis and
  the counterfactual pair analysis;
* WEAT T1–T10 (Caliskan et al.'s tests) on the packaged GloVe 6B 50d vectors;
* SVG plots of every table, and the HTML report when that module is installed.

Output folder layout (printed at the end):
    audit/          the audit folder (see engine.audit.run): scores, stats, tables, plots, manifest
    audit/assoc/    tests.csv (WEAT rows) and word_scores.csv (engine.audit.assoc_step)
    audit/tables/weat.md, audit/plots/weat.svg
    report/         the HTML report (when engine.report is available)
    cache/          the score cache (a second run is instant)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from .plan import AuditPlan

DEMO_CORPORA = ["en-kiritchenko2018", "en-camara2022-latino", "en-camara2022-arab", "en-goldfarb2023"]
DEMO_SCORERS = ["vader", "textblob"]
WEAT_TESTS = [f"T{i}" for i in range(1, 11)]


@dataclass
class DemoResult:
    out_dir: Path
    audit: Any = None
    weat: pd.DataFrame | None = None
    plots: list[Path] = field(default_factory=list)
    report: Path | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_weat_tests(tests: list[str] = WEAT_TESTS, *, n_permutations: int = 10_000, seed: int = 0,
                   log: Callable[[str], None] | None = None, cancel: Any = None) -> tuple[dict[str, pd.DataFrame],
                                                                                      pd.DataFrame, Any, list[str]]:
    """WEAT on GloVe 6B 50d through the audit's association-tests step.

    Returns (tables for assoc/, a display table with one row per test — refused ones
    included with the reason —, the step, problems).
    """
    from .assoc_step import AssocStep, run_assoc_step

    step = AssocStep(tests=[t if "/" in t else f"weat/{t}" for t in tests], vectors="glove-6b-50d",
                     permutations=n_permutations, seed=seed)
    tables, problems, _objects = run_assoc_step(step, log=log, cancel=cancel)
    done = tables.get("assoc", pd.DataFrame(columns=["test"]))
    rows = []
    for name in step.tests:
        hit = done[done.test == name]
        if len(hit):
            rec = hit.iloc[0].to_dict()
            rows.append({**rec, "status": "ok", "note": ""})
        else:
            why = next((p.split(": ", 1)[1] for p in problems if p.startswith(f"association test {name}:")), "not run")
            rows.append({"test": name, "title": _title(name), "status": "refused" if "coverage" in why else "error",
                         "note": why})
    display = pd.DataFrame(rows)
    if "title" not in display:
        display["title"] = ""
    display["title"] = display["title"].fillna("")
    return tables, display, step, problems


def _title(name: str) -> str:
    try:
        from engine.assoc.library import resolve

        return resolve(name).title
    except Exception:  # noqa: BLE001 - a title is decoration
        return ""


def weat_markdown(df: pd.DataFrame) -> str:
    lines = ["| test | title | d | p | method | n X/Y/A/B | status |", "|---|---|---:|---:|---|---|---|"]
    for r in df.to_dict("records"):
        if r.get("status") == "ok":
            sizes = "/".join(str(int(r[k])) for k in ("n_x", "n_y", "n_a", "n_b"))
            lines.append(f"| {r['test']} | {r['title']} | {r['effect_size']:.3f} | {r['p_value']:.2g} | "
                         f"{r['p_method']} | {sizes} | ok |")
        else:
            lines.append(f"| {r['test']} | {r.get('title', '')} | – | – | – | – | {r['status']}: {str(r['note'])[:100]}… |")
    return "\n".join(lines) + "\n"


def run_demo(out_dir: str | Path, *, progress: Callable[[int, int, float | None], None] | None = None,
             log: Callable[[str], None] | None = None, n_resamples: int = 1000, cancel: Any = None) -> DemoResult:
    """Run the whole demo into `out_dir` (see the module docstring for what lands where)."""
    from engine.corpus import builtin_names

    from .run import run_audit

    say = log or (lambda _m: None)
    started = time.perf_counter()
    out = Path(out_dir)
    demo = DemoResult(out)
    names = set(builtin_names())
    corpora = [c for c in DEMO_CORPORA if c in names]
    plan = AuditPlan(corpora=corpora, scorers=list(DEMO_SCORERS), out_dir=out / "audit", cache_dir=out / "cache",
                     settings={"n_resamples": n_resamples, "seed": 0})
    demo.audit = run_audit(plan, progress=progress, cancel=cancel, log=say)
    demo.plots = sorted((out / "audit" / "plots").glob("*.svg"))

    try:
        tables, demo.weat, step, problems = run_weat_tests(log=say, cancel=cancel)
    except ImportError as exc:  # association-tests engine missing from this build
        demo.notes.append(f"WEAT skipped: {exc}")
    except Exception as exc:  # noqa: BLE001 - e.g. AssocError: the GloVe package is not installed
        demo.notes.append(f"WEAT skipped: {exc}")
    else:
        from engine.common.io import atomic_write_bytes

        from .assoc_step import write_assoc_outputs
        from .plots import write_plots

        write_assoc_outputs(out / "audit", tables, step, problems)  # audit/assoc/tests.csv: read by the report
        atomic_write_bytes(out / "audit" / "tables" / "weat.md", weat_markdown(demo.weat).encode("utf-8"))
        demo.plots += write_plots({"weat": demo.weat}, out / "audit" / "plots")
        for r in demo.weat[demo.weat.status != "ok"].itertuples():
            demo.notes.append(f"WEAT {r.test} {r.status}: {r.note}")

    try:
        from engine.report import build_report
    except ImportError:
        demo.notes.append("HTML report not built: engine.report is not available in this build")
    else:
        try:
            demo.report = Path(build_report(out / "audit", out / "report"))
        except Exception as exc:  # noqa: BLE001 - the tables and plots are already written
            demo.notes.append(f"HTML report failed: {type(exc).__name__}: {exc}")
    demo.seconds = time.perf_counter() - started
    return demo
