"""Scores from a prediction file: a black-box system's outputs, keyed by sentence or by id.

This is how Kiritchenko & Mohammad audited 219 shared-task submissions: the systems ran
elsewhere and only their predictions came back. Why strict: a prediction file that misses
sentences, repeats a key, carries keys for another corpus or has a blank cell silently
biases an audit. So every row and every cell is checked while streaming the file; every
problem names ``file:line [column]`` and the fix; missing and duplicate keys are counted
exactly and listed (first 10).

Two policies say what happens to what cannot be scored (both default to ``error``):
* ``on_missing`` — a sentence the file has no row for;
* ``on_bad`` — a cell that is empty, not a number, NaN or infinite.
``drop`` leaves the sentence out of the audit (every dimension of it is missing, so no
statistic uses it); ``keep`` keeps only that cell as missing (the other dimensions still
count). Either way the scorer's ``warnings`` say how many and which, the run manifest
carries them, and ``keeps_missing`` tells the statistics to leave missing values out with a
note instead of refusing. ``on_missing=nan`` (the old name) means ``keep``.

Accepted layouts (UTF-8 with or without BOM):
* wide: a key column (`Sentence`/`Text`/`Tweet` or `ID`) plus one numeric column per dimension
  (columns whose every cell is text, such as the corpus table's `Person`, are ignored and
  named in the report);
* long (SemEval submission format): key column(s), `Affect Dimension`, `Intensity Score`.
`.txt` files are split on tabs with no quoting (SemEval style: tweets hold raw quotes);
`.tsv` and `.csv` follow the usual CSV quoting rules (as pandas and spreadsheets write them).
The separator of a `.csv` is read from its header line (`,`, `;`, tab or `|`: the one it holds
most often), and a file not separated by commas whose score cells all use a decimal comma
(`0,75`, as a German or Spanish spreadsheet saves) is read with decimal commas; `sep=` and
`decimal=` say it outright (`predictions:FILE?sep=;&decimal=,`). A file that mixes `0.5` and
`0,75` is refused, naming the first cell of the minority mark.
`.jsonl` (one object per line) and `.parquet` are read by pandas and then checked cell by cell
like the rest (the "line" of a message is the JSON line, or the row number of a parquet file).
"""
from __future__ import annotations

import csv
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from engine.models.base import make_frame, stable_hash

from engine.common.csv_cells import unescape_cell
from engine.common.progress import ProgressTracker, check_cancel
from engine.models.errors import ModelError
from engine.models.fingerprint import file_sha256

SENTENCE_COLUMNS = ("Sentence", "sentence", "Text", "text", "Tweet", "tweet")
ID_COLUMNS = ("ID", "Id", "id")
DIMENSION_COLUMNS = ("Affect Dimension", "affect dimension", "dimension", "Dimension", "emotion", "Emotion")
VALUE_COLUMNS = ("Intensity Score", "intensity score", "score", "Score", "value", "Value")
# the corpus table's own columns (main.py corpus export): never scores
CORPUS_COLUMNS = ("Template", "Person", "Gender", "Race", "Emotion word", "template_id", "person_id", "emotion_id",
                  "variant", "axis", "group")
POLICIES = ("error", "drop", "keep")
_POLICY_ALIASES = {"nan": "keep"}
_SPACE = re.compile(r"\s+")
# a plain decimal number; Python's float() would also take '1_0' (= 10) and ' 1 ', a silent misreading
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_NAN = {"nan", "+nan", "-nan", "na", "n/a", "null", "none"}
_INF = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
MAX_LISTED = 10
MAX_FIELD = 1 << 20  # one cell of 1 MiB is already far beyond a tweet
SEPARATORS = {",": ",", ";": ";", "tab": "\t", "\t": "\t", "|": "|"}
_COMMA_NUMBER = re.compile(r"[+-]?\d+,\d+(?:[eE][+-]?\d+)?")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _few(items: list[str], n: int = MAX_LISTED) -> str:
    shown = ", ".join(repr(x) for x in items[:n])
    return shown + (f" … ({len(items)} in all)" if len(items) > n else "")


