"""Scorer kinds are registrations (engine.models.specs.ScorerKind), not branches of an if-chain."""
from __future__ import annotations

import pytest

from engine.models import specs
from engine.models.errors import ModelError


def test_every_builtin_spec_string_still_parses_to_its_kind():
    assert specs.parse_spec("VADER") == ("vader", "", {})
    assert specs.parse_spec("textblob?name=tb") == ("textblob", "", {"name": "tb"})
    assert specs.parse_spec("predictions:/x/p.tsv?key=id") == ("predictions", "/x/p.tsv", {"key": "id"})
    assert specs.parse_spec("hf-classifier:/m/bert")[0] == "hf-classifier"
    assert specs.parse_spec("llm:/m/q.gguf?prompt=a")[:2] == ("llm", "/m/q.gguf")
    assert specs.parse_spec("/models/svm-en") == ("model", "/models/svm-en", {})
    assert specs.parse_spec("C:/models/x")[0] == "model"  # a drive letter is no kind
    assert specs.kinds()[:6] == ("vader", "textblob", "model", "hf-classifier", "predictions", "llm")
    # the local-model kinds name the pip extra their libraries come with (engine.common.extras)
    assert {k.kind: k.extra for k in specs.scorer_kinds()}["llm"] == "models"


class _Echo:
    name, dimensions = "echo", ["length"]

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def fingerprint(self) -> str:
        return f"echo/{self.scale}"

    def score(self, texts, **_kw):
        import numpy as np

        return np.array([[len(t) * self.scale] for t in texts])


def test_a_registered_kind_loads_through_the_one_loader_with_the_common_options():
    seen = {}

    def load(req: specs.LoadRequest):
        seen.update(req.common)
        bad = set(req.opts) - {"scale"}
        if bad:
            raise ModelError(req.spec, f"unknown option {sorted(bad)[0]!r}", field="--model")
        return _Echo(float(req.opts.get("scale", 1)))

    specs.register_scorer(specs.ScorerKind("echo", load, "text length (a test's scorer)", needs_target=False))
    try:
        scorer = specs.load_scorer("echo?scale=2&batch_size=8")
        assert scorer.score(["abc"]).tolist() == [[6.0]] and seen == {"batch_size": 8}
        with pytest.raises(ModelError, match="unknown option 'colour'"):
            specs.load_scorer("echo?colour=red")
        with pytest.raises(ModelError, match="already registered"):
            specs.register_scorer(specs.ScorerKind("echo", load))
    finally:
        specs.unregister_scorer("echo")
    assert specs.parse_spec("echo")[0] == "model"  # gone: a bare word is a folder again
