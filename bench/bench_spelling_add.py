"""`corpus spelling-add` with many words at once: time per size, to see that it grows linearly.

    .venv/bin/python bench/bench_spelling_add.py [--sizes 10000,20000,40000,100000]

Issue 40 measured 140 s for 100,000 words (a list searched for every word: quadratic) and an
800 KB output line. Each size runs once on a fresh copy of the small test corpus, in this process
(main.main), and prints words, seconds, microseconds per word and the length of the line printed.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import main  # noqa: E402
from testkit.audit_fixtures import write_mini_corpus  # noqa: E402


def words(n: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        w, k = "", i
        for _ in range(4):
            w, k = w + letters[k % 26], k // 26
        out.append("Wort" + w)
    return out


def run(n: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        path = write_mini_corpus(Path(tmp) / "c")
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out):
            assert main.main(["corpus", "spelling-add", str(path), *words(n)]) == 0
        return time.perf_counter() - start, len(out.getvalue())


def cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,20000,40000,100000")
    args = ap.parse_args()
    print(f"{'words':>8} {'seconds':>8} {'µs/word':>8} {'output chars':>13}")
    for n in (int(x) for x in args.sizes.split(",")):
        secs, chars = run(n)
        print(f"{n:>8,} {secs:>8.2f} {1e6 * secs / n:>8.1f} {chars:>13,}")


if __name__ == "__main__":
    cli()
