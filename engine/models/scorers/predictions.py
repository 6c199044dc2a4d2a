"""Scores from a prediction file: a black-box system's outputs, keyed by sentence or by id.

This is how Kiritchenko & Mohammad audited 219 shared-task submissions: the systems ran
elsewhere and only their predictions came back. Why a report: a prediction file that
misses sentences, repeats a key or carries keys for another corpus silently biases an
audit, so every mismatch is counted and listed (`report`), and missing or conflicting
keys are errors unless the caller opts out.

Accepted layouts (UTF-8 with or without BOM):
* wide: a key column (`Sentence`/`Text`/`Tweet` or `ID`) plus one numeric column per dimension;
* long (SemEval submission format): key column(s), `Affect Dimension`, `Intensity Score`.
`.txt` files are split on tabs with no quoting (SemEval style: tweets hold raw quotes);
`.tsv` and `.csv` follow the usual CSV quoting rules (as pandas and spreadsheets write them).
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from engine.models.base import ProgressTracker, check_cancel, make_frame, stable_hash
from engine.models.errors import ModelError
from engine.models.fingerprint import file_sha256

SENTENCE_COLUMNS = ("Sentence", "sentence", "Text", "text", "Tweet", "tweet")
ID_COLUMNS = ("ID", "Id", "id")
DIMENSION_COLUMNS = ("Affect Dimension", "affect dimension", "dimension", "Dimension", "emotion", "Emotion")
VALUE_COLUMNS = ("Intensity Score", "intensity score", "score", "Score", "value", "Value")
_SPACE = re.compile(r"\s+")
MAX_LISTED = 10


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


@dataclass
class MatchReport:
    """How a prediction file's keys matched the texts asked for."""

    file: str
    key: str
    rows: int = 0
    keys: int = 0
    duplicates: list[str] = field(default_factory=list)  # keys on more than one row
    conflicting: list[str] = field(default_factory=list)  # duplicates whose scores differ
    missing: list[str] = field(default_factory=list)  # asked for, not in the file
    unmatched: list[str] = field(default_factory=list)  # in the file, never asked for
    normalised_matches: int = 0  # matched only after collapsing whitespace

    @property
    def ok(self) -> bool:
        return not self.missing and not self.conflicting

    def summary(self) -> str:
        def few(items: list[str]) -> str:
            shown = "; ".join(repr(x) for x in items[:3])
            return shown + (" …" if len(items) > 3 else "")

        parts = [f"{self.file}: {self.rows} rows, {self.keys} distinct {self.key} keys"]
        if self.duplicates:
            parts.append(f"{len(self.duplicates)} duplicate keys ({few(self.duplicates)})")
        if self.conflicting:
            parts.append(f"{len(self.conflicting)} with conflicting scores ({few(self.conflicting)})")
        if self.missing:
            parts.append(f"{len(self.missing)} requested keys missing ({few(self.missing)})")
        if self.unmatched:
            parts.append(f"{len(self.unmatched)} file keys not in the corpus ({few(self.unmatched)})")
        if self.normalised_matches:
            parts.append(f"{self.normalised_matches} matched after whitespace normalisation")
        return "; ".join(parts)