def policy(name: str, value: str, where: str) -> str:
    """A policy value ('nan' is the old name of 'keep'); anything else is refused with the choices."""
    v = _POLICY_ALIASES.get(str(value).strip().lower(), str(value).strip().lower())
    if v not in POLICIES:
        raise ModelError(where, f"{name}={value!r} is not a policy", field=name,
                         fix=f"use {name}=error (default), drop (leave the sentences out) or keep (as missing)")
    return v


@dataclass
class MatchReport:
    """How a prediction file's keys matched the texts asked for, and what was wrong in it."""

    file: str
    key: str
    rows: int = 0
    keys: int = 0
    duplicates: list[str] = field(default_factory=list)  # keys on more than one row
    conflicting: list[str] = field(default_factory=list)  # duplicates whose scores differ
    missing: list[str] = field(default_factory=list)  # asked for, not in the file
    unmatched: list[str] = field(default_factory=list)  # in the file, never asked for
    normalised_matches: int = 0  # matched only after collapsing whitespace
    bad_cells: list[str] = field(default_factory=list)  # 'line N [col]: reason' of every bad cell
    ignored_columns: list[str] = field(default_factory=list)  # text-only columns that are not scores
    warnings: list[str] = field(default_factory=list)  # what a drop/keep policy did, identical duplicates

    @property
    def ok(self) -> bool:
        return not self.missing and not self.conflicting and not self.bad_cells

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
        if self.bad_cells:
            parts.append(f"{len(self.bad_cells)} bad cells ({few(self.bad_cells)})")
        if self.ignored_columns:
            parts.append(f"text columns ignored: {', '.join(self.ignored_columns)}")
        return "; ".join(parts)


