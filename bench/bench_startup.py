"""Startup of the desktop app: process start to the first window shown (issue 7 §5).

    .venv/bin/python bench/bench_startup.py              # 7 runs, median and min
    .venv/bin/python bench/bench_startup.py --runs 3 --importtime   # + the slowest imports

Each run is a fresh interpreter (offscreen Qt, an empty EEC_STUDIO_HOME) that goes through the
real entry, ``gui.app.run()``; the clock starts just before the process is spawned and stops when
the child reports, from the event loop's first turn after ``MainWindow.show()``, that the window
is visible. The child also lists which heavy libraries are loaded at that moment: torch and
transformers must not be (they load on the first audit), so the run fails if they are.

Why a subprocess: imports are cached inside one interpreter, and what a user waits for includes
Python's own start and every module the GUI pulls in.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 2.0
MUST_BE_LAZY = ("torch", "transformers")
ALSO_REPORTED = ("pandas", "numpy", "pyqtgraph", "scipy", "sklearn", "statsmodels", "pyarrow", "babel",
                 "engine.corpus", "engine.models", "engine.stats", "engine.audit", "gui.workbench", "gui.audit",
                 "gui.results")

CHILD = r"""
import os, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
import main  # the real entry point (argparse only; the GUI is imported by run_gui)
from PySide6.QtCore import QTimer
import gui.app as app_module

def report(win):
    loaded = {{name: name in sys.modules for name in {names!r}}}
    print("READY " + __import__("json").dumps({{"visible": win.isVisible(), "loaded": loaded,
          "in_process_s": time.perf_counter() - t0, "modules": len(sys.modules),
          "language": __import__("gui.i18n", fromlist=["x"]).current_language()}}), flush=True)
    os._exit(0)  # the measurement is done; skip teardown (and the background corpus checks)

_show = app_module.MainWindow.show
def show(self):
    _show(self)
    QTimer.singleShot(0, lambda: report(self))
app_module.MainWindow.show = show
sys.exit(app_module.run([sys.argv[0]]))
"""


def one_run(env: dict[str, str], importtime: bool = False) -> tuple[float, dict, str]:
    code = CHILD.format(root=str(ROOT), names=list(MUST_BE_LAZY + ALSO_REPORTED))
    cmd = [sys.executable] + (["-X", "importtime"] if importtime else []) + ["-c", code]
    with tempfile.TemporaryDirectory(prefix="eec_startup_") as home:
        env = dict(env, EEC_STUDIO_HOME=home)
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = ""
        for line in proc.stdout:
            if line.startswith("READY "):
                break
        elapsed = time.perf_counter() - start
        proc.stdout.close()
        err = proc.stderr.read()
        proc.wait(timeout=60)
    if not line.startswith("READY "):
        raise SystemExit(f"the app did not show its window (exit {proc.returncode}):\n{err[-3000:]}")
    return elapsed, json.loads(line[6:]), err


def slowest_imports(stderr: str, top: int = 15) -> list[tuple[int, str]]:
    """(cumulative µs, module) of the top-level imports that cost most, from -X importtime."""
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cumulative, name = (p.strip() for p in line[len("import time:"):].split("|", 2))
        if not name.startswith(" "):  # top level only: what the GUI itself imports
            rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:top]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--language", default="", help="LANGUAGE for the child (e.g. ar); default: the system's")
    parser.add_argument("--importtime", action="store_true", help="also print the slowest imports (one extra run)")
    args = parser.parse_args(argv)

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    if args.language:
        env["LANGUAGE"] = args.language
    one_run(env)  # warm the OS file cache (.pyc, Qt plugins): we measure the app, not the disk
    times, info = [], {}
    for _ in range(args.runs):
        elapsed, info, _err = one_run(env)
        times.append(elapsed)
    med, best = statistics.median(times), min(times)
    print(f"startup to first window ({args.runs} runs, offscreen, {os.cpu_count()} CPUs): "
          f"median {med:.3f} s, min {best:.3f} s, max {max(times):.3f} s "
          f"(inside Python: {info['in_process_s']:.3f} s; {info['modules']} modules; UI language {info['language']})")
    print("at first window: " + ", ".join(f"{k} {'LOADED' if v else 'not loaded'}" for k, v in info["loaded"].items()))
    if args.importtime:
        _t, _i, err = one_run(env, importtime=True)
        print("slowest top-level imports (cumulative):")
        for us, name in slowest_imports(err):
            print(f"  {us / 1000:8.1f} ms  {name}")
    heavy = [m for m in MUST_BE_LAZY if info["loaded"].get(m)]
    status = 0
    if heavy:
        print(f"FAIL: {', '.join(heavy)} imported before the first window (must load lazily)")
        status = 1
    if not info["visible"]:
        print("FAIL: the window was not visible")
        status = 1
    print(f"{'OK' if med < TARGET_S else 'SLOW'}: median {med:.3f} s against a target of {TARGET_S:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
