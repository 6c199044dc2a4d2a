"""LLM scorer: label probabilities from tiny random causal LMs (folder and GGUF), prefix cache, batching, safety."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from engine.models.device import DeviceInfo  # noqa: E402
from engine.models.errors import ModelError, UnsafeWeightsError  # noqa: E402
from engine.models.scorers.llm import LLMScorer, weights_dtype  # noqa: E402
from engine.models.specs import load_scorer  # noqa: E402
from testkit.tiny_models import make_tiny_causal_lm, write_tiny_gguf  # noqa: E402

TEXTS = ["She feels angry.", "My brother made me feel happy about the day.", "He is sad.",
         "The situation makes my mother feel afraid.", "I", "¿Qué tal? 今日は悲しい。 أنا سعيد"]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("llm")
    chat = make_tiny_causal_lm(root / "llama-chat", arch="llama", chat=True, seed=1)
    plain = make_tiny_causal_lm(root / "gpt2-plain", arch="gpt2", chat=False, seed=2)
    gguf = write_tiny_gguf(chat, root / "llama-chat.gguf")
    return {"chat": chat, "plain": plain, "gguf": gguf, "root": root}


def _scores(scorer, texts=TEXTS, **kw):
    return scorer.score(list(texts), **kw).to_numpy()


def _context_probs(model, ids):
    """Next-token probabilities after `ids`, by a plain unbatched forward (no cache, no padding)."""
    with torch.inference_mode():
        return torch.softmax(model(torch.tensor([ids])).logits[0, -1].double(), -1)


def test_scores_are_deterministic_and_in_unit_interval(models):
    a = _scores(LLMScorer(models["chat"], device="cpu", task="anger,sentiment"))
    b = _scores(LLMScorer(models["chat"], device="cpu", task="anger,sentiment"))
    assert a.shape == (len(TEXTS), 2)
    np.testing.assert_array_equal(a, b)
    assert np.all((a >= 0) & (a <= 1))
    assert np.ptp(a[:, 0]) > 0  # different sentences, different scores


@pytest.mark.parametrize("which", ["chat", "plain"])
def test_batched_equals_one_at_a_time_and_prefix_cache_equals_none(models, which):
    scorer = LLMScorer(models[which], device="cpu", task="joy,valence,sentiment", batch_size=4)
    batched = _scores(scorer)
    no_cache = _scores(scorer, prefix_cache=False)
    single = np.vstack([_scores(scorer, [t]) for t in TEXTS])
    np.testing.assert_allclose(batched, single, atol=1e-5, rtol=0)
    np.testing.assert_allclose(batched, no_cache, atol=1e-5, rtol=0)


def test_score_is_the_expected_label_value_from_an_independent_forward(models):
    """Chat model, single-token labels: renormalised P("0".."10") → expected value / 10."""
    scorer = LLMScorer(models["chat"], device="cpu", prompt="anger-en")
    got = _scores(scorer)[:, 0]
    tok, model = scorer._tok, scorer._model
    labels = [tok.convert_tokens_to_ids(str(v)) for v in range(11)]
    for text, score in zip(TEXTS, got):
        p = scorer.prompts[0]
        rendered = tok.apply_chat_template([{"role": "system", "content": p.system},
                                            {"role": "user", "content": p.user.replace("{text}", text)}],
                                           tokenize=False, add_generation_prompt=True)
        before, after = rendered.split(text)
        ids = tok.encode(before, add_special_tokens=False) + tok.encode(text, add_special_tokens=False) \
            + tok.encode(after, add_special_tokens=False)
        probs = _context_probs(model, ids)[labels]
        expected = float((probs / probs.sum()) @ torch.arange(11, dtype=torch.float64)) / 10
        assert score == pytest.approx(expected, abs=1e-6)
    mass = scorer.label_mass["anger"]
    assert 0 < mass["min"] <= mass["mean"] <= mass["max"] <= 1


def test_labels_sharing_a_first_token_use_the_sequence_probability(models, tmp_path):
    """"1" and "12" share the token "1": P(12) = P(1)·P(2|1), P(1) = P(1)·(1 − P(2|1))."""
    f = tmp_path / "p.toml"
    f.write_text('language = "en"\n[[prompt]]\nid = "pick"\nversion = 1\ntask = "pick"\n'
                 'user = "Pick a number for:\\n{text}"\nlabels = ["1", "12", "5"]\nvalues = [1, 12, 5]\n',
                 encoding="utf-8")
    scorer = LLMScorer(models["chat"], device="cpu", prompt_file=str(f))
    got = _scores(scorer)[:, 0]
    pp = scorer.prepared()[0]
    tok, model = scorer._tok, scorer._model
    one, two, five = (tok.convert_tokens_to_ids(t) for t in ("1", "2", "5"))
    assert pp.plan.branches == ((one,),) and pp.plan.children == ((1,), (), ())
    for text, score in zip(TEXTS, got):
        ctx = scorer.input_ids(text)
        first = _context_probs(model, ctx)
        after_one = _context_probs(model, ctx + [one])
        p = torch.stack([first[one] * (1 - after_one[two]), first[one] * after_one[two], first[five]])
        expected = (float((p / p.sum()) @ torch.tensor([1.0, 12.0, 5.0], dtype=torch.float64)) - 1) / 11
        assert score == pytest.approx(expected, abs=1e-6)


def test_plain_prompt_reads_multi_token_labels_exactly(models):
    """GPT-2 tiny BPE: ' 1' is one token, ' 0' is 'Ġ'+'0', ' 10' is 'Ġ'+'10': full sequence probabilities."""
    scorer = LLMScorer(models["plain"], device="cpu", prompt="sadness-en")
    got = _scores(scorer)[:, 0]
    pp = scorer.prepared()[0]
    assert pp.mode == "plain" and pp.plan.branches
    tok, model = scorer._tok, scorer._model
    for text, score in zip(TEXTS[:3], got[:3]):
        ctx = scorer.input_ids(text)
        first = _context_probs(model, ctx)
        probs = []
        for label in [str(v) for v in range(11)]:
            seq = tok.encode(" " + label, add_special_tokens=False)
            p = first[seq[0]]
            if len(seq) == 2:
                p = p * _context_probs(model, ctx + seq[:1])[seq[1]]
            probs.append(p)
        p = torch.stack(probs)
        expected = float((p / p.sum()) @ torch.arange(11, dtype=torch.float64)) / 10
        assert score == pytest.approx(expected, abs=1e-6)


def test_gguf_file_gives_the_folder_scores(models):
    folder = _scores(LLMScorer(models["chat"], device="cpu", task="fear,sentiment"))
    gguf_scorer = LLMScorer(models["gguf"], device="cpu", task="fear,sentiment")
    np.testing.assert_allclose(_scores(gguf_scorer), folder, atol=1e-6, rtol=0)
    assert gguf_scorer.describe()["format"] == "gguf" and gguf_scorer.prepared()[0].mode == "chat"


def test_pickled_weights_are_refused_unless_allowed(models, tmp_path):
    import shutil

    from safetensors.torch import load_file

    folder = tmp_path / "pickled"
    shutil.copytree(models["chat"], folder)
    torch.save(load_file(str(folder / "model.safetensors")), folder / "pytorch_model.bin")
    (folder / "model.safetensors").unlink()
    scorer = load_scorer(f"llm:{folder}?prompt=joy-en")
    with pytest.raises(UnsafeWeightsError, match="pickle"):
        scorer.score(TEXTS[:2])
    allowed = load_scorer(f"llm:{folder}?prompt=joy-en", allow_pickle=True)
    np.testing.assert_allclose(_scores(allowed, TEXTS[:2]),
                               _scores(LLMScorer(models["chat"], device="cpu", prompt="joy-en"), TEXTS[:2]), atol=1e-6)


def test_spec_string_options_languages_and_scale(models):
    s = load_scorer(f"llm:{models['gguf']}?prompt=anger-es,sentiment-ja&batch_size=3&name=tiny-A&prefix_cache=0"
                    "&device=cpu&precision=fp32")
    assert (s.name, s.dimensions, s.batch_size, s.use_prefix_cache) == ("tiny-A", ["anger", "sentiment"], 3, False)
    assert s.languages == ["es", "ja"] and s.scale == (0.0, 1.0)
    d = load_scorer(f"llm:{models['chat']}?task=joy&language=zh")
    assert d.dimensions == ["joy"] and d.prompts[0].id == "joy-zh" and d.name == "llama-chat"
    assert load_scorer(f"llm:{models['chat']}").dimensions == ["anger", "fear", "joy", "sadness"]
    with pytest.raises(ModelError, match="unknown option 'promt'"):
        load_scorer(f"llm:{models['chat']}?promt=anger-en")
    with pytest.raises(ModelError, match="no such prompt"):
        load_scorer(f"llm:{models['chat']}?prompt=anger-xx")
    with pytest.raises(ModelError, match="no prompt for this task and language"):
        load_scorer(f"llm:{models['chat']}?task=anger&language=fi")
    with pytest.raises(ModelError, match="two prompts for the task"):
        load_scorer(f"llm:{models['chat']}?prompt=anger-en,anger-es")
    with pytest.raises(ModelError, match="not a .gguf"):
        load_scorer(f"llm:{models['chat'] / 'config.json'}")


def test_fingerprint_follows_prompt_and_model_not_batching(models, tmp_path):
    base = LLMScorer(models["chat"], device="cpu", prompt="anger-en")
    same = LLMScorer(models["chat"], device="cpu", prompt="anger-en", batch_size=2, prefix_cache=False)
    assert base.fingerprint() == same.fingerprint() and base._model is None  # no weights loaded for it
    from engine.models.prompts import shipped_prompts

    text = (shipped_prompts()["anger-en"].source and open(shipped_prompts()["anger-en"].source, encoding="utf-8").read())
    edited = tmp_path / "en.toml"
    edited.write_text(text.replace("version = 1", "version = 2", 1), encoding="utf-8")
    assert LLMScorer(models["chat"], device="cpu", prompt="anger-en", prompt_file=str(edited)).fingerprint() \
        != base.fingerprint()
    edited.write_text(text.replace("extremely intense anger", "very strong anger"), encoding="utf-8")
    assert LLMScorer(models["chat"], device="cpu", prompt="anger-en", prompt_file=str(edited)).fingerprint() \
        != base.fingerprint()
    assert LLMScorer(models["chat"], device="cpu", prompt="anger-en", chat=False).fingerprint() != base.fingerprint()
    assert LLMScorer(models["gguf"], device="cpu", prompt="anger-en").fingerprint() != base.fingerprint()


def test_cached_scores_need_no_model(models, tmp_path):
    from engine.audit.cache import ScoreCache
    from engine.audit.scoring import score_texts

    with ScoreCache(tmp_path / "cache") as cache:
        first = score_texts(load_scorer(f"llm:{models['chat']}?prompt=valence-de&device=cpu"), TEXTS, cache=cache)
        again = load_scorer(f"llm:{models['chat']}?prompt=valence-de&device=cpu")
        second = score_texts(again, TEXTS, cache=cache)
    assert again._model is None and second.attrs["scoring"].cache_hits == len(TEXTS)
    np.testing.assert_array_equal(first.to_numpy(), second.to_numpy())


def test_out_of_memory_halves_the_batch(models):
    scorer = LLMScorer(models["chat"], device="cpu", prompt="joy-en", batch_size=8)
    reference = _scores(scorer)
    real = scorer._forward

    def tight(pp, sentences, use_cache):
        if len(sentences) > 2:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(pp, sentences, use_cache)

    scorer._forward = tight
    np.testing.assert_allclose(_scores(scorer), reference, atol=1e-5)
    assert scorer.batch_size == 2


def test_weights_dtype_per_device():
    cuda_bf16 = DeviceInfo("cuda", 0, "GPU", 1, bf16=True)
    cuda_old = DeviceInfo("cuda", 0, "GPU", 1, bf16=False)
    cpu = DeviceInfo("cpu", None, "cpu", 1, bf16=True)
    assert weights_dtype(cuda_bf16, "auto") == torch.bfloat16
    assert weights_dtype(cuda_old, "auto") == torch.float16
    assert weights_dtype(cuda_bf16, "fp32") == torch.float32
    assert weights_dtype(cpu, "auto") == torch.float32
    assert weights_dtype(cpu, "bf16") == torch.bfloat16
    with pytest.raises(ModelError, match="unknown precision"):
        weights_dtype(cpu, "int4")


def test_bf16_weights_on_cpu_stay_close_to_fp32(models):
    fp32 = _scores(LLMScorer(models["chat"], device="cpu", prompt="anger-en", precision="fp32"), TEXTS[:3])
    low = LLMScorer(models["chat"], device="cpu", prompt="anger-en", precision="bf16")
    got = _scores(low, TEXTS[:3])
    assert low._model.dtype == torch.bfloat16 and low.describe()["precision"]["used"] == "bf16"
    np.testing.assert_allclose(got, fp32, atol=2e-2)


def _custom(tmp_path, labels, values):
    f = tmp_path / "custom.toml"
    f.write_text('language = "en"\n[[prompt]]\nid = "c"\nversion = 1\ntask = "c"\nuser = "Pick:\\n{text}"\n'
                 f"labels = {labels!r}\nvalues = {values!r}\n".replace("'", '"'), encoding="utf-8")
    return str(f)


def test_a_token_every_label_starts_with_moves_into_the_prompt(models, tmp_path):
    """Plain prompt, labels ' 0' ' 2' ' 3' = 'Ġ'+digit: 'Ġ' joins the context, digits are read directly."""
    scorer = LLMScorer(models["plain"], device="cpu", prompt_file=_custom(tmp_path, ["0", "2", "3"], [0, 2, 3]))
    got = _scores(scorer, TEXTS[:3])[:, 0]
    pp = scorer.prepared()[0]
    tok, model = scorer._tok, scorer._model
    space = tok.convert_tokens_to_ids("\u0120")
    assert pp.plan.lead == (space,) and pp.plan.branches == ()
    digits = [tok.convert_tokens_to_ids(d) for d in "023"]
    for text, score in zip(TEXTS[:3], got):
        ctx = scorer.input_ids(text) + [space]
        p = _context_probs(model, ctx)[digits]
        assert score == pytest.approx(float((p / p.sum()) @ torch.tensor([0, 2, 3.0], dtype=torch.float64)) / 3,
                                      abs=1e-6)


@pytest.mark.parametrize("labels", [["123", "124", "5"], ["12", "13", "45", "46"]])
def test_labels_sharing_two_tokens_are_read_whole_and_refused_only_by_the_first_token_reading(models, tmp_path,
                                                                                               labels):
    """Before, these were refused ("cannot be told apart by their first two tokens"): whole labels
    are now read; only label_reading=first_token refuses them, naming the two labels."""
    from testkit.llm_reference import label_sequence_probs

    values = list(range(len(labels)))
    scorer = LLMScorer(models["chat"], device="cpu", prompt_file=_custom(tmp_path, labels, values))
    got = _scores(scorer, TEXTS[:2])[:, 0]
    for text, score in zip(TEXTS[:2], got):
        ref = label_sequence_probs(scorer._tok, scorer._model, scorer.rendered(text), labels)
        assert score == pytest.approx(sum(p * v for p, v in zip(ref["probs"], values)) / max(values), abs=1e-6)
    fast = LLMScorer(models["chat"], device="cpu", label_reading="first_token",
                     prompt_file=_custom(tmp_path, labels, values))
    with pytest.raises(ModelError, match=f"labels '{labels[0]}' and '{labels[1]}' both start with the token '1'") as err:
        fast.score(TEXTS[:1])
    assert err.value.line == 2 and err.value.field == "labels" and "label_reading=sequence" in err.value.fix


def test_segment_tokenisation_matches_the_whole_text(models):
    """The sentence starts a line, so prefix + sentence + suffix ids are the whole rendered text's ids."""
    scorer = LLMScorer(models["chat"], device="cpu", prompt="anger-en")
    tok = scorer.load_tokenizer()
    for text in TEXTS:
        p = scorer.prompts[0]
        whole = tok.apply_chat_template([{"role": "system", "content": p.system},
                                         {"role": "user", "content": p.user.replace("{text}", text)}],
                                        tokenize=False, add_generation_prompt=True)
        assert tok.encode(whole, add_special_tokens=False) == scorer.input_ids(text)


