"""The translation-memory store at scale: import a large TMX, then one pair, then suggestions.

    .venv/bin/python bench/bench_tmx_store.py [--units 300000]

Issue 40 measured, with the old store (one imported.tmx read and written whole): a 50 MB TMX of
300,000 units imported in 158 s at 1.9 GB, one more pair afterwards 162 s, the workbench's
suggestions 36 s. The goal: under 20 s for the big file, under 1 s for one pair, bounded memory.
Each step runs in a fresh child process (so its peak memory is its own) with EEC_STUDIO_HOME in a
temporary folder; printed: wall seconds of the step, with the child's start-up, the child's CPU
seconds (user + system: what the step costs on a loaded machine) and its peak memory (ru_maxrss).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STEP = {
    "import": "from engine.exchange.tmx_format import import_tmx; r = import_tmx(sys.argv[1]); print(r.added, r.skipped)",
    "suggest": ("from engine.corpus.translate.memory import TranslationMemory; tm = TranslationMemory.for_language('es');"
                "import time; t = time.perf_counter(); s = tm.suggest('emotion_words', 'furious word 123'); "
                "print(len(s), round(time.perf_counter() - t, 3))"),
}


def write_tmx(path: Path, units: int) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
                 '<header creationtool="bench" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" '
                 'srclang="en" datatype="plaintext"/>\n<body>\n')
        for i in range(units):
            fh.write(f'<tu tuid="{i}">\n <tuv xml:lang="en"><seg>Source sentence {i} feels furious {i % 977}.</seg>'
                     f'</tuv>\n <tuv xml:lang="es"><seg>La frase {i} se siente furiosa {i % 977}.</seg></tuv>\n</tu>\n')
        fh.write("</body>\n</tmx>\n")


def run(step: str, *args: str, home: Path) -> tuple[float, float, float, str]:
    code = ("import resource, sys, time\nsys.path.insert(0, %r)\nt = time.perf_counter()\n%s\n"
            "u = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print('TIME', time.perf_counter() - t, 'RSS', u.ru_maxrss, 'CPU', u.ru_utime + u.ru_stime)"
            % (str(ROOT), STEP[step]))
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "EEC_STUDIO_HOME": str(home)}, check=True).stdout.split()
    i = out.index("TIME")
    return float(out[i + 1]), int(out[i + 3]) / 1024, float(out[i + 5]), " ".join(out[:i])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=300_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        big, one = tmp / "big.tmx", tmp / "one.tmx"
        write_tmx(big, args.units)
        write_tmx(one, 1)
        one.write_text(one.read_text(encoding="utf-8").replace("sentence 0 ", "sentence -1 "), encoding="utf-8")
        print(f"TMX: {args.units:,} units, {big.stat().st_size / 2**20:.1f} MiB")
        for label, step, extra in (("import the big file", "import", [str(big)]),
                                   ("import one more pair", "import", [str(one)]),
                                   ("suggestions (load + one query)", "suggest", [])):
            start = time.perf_counter()
            secs, rss, cpu, said = run(step, *extra, home=tmp / "home")
            print(f"{label:32} {secs:7.2f} s in the step ({time.perf_counter() - start:6.2f} s with start-up; "
                  f"{cpu:6.2f} s CPU in all), peak {rss:5.0f} MiB  [{said}]")


if __name__ == "__main__":
    main()
