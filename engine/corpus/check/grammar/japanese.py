"""Japanese: E019 two を objects in one clause, E020 na-adjective before a noun without な,
E021 causative without a causee.

E019 — a clause has one を object: *主人は私を元気をなくさせた* (the causee and the object of
元気をなくす both take を). Two を with nothing between them but a noun (no verb or adjective
ending, so no clause boundary) is the fault.

E020 — a na-adjective needs な before a noun: *幸せ状況* for 幸せな状況. The rule knows a list
of common na-adjectives (below) and looks at an emotion slot ending in one and followed
directly by a noun (kanji, katakana or a bound noun such as こと).

E021 — a causative (-(s)ase-) needs someone made to feel: *旦那との会話は驚かせた*. The rule
looks at an emotion slot that ends a clause in a causative and finds neither を nor に in the
clause before it.
"""
from __future__ import annotations

import re

from engine.corpus.check.messages import said
from engine.corpus.generate.compiled import CVariant

NA_ADJECTIVES = ("幸せ", "不幸", "元気", "静か", "大切", "大事", "素敵", "不安", "残念", "退屈", "幸福", "嫌",
                 "好き", "嫌い", "大丈夫", "複雑", "危険", "大変", "深刻", "悲惨", "愉快", "不快", "憂鬱", "平気",
                 "惨め", "哀れ", "穏やか", "爽やか", "心細", "楽", "最悪", "最高", "変", "不機嫌", "上機嫌")
# a noun starts: kanji, katakana, or a bound noun written in hiragana
_NOUN_START = re.compile(r"^(?:[\u4e00-\u9fff\u30a0-\u30ffー々]|こと|もの|とき|ところ|気持ち|人)")
_CLAUSE_END = "。、！？!?"
# causative stem: a-row kana + せ, or させ; then a verb ending (た, る, ます, ...)
_CAUSATIVE = re.compile(r"^[^。、]*?(?:[かがさざただなばまらわ]せ|させ)(?:た|る|ます|ました|ない|なかった|て)")
# lexical verbs that end like a causative but are not one (知らせる, 合わせる, 済ませる)
_NOT_CAUSATIVE = ("知らせ", "合わせ", "済ませ")
# what may stand between two を in one clause: a noun phrase (no verb or adjective ending)
_NOUN_ONLY = re.compile(r"^[^\u3040-\u309f]*(?:の[^\u3040-\u309f]*)*$")


def _clauses(raw: str) -> list[str]:
    return [c for c in re.split(f"[{_CLAUSE_END}]", raw) if c]


def double_o(raw: str, spans: dict[str, tuple[int, int]], cv: CVariant) -> list[tuple[str, str, str]]:
    for clause in _clauses(raw):
        positions = [i for i, ch in enumerate(clause) if ch == "を"]
        for a, b in zip(positions, positions[1:]):
            between = clause[a + 1 : b]
            if _NOUN_ONLY.match(between):
                slot = _slot_at(spans, raw.find(clause) + b)
                return [("E019", slot, said("E019.two_objects"))]
    return []


def na_adjective_without_na(raw: str, spans: dict[str, tuple[int, int]], cv: CVariant) -> list[tuple[str, str, str]]:
    out = []
    for slot in cv.parsed.slots:
        if slot.source != "emotion":
            continue
        start, end = spans[slot.name]
        word = raw[start:end]
        adj = next((a for a in NA_ADJECTIVES if word.endswith(a)), None)
        if adj and _NOUN_START.match(raw[end:]):
            out.append(("E020", slot.name, said("E020.na", word=adj, fix=f"{adj}な")))
    return out


def causative_without_causee(raw: str, spans: dict[str, tuple[int, int]], cv: CVariant) -> list[tuple[str, str, str]]:
    out = []
    for slot in cv.parsed.slots:
        if slot.source != "emotion":
            continue
        start, end = spans[slot.name]
        rest = raw[start:]
        m = _CAUSATIVE.match(rest)
        if not m or any(x in m.group(0) for x in _NOT_CAUSATIVE):
            continue
        clause = re.split(f"[{_CLAUSE_END}]", raw[:start])[-1]
        if "を" not in clause and "に" not in clause:
            out.append(("E021", slot.name, said("E021.causee")))
    return out


def _slot_at(spans: dict[str, tuple[int, int]], pos: int) -> str:
    return next((name for name, (s, e) in spans.items() if s <= pos < e), "")
