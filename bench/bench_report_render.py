"""Render an audit report with headless Chromium to PNG, to look at it (and time it).

    .venv/bin/python bench/bench_report_render.py                  # small real audit -> out PNG
    .venv/bin/python bench/bench_report_render.py --audit DIR --png docs/screenshots/report.png

Steps: run a small real audit (a planted-bias prediction file on en-kiritchenko2018 plus
VADER; Beta regression, paired and counterfactual statistics) unless --audit names one,
build the report, check that it names no http(s) resource, then screenshot index.html
with Debian's `chromium` (no network: background networking, component updates and sync
are off). Without chromium it tries `apt-get install -y chromium` when run as root with
--install; otherwise it says so and exits 0, since the report itself was still built.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def small_audit(work: Path) -> Path:
    import numpy as np
    import pandas as pd

    from engine.audit import AuditPlan, run_audit
    from engine.corpus import generate, load_corpus

    df = generate(load_corpus("en-kiritchenko2018"))
    rng = np.random.default_rng(7)
    score = 0.4 + 0.1 * rng.random(len(df)) + np.where(df.Gender == "female", 0.05, 0.0)
    pred = work / "system.tsv"
    pd.DataFrame({"ID": df.ID, "Sentence": df.Sentence, "anger": score, "joy": 1 - score}).to_csv(pred, sep="\t",
                                                                                                  index=False)
    out = work / "audit"
    plan = AuditPlan(["en-kiritchenko2018"], [f"predictions:{pred}?key=sentence&name=planted", "vader"],
                     stats=["beta", "paired", "counterfactual"], out_dir=out, cache_dir=work / "cache",
                     settings={"n_resamples": 200, "seed": 0})
    run_audit(plan)
    return out


def find_chromium(install: bool) -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if install and shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("chromium not found; trying `apt-get install -y chromium` …", file=sys.stderr)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, check=False)
        return shutil.which("chromium")
    return None


def screenshot(chromium: str, html: Path, png: Path, width: int, height: int) -> float:
    with tempfile.TemporaryDirectory() as profile:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={width},{height}",
               html.resolve().as_uri()]
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        seconds = time.perf_counter() - t
    if proc.returncode != 0 or not png.exists():
        raise SystemExit(f"chromium failed (exit {proc.returncode}): {proc.stderr.strip()[-400:]}")
    return seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audit", type=Path, help="an existing audit folder (default: run a small one)")
    ap.add_argument("--png", type=Path, default=ROOT / "docs" / "screenshots" / "report.png")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=2000)
    ap.add_argument("--install", action="store_true", help="apt-get install chromium when it is missing (root)")
    args = ap.parse_args()

    from engine.report import build_report

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        t = time.perf_counter()
        audit = args.audit or small_audit(work)
        t_audit = time.perf_counter() - t
        t = time.perf_counter()
        html = build_report(audit, work / "report")
        t_report = time.perf_counter() - t
        text = html.read_text(encoding="utf-8")
        remote = re.findall(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import""",
                            text, re.I)
        print(f"audit {t_audit:.1f} s, report {t_report:.2f} s, {len(text):,} bytes of HTML, "
              f"{text.count('<svg')} charts, {text.count('<table')} tables, remote references: {len(remote)}")
        if remote:
            print(f"FAIL: the report references remote resources: {remote[:3]}")
            return 1
        chromium = find_chromium(args.install)
        if chromium is None:
            print("chromium is not installed (Debian: apt-get install -y chromium, or pass --install as root); "
                  "skipping the screenshot")
            return 0
        args.png.parent.mkdir(parents=True, exist_ok=True)
        seconds = screenshot(chromium, html, args.png, args.width, args.height)
        print(f"screenshot {args.png} ({args.width}x{args.height}) in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