class PredictionFileScorer:
    """Look up each text's scores in a prediction file.

    key: "sentence", "id" or "auto" (id when `ids` is given and the file has an ID column,
    else sentence). `ids` maps each corpus sentence to its corpus ID (needed for "id").
    on_missing / on_bad: "error" (default), "drop" or "keep" (see the module docstring);
    on_duplicate: "error" for conflicting duplicates (default) or "first". scale: (low, high) of every
    score column (e.g. (1, 5) for stars), used by statistics instead of the observed range; languages:
    what the system reads.
    """

    @property
    def scales(self) -> dict[str, tuple[float, float]]:
        return {d: self._scale for d in self.dimensions} if self._scale is not None else {}

    def __init__(self, path: str | Path, *, key: str = "auto", ids: Mapping[str, str] | None = None,
                 columns: list[str] | None = None, on_missing: str = "error", on_bad: str = "error",
                 on_duplicate: str = "error", name: str | None = None, scale: tuple[float, float] | None = None,
                 languages: tuple[str, ...] | list[str] | str = (), sep: str | None = None,
                 decimal: str | None = None):
        self.path = Path(path)
        if scale is not None and not (len(scale) == 2 and float(scale[1]) > float(scale[0])):
            raise ModelError(str(path), f"scale must be (low, high) with high > low, got {scale!r}", field="scale")
        self._scale = None if scale is None else (float(scale[0]), float(scale[1]))
        self.languages = (languages,) if isinstance(languages, str) and languages else tuple(languages or ())
        self.name = name or self.path.stem
        where = str(path)
        if key not in ("auto", "sentence", "id"):
            raise ModelError(where, f"unknown key '{key}'", field="key", fix="use sentence, id or auto")
        self.on_missing = policy("on_missing", on_missing, where)
        self.on_bad = policy("on_bad", on_bad, where)
        if on_duplicate not in ("error", "first"):
            raise ModelError(where, f"on_duplicate={on_duplicate!r} is not a policy", field="on_duplicate",
                             fix="use on_duplicate=error (default) or first (keep the first row)")
        self.on_duplicate = on_duplicate
        if sep is not None and sep not in SEPARATORS:
            raise ModelError(where, f"sep={sep!r} is not a separator", field="sep", fix="use sep=, sep=; sep=tab or sep=|")
        if decimal is not None and decimal not in (".", ","):
            raise ModelError(where, f"decimal={decimal!r} is not a decimal mark", field="decimal",
                             fix="use decimal=. (0.75) or decimal=, (0,75)")
        self.sep = SEPARATORS[sep] if sep is not None else None
        self.decimal = decimal
        self.ids = dict(ids) if ids is not None else None
        # one call for the whole job: missing keys are then counted over the whole corpus, not per batch;
        # `instant`: a lookup, so the audit neither caches it nor probes its speed (both would split the job)
        self.batch_size = sys.maxsize
        self.instant = True
        self.missing_allowed = True  # on_missing/on_bad=keep give NaN on purpose (reported by the file's own checks)
        self._asked: set[str] = set()
        self._line_of: dict[tuple[str, str], int] = {}  # (key, dimension) -> the line its score came from
        self._read(key, columns)

    @property
    def keeps_missing(self) -> bool:
        """True when a policy lets missing scores through: statistics must drop them with a note."""
        return self.on_missing != "error" or self.on_bad != "error"

    @property
    def warnings(self) -> list[str]:
        return self.report.warnings

    # -- reading ------------------------------------------------------------------------------
    def _read(self, key: str, columns: list[str] | None) -> None:
        where = str(self.path)
        header, rows, delimiter = _read_table(self.path, self.sep)
        self.sep = delimiter
        key_col = None
        if key in ("auto", "id") and (self.ids is not None or key == "id"):
            key_col = next((c for c in ID_COLUMNS if c in header), None)
            if key == "id" and key_col is None:
                raise ModelError(where, "no ID column", field="header", line=1,
                                 fix="add an ID column or use key=sentence")
            if key == "id" and self.ids is None:
                raise ModelError(where, "keying by id needs the corpus IDs of the sentences", field="ID",
                                 fix="pass ids={sentence: id} (the audit does this from the corpus table)")
        if key_col is None:
            key_col = next((c for c in SENTENCE_COLUMNS if c in header), None)
            if key_col is None:
                raise ModelError(where, f"no sentence column (looked for {', '.join(SENTENCE_COLUMNS)})",
                                 field="header", line=1, fix="name the text column 'Sentence', or key by ID")
        self.key = "id" if key_col in ID_COLUMNS else "sentence"
        self.key_column = key_col
        dim_col = next((c for c in DIMENSION_COLUMNS if c in header), None)
        val_col = next((c for c in VALUE_COLUMNS if c in header), None)
        long = dim_col is not None and val_col is not None and not columns
        report = MatchReport(where, self.key, rows=len(rows))
        self.report = report
        ki = header.index(key_col)
        if self.decimal is None:
            self.decimal = _decimal_mark(header, rows, delimiter, ki)
        if long:
            di, vi = header.index(dim_col), header.index(val_col)
            cells = []
            for line, row in rows:
                dim = row[di].strip()
                if not dim:
                    raise ModelError(where, "empty dimension name", field=dim_col, line=line,
                                     fix="write the emotion (e.g. anger) in every row")
                cells.append((line, row[ki], [(dim, val_col, row[vi])]))
            dims = list(dict.fromkeys(dim for _l, _k, ((dim, _c, _v),) in cells))
        else:
            skip = set(SENTENCE_COLUMNS) | set(ID_COLUMNS) | set(DIMENSION_COLUMNS) | set(CORPUS_COLUMNS) | {key_col}
            if columns:
                absent = [c for c in columns if c not in header]
                if absent:
                    raise ModelError(where, f"no column {absent[0]!r}", field=absent[0], line=1,
                                     fix=f"columns are: {', '.join(header)}")
                dims = list(dict.fromkeys(columns))
            else:
                candidates = [c for c in header if c not in skip]
                dims = [c for c in candidates if not _text_column(rows, header.index(c), self.decimal)]
                report.ignored_columns = [c for c in candidates if c not in dims]
            if not dims:
                raise ModelError(where, "no score column: every column besides the key holds text", field="header",
                                 line=1, fix="add one numeric column per dimension, or Affect Dimension + "
                                             "Intensity Score columns")
            idx = [(d, header.index(d)) for d in dims]
            cells = [(line, row[ki], [(d, d, row[i]) for d, i in idx]) for line, row in rows]
        self.dimensions = dims
        self._values, self._dropped = self._collect(cells, where)
        report.keys = len(self._values)
        self._norm_index: dict[str, str] = {}
        if self.key == "sentence":
            for k in self._values:
                self._norm_index.setdefault(_norm(k), k)

    def _collect(self, cells: list[tuple[int, str, list[tuple[str, str, str]]]], where: str
                 ) -> tuple[dict[str, dict[str, float]], set[str]]:
        """Parse every cell; apply on_bad and on_duplicate; fill the report."""
        report = self.report
        values: dict[str, dict[str, float]] = {}
        first_line: dict[tuple[str, str], int] = {}
        dup: dict[str, None] = {}
        conflict: dict[str, str] = {}  # key -> 'line a and b [col]'
        bad: list[tuple[int, str, str, str]] = []  # line, column, reason, key
        dropped: dict[str, None] = {}
        for line, raw_key, pairs in cells:
            # a sentence from our formula-safe corpus export may keep its quote ('=…): the text is the key
            k = raw_key.strip() if self.key == "id" else unescape_cell(raw_key)
            if not k.strip():
                raise ModelError(where, f"empty {self.key_column}", field=self.key_column, line=line,
                                 fix="every row needs its key (remove the row or fill it in)")
            slot = values.setdefault(k, {})
            for dim, col, raw in pairs:
                v, reason = parse_score(raw, self.decimal)
                if reason:
                    bad.append((line, col, reason, k))
                    v = math.nan
                    if self.on_bad == "drop":
                        dropped[k] = None
                if (k, dim) in first_line:
                    dup[k] = None
                    old = slot[dim]
                    if not (old == v or (math.isnan(old) and math.isnan(v))):
                        conflict.setdefault(k, f"lines {first_line[(k, dim)]} and {line} [{col}]")
                    continue
                first_line[(k, dim)] = line
                slot[dim] = v
        self._line_of = first_line
        report.duplicates = list(dup)
        report.conflicting = list(conflict)
        report.bad_cells = [f"line {ln} [{col}]: {why}" for ln, col, why, _k in bad]
        if bad and self.on_bad == "error":
            ln, col, why, _k = bad[0]
            more = f" (and {_count(len(bad) - 1, 'more bad cell', 'more bad cells')}: {_few(report.bad_cells[1:])})" if len(bad) > 1 else ""
            raise ModelError(where, f"{why}{more}", field=col, line=ln,
                             fix="every score must be a finite number; re-score those rows, or choose on_bad=drop "
                                 "(leave those sentences out) or on_bad=keep (keep them as missing)")
        if conflict and self.on_duplicate == "error":
            first = next(iter(conflict))
            raise ModelError(where, f"{_count(len(conflict), 'key appears', 'keys appear')} more than once with different scores "
                             f"(first: {first!r}, {conflict[first]}; all: {_few(list(conflict))})",
                             field=self.key_column,
                             fix="remove the duplicates, or pass on_duplicate=first to keep the first row")
        if bad:
            what = "left out of the audit (on_bad=drop)" if self.on_bad == "drop" else "kept as missing (on_bad=keep)"
            report.warnings.append(f"{where}: {_count(len(bad), 'bad score cell', 'bad score cells')} {what}: {_few(report.bad_cells)}")
        same = [k for k in dup if k not in conflict]
        if same:
            report.warnings.append(f"{where}: {_count(len(same), 'key appears', 'keys appear')} on more than one row with the same scores "
                                   f"(the first row counts): {_few(same)}")
        if conflict:
            report.warnings.append(f"{where}: {_count(len(conflict), 'key appears', 'keys appear')} more than once with different scores; "
                                   f"the first row counts (on_duplicate=first): {_few(list(conflict))}")
        return values, set(dropped)

    # -- scoring ------------------------------------------------------------------------------
    def fingerprint(self) -> str:
        ids = sorted(self.ids.items()) if (self.ids is not None and self.key == "id") else None
        # every policy changes what is returned (an error or NaN), so each has its own cache entries
        return stable_hash("predictions/2", file_sha256(self.path), self.key, self.key_column, self.dimensions, ids,
                           self.on_missing, self.on_bad, self.on_duplicate,
                           *(() if self.decimal == "." else (f"decimal={self.decimal}",)))

    def _key_of(self, text: str) -> str:
        """What the file would call this text: its corpus ID when keyed by ID, else the text."""
        if self.key == "id":
            return str(self.ids.get(text, text)).strip()
        return text

    def _file_key(self, text: str) -> str | None:
        """The file's key for this text (marking it asked for), or None when the file lacks it."""
        if self.key == "id":
            k = self.ids.get(text)
            if k is None:
                return None
            k = str(k).strip()
            self._asked.add(k)
            return k if k in self._values else None
        self._asked.add(text)
        if text in self._values:
            return text
        k = self._norm_index.get(_norm(text))
        if k is not None:
            self._asked.add(k)
            self.report.normalised_matches += 1
        return k

    def check(self, texts: list[str]) -> MatchReport:
        """Match every text now (no scoring) and fill `report.missing` / `report.unmatched`."""
        self._asked = set()
        self.report.normalised_matches = 0
        self.report.missing = [self._key_of(t) for t in dict.fromkeys(texts) if self._file_key(t) is None]
        self.report.unmatched = [k for k in self._values if k not in self._asked]
        return self.report

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        texts = list(texts)
        tracker = ProgressTracker(len(texts), progress)
        check_cancel(cancel, 0, len(texts))
        out: list[list[float]] = []
        missing: dict[str, None] = {}  # keys without any row
        partial: dict[str, None] = {}  # 'key [dimension]' without a row (long layout)
        nan_row = [math.nan] * len(self.dimensions)
        for t in texts:
            k = self._file_key(t)
            if k is None:
                missing[self._key_of(t)] = None
                out.append(nan_row)
                continue
            if k in self._dropped:
                out.append(nan_row)
                continue
            hit = self._values[k]
            lacking = [d for d in self.dimensions if d not in hit]
            for d in lacking:
                partial[f"{k} [{d}]"] = None
            out.append(nan_row if lacking and self.on_missing == "drop" else
                       [hit.get(d, math.nan) for d in self.dimensions])
        for m in list(missing) + list(partial):
            if m not in self.report.missing:
                self.report.missing.append(m)
        self.report.unmatched = [k for k in self._values if k not in self._asked]
        if missing or partial:
            missing, partial = dict.fromkeys(sorted(missing)), dict.fromkeys(sorted(partial))  # listed in key order
            total = len(dict.fromkeys(texts))
            what = "IDs" if self.key == "id" else "sentences"
            parts = []
            if missing:
                parts.append(f"{len(missing)} of {total} {what} have no prediction (first "
                             f"{min(len(missing), MAX_LISTED)}: {_few(list(missing))})")
            if partial:
                parts.append(f"{_count(len(partial), 'prediction lacks', 'predictions lack')} a dimension (first "
                             f"{min(len(partial), MAX_LISTED)}: {_few(list(partial))})")
            text = "; ".join(parts)
            if self.on_missing == "error":
                raise ModelError(str(self.path), text, field=self.key_column,
                                 fix="check that the file was made for this corpus, or choose on_missing=drop "
                                     "(leave them out) or on_missing=keep (keep them as missing)")
            how = "left out of the audit (on_missing=drop)" if self.on_missing == "drop" else \
                "kept as missing (on_missing=keep)"
            self.report.warnings.append(f"{self.path}: {text}; {how}")
        tracker.advance(len(texts))
        return make_frame(out, self.dimensions)

    def where(self, text: str, dimension: str) -> tuple[str, int | None, str]:
        """(file, line, column) this text's score for ``dimension`` was read from (line None when the
        file has no row for it): how the audit names a score it refuses (engine.audit.score_range)."""
        k = self._key_of(text) if self.key == "id" else (text if text in self._values else
                                                          self._norm_index.get(_norm(text), text))
        return str(self.path), self._line_of.get((k, dimension)), dimension

    def closing_warnings(self) -> list[str]:
        """Warnings known only once every text of the run was asked for (the pipeline calls this
        after the last corpus): keys of the file that no sentence of the audit has. Why said on
        screen and in summary.txt, not only in manifest.json: rows for sentences the corpus does not
        have mean the file was made for another corpus (or another version of it)."""
        unmatched = [k for k in self._values if k not in self._asked]
        self.report.unmatched = unmatched
        if not unmatched:
            return []
        line = (f"{self.path}: {_count(len(unmatched), 'key is', 'keys are')} not in the audited corpora and "
                f"{'was' if len(unmatched) == 1 else 'were'} not used (first {min(len(unmatched), MAX_LISTED)}: "
                f"{_few(unmatched)}); check that the file was made for this corpus and its version")
        if line not in self.report.warnings:
            self.report.warnings.append(line)
        return [line]

    def describe(self) -> dict[str, Any]:
        return {"kind": "predictions", "name": self.name, "path": str(self.path), "fingerprint": self.fingerprint(),
                "key": self.key, "key_column": self.key_column, "on_missing": self.on_missing, "on_bad": self.on_bad,
                "on_duplicate": self.on_duplicate, "separator": self.sep, "decimal": self.decimal,
                "report": self.report.summary(), "warnings": list(self.warnings)}