def test_suggest_spec_and_classifier_refuses_a_causal_lm(models, tmp_path):
    from engine.models.scorers.hf_classifier import SequenceClassifierScorer
    from engine.models.specs import suggest_spec
    from testkit.tiny_models import make_tiny_bert

    assert suggest_spec(models["chat"]) == ("llm", f"llm:{models['chat']}")
    assert suggest_spec(models["gguf"]) == ("llm", f"llm:{models['gguf']}")
    bert = make_tiny_bert(tmp_path / "cls", labels=["neg", "pos"])
    assert suggest_spec(bert) == ("hf-classifier", f"hf-classifier:{bert}")
    with pytest.raises(ModelError, match="not a model"):
        suggest_spec(models["chat"] / "config.json")
    with pytest.raises(ModelError, match="causal language model") as err:
        SequenceClassifierScorer(models["chat"])
    assert f"llm:{models['chat']}" in str(err.value)


def test_label_mass_summarises_every_chunk(models):
    whole = LLMScorer(models["chat"], device="cpu", prompt="joy-en")
    whole.score(TEXTS)
    chunked = LLMScorer(models["chat"], device="cpu", prompt="joy-en")
    chunked.score(TEXTS[:2])
    chunked.score(TEXTS[2:])
    a, b = whole.label_mass["joy"], chunked.label_mass["joy"]
    assert b["n"] == len(TEXTS) and b["mean"] == pytest.approx(a["mean"], abs=1e-9)
    assert (b["min"], b["max"]) == pytest.approx((a["min"], a["max"]), abs=1e-9)


