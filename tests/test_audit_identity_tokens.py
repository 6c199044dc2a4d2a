"""Issue 37 item 8: identity words a tokenizer-based model cannot see are named, and pairs whose two
sides reach the model as the same ids are left out of the paired tests with a note."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")


def test_a_tokenizer_without_japanese_names_its_unknown_person_words_and_collided_pairs(tmp_path, run):
    """ja-goldfarb2023 audited with a tiny English-only WordPiece classifier: the audit names the person
    words that become [UNK] and the counterfactual pairs whose sides are identical ids, and leaves those
    pairs out of the counterfactual test."""
    from testkit.audit_fixtures import make_tiny_classifier

    model = make_tiny_classifier(tmp_path / "tiny-en")
    out = tmp_path / "audit"
    r = run("audit", "--corpus", "ja-goldfarb2023", "--model", f"hf-classifier:{model}", "--stats",
                 "counterfactual", "--out", str(out), "--bootstrap", "0", "--person-permutations", "0")
    assert r.returncode == 0, r.stderr
    man = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    checks = [c for c in man["identity_tokens"] if c["corpus"] == "ja-goldfarb2023"]
    assert checks and checks[0]["unknown_person_words"], checks
    assert len(checks[0]["unknown_person_words"]) >= checks[0]["n_person_words"] // 2
    assert checks[0]["collided_pairs"] > 0 and checks[0]["colliding_sentences"] > 0
    summary = (out / "summary.txt").read_text(encoding="utf-8")
    assert "person words become unknown tokens" in summary and "left out of its paired tests" in summary
    assert any(w in summary for w in checks[0]["unknown_person_words"][:8])
    cf = (out / "stats" / "counterfactual.csv").read_text(encoding="utf-8")
    assert "pairs left out: their two sentences reach the model as the same token ids" in summary + cf


def test_a_model_that_reads_the_language_passes_the_check():
    """An English corpus through the same English vocabulary: every person word is seen (no [UNK]),
    distinct sentences stay distinct."""
    from engine.audit.identity_tokens import identity_visibility
    import pandas as pd

    class Tok:  # a word-level tokenizer that knows every word given
        unk_token_id = 0

        def __call__(self, texts, add_special_tokens=False):
            vocab = {}
            return {"input_ids": [[vocab.setdefault(w, len(vocab) + 1) for w in t.split()] for t in texts]}

    df = pd.DataFrame({"Person": ["Amanda", "Alonzo"], "Sentence": ["Amanda feels angry.", "Alonzo feels angry."]})
    pairs = pd.DataFrame({"pair_id": ["p1"], "privileged": ["Amanda feels angry."], "minoritised": ["Alonzo feels angry."]})
    v = identity_visibility("c", "m", Tok(), df, pairs)
    assert v.clean and v.message() == ""
