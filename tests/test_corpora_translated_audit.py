"""A demo audit of each translated EEC (issue 43) with models that read its language.

Two local scorers, no download: a tiny random BERT classifier whose WordPiece vocabulary is the
corpus's own words and characters (so every Italian, French or Portuguese sentence is read whole,
accents and apostrophes included, never as [UNK]), and an emotion lexicon given as a prediction file
that scores each sentence by its emotion word's category alone. The lexicon cannot see who the person
is, so every counterfactual difference it yields must be exactly zero on both axes; the BERT's
differences are whatever its random weights make of the person terms.
"""
import pytest

from engine.audit import AuditPlan, run_audit
from engine.corpus import generate, load_corpus
from testkit.tiny_models import make_tiny_bert, vocab_for

IDS = ["it-kiritchenko2018", "fr-kiritchenko2018", "pt-BR-kiritchenko2018"]
SECOND_AXIS = {"it-kiritchenko2018": "origin", "fr-kiritchenko2018": "origin", "pt-BR-kiritchenko2018": "race"}
VALENCE = {"joy": 0.8, "anger": 0.2, "fear": 0.2, "sadness": 0.2, "": 0.5}


@pytest.mark.slow  # about 30 s per corpus on the shared 2-core machine (scoring 8,640 sentences twice)
@pytest.mark.parametrize("name", IDS)
def test_demo_audit_reads_the_language(name, tmp_path):
    from transformers import AutoTokenizer

    sentences = generate(load_corpus(name))
    folder = make_tiny_bert(tmp_path / "bert", labels=["negative", "positive"], seed=3,
                            vocab=vocab_for(sentences.Sentence))
    tok = AutoTokenizer.from_pretrained(str(folder))
    ids = tok(list(sentences.Sentence))["input_ids"]
    assert not any(tok.unk_token_id in row for row in ids)
    lexicon = tmp_path / "lexicon.csv"
    sentences[["ID"]].assign(valence=sentences.Emotion.map(VALENCE)).to_csv(lexicon, index=False)
    plan = AuditPlan(corpora=[name], scorers=[f"hf-classifier:{folder}?name=tinybert",
                                              f"predictions:{lexicon}?name=lexicon"],
                     stats=["counterfactual"], out_dir=tmp_path / "audit",
                     settings={"n_resamples": 0, "n_permutations": 0, "jobs": 1})
    result = run_audit(plan)
    scored = __import__("pandas").read_csv(tmp_path / "audit" / "scores" / f"{name}.csv")
    assert len(scored) == len(sentences) and scored.filter(like="tinybert").notna().all().all()
    table = result.tables["counterfactual"]
    assert set(table.variable) == {"gender", SECOND_AXIS[name]}
    lex = table[table.model == "lexicon"]
    assert len(lex) == 2 and (lex.mean_diff == 0).all() and (lex.share_changed == 0).all()
    bert = table[table.model == "tinybert"]
    assert set(bert.n) == ({1440, 2880} if name != "pt-BR-kiritchenko2018" else {4320, 2880})
    assert (tmp_path / "audit" / "summary.txt").is_file()
