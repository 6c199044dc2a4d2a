"""Generate the sentences of a corpus as a tidy table (published EEC layout first).

Deterministic order: templates in file order, then persons, then emotion words, so the
same definition always gives the same IDs. Combinations the checker rejects are
skipped, never patched: counts come out of the data.
"""
from __future__ import annotations

import json

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas loads in about a second: only the functions that build tables import it
    import pandas as pd

from engine.corpus.generate.compiled import CompiledCorpus, Realisation
from engine.corpus.definition.model import CorpusDefinition
from engine.corpus.definition.template_syntax import placeholder_text

PUBLISHED_COLUMNS = ["ID", "Sentence", "Template", "Person", "Gender", "Race", "Emotion", "Emotion word"]
EXTRA_COLUMNS = ["template_id", "person_id", "person_kind", "emotion_word_id", "emotion_kind",
                 "language", "corpus", "features"]
COLUMNS = PUBLISHED_COLUMNS + EXTRA_COLUMNS


def generate(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> pd.DataFrame:
    return sentence_frame(sentence_columns(corpus, compiled))


def sentence_frame(cols: dict[str, list]) -> pd.DataFrame:
    """The sentence table of ``sentence_columns``'s columns."""
    import pandas as pd

    return pd.DataFrame(cols, columns=COLUMNS)


def sentence_columns(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> dict[str, list]:
    """``generate``'s columns as plain lists, {column: values}. Why apart: a process that has not
    imported pandas can generate a corpus (the audit's corpus helper, forked before the half second
    of pandas' import, engine.audit.pipeline) and hand the lists over to be made a table."""
    cc = compiled or CompiledCorpus(corpus)
    race = corpus.race_axis
    race_name = race.name if race else None
    prefix = corpus.id_prefix or corpus.id
    # Speed (generation of all built-in corpora must stay well under a second; see
    # bench/bench_generate.py): values constant over a template × person block are written
    # once per block, each slot's part of the features JSON depends only on the form chosen
    # for it, and the template text only on the variant, so each is built once and reused.
    fragments: dict[tuple[str, int], str] = {}
    joined: dict[tuple[str, ...], str] = {}
    variant_info: dict[int, tuple[str, list[str], str, str | None]] = {}
    sentence, template, person, emotion, word, eid, ekind, features = ([] for _ in range(8))
    tid, gender, race_col, pid, pkind = ([] for _ in range(5))
    for ct in cc.templates:
        if not ct.generates:
            continue
        persons = cc.persons_for(ct)
        emotions = cc.emotions_for(ct)
        emotion_attrs = [(e.attrs["emotion"], e.id, e.attrs["kind"]) if e else ("", "", "") for e in emotions]
        for p in persons:
            pterm = corpus.persons[_index(cc, p.id)]
            block = 0
            for e, (e_emotion, e_id, e_kind) in zip(emotions, emotion_attrs):
                r = cc.realise(ct, p, e)
                if not isinstance(r, Realisation):
                    continue
                cv = r.variant
                chosen = r.chosen
                info = variant_info.get(id(cv))
                if info is None:
                    info = variant_info[id(cv)] = (
                        cv.variant.published or ct.template.published or placeholder_text(cv.parsed),
                        sorted(s.name for s in cv.order), cv.person_slot.name,
                        cv.emotion_slot.name if cv.emotion_slot else None)
                text, slot_names, person_slot, emotion_slot = info
                parts = []
                for k in slot_names:
                    f = chosen[k]
                    frag = fragments.get((k, id(f)))
                    if frag is None:  # '"slot": {...}' exactly as json.dumps(..., sort_keys=True) writes it
                        frag = fragments[(k, id(f))] = (json.dumps(k, ensure_ascii=False) + ": "
                                                        + json.dumps(f.features, ensure_ascii=False, sort_keys=True))
                    parts.append(frag)
                key = tuple(parts)
                feats = joined.get(key)
                if feats is None:  # few distinct values: one string each, shared by their rows (memory)
                    feats = joined[key] = "{" + ", ".join(parts) + "}"
                sentence.append(r.sentence)
                template.append(text)
                person.append(chosen[person_slot].text)
                emotion.append(e_emotion)
                word.append(chosen[emotion_slot].text if emotion_slot else "")
                eid.append(e_id)
                ekind.append(e_kind)
                features.append(feats)
                block += 1
            if block:
                tid += [ct.id] * block
                gender += [pterm.gender] * block
                race_col += [pterm.groups.get(race_name, "") if race_name else ""] * block
                pid += [p.id] * block
                pkind += [pterm.kind] * block
    n = len(sentence)
    cols = {
        "ID": [f"{prefix}-{i:05d}" for i in range(n)], "Sentence": sentence, "Template": template, "Person": person,
        "Gender": gender, "Race": race_col, "Emotion": emotion, "Emotion word": word, "template_id": tid,
        "person_id": pid, "person_kind": pkind, "emotion_word_id": eid, "emotion_kind": ekind,
        "language": [corpus.language] * n, "corpus": [corpus.id] * n, "features": features,
    }
    return cols


def sentence_bound(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> int:
    """At most this many sentences: every generating template × its persons × its emotion words,
    counted without realising a sentence (the checker may still reject some combinations).

    Why: an audit decides from it, before generating anything, whether its corpora are large enough
    to be generated and scored one at a time (engine.audit.pipeline), and its progress bar starts
    from it."""
    cc = compiled or CompiledCorpus(corpus)
    return sum(len(cc.persons_for(ct)) * len(cc.emotions_for(ct)) for ct in cc.templates if ct.generates)


def _index(cc: CompiledCorpus, pid: str) -> int:
    idx = getattr(cc, "_person_index", None)
    if idx is None:
        idx = {p.id: i for i, p in enumerate(cc.corpus.persons)}
        cc._person_index = idx  # type: ignore[attr-defined]
    return idx[pid]
