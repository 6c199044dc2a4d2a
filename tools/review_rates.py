"""Write the measured review rates of every built-in corpus into docs/corpus-review.md.

Why generated: the page must show what the records say, not what someone remembered. Run after a
review is imported: ``.venv/bin/python tools/review_rates.py`` (``--check`` exits 1 when the page is
out of date; a test runs that).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.corpus import builtin_names, load_corpus  # noqa: E402
from engine.corpus.translate.review_record import load_records, review_status  # noqa: E402

PAGE = ROOT / "docs" / "corpus-review.md"
BLOCKS = {"rates": ("<!-- rates -->", "<!-- /rates -->"), "history": ("<!-- history -->", "<!-- /history -->")}


def tables() -> dict[str, str]:
    rates = ["| corpus | reviewed (pairs; items = pairs and single sentences) | errors | 95 % interval | label errors (95 % interval) | awkward | error classes | seed | text changed since |",
             "|---|---|---|---|---|---|---|---|---|"]
    history = ["| corpus | seed | date | errors | 95 % interval | awkward |", "|---|---|---|---|---|---|"]
    for name in builtin_names():
        c = load_corpus(name)
        st = review_status(c)
        rec = st.record
        if rec is None:
            rates.append(f"| `{name}` | {st.text()} | | | | | | | |")
            continue
        classes = ", ".join(f"{k} {v}" for k, v in sorted(rec.error_classes().items())) or "–"
        labels = rec.label_text() if rec.labels_shown else "not shown to the reviewer"
        rates.append(f"| `{name}` | {rec.n} of {rec.population:,} {rec.unit} | {rec.errors} | {rec.interval_text()} | "
                     f"{labels} | {rec.awkward} | {classes} | {rec.seed} | {st.stale or '–'} |")
        for old in load_records(c)[:-1]:
            history.append(f"| `{name}` | {old.seed} | {old.date} | {old.errors}/{old.n} | {old.interval_text()} | {old.awkward} |")
    return {"rates": "\n".join(rates), "history": "\n".join(history)}


def render(text: str) -> str:
    for key, body in tables().items():
        start, end = BLOCKS[key]
        block = f"{start}\n{body}\n{end}"
        if start in text:
            text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _m: block, text, flags=re.S)
        else:
            text = text.replace(f"{key.upper()}_TABLE", block)
    return text


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = render(text)
    if "--check" in argv:
        if new != text:
            print(f"{PAGE} is out of date: run tools/review_rates.py")
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    print(f"{PAGE}: rates of {len(builtin_names())} corpora")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
