"""Hugging Face code paths on tiny models made here: encoders, GPT-2, masked LM, LPBS, CrowS-Pairs."""
from __future__ import annotations

import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from engine.assoc.crows import run_crows  # noqa: E402
from engine.assoc.errors import AssocError, MissingHeadError  # noqa: E402
from engine.assoc.lpbs import run_lpbs  # noqa: E402
from engine.assoc.providers.contextual import ContextualEncoder  # noqa: E402
from engine.assoc.providers.masked_lm import MaskedLM  # noqa: E402
from engine.assoc.seat import run_seat  # noqa: E402
from engine.assoc.stimuli import SentenceItem, TestSpec, WordSet  # noqa: E402
from engine.assoc.weat import WeatOptions, run_weat  # noqa: E402

WORDS = ("the a is here there this that flower insect love hate war peace man woman he she good bad doctor "
         "nurse rose ant joy pain").split()


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    from tokenizers import Tokenizer, decoders, models as tmodels, pre_tokenizers, trainers
    from transformers import (BertConfig, BertForMaskedLM, BertModel, BertTokenizerFast, GPT2Config, GPT2Model,
                              PreTrainedTokenizerFast)

    d = tmp_path_factory.mktemp("hf")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + ["##s", "##er", "##ly", "do", "##ctor"]
    tok = BertTokenizerFast(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=True)
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=32, max_position_embeddings=64, initializer_range=0.5)
    BertForMaskedLM(cfg).save_pretrained(d / "bert_mlm")
    tok.save_pretrained(d / "bert_mlm")
    BertModel(cfg).save_pretrained(d / "bert_bare")  # an encoder export without MLM head
    tok.save_pretrained(d / "bert_bare")
    bpe = Tokenizer(tmodels.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    bpe.train_from_iterator(["this is a flower", "the insect is here", "love and peace", "war is bad"] * 5, trainer)
    gtok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                                   unk_token="<|endoftext|>")
    gcfg = GPT2Config(vocab_size=bpe.get_vocab_size(), n_embd=16, n_layer=2, n_head=2, n_positions=64,
                      initializer_range=0.5, bos_token_id=0, eos_token_id=0)
    GPT2Model(gcfg).save_pretrained(d / "gpt2")
    gtok.save_pretrained(d / "gpt2")
    return d


def test_missing_mlm_head_is_refused(models):
    with pytest.raises(MissingHeadError) as exc:
        MaskedLM(models / "bert_bare")
    msg = str(exc.value)
    assert "no masked-LM head" in msg and "cls.predictions" in msg and "bert_bare" in msg


def test_gpt2_is_not_a_masked_lm(models):
    with pytest.raises(AssocError, match="no mask token"):
        MaskedLM(models / "gpt2")


def test_missing_model_folder(tmp_path):
    with pytest.raises(AssocError, match="model folder not found"):
        MaskedLM(tmp_path / "nope")


def _hidden(path, text):
    from transformers import AutoModel, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(path))
    model = AutoModel.from_pretrained(str(path)).eval()
    enc = tok(text, return_tensors="pt")
    with torch.no_grad():
        return tok, enc, model(**enc).last_hidden_state[0].numpy()


def test_token_level_is_mean_of_word_subtokens(models):
    enc_model = ContextualEncoder(models / "bert_mlm", batch_size=4)
    items = [SentenceItem("this is a flower here.", "flower"), SentenceItem("the doctors is there", "doctors"),
             SentenceItem("he is good", "he")]
    got = enc_model.embed(items, level="token")
    tok, enc, h = _hidden(models / "bert_mlm", "the doctors is there")
    pieces = tok.convert_ids_to_tokens(enc["input_ids"][0])
    assert pieces[2:4] == ["doctor", "##s"]
    np.testing.assert_allclose(got[1], h[2:4].mean(axis=0), atol=1e-5)
    sent = enc_model.embed(items, level="sentence")
    _, _, h0 = _hidden(models / "bert_mlm", "this is a flower here.")
    np.testing.assert_allclose(sent[0], h0[0], atol=1e-5)  # [CLS]


def test_gpt2_sentence_level_is_last_real_token_despite_padding(models):
    enc_model = ContextualEncoder(models / "gpt2", batch_size=8)
    assert enc_model.last_token
    items = [SentenceItem("war is bad", "war"), SentenceItem("this is a flower and the insect is here", "insect")]
    batch = enc_model.embed(items, level="sentence")
    _, _, h = _hidden(models / "gpt2", "war is bad")
    np.testing.assert_allclose(batch[0], h[-1], atol=1e-5)
    single = ContextualEncoder(models / "gpt2", batch_size=1).embed(items, level="token")
    np.testing.assert_allclose(enc_model.embed(items, level="token"), single, atol=1e-5)