class PredictionFileScorer:
    """Look up each text's scores in a prediction file.

    key: "sentence", "id" or "auto" (id when `ids` is given and the file has an ID column,
    else sentence). `ids` maps each corpus sentence to its corpus ID (needed for "id").
    on_missing: "error" (default) or "nan"; on_duplicate: "error" for conflicting
    duplicates (default) or "first". scale: (low, high) of every score column (e.g. (1, 5) for
    stars), used by statistics instead of the observed range; languages: what the system reads.
    """

    @property
    def scales(self) -> dict[str, tuple[float, float]]:
        return {d: self._scale for d in self.dimensions} if self._scale is not None else {}

    def __init__(self, path: str | Path, *, key: str = "auto", ids: Mapping[str, str] | None = None,
                 columns: list[str] | None = None, on_missing: str = "error", on_duplicate: str = "error",
                 name: str | None = None, scale: tuple[float, float] | None = None,
                 languages: tuple[str, ...] | list[str] | str = ()):
        self.path = Path(path)
        if scale is not None and not (len(scale) == 2 and float(scale[1]) > float(scale[0])):
            raise ModelError(str(path), f"scale must be (low, high) with high > low, got {scale!r}", field="scale")
        self._scale = None if scale is None else (float(scale[0]), float(scale[1]))
        self.languages = (languages,) if isinstance(languages, str) and languages else tuple(languages or ())
        self.name = name or self.path.stem
        if key not in ("auto", "sentence", "id"):
            raise ModelError(str(path), f"unknown key '{key}'", field="key", fix="use sentence, id or auto")
        if on_missing not in ("error", "nan") or on_duplicate not in ("error", "first"):
            raise ModelError(str(path), "on_missing must be error|nan and on_duplicate error|first")
        self.ids = dict(ids) if ids is not None else None
        self.on_missing = on_missing
        self.on_duplicate = on_duplicate
        self.batch_size = 4096
        self._asked: set[str] = set()
        self._read(key, columns)

    # -- reading ------------------------------------------------------------------------------
    def _read(self, key: str, columns: list[str] | None) -> None:
        import math

        rows, header = _read_table(self.path)
        where = str(self.path)
        key_col = None
        if key in ("auto", "id") and (self.ids is not None or key == "id"):
            key_col = next((c for c in ID_COLUMNS if c in header), None)
            if key == "id" and key_col is None:
                raise ModelError(where, "no ID column", field="ID", fix="add an ID column or use key=sentence")
            if key == "id" and self.ids is None:
                raise ModelError(where, "keying by id needs the corpus IDs of the sentences", field="ID",
                                 fix="pass ids={sentence: id} (the runner does this from the corpus table)")
        if key_col is None:
            key_col = next((c for c in SENTENCE_COLUMNS if c in header), None)
            if key_col is None:
                raise ModelError(where, f"no sentence column (looked for {', '.join(SENTENCE_COLUMNS)})",
                                 field="header", fix="name the text column 'Sentence', or key by ID")
        self.key = "id" if key_col in ID_COLUMNS else "sentence"
        self.key_column = key_col
        dim_col = next((c for c in DIMENSION_COLUMNS if c in header), None)
        val_col = next((c for c in VALUE_COLUMNS if c in header), None)
        long = dim_col is not None and val_col is not None and not columns
        values: dict[str, dict[str, float]] = {}
        order: list[str] = []
        seen: dict[tuple[str, str], float] = {}
        dup: dict[str, None] = {}
        conflict: dict[str, None] = {}

        def number(raw: str, line: int, col: str) -> float:
            try:
                v = float(raw)
            except ValueError:
                raise ModelError(where, f"not a number: {raw!r}", field=col, line=line,
                                 fix="scores must be numbers (use NaN for none)") from None
            return v

        if long:
            dims: list[str] = []
            for line, row in rows:
                dim = row[dim_col].strip()
                if dim not in dims:
                    dims.append(dim)
        else:
            skip = set(SENTENCE_COLUMNS) | set(ID_COLUMNS) | set(DIMENSION_COLUMNS) | {key_col}
            if columns:
                missing = [c for c in columns if c not in header]
                if missing:
                    raise ModelError(where, f"no column {missing[0]!r}", field=missing[0],
                                     fix=f"columns are: {', '.join(header)}")
                dims = list(columns)
            else:
                dims = [c for c in header if c not in skip and _numeric_column(rows, c)]
            if not dims:
                raise ModelError(where, "no numeric score column", field="header",
                                 fix="add one numeric column per dimension, or Affect Dimension + Intensity Score")
        for line, row in rows:
            k = row[key_col].strip() if self.key == "id" else row[key_col]
            pairs = [(row[dim_col].strip(), number(row[val_col], line, val_col))] if long else \
                [(d, number(row[d], line, d)) for d in dims]
            if k not in values:
                values[k] = {}
                order.append(k)
            for d, v in pairs:
                if (k, d) in seen:
                    dup[k] = None
                    old = seen[(k, d)]
                    if not (old == v or (math.isnan(old) and math.isnan(v))):
                        conflict[k] = None
                    continue
                seen[(k, d)] = v
                values[k][d] = v
        self.dimensions = dims
        self._values = values
        self._norm_index: dict[str, str] = {}
        if self.key == "sentence":
            for k in order:
                self._norm_index.setdefault(_norm(k), k)
        self.report = MatchReport(str(self.path), self.key, rows=len(rows), keys=len(values),
                                  duplicates=list(dup), conflicting=list(conflict))
        if conflict and self.on_duplicate == "error":
            raise ModelError(where, f"{len(conflict)} keys appear more than once with different scores "
                             f"(e.g. {next(iter(conflict))!r})", field=key_col,
                             fix="remove the duplicates, or pass on_duplicate='first' to keep the first row")

    # -- scoring ------------------------------------------------------------------------------
    def fingerprint(self) -> str:
        ids = sorted(self.ids.items()) if (self.ids is not None and self.key == "id") else None
        return stable_hash("predictions/1", file_sha256(self.path), self.key, self.key_column, self.dimensions, ids)

    def _lookup(self, text: str) -> dict[str, float] | None:
        if self.key == "id":
            k = self.ids.get(text)
            if k is None:
                return None
            self._asked.add(k)
            return self._values.get(str(k).strip())
        self._asked.add(text)
        hit = self._values.get(text)
        if hit is None:
            k = self._norm_index.get(_norm(text))
            if k is not None:
                self._asked.add(k)
                self.report.normalised_matches += 1
                return self._values[k]
        return hit

    def check(self, texts: list[str]) -> MatchReport:
        """Match every text now (no scoring) and fill `report.missing` / `report.unmatched`."""
        self._asked = set()
        self.report.normalised_matches = 0
        missing = [t for t in dict.fromkeys(texts) if self._lookup(t) is None]
        self.report.missing = missing
        self.report.unmatched = [k for k in self._values if k not in self._asked]
        return self.report

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        texts = list(texts)
        tracker = ProgressTracker(len(texts), progress)
        check_cancel(cancel, 0, len(texts))
        out, missing = [], []
        for t in texts:
            hit = self._lookup(t)
            if hit is None:
                missing.append(t)
                out.append([float("nan")] * len(self.dimensions))
            else:
                out.append([hit.get(d, float("nan")) for d in self.dimensions])
        for m in missing:
            if m not in self.report.missing:
                self.report.missing.append(m)
        self.report.unmatched = [k for k in self._values if k not in self._asked]
        if missing and self.on_missing == "error":
            raise ModelError(str(self.path), f"{len(missing)} of {len(texts)} sentences have no prediction "
                             f"(e.g. {missing[0]!r})", field=self.key_column,
                             fix="check that the file was made for this corpus, or pass on_missing='nan'")
        tracker.advance(len(texts))
        return make_frame(out, self.dimensions)

    def describe(self) -> dict[str, Any]:
        return {"kind": "predictions", "name": self.name, "path": str(self.path), "fingerprint": self.fingerprint(),
                "key": self.key, "key_column": self.key_column, "report": self.report.summary()}