def parse_score(raw: str, decimal: str = ".") -> tuple[float, str]:
    """(value, '') for a finite number; (nan, reason) for an empty, NaN, infinite or non-number cell.

    ``decimal=","``: the file's decimal mark is a comma (``0,75``); a decimal point is then refused
    (``1.500`` is one and a half, or fifteen hundred in a German file)."""
    text = raw.strip()
    if not text:
        return math.nan, "empty score"
    if decimal == ",":
        if _COMMA_NUMBER.fullmatch(text):
            text = text.replace(",", ".")
        elif _NUMBER.fullmatch(text) and "." in text:
            return math.nan, (f"not a number: {raw!r} has a decimal point, but the file's decimal mark is a comma "
                              f"(decimal=,); use one mark throughout")
    if _NUMBER.fullmatch(text):
        v = float(text)
        if math.isinf(v):  # 1e999
            return math.nan, f"number too large: {raw!r}"
        return v, ""
    low = text.lower()
    if low in _NAN:
        return math.nan, f"missing score: {raw!r}"
    if low in _INF:
        return math.nan, f"infinite score: {raw!r}"
    if _COMMA_NUMBER.fullmatch(text):
        return math.nan, (f"not a number: {raw!r} has a decimal comma, but the file's other numbers use a "
                          f"decimal point; use one mark throughout (a file of decimal commas: decimal=,)")
    return math.nan, f"not a number: {raw!r}"