def test_token_level_needs_the_word(models):
    enc_model = ContextualEncoder(models / "bert_mlm")
    with pytest.raises(AssocError, match="needs the stimulus word"):
        enc_model.embed([SentenceItem("this is here")], level="token")


def _spec(kind="weat"):
    return TestSpec(id="tiny", kind=kind, X=WordSet.of("x", ["he", "man", "doctor"]),
                    Y=WordSet.of("y", ["she", "woman", "nurse"]), A=WordSet.of("a", ["good", "joy", "love"]),
                    B=WordSet.of("b", ["bad", "pain", "war"]), templates=("TARGET is ATTRIBUTE",))


def test_weat_and_seat_on_contextual_models(models):
    for name in ("bert_mlm", "gpt2"):
        enc_model = ContextualEncoder(models / name)
        res = run_weat(_spec(), enc_model, WeatOptions())
        assert res.permutation.method == "exact" and res.n_x == 3
        assert all(c.found == c.listed for c in res.coverage)
        seat = run_seat(_spec(), enc_model, WeatOptions(), level="token")
        assert seat.kind == "seat" and seat.n_x == 3 * 6  # six English "nouns" templates per word
        assert np.isfinite(seat.effect_size)


def test_lpbs_increased_log_probability_matches_manual(models):
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    mlm = MaskedLM(models / "bert_mlm")
    asc = mlm.increased_log_prob(["doctors"], ["good"], "TARGET is ATTRIBUTE")
    tok = AutoTokenizer.from_pretrained(str(models / "bert_mlm"))
    model = AutoModelForMaskedLM.from_pretrained(str(models / "bert_mlm")).eval()
    t_ids = tok("doctors", add_special_tokens=False)["input_ids"]
    assert len(t_ids) == 2  # doctor ##s: both masked, log-probs summed

    def logp(text, positions):
        enc = tok(text, return_tensors="pt")
        with torch.no_grad():
            lp = torch.log_softmax(model(**enc).logits[0], -1)
        return sum(float(lp[p, t]) for p, t in zip(positions, t_ids))

    tgt = logp("[MASK] [MASK] is good", [1, 2])
    prior = logp("[MASK] [MASK] is [MASK]", [1, 2])
    assert asc[0, 0] == pytest.approx(tgt - prior, abs=1e-5)


def test_lpbs_runs_as_weat(models):
    res = run_lpbs(_spec("lpbs"), MaskedLM(models / "bert_mlm"), WeatOptions())
    assert res.kind == "lpbs" and res.permutation.method == "exact"
    assert res.permutation.n_partitions == 20 and np.isfinite(res.effect_size)


def test_crows_pll_matches_manual_and_batching(models):
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    mlm = MaskedLM(models / "bert_mlm", batch_size=64)
    s1, s2 = "he is a good doctor", "she is a good nurse"
    got = mlm.pll_pairs([(s1, s2)])
    tok = AutoTokenizer.from_pretrained(str(models / "bert_mlm"))
    model = AutoModelForMaskedLM.from_pretrained(str(models / "bert_mlm")).eval()
    ids = tok(s1)["input_ids"]
    # shared tokens: "is", "a", "good" at positions 2, 3, 4 (CLS at 0, he at 1)
    manual = 0.0
    for k in (2, 3, 4):
        masked = list(ids)
        masked[k] = tok.mask_token_id
        with torch.no_grad():
            lp = torch.log_softmax(model(input_ids=torch.tensor([masked])).logits[0, k], -1)
        manual += float(lp[ids[k]])
    assert got[0, 0] == pytest.approx(manual, abs=1e-5)
    one = MaskedLM(models / "bert_mlm", batch_size=1).pll_pairs([(s1, s2), ("the man is here", "the woman is here")])
    np.testing.assert_allclose(mlm.pll_pairs([(s1, s2), ("the man is here", "the woman is here")]), one, atol=1e-5)


def test_crows_run_reports_bias_scores(models, tmp_path):
    csv = tmp_path / "pairs.csv"
    csv.write_text("sent_more,sent_less,stereo_antistereo,bias_type\n"
                   "he is a doctor,she is a doctor,stereo,gender\n"
                   "she is a nurse,he is a nurse,stereo,gender\n"
                   "the woman is good,the man is good,antistereo,gender\n"
                   "the ant is bad,the rose is bad,stereo,other\n", encoding="utf-8")
    res = run_crows(TestSpec(id="c", kind="crows", data_file=str(csv)), MaskedLM(models / "bert_mlm"))
    assert len(res.pairs) == 4
    row = res.groups.set_index("subset").loc["all"]
    want = 100.0 * (res.pairs["pll_more"].round(3) > res.pairs["pll_less"].round(3)).mean()
    assert row["bias"] == pytest.approx(want)
    assert set(res.groups["subset"]) == {"all", "gender", "other"}
    assert "bias" in res.summary()


