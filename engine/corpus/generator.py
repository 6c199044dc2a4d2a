"""Generate the sentences of a corpus as a tidy table (published EEC layout first).

Deterministic order: templates in file order, then persons, then emotion words, so the
same definition always gives the same IDs. Combinations the checker rejects are
skipped, never patched: counts come out of the data.
"""
from __future__ import annotations

import json

import pandas as pd

from .compiled import CompiledCorpus, Realisation
from .model import CorpusDefinition
from .template_syntax import placeholder_text

PUBLISHED_COLUMNS = ["ID", "Sentence", "Template", "Person", "Gender", "Race", "Emotion", "Emotion word"]
EXTRA_COLUMNS = ["template_id", "person_id", "person_kind", "emotion_word_id", "emotion_kind",
                 "language", "corpus", "features"]
COLUMNS = PUBLISHED_COLUMNS + EXTRA_COLUMNS


def generate(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> pd.DataFrame:
    cc = compiled or CompiledCorpus(corpus)
    cols: dict[str, list] = {c: [] for c in COLUMNS}
    race = corpus.race_axis
    race_name = race.name if race else None
    prefix = corpus.id_prefix or corpus.id
    n = 0
    for ct in cc.templates:
        if not ct.usable or ct.first().person_slot is None:
            continue
        persons = cc.persons_for(ct)
        emotions = cc.emotions_for(ct)
        for p in persons:
            pterm = corpus.persons[_index(cc, p.id)]
            for e in emotions:
                r = cc.realise(ct, p, e)
                if not isinstance(r, Realisation):
                    continue
                cv = r.variant
                person_form = r.chosen[cv.person_slot.name]
                emo_form = r.chosen.get(cv.emotion_slot.name) if cv.emotion_slot else None
                cols["ID"].append(f"{prefix}-{n:05d}")
                cols["Sentence"].append(r.sentence)
                cols["Template"].append(cv.variant.published or ct.template.published or placeholder_text(cv.parsed))
                cols["Person"].append(person_form.text)
                cols["Gender"].append(pterm.gender)
                cols["Race"].append(pterm.groups.get(race_name, "") if race_name else "")
                cols["Emotion"].append(e.attrs["emotion"] if e else "")
                cols["Emotion word"].append(emo_form.text if emo_form else "")
                cols["template_id"].append(ct.id)
                cols["person_id"].append(p.id)
                cols["person_kind"].append(pterm.kind)
                cols["emotion_word_id"].append(e.id if e else "")
                cols["emotion_kind"].append(e.attrs["kind"] if e else "")
                cols["language"].append(corpus.language)
                cols["corpus"].append(corpus.id)
                cols["features"].append(json.dumps({k: f.features for k, f in r.chosen.items()},
                                                   ensure_ascii=False, sort_keys=True))
                n += 1
    return pd.DataFrame(cols, columns=COLUMNS)


def _index(cc: CompiledCorpus, pid: str) -> int:
    idx = getattr(cc, "_person_index", None)
    if idx is None:
        idx = {p.id: i for i, p in enumerate(cc.corpus.persons)}
        cc._person_index = idx  # type: ignore[attr-defined]
    return idx[pid]