def test_audit_runs_llm_specs_as_systems(models, tmp_path):
    """Two prompt variants of one model (folder and GGUF) audited side by side, described in the manifest."""
    from engine.audit import AuditPlan, run_audit
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path / "corpus")
    plan = AuditPlan([str(corpus)], [f"llm:{models['chat']}?prompt=anger-en&name=tiny-A&device=cpu",
                                     f"llm:{models['gguf']}?prompt=valence-en&name=tiny-B&device=cpu"],
                     stats=["paired"], out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                     settings={"n_resamples": 0})
    result = run_audit(plan)
    paired = result.tables["paired"]
    assert set(paired.model) == {"tiny-A", "tiny-B"} and set(paired.emotion) == {"anger", "valence"}
    described = [s["describe"] for s in result.manifest["scorers"].values()]
    assert {d["kind"] for d in described} == {"llm"}
    assert sorted(p["id"] for d in described for p in d["prompts"]) == ["anger-en", "valence-en"]
    assert all(d["languages"] == ["en"] and d["label_mass"] for d in described)


def test_prompts_show_renders_what_the_model_reads(models, capsys):
    from main import main

    assert main(["prompts", "show", "anger-es", "--model", f"llm:{models['gguf']}", "--sentence", "Ella está furiosa."]) == 0
    out = capsys.readouterr().out
    assert "(chat prompt)" in out and "Oración:\nElla está furiosa.<|im_end|>\n<|im_start|>assistant\n" in out
    assert "10=['10']" in out