def _text_column(rows: list[tuple[int, list[str]]], i: int, decimal: str = ".") -> bool:
    """True when no cell of the column looks like a score: a label column such as 'Person'."""
    seen_text = False
    for _line, row in rows:
        text = row[i].strip()
        if not text:
            continue
        low = text.lower()
        if _NUMBER.fullmatch(text) or low in _NAN or low in _INF or (decimal == "," and _COMMA_NUMBER.fullmatch(text)):
            return False
        seen_text = True
    return seen_text


def _read_table(path: Path, sep: str | None = None) -> tuple[list[str], list[tuple[int, list[str]]], str]:
    """(header, rows as (line number, cells), separator), streamed; TSV for .txt (no quoting), else CSV
    with the separator given (``sep``) or read from the header line (_sniff)."""
    from engine.common.path_kind import not_a_file

    where = str(path)
    wrong = not_a_file(path)  # before open(): reading a FIFO would wait for a writer forever
    if wrong:
        raise ModelError(where, f"{wrong}: not a prediction file", fix="give a .csv, .tsv or .txt file")
    if not path.exists():
        raise ModelError(where, "prediction file not found", fix="check the path")
    if path.suffix.lower() in (".jsonl", ".parquet"):
        return (*_check_rows(where, *_read_frame(path), quoting=False), "")
    try:
        fh = open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise ModelError(where, f"cannot read it ({(exc.strerror or 'error').lower()})", fix="check the permissions") \
            from None
    with fh:
        lines = _lines(fh, where)
        first = next(lines, None)
        if first is None:
            raise ModelError(where, "file is empty", fix="a prediction file starts with a header line")
        suffix = path.suffix.lower()
        header_text = first[1].rstrip("\r\n")
        quoting = suffix != ".txt"
        if sep is not None:
            delimiter = sep
        elif suffix in (".txt", ".tsv"):
            delimiter = "\t"
        else:
            delimiter = _sniff(header_text)
        rows = list(_records(lines, first, delimiter, quoting, where))
    return (*_check_rows(where, rows[0][1], rows[1:], quoting, delimiter), delimiter)


