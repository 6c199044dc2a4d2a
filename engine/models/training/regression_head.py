"""The two-layer feed-forward regressor of Câmara et al. §4.1, trained on frozen embeddings.

Architecture as in the authors' code: Linear(hidden, 128) -> ReLU -> Linear(128, 1), MSE
loss, Adam (lr 1e-3). Why early stopping on a validation split: the task sets are small
(~1–2k tweets) and the head overfits within a few dozen epochs; the best validation
epoch's weights are kept. Everything is seeded (weights, shuffling) so training is
repeatable on CPU.
"""
from __future__ import annotations

from engine.common.command import command

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.models.errors import ModelError
from engine.models.safe_load import load_torch_state


@dataclass
class HeadConfig:
    """Training settings for a regression head (stored in the model manifest)."""

    hidden: int = 128
    lr: float = 1e-3
    batch_size: int = 32
    max_epochs: int = 200
    patience: int = 10
    weight_decay: float = 0.0
    val_fraction: float = 0.1  # only used when no dev split is given


def build_head(in_dim: int, hidden: int = 128) -> Any:
    import torch

    class RegressionHead(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc0 = torch.nn.Linear(in_dim, hidden)
            self.act = torch.nn.ReLU()
            self.fc1 = torch.nn.Linear(hidden, 1)

        def forward(self, x: Any) -> Any:
            return self.fc1(self.act(self.fc0(x))).squeeze(-1)

    return RegressionHead()


def train_head(x_train: Any, y_train: Any, x_val: Any | None = None, y_val: Any | None = None, *,
               seed: int = 13, config: HeadConfig | None = None, cancel: Any = None) -> tuple[Any, dict[str, Any]]:
    """Fit a head; returns (module in eval mode, training summary)."""
    import numpy as np
    import torch

    from engine.common.progress import check_cancel

    config = config or HeadConfig()
    x_train = np.asarray(x_train, dtype=np.float32)
    y_train = np.asarray(y_train, dtype=np.float32)
    rng = np.random.default_rng(seed)
    if x_val is None:
        perm = rng.permutation(len(x_train))
        n_val = max(1, int(round(len(x_train) * config.val_fraction)))
        x_val, y_val = x_train[perm[:n_val]], y_train[perm[:n_val]]
        x_train, y_train = x_train[perm[n_val:]], y_train[perm[n_val:]]
    xt, yt = torch.from_numpy(x_train), torch.from_numpy(y_train)
    xv = torch.from_numpy(np.asarray(x_val, dtype=np.float32))
    yv = torch.from_numpy(np.asarray(y_val, dtype=np.float32))

    torch.manual_seed(seed)
    head = build_head(xt.shape[1], config.hidden)
    opt = torch.optim.Adam(head.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    loss_fn = torch.nn.MSELoss()
    gen = torch.Generator().manual_seed(seed)
    best = (float("inf"), -1, None)
    since_best = 0
    epoch = 0
    for epoch in range(config.max_epochs):
        check_cancel(cancel)
        head.train()
        perm = torch.randperm(len(xt), generator=gen)
        for start in range(0, len(xt), config.batch_size):
            idx = perm[start:start + config.batch_size]
            opt.zero_grad()
            loss = loss_fn(head(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
        head.eval()
        with torch.no_grad():
            val = float(loss_fn(head(xv), yv))
        if val < best[0] - 1e-7:
            best = (val, epoch, {k: v.detach().clone() for k, v in head.state_dict().items()})
            since_best = 0
        else:
            since_best += 1
            if since_best >= config.patience:
                break
    head.load_state_dict(best[2])
    head.eval()
    return head, {"best_epoch": best[1] + 1, "epochs_run": epoch + 1, "val_mse": best[0]}


def save_heads(path: str | Path, heads: dict[str, Any], config: HeadConfig) -> None:
    """All dimensions' heads in one safetensors file: keys '<dimension>/fc0.weight', …"""
    from safetensors.torch import save_file

    tensors = {}
    for dim, head in heads.items():
        for k, v in head.state_dict().items():
            tensors[f"{dim}/{k}"] = v.detach().cpu().contiguous()
    meta = {"format": "eec-studio-heads/1", "dimensions": json.dumps(list(heads)), "config": json.dumps(asdict(config))}
    save_file(tensors, str(path), metadata=meta)


def load_heads(path: str | Path, *, allow_pickle: bool = False) -> dict[str, Any]:
    """Rebuild every head from a heads file (shapes read from the tensors themselves)."""
    state = load_torch_state(path, allow_pickle=allow_pickle)
    grouped: dict[str, dict[str, Any]] = {}
    for key, tensor in state.items():
        dim, _, name = key.partition("/")
        grouped.setdefault(dim, {})[name] = tensor
    heads = {}
    for dim, sd in grouped.items():
        try:
            hidden, in_dim = sd["fc0.weight"].shape
            head = build_head(int(in_dim), int(hidden))
            head.load_state_dict(sd)
        except (KeyError, RuntimeError, ValueError) as exc:
            raise ModelError(str(path), f"head '{dim}' has unexpected tensors ({exc})", field=dim,
                             fix=f"retrain with `{command('train')}`") from None
        head.eval()
        heads[dim] = head
    return heads


def heads_digest(heads: dict[str, Any]) -> str:
    """sha256 over every head's parameter bytes (fingerprint for heads not yet saved)."""
    import hashlib

    h = hashlib.sha256()
    for dim in sorted(heads):
        for k, v in sorted(heads[dim].state_dict().items()):
            h.update(f"{dim}/{k}".encode())
            h.update(v.detach().cpu().float().numpy().tobytes())
    return h.hexdigest()
