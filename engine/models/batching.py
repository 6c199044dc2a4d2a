"""Length-sorted batching with out-of-memory back-off, progress and cancellation.

Why sorted by length: with dynamic padding each batch is padded only to its own longest
item, so grouping similar lengths removes most padding work (the main CPU speed-up over
a naive pipeline). Longest first, so an out-of-memory error happens on the first batch,
not after most of the run. On OOM the batch size halves and the same items are retried;
the smaller size is kept for the rest of the run (and reported back to the caller).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine.common.progress import ProgressTracker, check_cancel
from engine.models.device import DeviceInfo, free_memory, is_oom
from engine.models.errors import ModelError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def length_order(lengths: Sequence[int]) -> list[int]:
    """Indices sorted by decreasing length (stable, so equal lengths keep input order)."""
    return sorted(range(len(lengths)), key=lambda i: -lengths[i])


def run_in_batches(
    lengths: Sequence[int],
    step: Callable[[list[int]], "np.ndarray"],
    *,
    batch_size: int,
    progress: Any = None,
    cancel: Any = None,
    device: DeviceInfo | None = None,
    on_resize: Callable[[int], None] | None = None,
    max_tokens: int | None = None,
) -> "np.ndarray":
    """Run `step(indices)` over length-sorted batches; return outputs in input order.

    `step` gets original indices and returns an array with one row per index.
    `on_resize(new_size)` is told when an OOM halved the batch size.
    `max_tokens`: a token budget per batch — each batch holds as many items as fit
    ``items × its longest item ≤ max_tokens`` (at least one, at most `batch_size`), so batches of
    short sentences are large and batches of long ones small: the padded work per batch stays
    about the same, and an accelerator gets batches big enough to keep it busy.
    """
    import numpy as np

    n = len(lengths)
    order = length_order(lengths)
    tracker = ProgressTracker(n, progress)
    out: np.ndarray | None = None
    pos = 0
    size = max(1, int(batch_size))
    while pos < n:
        check_cancel(cancel, tracker.done, n)
        take = size if not max_tokens else min(size, max(1, int(max_tokens) // max(1, lengths[order[pos]])))
        idx = order[pos:pos + take]
        try:
            values = np.asarray(step(idx))
        except Exception as exc:  # noqa: BLE001 - only OOM is handled, the rest re-raised
            if not is_oom(exc):
                raise
            if device is not None:
                free_memory(device)
            if len(idx) == 1:
                raise ModelError("", "out of memory even with batch size 1", field="batch_size",
                                 fix="use a shorter max_length, a smaller model or --device cpu") from None
            size = max(1, (min(size, len(idx)) if max_tokens else size) // 2)  # a budget's batch: halve what ran
            if on_resize is not None:
                on_resize(size)
            continue
        if values.ndim == 1:
            values = values.reshape(-1, 1)
        if out is None:
            out = np.empty((n,) + values.shape[1:], dtype=values.dtype)
        out[idx] = values
        pos += len(idx)
        tracker.advance(len(idx))
    if out is None:
        out = np.empty((0, 0))
    return out


def pad_batch(seqs: list[list[int]], pad_id: int, *, with_token_types: bool, side: str = "right") -> dict[str, Any]:
    """Pad token id lists to the batch's longest (dynamic padding) as torch tensors.

    `side="left"` is for causal language models: every row's last real token then sits in the
    last column, where the next-token distribution is read.
    """
    import torch

    width = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for row, s in enumerate(seqs):
        cols = slice(width - len(s), width) if side == "left" else slice(0, len(s))
        ids[row, cols] = torch.tensor(s, dtype=torch.long)
        mask[row, cols] = 1
    batch = {"input_ids": ids, "attention_mask": mask}
    if with_token_types:
        batch["token_type_ids"] = torch.zeros_like(ids)
    return batch
