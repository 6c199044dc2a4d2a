"""Pair tables cost what their pairs cost: persons outside pairs are counted, not realised; results unchanged."""
import dataclasses

import pandas as pd

from engine.corpus import CompiledCorpus, generate, generate_group_comparisons, generate_pairs, load_corpus
from engine.corpus.pairs.pairing import realise_all, realise_numbered
from engine.corpus.pairs.pair_checks import usable_pairs


def _paired_ids(corpus):
    pairs, _ = usable_pairs(corpus)
    return {x for pp in pairs for x in (pp.privileged, pp.minoritised)}


def test_numbered_sides_match_the_generated_table():
    corpus = load_corpus("en-kiritchenko2018")  # 40 names outside the noun-phrase pairs
    table = generate(corpus).set_index("ID")
    cc = CompiledCorpus(corpus)
    paired = _paired_ids(corpus)
    assert len(paired) < len(corpus.persons)
    sides = realise_numbered(cc, paired)
    full = realise_all(CompiledCorpus(corpus))
    want = {k: v for k, v in full.items() if k[1] in paired}
    assert sides.keys() == want.keys() and len(sides) > 1000
    for key, side in sides.items():
        assert side.id == want[key].id and table.at[side.id, "Sentence"] == side.realisation.sentence


def test_many_more_unpaired_persons_cost_no_more_realisations():
    corpus = load_corpus("en-kiritchenko2018")
    names = [p for p in corpus.persons if p.kind == "name"]
    clones = [dataclasses.replace(p, id=f"{p.id}_copy{i}") for i in range(15) for p in names]
    big = dataclasses.replace(corpus, persons=list(corpus.persons) + clones)  # 16x the names

    def realisations(c):
        cc = CompiledCorpus(c)
        calls = [0]
        real = cc.realise

        def counting(*a):
            calls[0] += 1
            return real(*a)

        cc.realise = counting
        return generate_pairs(c, cc), calls[0]

    small_pairs, small_calls = realisations(corpus)
    big_pairs, big_calls = realisations(big)
    assert big_calls == small_calls  # the clones realise like the names already counted
    assert len(generate(big)) > 5 * len(generate(corpus))
    ids = ["pair_id", "privileged_id", "minoritised_id"]
    pd.testing.assert_frame_equal(small_pairs.drop(columns=ids), big_pairs.drop(columns=ids))
    # the IDs still point at the right rows of the (bigger) generated table
    table = generate(big).set_index("ID")
    assert (table.loc[big_pairs.privileged_id, "Sentence"].to_numpy() == big_pairs.privileged.to_numpy()).all()
    assert (table.loc[big_pairs.minoritised_id, "Sentence"].to_numpy() == big_pairs.minoritised.to_numpy()).all()


def test_group_comparisons_point_at_the_generated_rows():
    corpus = load_corpus("en-kiritchenko2018")
    groups = generate_group_comparisons(corpus)
    table = generate(corpus).set_index("ID")
    row = groups.iloc[len(groups) // 2]
    for sid in row.privileged_ids.split(";") + row.minoritised_ids.split(";"):
        assert table.at[sid, "template_id"] == row.template_id and table.at[sid, "emotion_word_id"] == row.emotion_word_id
    assert len(groups) > 100