def test_a_template_printing_todays_date_gets_a_fixed_one(models, tmp_path):
    import shutil

    folder = tmp_path / "dated"
    shutil.copytree(models["chat"], folder)
    (folder / "chat_template.jinja").write_text(
        "{% if not date_string is defined %}{% set date_string = strftime_now('%d %b %Y') %}{% endif %}"
        "Today Date: {{ date_string }}\n" + (models["chat"] / "chat_template.jinja").read_text(encoding="utf-8"),
        encoding="utf-8")
    scorer = LLMScorer(folder, device="cpu", prompt="anger-en")
    assert scorer.rendered("x").startswith("Today Date: 26 Jul 2024\n")


def test_low_label_mass_is_reported_by_the_audit(models, tmp_path):
    """A model that mostly answers outside the labels (this random one) is said so in the audit's
    problems and log, not silently turned into scores that look like any other."""
    from engine.audit import AuditPlan, run_audit
    from engine.models.scorers.llm import LLMScorer
    from testkit.audit_fixtures import write_mini_corpus

    corpus = write_mini_corpus(tmp_path / "corpus")
    lines = []
    result = run_audit(AuditPlan([str(corpus)], [f"llm:{models['chat']}?prompt=anger-en&name=tiny&device=cpu"],
                                 stats=[], cache_dir=tmp_path / "cache"), log=lines.append)
    mass = result.manifest["scorers"]["tiny"]["describe"]["label_mass"]["anger"]
    warned = [p for p in result.problems if "answer labels of 'anger'" in p]
    assert (mass["mean"] < LLMScorer.LOW_LABEL_MASS) == bool(warned)
    if warned:
        assert any("answer labels" in line for line in lines)
