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
    # Speed: each slot's part of the features JSON depends only on the form chosen for it,
    # and the template text only on the variant, so each is built once and reused (generation of all
    # built-in corpora must stay well under a second; bench/bench_generate.py).
    fragments: dict[tuple[str, int], str] = {}
    template_text: dict[int, str] = {}
    (c_id, c_sentence, c_template, c_person, c_gender, c_race, c_emotion, c_word, c_tid, c_pid, c_pkind, c_eid,
     c_ekind, c_lang, c_corpus, c_features) = (cols[c] for c in COLUMNS)
    n = 0
    for ct in cc.templates:
        if not ct.usable or ct.first().person_slot is None:
            continue
        persons = cc.persons_for(ct)
        emotions = cc.emotions_for(ct)
        for p in persons:
            pterm = corpus.persons[_index(cc, p.id)]
            gender = pterm.gender
            race_group = pterm.groups.get(race_name, "") if race_name else ""
            for e in emotions:
                r = cc.realise(ct, p, e)
                if not isinstance(r, Realisation):
                    continue
                cv = r.variant
                chosen = r.chosen
                emo_form = chosen.get(cv.emotion_slot.name) if cv.emotion_slot else None
                text = template_text.get(id(cv))
                if text is None:
                    text = template_text[id(cv)] = (cv.variant.published or ct.template.published
                                                    or placeholder_text(cv.parsed))
                parts = []
                for k in sorted(chosen):
                    f = chosen[k]
                    frag = fragments.get((k, id(f)))
                    if frag is None:  # '"slot": {...}' exactly as json.dumps(..., sort_keys=True) writes it
                        frag = fragments[(k, id(f))] = (json.dumps(k, ensure_ascii=False) + ": "
                                                        + json.dumps(f.features, ensure_ascii=False, sort_keys=True))
                    parts.append(frag)
                feats = "{" + ", ".join(parts) + "}"
                c_id.append(f"{prefix}-{n:05d}")
                c_sentence.append(r.sentence)
                c_template.append(text)
                c_person.append(chosen[cv.person_slot.name].text)
                c_gender.append(gender)
                c_race.append(race_group)
                c_emotion.append(e.attrs["emotion"] if e else "")
                c_word.append(emo_form.text if emo_form else "")
                c_tid.append(ct.id)
                c_pid.append(p.id)
                c_pkind.append(pterm.kind)
                c_eid.append(e.id if e else "")
                c_ekind.append(e.attrs["kind"] if e else "")
                c_lang.append(corpus.language)
                c_corpus.append(corpus.id)
                c_features.append(feats)
                n += 1
    return pd.DataFrame(cols, columns=COLUMNS)


def _index(cc: CompiledCorpus, pid: str) -> int:
    idx = getattr(cc, "_person_index", None)
    if idx is None:
        idx = {p.id: i for i, p in enumerate(cc.corpus.persons)}
        cc._person_index = idx  # type: ignore[attr-defined]
    return idx[pid]