def test_cli_refuses_headless_checkpoint_in_one_line(models, tmp_path, capsys):
    import argparse

    from engine.assoc import cli

    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers())
    spec = tmp_path / "t.txt"
    spec.write_text("# tiny\nhe,man\nshe,woman\ngood,joy\nbad,pain\n", encoding="utf-8")
    args = parser.parse_args(["assoc", "run", "--test", str(spec), "--as", "lpbs",
                              "--vectors", f"hf:{models / 'bert_bare'}"])
    assert args.func(args) == 2  # exit code for bad input (README, "Exit codes")
    err = capsys.readouterr().err
    assert "no masked-LM head" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    args = parser.parse_args(["assoc", "run", "--test", str(spec), "--as", "lpbs", "--quiet",
                              "--vectors", f"hf:{models / 'bert_mlm'}", "--out", str(tmp_path / "l.csv")])
    assert args.func(args) == 0
    import pandas as pd

    assert pd.read_csv(tmp_path / "l.csv").loc[0, "kind"] == "lpbs"


def test_packaged_italian_crows_pairs_run_end_to_end(models):
    from engine.assoc.library import resolve

    res = run_crows(resolve("it/crows/crows_pairs_it"), MaskedLM(models / "bert_mlm"), limit=8)
    assert len(res.pairs) == 8 and res.groups.iloc[0]["subset"] == "all"
    assert set(res.pairs["direction"]) <= {"stereo", "antistereo"}
    assert set(res.to_frame()["subset"]) >= {"all"} and np.isfinite(res.pairs["pll_more"]).all()


def test_all_masked_copies_of_a_sentence_share_one_forward_pass(models):
    """CrowS-Pairs: every masked copy of a sentence goes through the model in the same batch."""
    mlm = MaskedLM(models / "bert_mlm", batch_size=4)
    calls = []
    forward = mlm.model.forward

    def spy(*args, **kwargs):
        calls.append(kwargs["input_ids"].cpu().numpy())
        return forward(*args, **kwargs)

    mlm.model.forward = spy
    pairs = [("he is a good doctor", "she is a good nurse"), ("the man is here", "the woman is here"),
             ("this is a flower", "this is a insect"), ("he is a good doctor here", "she is a good doctor here")]
    try:
        got = mlm.pll_pairs(pairs)
    finally:
        mlm.model.forward = forward
    # un-mask each row (its one [MASK] position gets the token of the other copies) and find its sentence
    sentences = [list(mlm._encode(s)) for p in pairs for s in p]
    where: dict[int, set[int]] = {}
    for c, batch in enumerate(calls):
        for row in batch:
            for si, ids in enumerate(sentences):
                if len(ids) <= len(row) and all(r == t or r == mlm.mask_id for r, t in zip(row, ids)) \
                        and all(r == 0 for r in row[len(ids):]):
                    where.setdefault(si, set()).add(c)
    assert len(where) == 8 and all(len(v) == 1 for v in where.values()), where
    assert max(len(b) for b in calls) == 5  # five shared tokens: five copies kept together despite batch_size=4
    assert all(len(b) <= 4 for b in calls if len(b) != 5)
    np.testing.assert_allclose(got, MaskedLM(models / "bert_mlm", batch_size=64).pll_pairs(pairs), atol=1e-5)


def test_unknown_words_are_dropped_and_reported(models):
    """A word the tokenizer writes as [UNK] is out of vocabulary for LPBS and contextual WEAT."""
    from engine.assoc.errors import CoverageError

    spec = TestSpec(id="unk", kind="lpbs", X=WordSet.of("x", ["he", "man", "doctor", "zebra"]),
                    Y=WordSet.of("y", ["she", "woman", "nurse", "nurse"]), A=WordSet.of("a", ["good", "joy", "love"]),
                    B=WordSet.of("b", ["bad", "pain", "war"]), templates=("TARGET is ATTRIBUTE",))
    mlm = MaskedLM(models / "bert_mlm")
    assert mlm.unknown(["zebra", "doctors", "he"]) == [True, False, False]
    with pytest.raises(CoverageError, match="set X 'x' has 3 of 4"):
        run_lpbs(spec, mlm, WeatOptions())
    res = run_lpbs(spec, mlm, WeatOptions(min_coverage=0.75))
    assert res.n_x == 3 and res.coverage[0].dropped == ["zebra"]
    enc_model = ContextualEncoder(models / "bert_mlm")
    _, recs = enc_model.lookup(["zebra", "doctors"])
    assert [r.how for r in recs] == ["missing", "contextual"]
    assert ContextualEncoder(models / "gpt2").unknown(["zebra"]) == [False]  # byte-level BPE: never unknown
