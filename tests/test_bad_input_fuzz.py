"""Property-based fuzzing of the readers that take scores and vectors from users' files.

Three promises, checked on generated and mutated files: no crash (only a UserError, one
line naming the file), no hang (every read finishes within a deadline; the fastText library
runs in a forked child that is killed at the deadline) and no silent wrong result (what is
read back equals what was written, or the reader refuses).
"""
from __future__ import annotations

import math
import re
import multiprocessing
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from engine.assoc.errors import AssocError
from engine.assoc.providers.fasttext_check import check_fasttext_bin
from engine.assoc.providers.textfile import load_text_vectors, vectors_cache_root
from engine.common.errors import UserError
from engine.models.scorers.predictions import PredictionFileScorer, parse_score
from testkit.vector_files import fasttext_bin_bytes, vec_text

# deadline: each example is milliseconds; 5 s bounds a hang without failing on a busy machine.
# derandomize + no database: the same examples every run, and nothing written into the checkout.
FAST = settings(max_examples=60, deadline=5000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
WORDS = ["rose", "tulip", "ant", "flea", "love", "peace"]
FT_BYTES = fasttext_bin_bytes(WORDS)

# --------------------------------------------------------------------------- prediction files
keys = st.text(alphabet=string.ascii_letters + " .,'é", min_size=1, max_size=12).filter(lambda s: s.strip())
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
junk_cell = st.sampled_from(["", " ", "nan", "NaN", "inf", "-inf", "Infinity", "1,5", "abc", "1_0", "0x10", "1e999",
                             "--1", "١٢", "0.5.5", "NULL", "n/a"]) | st.text(max_size=6)


@st.composite
def tables(draw):
    n = draw(st.integers(1, 12))
    rows = draw(st.lists(keys, min_size=n, max_size=n, unique_by=lambda s: " ".join(s.split())))
    dims = draw(st.lists(st.sampled_from(["anger", "fear", "joy", "sadness", "valence"]), min_size=1, max_size=3,
                         unique=True))
    values = [[draw(finite) for _ in dims] for _ in rows]
    sep = draw(st.sampled_from([",", "\t"]))
    return rows, dims, values, sep


def _write_table(path, rows, dims, cells, sep):
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(["Sentence", *dims])
    for k, vals in zip(rows, cells):
        w.writerow([k, *vals])
    path.write_text(buf.getvalue(), encoding="utf-8")


@FAST
@given(tables())
def test_predictions_round_trip_exactly(tmp_path, table):
    rows, dims, values, sep = table
    p = tmp_path / ("p.csv" if sep == "," else "p.tsv")
    _write_table(p, rows, dims, [[repr(v) for v in vals] for vals in values], sep)
    out = PredictionFileScorer(p).score(rows)
    assert list(out.columns) == dims
    np.testing.assert_array_equal(out.to_numpy(), np.array(values, dtype=float))


@FAST
@given(tables(), st.data())
def test_one_bad_cell_is_named_or_read_as_written(tmp_path, table, data):
    rows, dims, values, sep = table
    cells = [[repr(v) for v in vals] for vals in values]
    r = data.draw(st.integers(0, len(rows) - 1))
    c = data.draw(st.integers(0, len(dims) - 1))
    junk = data.draw(junk_cell)
    assume(sep not in junk and "\n" not in junk and "\r" not in junk and '"' not in junk)
    cells[r][c] = junk
    p = tmp_path / ("p.csv" if sep == "," else "p.tsv")
    _write_table(p, rows, dims, cells, sep)
    expected, reason = parse_score(junk)
    others = [x for i, row in enumerate(cells) for j, x in enumerate(row) if (i, j) != (r, c)]
    if sep != "," and re.fullmatch(r"[-+]?\d+,\d+", junk.strip()) and not any("." in x for x in others):
        # every score cell of a file not separated by commas writes its decimals with a comma: the file
        # is read with decimal commas (issue 29), so '1,5' is 1.5 — as written
        expected, reason = float(junk.strip().replace(",", ".")), ""
    try:
        out = PredictionFileScorer(p).score(rows)
    except UserError as exc:
        assert reason, f"refused a good number {junk!r}: {exc}"
        assert exc.file == str(p) and str(exc).startswith(str(p))
        if exc.line is not None and exc.field in dims:  # the cell itself is named
            assert exc.line == r + 2 and exc.field == dims[c]
        return
    assert not reason, f"accepted {junk!r} ({reason}) without a word"
    assert out.iloc[r, c] == expected and math.isfinite(expected)
    kept = PredictionFileScorer(p, on_bad="keep").score(rows)
    np.testing.assert_array_equal(kept.to_numpy(), out.to_numpy())


@FAST
@given(st.binary(max_size=400), st.sampled_from([".csv", ".tsv", ".txt", ".jsonl", ".parquet"]))
def test_arbitrary_bytes_give_a_user_error_or_a_checked_table(tmp_path, blob, suffix):
    p = tmp_path / f"x{suffix}"
    p.write_bytes(blob)
    try:
        s = PredictionFileScorer(p, on_missing="keep")
    except UserError as exc:
        assert str(exc).startswith(str(p))
        return
    # it parsed: every score it holds is a finite number and every key maps to every dimension
    for vals in s._values.values():
        assert all(math.isfinite(v) for v in vals.values())


# --------------------------------------------------------------------------- fastText .bin
def _load_in_child(path, queue):
    import fasttext

    fasttext.FastText.eprint = lambda *a, **k: None
    try:
        m = fasttext.load_model(str(path))
        queue.put(("ok", m.get_dimension()))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        queue.put(("error", str(exc)))


def _library_load(path, timeout=10.0):
    """fastText's own loader in a forked child: a hang is a failure, not a stuck test run."""
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=_load_in_child, args=(path, q))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.kill()
        proc.join()
        pytest.fail(f"fastText's loader hung on {path} although the layout check passed")
    return q.get(timeout=1)


