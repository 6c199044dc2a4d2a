"""Counterfactual pair tables (Goldfarb-Tarrant et al. 2023) and K&M name-group comparisons.

``generate_pairs(corpus)``: one row per declared person pair × template × emotion word
whose two sentences differ only in the pair's variable (docs/DATA-CONTRACT.md, docs/pairs.md).
Rows the checker rejects (E013/E014/E015) or with one side missing are left out, never
patched, like sentences in ``generate``.

``generate_group_comparisons(corpus)``: Kiritchenko & Mohammad (2018) compare *averages
over name groups*, not sentence pairs — African-American vs European names of one gender,
female vs male names of one race — per template × emotion word. Each row lists the sentence
IDs on both sides so a scored corpus table can be averaged per side.
"""
from __future__ import annotations

import json

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas loads in about a second: only the functions that build tables import it
    import pandas as pd

from engine.corpus.generate.compiled import CompiledCorpus, CTemplate
from engine.corpus.definition.model import CorpusDefinition
from engine.corpus.pairs.pair_checks import compare_sides, pair_rows, side_wants, usable_pairs
from engine.corpus.pairs.pairing import PersonPair, Realised, realise_numbered

PAIR_COLUMNS = ["pair_id", "template_id", "emotion", "emotion_word", "variable", "privileged", "minoritised",
                "privileged_person", "minoritised_person", "features"]
PAIR_EXTRA_COLUMNS = ["person_pair", "privileged_id", "minoritised_id", "privileged_person_id",
                      "minoritised_person_id", "privileged_group", "minoritised_group", "minoritised_emotion_word",
                      "emotion_word_id", "emotion_kind", "language", "corpus"]
GROUP_COLUMNS = ["comparison_id", "template_id", "emotion", "emotion_word", "emotion_word_id", "variable", "within",
                 "privileged_group", "minoritised_group", "privileged_ids", "minoritised_ids", "n_privileged",
                 "n_minoritised", "language", "corpus"]