def _read_table(path: Path) -> tuple[list[tuple[int, dict[str, str]]], list[str]]:
    """Rows as (line number, {column: text}); TSV for .tsv/.txt (no quoting), else CSV."""
    if not path.is_file():
        raise ModelError(str(path), "prediction file not found", fix="check the path")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ModelError(str(path), f"not UTF-8 (byte {exc.start})", fix="save the file as UTF-8") from None
    lines = text.splitlines()
    if not lines:
        raise ModelError(str(path), "file is empty")
    suffix = path.suffix.lower()
    if suffix == ".txt":
        # SemEval-style TSV: tweets carry raw quotes, so no quoting rules at all
        header = lines[0].split("\t")
        rows = []
        for n, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            cells = line.split("\t")
            if len(cells) != len(header):
                raise ModelError(str(path), f"{len(cells)} fields, header has {len(header)}", line=n,
                                 fix="one tab-separated value per header column")
            rows.append((n, dict(zip(header, cells))))
        return rows, header
    delimiter = "\t" if suffix == ".tsv" or ("\t" in lines[0] and "," not in lines[0]) else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header = next(reader)
    rows = []
    for cells in reader:
        n = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise ModelError(str(path), f"{len(cells)} fields, header has {len(header)}", line=n,
                             fix="quote values that contain commas")
        rows.append((n, dict(zip(header, cells))))
    return rows, header


def _numeric_column(rows: list[tuple[int, dict[str, str]]], col: str) -> bool:
    for _, row in rows[:50]:
        try:
            float(row[col])
        except ValueError:
            return False
    return bool(rows)
