"""Run any test from the library or a file against any representation: one entry point.

Why here and not in the CLI: the CLI, the GUI and scripts need the same dispatch
(test kind × provider kind) and the same refusals; the CLI only parses arguments.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .crows import CrowsResult, run_crows
from .errors import AssocError
from .fise import FiseResult, run_fise
from .lpbs import run_lpbs
from .procrustes import align, read_dictionary
from .providers.spec import hf_path, is_hf_spec, open_vectors
from .seat import run_seat, seat_from_weat
from .stimuli import TestSpec
from .weat import WeatOptions, WeatResult, run_weat

Result = WeatResult | CrowsResult | FiseResult
AS_CHOICES = ("auto", "weat", "seat", "lpbs")


@dataclass
class RunConfig:
    vectors: str = "glove-6b-50d"
    attr_vectors: str | None = None  # cross-lingual: the attribute language's space
    dictionary: str | None = None  # cross-lingual: word pairs L1 -> L2 for Procrustes
    weat: WeatOptions = field(default_factory=WeatOptions)
    run_as: str = "auto"  # run a word test as SEAT or LPBS
    level: str = "sentence"  # SEAT on a contextual model: sentence or token
    lowercase: bool | None = None
    vocab: str | None = None
    subword: bool = True
    template: str = "WORD"  # WEAT on a contextual model: the word's carrier sentence
    template_family: str | None = None
    templates_file: str | None = None  # SEAT from a word test: own templates, one per line with WORD
    affect_vectors: str | None = None  # FISE: vectors for valence / ingressivity
    top_k: int = 10
    limit: int | None = None  # CrowS-Pairs: first N pairs only (quick looks)
    device: str | None = None
    normalize: bool = True


def _open(spec: str, cfg: RunConfig) -> Any:
    return open_vectors(spec, lowercase=cfg.lowercase, vocab=cfg.vocab, subword=cfg.subword, level=cfg.level,
                        template=cfg.template, device=cfg.device)


def _mlm(cfg: RunConfig) -> Any:
    from .providers.masked_lm import MaskedLM

    if not is_hf_spec(cfg.vectors):
        raise AssocError(f"{cfg.vectors!r} is not a model folder", field="--vectors",
                         fix="LPBS and CrowS-Pairs need a local masked LM: --vectors hf:FOLDER")
    return MaskedLM(hf_path(cfg.vectors), device=cfg.device)


def run_test(spec: TestSpec, cfg: RunConfig | None = None, *, provider: Any = None) -> Result:
    """Run ``spec``; ``provider`` (already opened vectors) overrides ``cfg.vectors``."""
    cfg = cfg or RunConfig()
    kind = spec.kind
    run_as = cfg.run_as
    if run_as not in AS_CHOICES:
        raise AssocError(f"--as must be one of {', '.join(AS_CHOICES)}", field="--as")
    if run_as != "auto" and kind != "weat" and run_as != kind:
        raise AssocError(f"a {kind} test cannot be run as {run_as}", file=spec.id, field="--as",
                         fix="--as converts word-level (WEAT) tests only")
    if kind == "crows":
        return run_crows(spec, _mlm(cfg), limit=cfg.limit)
    if kind == "lpbs" or run_as == "lpbs":
        return run_lpbs(spec, _mlm(cfg), cfg.weat)
    prov = provider if provider is not None else _open(cfg.vectors, cfg)
    if kind == "fise":
        aff = _open(cfg.affect_vectors, cfg) if cfg.affect_vectors else None
        return run_fise(spec, prov, affect_provider=aff, metric=cfg.weat.metric, top_k=cfg.top_k,
                        min_coverage=cfg.weat.min_coverage)
    if kind == "seat" or run_as == "seat":
        if kind == "weat":
            from .library import read_templates

            fams = read_templates(cfg.templates_file) if cfg.templates_file else None
            spec = seat_from_weat(spec, fams, family=cfg.template_family)
        return run_seat(spec, prov, cfg.weat, level=cfg.level)
    # word-level WEAT / XWEAT
    if cfg.dictionary and not cfg.attr_vectors:
        raise AssocError("a dictionary aligns two monolingual spaces, but only one was given", field="--dictionary",
                         fix="add --attr-vectors FILE (the attribute language's vectors), or drop --dictionary "
                             "when --vectors is already a shared cross-lingual space")
    if cfg.dictionary and not spec.attr_language:
        raise AssocError("--dictionary is for cross-lingual tests", field="--dictionary",
                         fix="give --attr-lang L2 (with --lang L1), or drop --dictionary")
    if spec.attr_language and cfg.attr_vectors:
        if not cfg.dictionary:
            raise AssocError("a cross-lingual test over two monolingual spaces needs a dictionary",
                             field="--dictionary", fix="give --dictionary FILE with 'L1word<TAB>L2word' pairs")
        attr = _open(cfg.attr_vectors, cfg)
        mapped, target = align(prov, attr, read_dictionary(cfg.dictionary), normalize=cfg.normalize)
        res = run_weat(spec, mapped, cfg.weat, attr_provider=target)
        res.extra.update({f"procrustes_{k}": v for k, v in mapped.info.items()})
        return res
    if cfg.attr_vectors and not spec.attr_language:
        raise AssocError("--attr-vectors is for cross-lingual tests", field="--attr-lang",
                         fix="give --attr-lang L2 (and --dictionary) or drop --attr-vectors")
    res = run_weat(spec, prov, cfg.weat)
    if spec.attr_language:  # both languages looked up in the one space given: it must already be cross-lingual
        res.extra["space"] = "as given (assumed cross-lingual)"
    return res
