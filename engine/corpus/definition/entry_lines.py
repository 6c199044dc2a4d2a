"""Typing several persons or emotion words at once, each line with its own attributes.

Why: the Add dialog kept one gender for a whole batch, and three male names went in as female
with no sign. Here every line may say what it is — ``Ana f negra`` (a name, female, race group
*negra*), ``minha mãe f ~ meu pai m`` (two noun phrases, paired both ways), ``anger: irritada /
irritado`` (an emotion word and its forms) — and what a line does not say comes from the
dialog's choices. Attribute words are recognised only at the end of a person line (group
names, the gender feature's values such as f/m, kinds, or their labels in the interface
language) and only before a colon for emotion words, and the dialog shows each line's reading
before anything is added.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.corpus.definition.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS, CorpusDefinition


@dataclass
class LineEntry:
    """One entry a line describes (a ``~`` line gives two, each naming the other as ``pair_with``)."""

    text: str
    values: dict = field(default_factory=dict)  # kind, groups / emotion, kind: what build_entry takes
    pair_with: int = -1  # index (in the returned list) of the counterpart typed on the same line
    problem: str = ""  # what is still missing ('' when the entry can be added)


def _norm(word: str) -> str:
    return word.strip().casefold()


def person_aliases(corpus: CorpusDefinition, labels: dict[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """Word -> ("kind", kind) or (axis, group): group names, the gender feature's values (f, m),
    the kinds, and ``labels`` (value -> its name in the interface language). A word that would
    mean two things is left out, so it stays part of the text."""
    seen: dict[str, set[tuple[str, str]]] = {}

    def put(word: str, meaning: tuple[str, str]) -> None:
        if word.strip():
            seen.setdefault(_norm(word), set()).add(meaning)
    for kind in PERSON_KINDS:
        put(kind, ("kind", kind))
        put(kind.replace("_", " "), ("kind", kind))
    put("np", ("kind", "noun_phrase"))
    for name, axis in corpus.axes.items():
        for g in axis.groups:
            put(g, (name, g))
        for g, value in axis.feature_values.items():
            put(value, (name, g))
    for value, label in (labels or {}).items():
        for meaning in list(seen.get(_norm(value), ())):
            put(label, meaning)
    return {w: next(iter(m)) for w, m in seen.items() if len(m) == 1}


def _split_attrs(text: str, aliases: dict[str, tuple[str, str]]) -> tuple[str, dict[str, str]]:
    """"Ana f negra" -> ("Ana", {"gender": "female", "race": "negra"}): attribute words off the end."""
    words = text.split()
    attrs: dict[str, str] = {}
    while len(words) > 1 and _norm(words[-1]) in aliases and aliases[_norm(words[-1])][0] not in attrs:
        key, value = aliases[_norm(words.pop())]
        attrs[key] = value
    return " ".join(words), attrs


def _person_problem(corpus: CorpusDefinition, values: dict) -> str:
    kind, groups = values.get("kind", ""), values.get("groups", {})
    if not kind:
        return "kind"
    for name in corpus.axes:
        needed = (name == "gender" and kind != "identity_term") or (name != "gender" and kind == "name")
        if needed and not groups.get(name):
            return name
    return ""


def parse_person_lines(corpus: CorpusDefinition, lines: list[str], kind: str = "",
                       groups: dict[str, str] | None = None, labels: dict[str, str] | None = None) -> list[LineEntry]:
    """Persons from typed lines; ``kind``/``groups`` are the dialog's choices for what a line omits.

    ``problem`` names the first attribute still missing (``kind`` or an axis name)."""
    aliases = person_aliases(corpus, labels)
    defaults = {k: v for k, v in (groups or {}).items() if v}
    out: list[LineEntry] = []
    for line in lines:
        sides = [s.strip() for s in line.split("~")] if "~" in line else [line.strip()]
        if len(sides) > 2 or not all(sides):
            out.append(LineEntry(line.strip(), {"kind": kind, "groups": dict(defaults)},
                                 problem="write one pair per line: TEXT ~ TEXT"))
            continue
        start = len(out)
        typed = []
        for side in sides:
            text, attrs = _split_attrs(side, aliases)
            side_groups = dict(defaults)
            side_groups.update({a: g for a, g in attrs.items() if a != "kind"})
            values = {"kind": attrs.get("kind", kind), "groups": side_groups}
            out.append(LineEntry(text, values))
            typed.append("gender" in attrs)
            if len(sides) == 2 and "kind" not in attrs:
                values["kind"] = "noun_phrase"  # X ~ Y: a pair of noun phrases (my mother ~ my father)
        if len(sides) == 2:
            a, b = out[start], out[start + 1]
            a.pair_with, b.pair_with = start + 1, start
            _other_gender(corpus, a, b, typed)
        for e in out[start:]:
            e.problem = e.problem or _person_problem(corpus, e.values)
    return out


def _other_gender(corpus: CorpusDefinition, a: LineEntry, b: LineEntry, typed: list[bool]) -> None:
    """In ``X ~ Y`` a side whose gender is not typed takes the gender the other side does not have."""
    genders = corpus.axes["gender"].groups if "gender" in corpus.axes else []
    if len(genders) != 2:
        return
    ga, gb = a.values["groups"].get("gender"), b.values["groups"].get("gender")
    if not typed[1] and ga:
        b.values["groups"]["gender"] = next(g for g in genders if g != ga)
    elif typed[1] and not typed[0] and gb:
        a.values["groups"]["gender"] = next(g for g in genders if g != gb)


def emotion_aliases(labels: dict[str, str] | None = None) -> dict[str, tuple[str, str]]:
    seen: dict[str, set[tuple[str, str]]] = {}
    for e in EMOTIONS:
        seen.setdefault(e, set()).add(("emotion", e))
    for k in EMOTION_KINDS:
        seen.setdefault(k, set()).add(("kind", k))
    for value, label in (labels or {}).items():
        for meaning in list(seen.get(_norm(value), ())):
            seen.setdefault(_norm(label), set()).add(meaning)
    return {w: next(iter(m)) for w, m in seen.items() if len(m) == 1}


def parse_emotion_lines(lines: list[str], emotion: str = "", kind: str = "",
                        labels: dict[str, str] | None = None) -> list[LineEntry]:
    """Emotion words from typed lines: ``[EMOTION [KIND]:] form / form``; a prefix line
    ``EMOTION:`` alone sets the emotion of the lines below it."""
    aliases = emotion_aliases(labels)
    out: list[LineEntry] = []
    for line in lines:
        head, sep, rest = line.partition(":")
        attrs: dict[str, str] = {}
        if sep and head.split() and all(_norm(w) in aliases for w in head.split()):
            for w in head.split():
                key, value = aliases[_norm(w)]
                attrs[key] = value
            line = rest
        if not line.strip():  # a heading line: applies to the lines below
            emotion, kind = attrs.get("emotion", emotion), attrs.get("kind", kind)
            continue
        values = {"emotion": attrs.get("emotion", emotion), "kind": attrs.get("kind", kind)}
        problem = "emotion" if not values["emotion"] else "kind" if not values["kind"] else ""
        out.append(LineEntry(line.strip(), values, problem=problem))
    return out
