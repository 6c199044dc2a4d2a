"""Cross-check the Goldfarb-Tarrant corpora against the authors' generated pairs (when ../shared is present).

Their files (``../shared/data/goldfarb_tarrant2023/corpora/EEC_<lang>.json``) hold
``{emotion: {side: [sentences]}}`` with index-aligned sides. Our pair tables reproduce every
one of their pairs, per emotion and variable, once the corrections documented in
docs/pairs.md (and noted next to each item in the definition files) are undone — and nothing
else. The same undo also shows that each correction really changes their data. Japanese and
Chinese are compared through their ``-published`` variants: the default definitions were corrected
further (issue 14, docs/corpus-review.md) and no longer reproduce the authors' text.
"""
import collections
import json
import re

import pytest

from conftest import shared_path
from testkit.corpus_fixtures import builtin_tables

SIDES = {"gender": ("male", "female"), "race": ("race: privileged", "race: minoritized"),
         "rank": ("rank: privileged", "rank: minoritized")}


def _norm(s: str) -> str:
    """Their sentences start in lower case and carry stray spaces; compare without both."""
    s = re.sub(r"\s+", " ", s.strip())
    return s[:1].lower() + s[1:]


def theirs(lang: str) -> collections.Counter:
    data = json.loads(shared_path("data", "goldfarb_tarrant2023", "corpora", f"EEC_{lang}.json").read_text("utf-8"))
    out: collections.Counter = collections.Counter()
    for emotion, sides in data.items():
        for variable, (priv, mino) in SIDES.items():
            if priv in sides:
                assert len(sides[priv]) == len(sides[mino])
                out.update((emotion, variable, _norm(a), _norm(b)) for a, b in zip(sides[priv], sides[mino]))
    return out


def ours(name: str, undo) -> collections.Counter:
    c, _, _, pairs = builtin_tables(name)
    out: collections.Counter = collections.Counter()
    for r in pairs.itertuples():
        variable = "race" if r.variable == "migrant" else r.variable  # their key for Spanish migrant names
        out[(r.emotion or "no_emotion", variable, _norm(undo(c, r, _norm(r.privileged), r.privileged_person_id)),
             _norm(undo(c, r, _norm(r.minoritised), r.minoritised_person_id)))] += 1
    return out


def _subs(pairs):
    compiled = [(re.compile(old), new) for old, new in pairs]

    def undo(c, row, sentence, person_id):
        for old, new in compiled:
            sentence = old.sub(new, sentence)
        return sentence
    return undo


def _undo_de():
    c = builtin_tables("de-goldfarb2023-published")[0]
    bare = {}
    for e in c.emotion_words:  # attributive forms back to the bare (predicative) form they published
        pred = [f.text for f in e.forms if f.features.get("position") == "pred"]
        bare.update({f.text: pred[0] for f in e.forms if f.features.get("position") == "attr"})
    bare.update({"empört": "empört,", "Romni": "Roma", "Sintiza": "Sinti", "Sinto": "Sinti"})
    rx = re.compile(r"\b(" + "|".join(map(re.escape, sorted(bare, key=len, reverse=True))) + r")\b")
    return lambda c, row, sentence, person_id: rx.sub(lambda m: bare[m.group(1)], sentence)


def _undo_es(c, row, sentence, person_id):
    if row.template_id == "T04" and " me hizo sentir " in sentence and row.emotion_word_id:
        # they made the adjective describing the speaker agree with the person
        forms = {f.features.get("gender"): f.text for e in c.emotion_words if e.id == row.emotion_word_id
                 for f in e.forms}
        gender = {"female": "f", "male": "m"}[next(p.gender for p in c.persons if p.id == person_id)]
        if "m" in forms and "f" in forms:
            sentence = re.sub(rf"sentir {re.escape(forms['m'])}\.$", f"sentir {forms[gender]}.", sentence)
    for old, new in [(r"^l[oa] vi a ", "vi a "), ("se sintiese", "se sientiese"), ("tuviese", "tuvises"),
                     ("enfurecida", "efurecida"), (r"enojad([oa])", r"anojad\1"), ("abatida", "abatido"),
                     ("extático", "extatico"), ("extática", "extatica"), ("alivio", "alivo"),
                     ("incómodos", "icómodos"), ("mi tía", "mi tia"), ("mi tío", "my tio")]:
        sentence = re.sub(old, new, sentence)
    return sentence


UNDO = {
    "zh": lambda: _subs([("令人愤怒\\.", "令人愤怒 .")]),
    "ja": lambda: _subs([("嬉しがらせ", "嬉しがらせるせ"), ("興奮させ", "興奮せ"), (r"(との会話は.*)せた。$", r"\1た。")]),
    "de": _undo_de,
    "es": lambda: _undo_es,
}


# the corpus that reproduces the authors' pairs: the published variant where the default was corrected
REPRODUCES = {"de": "de-goldfarb2023-published", "es": "es-goldfarb2023-published", "ja": "ja-goldfarb2023-published",
              "zh": "zh-goldfarb2023-published"}


@pytest.mark.parametrize("lang", sorted(UNDO))
def test_reproduces_authors_pairs_up_to_documented_corrections(lang):
    expected = theirs(lang)
    got = ours(REPRODUCES[lang], UNDO[lang]())
    assert sum(got.values()) == sum(expected.values())
    missing, extra = expected - got, got - expected
    assert not missing and not extra, (list(missing)[:3], list(extra)[:3])
    # without the undo our pairs differ from theirs: each listed correction is real
    plain = ours(REPRODUCES[lang], lambda c, r, s, p: s)
    assert sum(plain.values()) == sum(expected.values()) and plain != expected
    text = "\n".join(a + "\n" + b for _, _, a, b in expected)
    mine = "\n".join(a + "\n" + b for _, _, a, b in plain)
    defects = {"de": ["in eine irritierend Situation", "empört,", "die Roma hat", "der Sinti ist"],
               "ja": ["幸せにさた", "嬉しがらせるせた", "興奮せた", "イライラさた"],
               "es": ["icómodos", "alivo", "se sientiese", "my tio"],
               "zh": ["令人愤怒 ."]}[lang]
    for d in defects:
        assert d in text, d
        assert d not in mine, d