def generate_pairs(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> pd.DataFrame:
    """The pair table: contract columns first, then ``PAIR_EXTRA_COLUMNS``.

    ``privileged_id``/``minoritised_id`` are the sentences' IDs in ``generate(corpus)``.
    ``features`` is a JSON object slot -> features both sides asked for with the same value
    (the variable's own feature, which differs, is left out).
    """
    return pair_frame(pair_columns(corpus, compiled))


def pair_frame(cols: dict[str, list]) -> pd.DataFrame:
    """The pair table of ``pair_columns``'s columns."""
    import pandas as pd

    return pd.DataFrame(cols, columns=PAIR_COLUMNS + PAIR_EXTRA_COLUMNS)


def pair_columns(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> dict[str, list]:
    """``generate_pairs``'s columns as plain lists, {column: values}, made without pandas (as
    engine.corpus.generate.generator.sentence_columns, for the same reason)."""
    cc = compiled or CompiledCorpus(corpus)
    cols: dict[str, list] = {c: [] for c in PAIR_COLUMNS + PAIR_EXTRA_COLUMNS}
    rows = usable_pair_rows(corpus, cc)
    if rows:
        by_id = {p.id: p for p in corpus.persons}
        prefix = corpus.id_prefix or corpus.id
        features_json: dict[tuple, str] = {}
        for ct, pp, a, b in rows:
            pa, pb = a.realisation.variant.person_slot.name, b.realisation.variant.person_slot.name
            cols["pair_id"].append(f"{prefix}-P{len(cols['pair_id']):05d}")
            cols["template_id"].append(ct.id)
            cols["emotion"].append(a.emotion.attrs["emotion"] if a.emotion else "")
            cols["emotion_word"].append(emotion_text(a))
            cols["variable"].append(pp.variable)
            cols["privileged"].append(a.realisation.sentence)
            cols["minoritised"].append(b.realisation.sentence)
            cols["privileged_person"].append(a.realisation.chosen[pa].text)
            cols["minoritised_person"].append(b.realisation.chosen[pb].text)
            shared = _shared_features(cc, a, b)
            key = tuple((k, tuple(v.items())) for k, v in shared.items())
            text = features_json.get(key)
            if text is None:  # few distinct values: written once each
                text = features_json[key] = json.dumps(shared, ensure_ascii=False, sort_keys=True)
            cols["features"].append(text)
            cols["person_pair"].append(pp.id)
            cols["privileged_id"].append(a.id)
            cols["minoritised_id"].append(b.id)
            cols["privileged_person_id"].append(pp.privileged)
            cols["minoritised_person_id"].append(pp.minoritised)
            cols["privileged_group"].append(by_id[pp.privileged].groups.get(pp.variable, ""))
            cols["minoritised_group"].append(by_id[pp.minoritised].groups.get(pp.variable, ""))
            cols["minoritised_emotion_word"].append(emotion_text(b))
            cols["emotion_word_id"].append(a.emotion.id if a.emotion else "")
            cols["emotion_kind"].append(a.emotion.attrs["kind"] if a.emotion else "")
            cols["language"].append(corpus.language)
            cols["corpus"].append(corpus.id)
    return cols


def usable_pair_rows(corpus: CorpusDefinition, cc: CompiledCorpus) -> list[tuple[CTemplate, PersonPair, Realised, Realised]]:
    """The pair table's rows in its order — (template, pair, privileged side, minoritised side), both
    sides realised and numbered, no error between them; row i is pair ``<prefix>-P{i:05d}``. Taken
    from ``cc`` when the checker kept them (``check_corpus(..., keep_sentences=True)``), else found."""
    kept = getattr(cc, "_usable_pair_rows", None)
    if kept is not None:
        return kept
    pairs, _ = usable_pairs(corpus)
    if not pairs:
        return []
    index = realise_numbered(cc, {x for pp in pairs for x in (pp.privileged, pp.minoritised)})
    return [(ct, pp, a, b) for ct, pp, a, b in pair_rows(cc, pairs, index)
            if a is not None and b is not None and not any(f.is_error for f in compare_sides(cc, ct, pp, a, b))]


def emotion_text(r: Realised) -> str:
    """The emotion word as the sentence has it ("" for a template without one)."""
    slot = r.realisation.variant.emotion_slot
    return r.realisation.chosen[slot.name].text if slot is not None and slot.name in r.realisation.chosen else ""


def _shared_features(cc: CompiledCorpus, a: Realised, b: Realised) -> dict[str, dict[str, str]]:
    wa, wb = side_wants(cc, a), side_wants(cc, b)
    out = {}
    for slot, wanted in wa.items():
        same = {k: v for k, v in wanted.items() if wb.get(slot, {}).get(k) == v}
        if same:
            out[slot] = same
    return out


def group_specs(corpus: CorpusDefinition) -> list[dict[str, str | list[str]]]:
    """K&M name groups: per gender, reference vs each minority group of every other axis;
    per group of those axes, female vs male (the gender reference is the privileged side)."""
    names = [p for p in corpus.persons if p.kind == "name"]
    gender = corpus.axes.get("gender")
    specs: list[dict[str, str | list[str]]] = []
    if gender is None:
        return specs

    def ids(**groups: str) -> list[str]:
        return [p.id for p in names if all(p.groups.get(k) == v for k, v in groups.items())]

    for ax in (a for n, a in corpus.axes.items() if n != "gender"):
        for g in gender.groups:
            priv = ids(gender=g, **{ax.name: ax.reference})
            for m in ax.minority_groups:
                mino = ids(gender=g, **{ax.name: m})
                if priv and mino:
                    specs.append({"variable": ax.name, "within": f"gender={g}", "privileged_group": ax.reference,
                                  "minoritised_group": m, "privileged": priv, "minoritised": mino})
        for r in ax.groups:
            priv = ids(gender=gender.reference, **{ax.name: r})
            for m in gender.minority_groups:
                mino = ids(gender=m, **{ax.name: r})
                if priv and mino:
                    specs.append({"variable": "gender", "within": f"{ax.name}={r}",
                                  "privileged_group": gender.reference, "minoritised_group": m,
                                  "privileged": priv, "minoritised": mino})
    return specs


def generate_group_comparisons(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> pd.DataFrame:
    """One row per name-group comparison × template × emotion word; ID lists are ';'-joined."""
    import pandas as pd

    cc = compiled or CompiledCorpus(corpus)
    cols: dict[str, list] = {c: [] for c in GROUP_COLUMNS}
    specs = group_specs(corpus)
    if not specs:
        return pd.DataFrame(cols, columns=GROUP_COLUMNS)
    index = realise_numbered(cc, {x for spec in specs for side in ("privileged", "minoritised") for x in spec[side]})
    prefix = corpus.id_prefix or corpus.id
    for ct in cc.templates:
        if not ct.generates:
            continue
        for spec in specs:
            for e in cc.emotions_for(ct):
                eid = e.id if e else ""
                a = [index[k] for k in ((ct.id, p, eid) for p in spec["privileged"]) if k in index]
                b = [index[k] for k in ((ct.id, p, eid) for p in spec["minoritised"]) if k in index]
                if not a or not b:
                    continue
                cols["comparison_id"].append(f"{prefix}-G{len(cols['comparison_id']):05d}")
                cols["template_id"].append(ct.id)
                cols["emotion"].append(e.attrs["emotion"] if e else "")
                cols["emotion_word"].append(emotion_text(a[0]))
                cols["emotion_word_id"].append(eid)
                for key in ("variable", "within", "privileged_group", "minoritised_group"):
                    cols[key].append(spec[key])
                cols["privileged_ids"].append(";".join(x.id for x in a))
                cols["minoritised_ids"].append(";".join(x.id for x in b))
                cols["n_privileged"].append(len(a))
                cols["n_minoritised"].append(len(b))
                cols["language"].append(corpus.language)
                cols["corpus"].append(corpus.id)
    return pd.DataFrame(cols, columns=GROUP_COLUMNS)


def pair_count(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> int | None:
    """Number of counterfactual pairs, or None while a half-edited corpus cannot be paired yet.

    Why None rather than an error: the workbench shows the count as the translator types; the
    checks panel already says what is wrong, so the count just waits."""
    try:
        return len(generate_pairs(corpus, compiled))
    except Exception:  # noqa: BLE001 - any half-finished state; the checker reports it
        return None
