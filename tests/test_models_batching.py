"""engine.models.batching: length-sorted batches, by count or by a token budget (issue 42), outputs in
input order, out-of-memory back-off."""
import numpy as np
import pytest

from engine.models.batching import run_in_batches


def _run(lengths, **kw):
    batches = []

    def step(idx):
        batches.append([lengths[i] for i in idx])
        return np.array([float(i) for i in idx])

    out = run_in_batches(lengths, step, **kw)
    return out.ravel(), batches


def test_a_token_budget_sizes_each_batch_by_its_longest_item():
    lengths = [4] * 10 + [16] * 6 + [64, 33]
    out, batches = _run(lengths, batch_size=100, max_tokens=64)
    assert out.tolist() == [float(i) for i in range(len(lengths))]  # input order
    assert [len(b) for b in batches] == [1, 1, 4, 4, 8]  # 64 | 33 | 4 x 16 | 16, 16, 4, 4 | 8 x 4
    assert all(len(b) * max(b) <= 64 for b in batches)


def test_the_budget_never_exceeds_the_batch_size_and_always_takes_one():
    out, batches = _run([2] * 50 + [500], batch_size=8, max_tokens=100)
    assert [len(b) for b in batches][:2] == [1, 8] and max(len(b) for b in batches) == 8
    assert out.tolist() == [float(i) for i in range(51)]


def test_without_a_budget_batches_are_the_batch_size():
    _out, batches = _run([3, 1, 2, 5, 4], batch_size=2)
    assert batches == [[5, 4], [3, 2], [1]]


def test_out_of_memory_halves_the_batch_that_failed():
    seen = []

    def step(idx):
        seen.append(len(idx))
        if len(idx) > 3:
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return np.zeros(len(idx))

    resized = []
    run_in_batches([10] * 12, step, batch_size=100, max_tokens=80, on_resize=resized.append)
    assert seen[0] == 8 and resized == [4, 2] and max(seen[2:]) <= 3
