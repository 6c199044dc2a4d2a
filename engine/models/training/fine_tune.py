"""Fine-tune a local encoder as a sequence classifier with several seeds (Goldfarb-Tarrant et al.).

Why several seeds and a majority vote: fine-tuning on small data is high-variance; the
paper trains five runs and ensembles them so that a bias finding is not an accident of
one initialisation. Each member is saved with `save_pretrained` (safetensors) in
`seed-<n>/`, and the folder's manifest lists the members so `load_scorer` rebuilds the
ensemble. A plain training loop (no `Trainer`) keeps the dependency list short.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.common.progress import ProgressTracker, check_cancel
from engine.models.batching import pad_batch
from engine.models.device import select_device
from engine.models.errors import ModelError
from engine.models.fingerprint import folder_fingerprint
from engine.models.hf_loading import load_model, load_tokenizer, offline, quiet_transformers, resolve_model_dir


@dataclass
class FineTuneConfig:
    epochs: int = 3
    lr: float = 2e-5
    batch_size: int = 16
    max_length: int = 128
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1


def ordered_labels(labels: list[Any]) -> list[str]:
    """Distinct labels as strings, numerically sorted when they are all numbers."""
    distinct = sorted({str(x) for x in labels})
    try:
        return sorted(distinct, key=float)
    except ValueError:
        return distinct


def fine_tune_member(base: Path, texts: list[str], labels: list[str], label_list: list[str], *, seed: int,
                     config: FineTuneConfig, out: Path, device: Any, allow_pickle: bool,
                     tracker: ProgressTracker | None = None, cancel: Any = None) -> Path:
    """Train one seed's model and save it to `out`."""
    import numpy as np
    import torch

    torch.manual_seed(seed)
    np.random.seed(seed)
    id2label = {i: lab for i, lab in enumerate(label_list)}
    label2id = {lab: i for i, lab in id2label.items()}
    tok = load_tokenizer(base)
    # same safe path as scoring: safetensors preferred, pickles only if allowed and then weights_only
    model = load_model(base, "AutoModelForSequenceClassification", allow_pickle=allow_pickle,
                       num_labels=len(label_list), id2label=id2label, label2id=label2id, ignore_mismatched_sizes=True)
    model.to(device.torch_device)
    seqs = tok(list(texts), truncation=True, max_length=config.max_length)["input_ids"]
    y = torch.tensor([label2id[str(lab)] for lab in labels], dtype=torch.long)
    no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)], "weight_decay": config.weight_decay},
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=config.lr)
    steps = config.epochs * ((len(seqs) + config.batch_size - 1) // config.batch_size)
    warm = int(steps * config.warmup_ratio)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / max(1, warm) if s < warm else max(0.0, (steps - s) / max(1, steps - warm)))
    gen = torch.Generator().manual_seed(seed)
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    types = "token_type_ids" in tok.model_input_names
    model.train()
    for _ in range(config.epochs):
        perm = torch.randperm(len(seqs), generator=gen).tolist()
        for start in range(0, len(perm), config.batch_size):
            check_cancel(cancel)
            idx = perm[start:start + config.batch_size]
            batch = {k: v.to(device.torch_device) for k, v in pad_batch([seqs[i] for i in idx], pad, with_token_types=types).items()}
            loss = model(**batch, labels=y[idx].to(device.torch_device)).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            if tracker is not None:
                tracker.advance(len(idx))
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    with quiet_transformers():
        model.save_pretrained(str(out))  # safetensors
        tok.save_pretrained(str(out))
    return out


def fine_tune_ensemble(base_model: str | Path, texts: list[str], labels: list[Any], *, out_dir: str | Path,
                       seeds: list[int] = (1, 2, 3, 4, 5), config: FineTuneConfig | None = None,
                       device: str | None = None, allow_pickle: bool = False, progress: Any = None,
                       cancel: Any = None, manifest_extra: dict[str, Any] | None = None) -> Path:
    """Fine-tune one member per seed into `out_dir/seed-<n>/` and write the ensemble manifest."""
    from engine.models.manifest import write_manifest

    offline()
    config = config or FineTuneConfig()
    if len(texts) != len(labels) or not texts:
        raise ModelError("", "need the same, non-zero number of texts and labels", field="labels")
    label_list = ordered_labels(list(labels))
    if len(label_list) < 2:
        raise ModelError("", f"only one distinct label ({label_list[0]!r}) in the training data", field="label",
                         fix="a classifier needs at least two classes")
    base = resolve_model_dir(base_model)
    dev = select_device(device)
    out = Path(out_dir)
    tracker = ProgressTracker(len(texts) * config.epochs * len(seeds), progress)
    members = []
    for seed in seeds:
        fine_tune_member(base, list(texts), [str(x) for x in labels], label_list, seed=int(seed), config=config,
                         out=out / f"seed-{seed}", device=dev, allow_pickle=allow_pickle, tracker=tracker, cancel=cancel)
        members.append(f"seed-{seed}")
    write_manifest(out, {
        "system": "classifier-ensemble", "name": out.name, "dimensions": ["vote", "vote_share", "expected", "expected_01"],
        "labels": label_list, "members": members, "seeds": [int(s) for s in seeds], "model_id": str(base_model),
        "model_fingerprint": folder_fingerprint(base), "settings": asdict(config), "device": dev.as_dict(),
        **(manifest_extra or {}),
    })
    return out