def _sniff(header: str) -> str:
    """The separator of a header line: the one of `,` `;` tab `|` it holds most often outside quotes
    (a comma on a tie or when it holds none: a one-column file)."""
    bare, quoted = [], False
    for ch in header:
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            bare.append(ch)
    text = "".join(bare)
    counts = {d: text.count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > counts[","] else ","


def _decimal_mark(header: list[str], rows: list[tuple[int, list[str]]], delimiter: str, key_index: int) -> str:
    """',' when the score cells of a file not separated by commas use only decimal commas, else '.'.

    Only the cells outside the key and the corpus's label columns are looked at; a file with both
    marks keeps '.', so each '0,75' is refused with a message that names decimal=,."""
    if delimiter == ",":
        return "."
    skip = {key_index} | {i for i, h in enumerate(header) if h in SENTENCE_COLUMNS or h in ID_COLUMNS
                          or h in CORPUS_COLUMNS or h in DIMENSION_COLUMNS}
    commas = points = 0
    for _line, row in rows:
        for i, cell in enumerate(row):
            if i in skip:
                continue
            text = cell.strip()
            if _COMMA_NUMBER.fullmatch(text):
                commas += 1
            elif "." in text and _NUMBER.fullmatch(text):
                points += 1
    return "," if commas and not points else "."


def _check_rows(where: str, header: list[str], rows: list[tuple[int, list[str]]], quoting: bool,
                delimiter: str = ","
                ) -> tuple[list[str], list[tuple[int, list[str]]]]:
    header = [h.strip() for h in header]
    if not any(header):
        raise ModelError(where, "the header line is empty", line=1, fix="the first line names the columns")
    seen: set[str] = set()
    for h in header:
        if not h:
            raise ModelError(where, "a header cell is empty", line=1, field="header", fix="name every column")
        if h in seen:
            raise ModelError(where, f"column {h!r} appears twice", line=1, field="header", fix="rename one of them")
        seen.add(h)
    body = []
    for n, cells in rows:
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise ModelError(where, f"{len(cells)} fields, header has {len(header)}", line=n,
                             fix=_fields_fix(cells, header, quoting, delimiter))
        body.append((n, cells))
    if not body:
        raise ModelError(where, "no rows after the header", line=1, fix="the file holds no predictions")
    return header, body


def _fields_fix(cells: list[str], header: list[str], quoting: bool, delimiter: str) -> str:
    """What to do about a row with another number of fields than the header, from what it looks like."""
    name = {",": "comma", ";": "semicolon", "\t": "tab", "|": "|"}.get(delimiter, repr(delimiter))
    if not quoting:
        return "one value per header column (tab-separated, no quoting)"
    if len(header) == 1:
        return (f"the header holds no {name}: name the separator (sep=; sep=tab or sep=|), "
                f"and decimal=, if the numbers use decimal commas")
    if delimiter == "," and len(cells) > len(header) and any(c.strip().isdigit() for c in cells[1:]):
        return ("numbers with decimal commas (0,75) in a comma-separated file split into two fields: save it with "
                "another separator (then sep=;&decimal=, reads it) or with decimal points")
    return (f"one value per header column, separated by {name}s; quote values that contain a {name}, or name the "
            f"separator (sep=, sep=; sep=tab or sep=|)")


def _lines(fh: Any, where: str) -> Iterator[tuple[int, str]]:
    n = 0
    while True:
        try:
            line = fh.readline()
        except UnicodeDecodeError as exc:
            raise ModelError(where, f"not UTF-8 (byte {exc.start} of the line)", line=n + 1,
                             fix="save the file as UTF-8") from None
        if not line:
            return
        n += 1
        if "\x00" in line:
            raise ModelError(where, "binary data (NUL byte)", line=n, fix="give a text file: CSV, TSV or SemEval .txt")
        if len(line) > MAX_FIELD:
            raise ModelError(where, f"line longer than {MAX_FIELD:,} characters", line=n,
                             fix="is this a prediction file? one row per sentence")
        yield n, line


def _records(lines: Iterator[tuple[int, str]], first: tuple[int, str], delimiter: str, quoting: bool,
             where: str) -> Iterator[tuple[int, list[str]]]:
    """Cells per record with the line number it starts on (a quoted cell may span lines)."""
    if not quoting:
        yield first[0], first[1].rstrip("\r\n").split(delimiter)
        for n, line in lines:
            yield n, line.rstrip("\r\n").split(delimiter)
        return
    start = [first[0]]

    def feed() -> Iterator[str]:
        yield first[1]
        for n, line in lines:
            start.append(n)
            yield line

    reader = csv.reader(feed(), delimiter=delimiter, strict=True)
    line_of_record = first[0]
    try:
        for cells in reader:
            yield line_of_record, cells
            line_of_record = start[-1] + 1
    except csv.Error as exc:
        if "unexpected end of data" in str(exc) or "EOF" in str(exc):
            # the reader read on to the end of the file looking for the closing quote: name the line the
            # open quote is on, not the last line of the file
            raise ModelError(where, "a quoted value that starts on this line is never closed (unterminated quote)",
                             line=line_of_record, fix="close the quote, or write a quote inside a value twice "
                                                      '("")') from None
        raise ModelError(where, f"malformed CSV ({exc})", line=start[-1],
                         fix="check the quotes on this line (a quote inside a value is written twice)") from None


def _read_frame(path: Path) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """A .jsonl or .parquet file as header and text cells, so the same checks apply to every cell."""
    import pandas as pd

    where = str(path)
    def cell(v: Any) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return ""
        return repr(float(v)) if isinstance(v, float) else str(v)

    if path.suffix.lower() == ".jsonl":
        return _read_jsonl(path, cell)
    from engine.common.extras import require

    require("parquet prediction files", "pyarrow", file=where)  # or save them as CSV/JSONL
    try:
        frame = pd.read_parquet(path)
    except Exception as exc:  # pyarrow's errors: one line, our words
        reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise ModelError(where, f"not a readable Parquet file ({reason})",
                         fix="save the predictions again, or as CSV") from None
    rows = [(1 + i, [cell(v) for v in rec]) for i, rec in enumerate(frame.itertuples(index=False, name=None))]
    return [str(c) for c in frame.columns], rows


def _read_jsonl(path: Path, cell: Any) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """One JSON object per line, parsed exactly (pandas' fast JSON parser rounds some decimals)."""
    import json

    where = str(path)
    records: list[tuple[int, dict[str, Any]]] = []
    with open(path, encoding="utf-8-sig", newline="") as fh:
        for n, line in _lines(fh, where):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ModelError(where, f"not valid JSON ({exc.msg})", line=n, fix="one JSON object per line") \
                    from None
            if not isinstance(obj, dict):
                raise ModelError(where, f"expected a JSON object, got {type(obj).__name__}", line=n,
                                 fix='one object per line, e.g. {"ID": "en-00001", "anger": 0.5}')
            records.append((n, obj))
    if not records:
        raise ModelError(where, "file is empty", fix="a prediction file needs a key column and score columns")
    header = list(dict.fromkeys(k for _n, obj in records for k in obj))
    return header, [(n, [cell(obj.get(k)) for k in header]) for n, obj in records]
