"""The columns a regression reads, small: label columns as categoricals, the rest left out.

Why (issue 42): the Beta regression of a corpus of a million sentences selected its name sentences
from the whole scored table — every column, the sentences' texts among them, copied (about 430 MB)
— and turned its persons, templates and words into arrays of a million freshly made strings each
(about 70 MB apiece). Here the regression gets only the columns it reads, its labels as
categoricals (a small integer code per row), so selecting rows copies a few bytes a row, and
``shared_labels`` gives the label arrays the fits take with one string object per distinct label.
The values are those the fits read before, so every result is unchanged: a label column holds
``column.astype(str)``'s values (the word columns ``fillna("")`` first, as crossed inference reads
them), and the group columns (race, gender, person kind, corpus) their own values, which are
compared as ``str(value)`` as before (``label_eq``) and handed raw to the group inference.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

#: Compared with a group name (str(value) == name); their raw values are what resolve_race_groups reads.
GROUP_COLUMNS = ("Gender", "Race", "person_kind", "corpus")
#: Read as ``column.astype(str)`` (persons, templates) or ``column.fillna("").astype(str)`` (words).
LABEL_COLUMNS = ("template_id",)
WORD_COLUMNS = ("emotion_word_id", "emotion_word")


def fit_frame(df: pd.DataFrame, score_cols: Sequence[str], person_col: str = "",
              keep: Iterable[str] = ("ID",)) -> pd.DataFrame:
    """``df``'s score columns, ``keep`` columns as they are, and its label columns as categoricals."""
    out: dict[str, pd.Series] = {}
    for c in dict.fromkeys([*keep, *score_cols]):
        if c in df.columns:
            out[c] = df[c]
    for c in GROUP_COLUMNS:
        if c in df.columns and c not in out:
            out[c] = _categorical(df[c])
    for c in (*LABEL_COLUMNS, person_col):
        if c and c in df.columns and c not in out:
            out[c] = _categorical(_as_str(df[c]))
    for c in WORD_COLUMNS:
        if c in df.columns and c not in out:
            out[c] = _categorical(_as_str(_plain(df[c]).fillna("")))
    return pd.DataFrame(out, index=df.index)


def _plain(s: pd.Series) -> pd.Series:
    """A caller's own categorical as plain values (its categories may lack "" for fillna)."""
    return s.astype(object) if isinstance(s.dtype, pd.CategoricalDtype) else s


def _as_str(s: pd.Series) -> pd.Series:
    return _plain(s).astype(str)


def _categorical(s: pd.Series) -> pd.Series:
    return s if isinstance(s.dtype, pd.CategoricalDtype) else s.astype("category")


def _code_table(s: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """(codes, table) of a categorical column — table[codes] are its values as str (NaN for code −1),
    each distinct value one object — or None for any other column."""
    if not isinstance(s.dtype, pd.CategoricalDtype):
        return None
    cats = [str(c) for c in s.cat.categories]
    table = np.empty(len(cats) + 1, dtype=object)
    table[:-1] = cats
    table[-1] = np.nan
    return s.cat.codes.to_numpy(), table


def label_eq(s: pd.Series, value: str) -> np.ndarray:
    """``(s.astype(str) == value)`` as a bool array, without making a string per row of a categorical."""
    return label_isin(s, [value])


def label_isin(s: pd.Series, values: Sequence[str]) -> np.ndarray:
    """``s.astype(str).isin(values)`` as a bool array (a categorical: its categories compared)."""
    ct = _code_table(s)
    if ct is None:
        return s.astype(str).isin(list(values)).to_numpy()
    codes, table = ct
    hit = np.array([isinstance(v, str) and v in set(values) for v in table], dtype=bool)
    return hit[codes]


def shared_labels(s: pd.Series) -> np.ndarray:
    """``s.astype(str).to_numpy()`` (an object array) with one string object per distinct label, not
    one per row; a categorical built by ``fit_frame`` holds those values already."""
    ct = _code_table(s)
    if ct is None:
        return s.astype(str).to_numpy()
    codes, table = ct
    return table[codes]
