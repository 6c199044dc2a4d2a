"""Worst event-loop stall while the Audit page runs a small audit (target: < 100 ms).

A QTimer ticks every 10 ms on the UI thread; the gap between consecutive ticks is the time the
event loop could not respond (a click, a repaint). We run the same small audit (a 462-sentence
corpus scored by a prediction file and VADER, all three statistics) several times

* ``process``: the app's way — the audit in its own process behind a QThread (default);
* ``thread``:  the audit inside the QThread of the UI process (``AuditPage.isolate = False``),

and print the worst gap, the 99th percentile and how many gaps exceeded 100 ms, plus the time the
Results page takes to draw the finished audit. ``--model tiny`` adds a tiny random BERT
(imports torch in the audit), ``--corpus ID`` uses a built-in corpus instead.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_gui_stall.py [--repeats 3] [--model tiny]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def run_once(app, mode: str, assets: dict, corpus: str, tiny: bool, tmp: Path, k: int) -> dict:
    from PySide6.QtCore import QEventLoop

    from gui.audit.page import AuditPage
    from testkit.audit_fixtures import TickGaps

    page = AuditPage()
    page.resize(1100, 760)
    page.show()
    page.isolate = mode == "process"
    page.cache_dir = tmp / f"cache-{mode}-{k}"  # fresh cache: every run really scores
    page.out_dir.setText(str(tmp / f"out-{mode}-{k}"))
    page.add_corpus(corpus)
    page.add_prediction_file(assets["pred"])
    page.add_scorer("vader", kind="lexicon")
    if tiny:
        page.add_model_folder(assets["tiny"])
    page.bootstrap.setValue(200)
    ticks = TickGaps()
    loop = QEventLoop()
    page.state_changed.connect(lambda: (not page.running) and loop.quit())
    ticks.start()
    started = time.perf_counter()
    page.start()
    loop.exec()
    took = time.perf_counter() - started
    ticks.stop()
    gaps = ticks.gaps
    result = page.result
    draw = float("nan")
    if result is not None:
        from gui.results.page import ResultsPage

        results = ResultsPage()
        results.resize(1100, 760)
        results.show()
        t0 = time.perf_counter()
        results.show_result(result)
        for name in ("beta", "paired", "confusion"):
            results.show_tab(name)
            app.processEvents()
        draw = time.perf_counter() - t0
        results.deleteLater()
    page.deleteLater()
    app.processEvents()
    gaps.sort()
    return {"outcome": page.outcome, "seconds": took, "ticks": len(gaps), "max": gaps[-1],
            "p99": gaps[int(0.99 * (len(gaps) - 1))], "over100": sum(g > 0.1 for g in gaps), "draw": draw}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--model", choices=["none", "tiny"], default="none")
    ap.add_argument("--corpus", default="", help="a built-in corpus id (default: the 462-sentence test corpus)")
    ap.add_argument("--modes", default="process,thread")
    args = ap.parse_args()

    from PySide6.QtWidgets import QApplication

    from testkit.audit_fixtures import make_tiny_classifier, write_mini_corpus, write_predictions

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory(prefix="eec-stall-") as d:
        tmp = Path(d)
        os.environ["EEC_STUDIO_HOME"] = str(tmp / "home")
        corpus = args.corpus or str(write_mini_corpus(tmp))
        assets = {"pred": write_predictions(corpus, tmp / "system.tsv")}
        if args.model == "tiny":
            assets["tiny"] = make_tiny_classifier(tmp / "tiny-bert")
        print(f"corpus {Path(corpus).stem}; scorers: prediction file, VADER{', tiny BERT' if args.model == 'tiny' else ''}; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        print(f"{'mode':<8} {'run':>3} {'outcome':<9} {'audit s':>8} {'ticks':>6} {'max stall ms':>13} "
              f"{'p99 ms':>7} {'>100 ms':>8} {'results draw ms':>16}")
        summary: dict[str, list[float]] = {}
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            for k in range(args.repeats):
                r = run_once(app, mode, assets, corpus, args.model == "tiny", tmp, k)
                summary.setdefault(mode, []).append(r["max"])
                print(f"{mode:<8} {k + 1:>3} {r['outcome']:<9} {r['seconds']:>8.1f} {r['ticks']:>6} "
                      f"{r['max'] * 1000:>13.0f} {r['p99'] * 1000:>7.0f} {r['over100']:>8} {r['draw'] * 1000:>16.0f}")
        for mode, worst in summary.items():
            print(f"{mode}: worst stall {max(worst) * 1000:.0f} ms, median of runs {statistics.median(worst) * 1000:.0f} ms"
                  f" (target < 100 ms)")


if __name__ == "__main__":
    main()
