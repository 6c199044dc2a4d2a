"""CSV that a spreadsheet opens as text: cells that would start a formula are escaped.

Why: a template such as ``=HYPERLINK("http://…","{person} feels {emotion}.")`` or a name that
starts with ``@``, ``+`` or ``-`` went verbatim into `corpus export`, `corpus pairs`, the review
sheet sent to reviewers and an audit's score tables; a spreadsheet runs such a cell as a formula
(OWASP, "CSV Injection"). Every CSV a person may open in a spreadsheet is written through
:func:`csv_text` / :func:`safe_row`, and every reader of our own CSVs undoes it with
:func:`unescape_cell` / :func:`unescape_frame`.

The rule (OWASP's advice): a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return gets a single quote in front (spreadsheets show the text, without the quote). A
number is never a formula, so ``-0.5`` as text is left alone; a text that already starts with a
quote followed by one of those characters (or a second quote) is quoted once more, so reading
back is exact: ``unescape_cell(escape_cell(x)) == x`` for every string.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def escape_cell(value: Any) -> Any:
    """``value`` with a leading single quote when a spreadsheet would read it as a formula."""
    if not isinstance(value, str) or not value:
        return value
    first = value[0]
    if first in FORMULA_START and not _NUMBER.fullmatch(value):
        return "'" + value
    if first == "'" and len(value) > 1 and (value[1] in FORMULA_START or value[1] == "'"):
        return "'" + value
    return value


def unescape_cell(value: Any) -> Any:
    """The inverse of :func:`escape_cell` (other values unchanged)."""
    if isinstance(value, str) and len(value) > 1 and value[0] == "'" and (value[1] in FORMULA_START or value[1] == "'"):
        return value[1:]
    return value


def safe_row(row: Iterable[Any]) -> list[Any]:
    """A row for ``csv.writer`` with every cell escaped."""
    return [escape_cell(v) for v in row]


def safe_frame(df: "pd.DataFrame") -> "pd.DataFrame":
    """A copy of ``df`` whose text cells and column names are escaped (numbers untouched)."""
    out = df.copy()
    for col in out.columns:
        if str(out[col].dtype) in ("string", "str"):
            _escape_text_column(out, col)
        elif out[col].dtype == object:
            out[col] = out[col].map(escape_cell)
    out.columns = [escape_cell(c) for c in out.columns]
    return out


#: the first characters after which escape_cell may change a cell
_MAY_ESCAPE = (*FORMULA_START, "'")


def _escape_text_column(out: "pd.DataFrame", col: Any) -> None:
    """escape_cell on the cells of a text column that start with a character it may escape.

    Why not ``map`` over the column: that made a Python string of every cell — for a million
    sentences hundreds of MB at once, the peak of writing a large audit's score table (issue 42);
    the test of the first character runs on the column's own storage, and hardly a cell matches."""
    i = out.columns.get_loc(col)
    s = out.iloc[:, i]
    hit = s.str.startswith(_MAY_ESCAPE, na=False).to_numpy(dtype=bool)
    if hit.any():
        fixed = s.copy()
        fixed[hit] = s[hit].map(escape_cell).to_numpy(dtype=object)
        out.isetitem(i, fixed)


def csv_text(df: "pd.DataFrame", **to_csv: Any) -> str:
    """``df.to_csv(index=False, **to_csv)`` with formula-safe cells: the one way we write CSV tables."""
    to_csv.setdefault("index", False)
    return safe_frame(df).to_csv(**to_csv)


def csv_rows_text(header: list[Any], rows: Iterable[Iterable[Any]], lineterminator: str = "\n") -> str:
    """The CSV ``csv_text`` writes for a frame of these text rows, without making the frame.

    Why: a statistic's paper tables are a few dozen small tables; a DataFrame each, escaped and
    written by pandas, took 0.11 s of the 0.18 s the paired analysis's tables take to lay out
    (issue 42). pandas writes text cells through the same ``csv.writer`` (minimal quoting), so the
    bytes are the same (tests/test_csv_cells.py compares them)."""
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator=lineterminator)
    writer.writerow(safe_row(header))
    writer.writerows(safe_row(row) for row in rows)
    return buf.getvalue()


def unescape_frame(df: "pd.DataFrame") -> "pd.DataFrame":
    """A table read back from one of our CSVs, its text cells and column names as written."""
    cols = [c for c in df.columns if df[c].dtype == object or str(df[c].dtype) in ("string", "str")]
    if not cols and not any(isinstance(c, str) and c.startswith("'") for c in df.columns):
        return df
    df = df.copy()
    for col in cols:
        df[col] = df[col].map(unescape_cell)
    df.columns = [unescape_cell(c) for c in df.columns]
    return df
