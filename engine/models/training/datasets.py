"""Readers for task data: SemEval-2018 Task 1 EI-reg / V-reg files and a generic CSV.

Why strict readers: the SemEval files are TSV with CRLF line ends, a BOM on some English
test-gold files and tweets full of quotes — a generic CSV parser would split or merge
rows silently. Every row is checked (4 fields, score a number in [0, 1], one affect
dimension per file) and any problem names the file, line and field.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.models.errors import ModelError
from engine.models.fingerprint import file_sha256

SEMEVAL_HEADER = ["ID", "Tweet", "Affect Dimension", "Intensity Score"]
SEMEVAL_LANGUAGES = {"en": "En", "es": "Es", "ar": "Ar"}
EI_EMOTIONS = ("anger", "fear", "joy", "sadness")
SPLITS = ("train", "dev", "test-gold")


@dataclass
class LabeledData:
    """Texts with one label each, plus where they came from (for the manifest)."""

    texts: list[str]
    labels: list[Any]
    dimension: str
    source: str
    ids: list[str] = field(default_factory=list)
    sha256: str = ""

    def __len__(self) -> int:
        return len(self.texts)

    def numeric_labels(self) -> Any:
        import numpy as np

        try:
            return np.asarray([float(x) for x in self.labels], dtype=np.float64)
        except ValueError:
            raise ModelError(self.source, "labels are not numbers", field="label",
                             fix="regression systems need numeric labels; use --system classifier for classes") from None

    def record(self, role: str) -> dict[str, Any]:
        return {"role": role, "dimension": self.dimension, "path": self.source, "sha256": self.sha256, "rows": len(self)}

    def concat(self, other: "LabeledData") -> "LabeledData":
        return LabeledData(self.texts + other.texts, self.labels + other.labels, self.dimension,
                           f"{self.source}+{other.source}", self.ids + other.ids, "")


def _decode(path: Path) -> str:
    if not path.is_file():
        raise ModelError(str(path), "file not found", fix="check the path (SemEval files are named like 2018-EI-reg-En-anger-train.txt)")
    try:
        return path.read_bytes().decode("utf-8-sig")  # strips the BOM when present
    except UnicodeDecodeError as exc:
        raise ModelError(str(path), f"not UTF-8 (byte {exc.start})", fix="save the file as UTF-8") from None


def read_semeval(path: str | Path, *, dimension: str | None = None) -> LabeledData:
    """Read an EI-reg or V-reg file (`ID, Tweet, Affect Dimension, Intensity Score`)."""
    path = Path(path)
    name = str(path)
    lines = _decode(path).split("\n")
    header = lines[0].rstrip("\r").split("\t")
    if header != SEMEVAL_HEADER:
        raise ModelError(name, f"unexpected header {header!r}", line=1, field="header",
                         fix="expected the tab-separated header: " + "\\t".join(SEMEVAL_HEADER))
    texts, labels, ids = [], [], []
    dims: set[str] = set()
    for n, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != 4:
            raise ModelError(name, f"{len(cells)} tab-separated fields instead of 4", line=n,
                             fix="each row is ID<TAB>Tweet<TAB>Affect Dimension<TAB>Intensity Score")
        rid, tweet, dim, score = cells
        try:
            value = float(score)
        except ValueError:
            raise ModelError(name, f"intensity {score!r} is not a number", line=n, field="Intensity Score") from None
        if not 0.0 <= value <= 1.0:
            raise ModelError(name, f"intensity {value} outside [0, 1]", line=n, field="Intensity Score")
        dims.add(dim.strip())
        texts.append(tweet)
        labels.append(value)
        ids.append(rid.strip())
    if not texts:
        raise ModelError(name, "no data rows", fix="the file has only a header")
    if len(dims) != 1:
        raise ModelError(name, f"several affect dimensions in one file: {sorted(dims)}", field="Affect Dimension",
                         fix="SemEval files hold one dimension each; split the file")
    found = dims.pop()
    if dimension is not None and found != dimension:
        raise ModelError(name, f"file is for '{found}', expected '{dimension}'", field="Affect Dimension")
    return LabeledData(texts, labels, found, name, ids, file_sha256(path))


def read_labeled_csv(path: str | Path, *, text_column: str = "text", label_column: str = "label",
                     dimension: str | None = None) -> LabeledData:
    """Generic labelled data: CSV (TSV for .tsv) with a header naming the text and label columns."""
    path = Path(path)
    name = str(path)
    text = _decode(path)
    delim = "\t" if path.suffix.lower() == ".tsv" else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    try:
        header = next(reader)
    except StopIteration:
        raise ModelError(name, "file is empty") from None
    lower = [h.strip().lower() for h in header]
    cols = {}
    for role, want in (("text", text_column), ("label", label_column)):
        if want.lower() not in lower:
            raise ModelError(name, f"no column '{want}'", line=1, field=want,
                             fix=f"header is {header!r}; pass --text-column/--label-column")
        cols[role] = lower.index(want.lower())
    texts, labels = [], []
    for cells in reader:
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise ModelError(name, f"{len(cells)} fields, header has {len(header)}", line=reader.line_num,
                             fix="quote texts that contain the delimiter")
        label = cells[cols["label"]].strip()
        if label == "":
            raise ModelError(name, "empty label", line=reader.line_num, field=label_column)
        texts.append(cells[cols["text"]])
        labels.append(label)
    if not texts:
        raise ModelError(name, "no data rows")
    return LabeledData(texts, labels, dimension or label_column, name, [], file_sha256(path))


def semeval_file(folder: str | Path, language: str, dimension: str, split: str) -> Path:
    """Official file name: 2018-EI-reg-En-anger-train.txt / 2018-Valence-reg-En-test-gold.txt."""
    lang = SEMEVAL_LANGUAGES.get(language.lower())
    if lang is None:
        raise ModelError(str(folder), f"no SemEval-2018 data for language '{language}'", field="language",
                         fix=f"use one of {', '.join(SEMEVAL_LANGUAGES)}")
    if split not in SPLITS:
        raise ModelError(str(folder), f"unknown split '{split}'", field="split", fix=f"use one of {', '.join(SPLITS)}")
    if dimension == "valence":
        return Path(folder) / f"2018-Valence-reg-{lang}-{split}.txt"
    if dimension not in EI_EMOTIONS:
        raise ModelError(str(folder), f"unknown SemEval dimension '{dimension}'", field="emotion",
                         fix=f"use {', '.join(EI_EMOTIONS)} or valence")
    return Path(folder) / f"2018-EI-reg-{lang}-{dimension}-{split}.txt"


@dataclass
class TaskSplits:
    """One dimension's train / dev / test data."""

    dimension: str
    train: LabeledData
    dev: LabeledData | None = None
    test: LabeledData | None = None


def load_semeval_task(folder: str | Path, language: str, dimension: str) -> TaskSplits:
    """Train, dev (if present) and test-gold (if present) for one language × dimension."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ModelError(str(folder), "SemEval data folder not found", fix="pass --data DIR")
    train = read_semeval(semeval_file(folder, language, dimension, "train"), dimension=dimension)
    parts = {}
    for split in ("dev", "test-gold"):
        p = semeval_file(folder, language, dimension, split)
        parts[split] = read_semeval(p, dimension=dimension) if p.exists() else None
    return TaskSplits(dimension, train, parts["dev"], parts["test-gold"])