@FAST
@given(st.integers(0, len(FT_BYTES) - 1))
def test_truncated_fasttext_bin_is_always_refused(tmp_path, cut):
    p = tmp_path / "m.bin"
    p.write_bytes(FT_BYTES[:cut])
    with pytest.raises(AssocError) as e:
        check_fasttext_bin(p)
    assert str(e.value).startswith(str(p))


@FAST
@given(st.binary(min_size=1, max_size=64))
def test_bytes_after_a_fasttext_model_are_refused(tmp_path, tail):
    p = tmp_path / "m.bin"
    p.write_bytes(FT_BYTES + tail)
    with pytest.raises(AssocError, match="extra bytes after the end of the model"):
        check_fasttext_bin(p)


@settings(max_examples=25, deadline=None, derandomize=True, database=None,  # the child process has its deadline
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(8, len(FT_BYTES) - 1), st.binary(min_size=1, max_size=8), st.booleans())
def test_garbage_in_a_fasttext_bin_is_refused_or_loads_without_hanging(tmp_path, at, junk, rest_garbage):
    """Overwrite bytes (or everything after a point) with garbage: the check refuses or the library loads."""
    data = bytearray(FT_BYTES)
    if rest_garbage:
        data[at:] = (junk * (len(data) // len(junk) + 1))[: len(data) - at]
    else:
        data[at:at + len(junk)] = junk
    p = tmp_path / "m.bin"
    p.write_bytes(bytes(data[: len(FT_BYTES)]))
    try:
        layout = check_fasttext_bin(p)
    except AssocError:
        return
    status, detail = _library_load(p)
    assert status in ("ok", "error")
    if status == "ok":
        assert detail == layout.dim


def test_the_hand_written_model_loads_in_the_library(tmp_path):
    p = tmp_path / "m.bin"
    p.write_bytes(FT_BYTES)
    assert check_fasttext_bin(p).size == len(FT_BYTES)
    assert _library_load(p) == ("ok", 4)


# --------------------------------------------------------------------------- .vec / GloVe text
@FAST
@given(st.integers(1, 8), st.integers(1, 6), st.booleans(), st.integers(0, 10_000))
def test_text_vectors_round_trip(tmp_path, n, dim, header, seed):
    words = [f"w{i}" for i in range(n)]
    text, m = vec_text(words, dim, seed, header)
    p = tmp_path / f"v{seed}_{n}_{dim}_{int(header)}.vec"
    p.write_text(text, encoding="utf-8")
    v = load_text_vectors(p)
    got, how = v.lookup(words)
    assert all(h.how == "exact" for h in how)
    np.testing.assert_array_equal(got.astype(np.float32), m)


@FAST
@given(st.integers(0, 400), st.booleans())
def test_truncated_text_vectors_are_refused(tmp_path, cut, header):
    text, _ = vec_text(WORDS, 4, 1, header)
    data = text.encode()
    assume(cut < len(data))
    p = tmp_path / f"t{cut}_{int(header)}.vec"
    p.write_bytes(data[:cut])
    before = set(vectors_cache_root().glob("*")) if vectors_cache_root().exists() else set()
    with pytest.raises(AssocError) as e:
        load_text_vectors(p)
    assert str(e.value).startswith(str(p))
    after = set(vectors_cache_root().glob("*")) if vectors_cache_root().exists() else set()
    assert after == before  # a failed conversion leaves no cache folder
    assert not list(tmp_path.glob("*.eec-cache"))


@FAST
@given(st.binary(min_size=1, max_size=600), st.sampled_from([".vec", ".txt", ".bin", ".gz"]))
def test_arbitrary_bytes_as_vectors_give_a_user_error(tmp_path, blob, suffix):
    from engine.assoc.providers.spec import open_vectors

    p = tmp_path / f"r{abs(hash(blob)) % 10**8}{suffix}"
    p.write_bytes(blob)
    try:
        v = open_vectors(str(p))
    except UserError as exc:
        assert str(exc).startswith(str(p))
        return
    # it read as vectors: every value is finite and every row has the file's dimension
    assert np.isfinite(np.asarray(v.matrix)).all()
