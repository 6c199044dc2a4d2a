"""XWEAT: monolingual translated tests and cross-lingual tests over a Procrustes-aligned space."""
from __future__ import annotations

import numpy as np
import pytest

from engine.assoc.errors import AssocError
from engine.assoc.procrustes import align, orthogonal_procrustes, read_dictionary
from engine.assoc.providers.static import StaticVectors
from engine.assoc.runner import RunConfig, run_test
from engine.assoc.stimuli import TestSpec, WordSet
from engine.assoc.weat import WeatOptions, run_weat


def _random_orthogonal(d, rng):
    q, r = np.linalg.qr(rng.normal(size=(d, d)))
    return q * np.sign(np.diag(r))


def test_procrustes_recovers_a_rotation():
    rng = np.random.default_rng(0)
    W = _random_orthogonal(6, rng)
    Xs = rng.normal(size=(40, 6))
    got = orthogonal_procrustes(Xs, Xs @ W)
    np.testing.assert_allclose(got, W, atol=1e-10)
    np.testing.assert_allclose(got @ got.T, np.eye(6), atol=1e-12)


def _bilingual(rng, d=8, noise=0.0):
    """Language 2 is language 1 rotated (plus noise); words are prefixed l1_/l2_."""
    base = [f"w{i}" for i in range(60)]
    M1 = rng.normal(size=(60, d))
    R = _random_orthogonal(d, rng)
    M2 = M1 @ R + noise * rng.normal(size=(60, d))
    v1 = StaticVectors(M1, [f"l1_{w}" for w in base], name="L1")
    v2 = StaticVectors(M2, [f"l2_{w}" for w in base], name="L2")
    pairs = [(f"l1_{w}", f"l2_{w}") for w in base]
    return v1, v2, pairs


def test_cross_lingual_weat_equals_monolingual_when_spaces_are_rotations():
    rng = np.random.default_rng(1)
    v1, v2, pairs = _bilingual(rng)
    idx = {"X": range(0, 6), "Y": range(6, 12), "A": range(12, 17), "B": range(17, 22)}
    mono = TestSpec(id="m", kind="weat", **{k: WordSet.of(k, [f"l1_w{i}" for i in r]) for k, r in idx.items()})
    cross = TestSpec(id="c", kind="weat", attr_language="l2",
                     **{k: WordSet.of(k, [f"l{1 if k in 'XY' else 2}_w{i}" for i in r]) for k, r in idx.items()})
    m = run_weat(mono, v1, WeatOptions())
    mapped, target = align(v1, v2, pairs[22:], min_pairs=8)
    c = run_weat(cross, mapped, WeatOptions(), attr_provider=target)
    assert c.effect_size == pytest.approx(m.effect_size, abs=1e-9)
    assert c.p_value == pytest.approx(m.p_value)
    assert mapped.info["pairs_used"] == 38 and mapped.info["fit_residual"] < 1e-10


def test_runner_cross_lingual_needs_a_dictionary(tmp_path):
    rng = np.random.default_rng(2)
    v1, v2, pairs = _bilingual(rng, noise=0.01)
    np.save(tmp_path / "l1.npy", v1.matrix)
    (tmp_path / "l1.vocab.txt").write_text("\n".join(v1.index) + "\n")
    np.save(tmp_path / "l2.npy", v2.matrix)
    (tmp_path / "l2.vocab.txt").write_text("\n".join(v2.index) + "\n")
    spec = TestSpec(id="c", kind="weat", attr_language="l2", X=WordSet.of("x", ["l1_w0", "l1_w1", "l1_w2"]),
                    Y=WordSet.of("y", ["l1_w3", "l1_w4", "l1_w5"]), A=WordSet.of("a", ["l2_w6", "l2_w7"]),
                    B=WordSet.of("b", ["l2_w8", "l2_w9"]))
    cfg = RunConfig(vectors=str(tmp_path / "l1.npy"), attr_vectors=str(tmp_path / "l2.npy"))
    with pytest.raises(AssocError, match="needs a dictionary"):
        run_test(spec, cfg)
    (tmp_path / "dict.tsv").write_text("# l1 l2\n" + "\n".join(f"{a}\t{b}" for a, b in pairs[10:]) + "\n")
    with pytest.raises(AssocError, match="only one was given"):  # a dictionary without the second space
        run_test(spec, RunConfig(vectors=str(tmp_path / "l1.npy"), dictionary=str(tmp_path / "dict.tsv")))
    cfg.dictionary = str(tmp_path / "dict.tsv")
    res = run_test(spec, cfg)
    assert res.extra["procrustes_pairs_used"] == 50
    assert res.to_frame()["procrustes_pairs_used"].iloc[0] == 50


def test_dictionary_errors_name_the_line(tmp_path):
    (tmp_path / "d.txt").write_text("a b\nlonely\n")
    with pytest.raises(AssocError, match="line 2"):
        read_dictionary(tmp_path / "d.txt")


def test_too_small_dictionary_refuses():
    rng = np.random.default_rng(3)
    v1, v2, pairs = _bilingual(rng)
    with pytest.raises(AssocError, match="fewer than 8"):
        align(v1, v2, pairs[:5])


def test_monolingual_xweat_on_a_translated_toy_space():
    """XWEAT T1 in Italian over a vocabulary holding exactly the Italian translations."""
    from engine.assoc.library import resolve

    spec = resolve("T1", lang="it")
    words = sorted({w for s in spec.sets().values() for w in s.words()})
    rng = np.random.default_rng(4)
    vec = StaticVectors(rng.normal(size=(len(words), 10)), words, name="toy-it")
    res = run_weat(spec, vec, WeatOptions(n_permutations=2000))
    assert res.language == "it" and res.permutation.method == "monte carlo"
    assert all(c.coverage == 1.0 for c in res.coverage)
    assert res.p_value > 0.001  # random space: no strong association
