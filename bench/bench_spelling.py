"""Spelling readers compared (issue 38 item 6; not part of the test suite).

    .venv/bin/python bench/bench_spelling.py [--tags de_DE es_ES ...] [--readers hunspell spylls enchant]

For each dictionary that comes with EEC Studio (resources/spelling), on the distinct words of the
built-in corpora of its language (a fixed sample where the tree has none): the time to load it and
the words checked per second by

* ``hunspell`` — Hunspell 1.7's C library inside the chunspell wheel, on the bundled files;
* ``spylls``   — Hunspell's pure-Python port, on the same files;
* ``enchant``  — pyenchant with the system's Hunspell dictionaries (where libenchant and a
  dictionary for the tag are installed; Debian's hunspell-* packages are other releases of the
  same LibreOffice dictionaries).

and how many words each reader judges as the bundled Hunspell does (agreement). The engine uses
``hunspell`` where its wheel exists and ``spylls`` elsewhere: the two must agree on every word.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.corpus import builtin_names, load_corpus  # noqa: E402
from engine.corpus.check.spelling import WORD, BundledDictionary, bundled_tags  # noqa: E402

SAMPLE = {  # languages without a built-in corpus in this tree: one sentence per template family
    "fr": "Mon frère se sent furieux. La situation a rendu ma sœur triste. La conversation était sérieuse et effrayante.",
    "it": "Mio fratello si sente arrabbiato. La situazione ha reso mia sorella triste. La conversazione era seria.",
    "pt": "O meu irmão sente-se zangado. A situação deixou a minha irmã triste. A conversa foi séria e assustadora.",
}


def corpus_words(lang: str) -> list[str]:
    words: set[str] = set()
    for name in builtin_names():
        c = load_corpus(name)
        if c.language.split("-")[0] != lang:
            continue
        from engine.corpus.generate.generator import generate

        for sentence in generate(c).Sentence:
            words.update(WORD.findall(sentence))
    if not words:
        words.update(WORD.findall(SAMPLE.get(lang, "")))
    return sorted(words)


def _enchant(tag: str):
    import enchant

    if not enchant.dict_exists(tag):
        raise LookupError(f"no system {tag} dictionary")
    return enchant.Dict(tag)


def measure(tag: str, reader: str, words: list[str], reference: dict[str, bool] | None):
    t0 = time.perf_counter()
    try:
        d = _enchant(tag) if reader == "enchant" else BundledDictionary(tag, reader)
    except Exception as exc:  # a reader missing on this host: said, not fatal
        return None, f"{reader}: not available ({type(exc).__name__}: {str(exc).splitlines()[0][:80]})"
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    verdicts = {}
    for w in words:
        try:
            verdicts[w] = bool(d.check(w))
        except UnicodeError:
            verdicts[w] = False
    rate = len(words) / max(time.perf_counter() - t0, 1e-9)
    agree = "" if reference is None else f", agrees with bundled Hunspell on {sum(verdicts[w] == reference[w] for w in words)}/{len(words)}"
    unknown = sum(not v for v in verdicts.values())
    return verdicts, f"{reader:8s} load {load:6.2f} s, {rate:9,.0f} words/s, {unknown} unknown{agree}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tags", nargs="*", default=bundled_tags())
    ap.add_argument("--readers", nargs="*", default=["hunspell", "spylls", "enchant"])
    args = ap.parse_args(argv)
    print(f"bundled dictionaries: {', '.join(bundled_tags())}")
    for tag in args.tags:
        words = corpus_words(tag.split("_")[0])
        print(f"\n{tag}: {len(words)} distinct words")
        reference = None
        for reader in args.readers:
            verdicts, line = measure(tag, reader, words, reference)
            if reader == "hunspell" and verdicts is not None:
                reference = verdicts
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
