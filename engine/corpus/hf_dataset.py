"""Export a corpus as a Hugging Face dataset folder: parquet files + a dataset card.

    export_hf_dataset("fr-my-eec", "out/fr-my-eec")      # then, anywhere:
    datasets.load_dataset("parquet", data_dir="out/fr-my-eec")   # -> DatasetDict(test=…)

Why this layout: the Hub and ``load_dataset`` find splits by file name
(``data/test-00000-of-00001.parquet`` is the *test* split: an EEC is an evaluation corpus),
and read the card's YAML header for the language, licence, task and size. The card's body is
the corpus datasheet (``engine.package.datasheet``), so a dataset on the Hub says exactly
what a .eecpkg package says. Counterfactual pairs, when the corpus has them, are a second
configuration (``pairs/pairs-00000-of-00001.parquet``): their file name names no split, so
``load_dataset("parquet", data_dir=…)`` reads the sentences only and never mixes the two
tables. The folder is written next to its destination and renamed into place, so a failure
leaves no half dataset.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .checker import check_corpus
from .compiled import CompiledCorpus
from engine.common.io import atomic_write_bytes

from .export import to_bytes
from .generator import generate
from .language_presets import base_language
from .model import CorpusDefinition

SENTENCES_FILE = "data/test-00000-of-00001.parquet"
PAIRS_FILE = "pairs/pairs-00000-of-00001.parquet"
_LICENCES = {"cc-by-4.0": r"cc[- ]by[- ]4\.0", "cc-by-sa-4.0": r"cc[- ]by[- ]sa[- ]4\.0", "cc0-1.0": r"cc0",
             "mit": r"\bmit\b", "apache-2.0": r"apache", "cc-by-nc-4.0": r"cc[- ]by[- ]nc[- ]4\.0"}


@dataclass
class HFExport:
    path: Path
    rows: int
    pairs: int


def size_category(n: int) -> str:
    """The Hub's size_categories bucket for ``n`` rows."""
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")):
        if n < limit:
            return label
    return "10M<n<100M"


def hub_licence(text: str) -> str:
    """A Hub licence id when the definition's licence names one, else ``other`` (details in the card)."""
    low = text.lower()
    for hub_id, rx in _LICENCES.items():
        if re.search(rx, low):
            return hub_id
    return "other"


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def dataset_card(corpus: CorpusDefinition, rows: int, pairs: int, datasheet_md: str) -> str:
    """README.md with the YAML header the Hub reads, then the datasheet."""
    lic = hub_licence(corpus.licence)
    head = ["---", f"language:\n- {base_language(corpus.language)}", f"license: {lic}"]
    if lic == "other":
        head.append(f"license_name: {_yaml_str(corpus.licence or 'not stated')}")
    head += [f"pretty_name: {_yaml_str(corpus.name)}",
             "task_categories:\n- text-classification",
             "task_ids:\n- sentiment-classification",
             f"size_categories:\n- {size_category(rows)}",
             "tags:\n- bias\n- fairness\n- equity-evaluation-corpus",
             "configs:",
             "- config_name: default",
             "  default: true",
             "  data_files:",
             "  - split: test",
             f"    path: {SENTENCES_FILE}"]
    if pairs:
        head += ["- config_name: pairs", "  data_files:", "  - split: test", f"    path: {PAIRS_FILE}"]
    head.append("---")
    usage = ("## Loading\n\n```python\nfrom datasets import load_dataset\n"
             'ds = load_dataset("parquet", data_dir="PATH/TO/THIS/FOLDER")   # or the Hub id\n'
             "```\n\n"
             f"{rows:,} sentences in the `test` split" + (f"; {pairs:,} counterfactual pairs in the `pairs` "
                                                           "configuration" if pairs else "") + ".\n")
    return "\n".join(head) + "\n\n" + datasheet_md.rstrip() + "\n\n" + usage


def export_hf_dataset(corpus: CorpusDefinition | str | os.PathLike, out: str | os.PathLike, *,
                      overwrite: bool = False) -> HFExport:
    """Write the dataset folder ``out`` (refuses to replace an existing one unless ``overwrite``)."""
    from engine.package.datasheet import build_datasheet
    from engine.package.errors import PackageError

    from .pairs import generate_pairs
    from .registry import load_corpus

    c = corpus if isinstance(corpus, CorpusDefinition) else load_corpus(corpus)
    out = Path(out)
    if (out.exists() or out.is_symlink()) and not overwrite:
        raise PackageError(str(out), "already exists; nothing was changed",
                           fix="pass --overwrite to replace it, or choose another folder")
    cc = CompiledCorpus(c)
    report = check_corpus(c, cc)
    df = generate(c, cc)
    pairs = generate_pairs(c, cc)
    pairs = pairs if len(pairs) else None  # no pairs declared: no pairs configuration
    n_pairs = 0 if pairs is None else len(pairs)
    card = dataset_card(c, len(df), n_pairs, build_datasheet(c, report, pairs=None if pairs is None else n_pairs).to_markdown())
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        atomic_write_bytes(tmp / SENTENCES_FILE, to_bytes(df, "parquet"))
        if n_pairs:
            atomic_write_bytes(tmp / PAIRS_FILE, to_bytes(pairs, "parquet"))
        atomic_write_bytes(tmp / "README.md", card.encode("utf-8"))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o777 & ~mask)  # mkdtemp makes it private; a dataset folder is not
        if out.exists() or out.is_symlink():
            if out.is_dir() and not out.is_symlink():
                shutil.rmtree(out)
            else:
                out.unlink()
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return HFExport(out, len(df), n_pairs)
