"""LLM scorer, every tokenizer family: the ids read are tokenizer(whole prompt), and each label's
probability is that of its complete token sequence, checked against a hand computation (testkit.llm_reference:
no cache, no padding, one plain forward per label).

Families (testkit.tiny_tokenizers, trained here): byte-level BPE with GPT-2's and with Qwen2's split
rule, SentencePiece-style BPE (Llama-2: Metaspace, digits split, <s>), Unigram, WordPiece ([CLS] … [SEP]).
"""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from engine.models.errors import ModelError  # noqa: E402
from engine.models.scorers.llm import LLMScorer  # noqa: E402
from testkit.llm_reference import label_sequence_probs  # noqa: E402
from testkit.tiny_tokenizers import FAMILIES, make_family_lm  # noqa: E402

TEXTS = ["She feels angry.", "My brother made me feel happy about the day.", "¿Qué tal? 今日は悲しい。", "I",
         "The conversation with him was irritating."]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("families")
    return {f: make_family_lm(root / f, f, seed=k, arch="qwen2" if f == "qwen2" else "llama")
            for k, f in enumerate(FAMILIES)}


def _modes(folder):
    scorer = LLMScorer(folder, device="cpu", prompt="anger-en")
    return [False, True] if getattr(scorer.load_tokenizer(), "chat_template", None) else [False]


def _expected_ids(scorer, text):
    """tokenizer(whole text) as its family writes it: plain prompts with the tokenizer's own specials,
    without what a post-processor appends after the text (WordPiece's [SEP], after the answer position)."""
    tok = scorer.load_tokenizer()
    pp = scorer.prepared()[0]
    whole = scorer.rendered(text)
    if pp.mode == "chat":
        return list(tok(whole, add_special_tokens=False)["input_ids"])
    ids = list(tok(whole)["input_ids"])
    if tok.sep_token_id is not None and ids[-1] == tok.sep_token_id:
        ids = ids[:-1]
    return ids


@pytest.mark.parametrize("family", FAMILIES)
def test_ids_read_are_the_whole_prompt_tokenised_once(folders, family):
    for chat in _modes(folders[family]):
        for prompt in ("anger-en", "sentiment-en", "joy-es"):
            scorer = LLMScorer(folders[family], device="cpu", prompt=prompt, chat=chat)
            for text in TEXTS:
                assert scorer.input_ids(text) == _expected_ids(scorer, text), (family, chat, prompt, text)


@pytest.mark.parametrize("family", FAMILIES)
def test_label_probabilities_equal_the_whole_sequence_probability(folders, family, tmp_path):
    """Renormalised label probabilities and the label mass, with and without the prefix cache, batched,
    equal the hand computation to 1e-6; at least one label of several tokens is among them (a label
    whose first piece is a bare "▁" on the Unigram tokenizer, "extremely angry", included)."""
    words = _custom(tmp_path, ["not angry", "angry", "extremely angry"], [0, 1, 2], name="words")
    multi = 0
    for chat in _modes(folders[family]):
        for prompt in ("sentiment-en", "anger-en", "c"):
            files = {"prompt_file": words} if prompt == "c" else {}
            scorer = LLMScorer(folders[family], device="cpu", prompt=prompt, chat=chat, batch_size=3, **files)
            cached = scorer.probabilities(TEXTS)
            whole = scorer.probabilities(TEXTS, prefix_cache=False)
            pp = scorer.prepared()[0]
            multi += sum(len(s) > 1 for s in pp.plan.rests)
            labels = list(pp.prompt.labels)
            for i, text in enumerate(TEXTS):
                ref = label_sequence_probs(scorer._tok, scorer._model, scorer.rendered(text), labels,
                                           sep=pp.tokens.sep, add_special=pp.mode == "plain")
                np.testing.assert_allclose(cached[i, :-1], ref["probs"], atol=1e-6, rtol=0)
                np.testing.assert_allclose(whole[i, :-1], ref["probs"], atol=1e-6, rtol=0)
                assert cached[i, -1] == pytest.approx(sum(ref["disjoint"]), abs=1e-6)
            assert pp.shared > 0 or not pp.prefix_ids  # the cache served where a prefix exists
    assert multi > 0, f"{family}: no label of several tokens, the test would prove nothing"


def _custom(tmp_path, labels, values, name="scale"):
    f = tmp_path / f"{name}.toml"
    f.write_text('language = "en"\n[[prompt]]\nid = "c"\nversion = 1\ntask = "c"\nuser = "Rate:\\n{text}"\n'
                 f"labels = {labels!r}\nvalues = {values!r}\n".replace("'", '"'), encoding="utf-8")
    return str(f)


def test_a_0_to_20_scale_is_read_on_a_digit_by_digit_tokenizer(folders, tmp_path):
    """Llama-2 style: "1" and "10".."19" start alike; "1" keeps what does not continue into another label.
    Only the first-token reading refuses it, naming the two labels."""
    labels = [str(v) for v in range(21)]
    spec = _custom(tmp_path, labels, list(range(21)))
    scorer = LLMScorer(folders["llama2"], device="cpu", prompt_file=spec, batch_size=2)
    got = scorer.probabilities(TEXTS[:3])
    pp = scorer.prepared()[0]
    assert pp.plan.children[1] == tuple(range(10, 20)) and pp.plan.children[2] == (20,)
    for i, text in enumerate(TEXTS[:3]):
        ref = label_sequence_probs(scorer._tok, scorer._model, scorer.rendered(text), labels, sep=pp.tokens.sep,
                                   add_special=pp.mode == "plain")
        np.testing.assert_allclose(got[i, :-1], ref["probs"], atol=1e-6, rtol=0)
    fast = LLMScorer(folders["llama2"], device="cpu", prompt_file=spec, label_reading="first_token")
    with pytest.raises(ModelError, match="labels '1' and '10' both start with the token '1'"):
        fast.score(TEXTS[:1])


def test_labels_the_tokenizer_writes_alike_are_refused_naming_both(folders, tmp_path):
    """WordPiece lower-cases: "Positive" and "positive" are one token sequence."""
    spec = _custom(tmp_path, ["negative", "Positive", "positive"], [0, 1, 1])
    scorer = LLMScorer(folders["wordpiece"], device="cpu", prompt_file=spec)
    with pytest.raises(ModelError, match="labels 'Positive' and 'positive' are the same tokens") as err:
        scorer.score(TEXTS[:1])
    assert err.value.field == "labels" and err.value.line == 2


def test_first_token_reading_is_a_named_option_recorded_in_the_manifest(folders):
    from engine.models.specs import load_scorer

    wp = folders["wordpiece"]  # one token per sentiment label: both readings agree
    fast = load_scorer(f"llm:{wp}?prompt=sentiment-en&label_reading=first_token&device=cpu")
    exact = load_scorer(f"llm:{wp}?prompt=sentiment-en&device=cpu")
    np.testing.assert_allclose(fast.score(TEXTS).to_numpy(), exact.score(TEXTS).to_numpy(), atol=1e-6)
    assert (fast.describe()["label_reading"], exact.describe()["label_reading"]) == ("first_token", "sequence")
    assert fast.fingerprint() != exact.fingerprint()
    with pytest.raises(ModelError, match="unknown label_reading 'first'"):
        load_scorer(f"llm:{wp}?label_reading=first")
