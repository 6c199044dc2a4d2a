"""Device and precision choices for torch-based scorers.

Why in one place: every transformer path needs the same three decisions — which device,
which autocast dtype (and is it accurate enough), what to do on out-of-memory — and the
run manifest must record them identically.

Precision rule: on CUDA, `precision="auto"` tries bf16 (fp16 where bf16 is unsupported)
and keeps it only if the outputs on probe sentences stay within `PRECISION_TOLERANCE`
(absolute, on the scorer's final outputs: head scores or class probabilities) of fp32;
otherwise fp32. On CPU, "auto" means fp32 (CPU autocast is slower on most machines).
Explicit "bf16"/"fp16" are verified the same way on any device.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import Any, Callable

from engine.models.errors import ModelError

PRECISION_TOLERANCE = 1e-2
PRECISIONS = ("auto", "fp32", "bf16", "fp16")

#: Short, varied probe sentences for the autocast-vs-fp32 check (no user data needed).
PROBE_TEXTS = [
    "She feels angry.", "The situation makes him feel terrified.",
    "I made my father feel happy.", "My sister told us all about the recent depressing events.",
    "Ella se siente feliz.", "هو يشعر بالحزن.", "This is a neutral sentence about a table.",
    "Wow!!! best day ever :)",
]


@dataclass(frozen=True)
class DeviceInfo:
    """The device a scorer runs on, as recorded in run manifests."""

    type: str  # "cuda" or "cpu"
    index: int | None = None
    name: str = ""
    threads: int = 1
    bf16: bool = False

    @property
    def torch_device(self) -> str:
        return f"cuda:{self.index}" if self.type == "cuda" and self.index is not None else self.type

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "index": self.index, "name": self.name, "threads": self.threads, "bf16": self.bf16}


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def select_device(prefer: str | None = None) -> DeviceInfo:
    """CUDA when available (or asked for), else CPU with `cpu_threads()` threads (idle usable cores).

    `prefer`: None/"auto", "cpu", "cuda" or "cuda:N". Asking for CUDA where there is none
    is an error (silently falling back would make timing and precision claims wrong).
    """
    import torch

    prefer = (prefer or "auto").lower()
    if prefer.startswith("cuda") or (prefer == "auto" and torch.cuda.is_available()):
        if not torch.cuda.is_available():
            raise ModelError("", "CUDA was requested but no CUDA device is available", field="device",
                             fix="use --device cpu (or auto)")
        index = int(prefer.split(":", 1)[1]) if ":" in prefer else torch.cuda.current_device()
        return DeviceInfo("cuda", index, torch.cuda.get_device_name(index), torch.get_num_threads(),
                          bool(torch.cuda.is_bf16_supported()))
    if prefer not in ("auto", "cpu"):
        raise ModelError("", f"unknown device '{prefer}'", field="device", fix="use auto, cpu, cuda or cuda:N")
    threads = cpu_threads()
    if torch.get_num_threads() != threads:
        # torch defaults to the physical cores of the host, which in a container can exceed
        # the cores we may use; oversubscription makes CPU inference several times slower.
        torch.set_num_threads(threads)
    return DeviceInfo("cpu", None, "cpu", threads, True)


def cpu_threads(cores: int | None = None, load: float | None = None) -> int:
    """Torch threads for CPU inference: the usable cores not already busy, at least 1.

    Why not simply all cores: torch's intra-op threads meet at a barrier after every
    operation; when another process holds one of the cores, every barrier waits for a
    descheduled thread. Measured on a shared 2-core machine at load ~2.5 (MiniLM, 600
    sentences): 2 threads 63 sentences/s, 1 thread 495/s. So cores minus the 1-minute load
    average (other processes' demand), rounded, clamped to [1, cores].
    `EEC_TORCH_THREADS=N` overrides the rule.
    """
    env = os.environ.get("EEC_TORCH_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            raise ModelError("", f"EEC_TORCH_THREADS={env!r} is not a whole number", field="EEC_TORCH_THREADS",
                             fix="set it to a thread count such as 4, or unset it") from None
    cores = cores if cores is not None else _cpu_count()
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # not available (Windows)
            load = 0.0
    return max(1, min(cores, int(round(cores - load))))


def candidate_dtype(device: DeviceInfo, precision: str) -> Any:
    """The autocast dtype to try for a precision setting, or None for plain fp32."""
    import torch

    if precision not in PRECISIONS:
        raise ModelError("", f"unknown precision '{precision}'", field="precision", fix=f"use one of {', '.join(PRECISIONS)}")
    if precision == "fp32" or (precision == "auto" and device.type != "cuda"):
        return None
    if precision == "bf16" or (precision == "auto" and device.bf16):
        return torch.bfloat16
    return torch.float16


def autocast(device: DeviceInfo, dtype: Any) -> contextlib.AbstractContextManager:
    """torch.autocast for `dtype`, or a no-op for fp32."""
    if dtype is None:
        return contextlib.nullcontext()
    import torch

    return torch.autocast(device_type=device.type, dtype=dtype)


def attention_kernels(device: DeviceInfo | None) -> contextlib.AbstractContextManager:
    """On CUDA, scaled-dot-product attention without the cuDNN kernel; elsewhere a no-op.

    Why: torch picks cuDNN's attention for bf16/fp16 on Hopper cards, and cuDNN builds a plan for
    every new shape; length-sorted batches have a new length almost every batch. Measured on an
    H100 (bench/gpu_check.sh): bf16/fp16 scoring ran slower than fp32 with it (LLM: 355 vs 795
    sentences/s in bf16; BERT-base encoder: 877 vs 2,532). Used by every transformer scorer.
    """
    if device is None or device.type != "cuda":
        return contextlib.nullcontext()
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:  # torch < 2.3
        return contextlib.nullcontext()
    return sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH])


@dataclass(frozen=True)
class PrecisionCheck:
    """Outcome of the autocast-vs-fp32 comparison, recorded in run manifests."""

    requested: str
    used: str  # "fp32", "bf16" or "fp16"
    max_abs_diff: float | None
    tolerance: float = PRECISION_TOLERANCE

    def as_dict(self) -> dict[str, Any]:
        return {"requested": self.requested, "used": self.used, "max_abs_diff": self.max_abs_diff,
                "tolerance": self.tolerance}


def dtype_name(dtype: Any) -> str:
    if dtype is None:
        return "fp32"
    import torch

    return {torch.bfloat16: "bf16", torch.float16: "fp16"}.get(dtype, str(dtype))


def resolve_precision(device: DeviceInfo, precision: str, run: Callable[[Any], Any],
                      tolerance: float = PRECISION_TOLERANCE) -> tuple[Any, PrecisionCheck]:
    """Pick the autocast dtype: the candidate if `run(dtype)` stays within tolerance of `run(None)`.

    `run(dtype)` returns the final outputs (numpy array) on probe inputs.
    """
    import numpy as np

    dtype = candidate_dtype(device, precision)
    if dtype is None:
        return None, PrecisionCheck(precision, "fp32", None, tolerance)
    ref = np.asarray(run(None), dtype=np.float64)
    low = np.asarray(run(dtype), dtype=np.float64)
    diff = float(np.max(np.abs(ref - low))) if ref.size else 0.0
    if not np.isfinite(diff) or diff > tolerance:
        return None, PrecisionCheck(precision, "fp32", diff, tolerance)
    return dtype, PrecisionCheck(precision, dtype_name(dtype), diff, tolerance)


def is_oom(exc: BaseException) -> bool:
    """True for a CUDA (or other accelerator) out-of-memory error."""
    try:
        import torch

        if isinstance(exc, torch.OutOfMemoryError):
            return True
    except (ImportError, AttributeError):
        pass
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


def free_memory(device: DeviceInfo) -> None:
    if device.type == "cuda":
        import torch

        torch.cuda.empty_cache()
