"""Serialise a corpus definition back to TOML and save it atomically.

Why our own formatter rather than tomli_w's default: translators read these files, so
forms stay as one-line inline tables and sections keep the order of the built-in files.
Round trip: ``parse_definition(to_toml(c))`` gives back an equal definition (tested); saving
over a file keeps its `#` comments (engine.corpus.definition.comments).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import tomli_w

from engine.common.io import atomic_write_bytes
from engine.corpus.definition.model import CorpusDefinition, Form, Review


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _q(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else _q(k)


def _forms(forms: list[Form]) -> list[str]:
    if len(forms) == 1 and not forms[0].features and not forms[0].absent:
        return [f"text = {_q(forms[0].text)}"]
    if not forms:
        return []
    return ["forms = [" + ", ".join(_value({"absent": f.absent, **f.features} if f.absent else
                                           {"text": f.text, **f.features}) for f in forms) + "]"]


def _pairs(c: CorpusDefinition) -> list[str]:
    lines: list[str] = []
    for p in c.pairs:
        lines += ["", "[[pairs]]", f"id = {_q(p.id)}", f"variable = {_q(p.variable)}"]
        for side in ("privileged", "minoritised"):
            ids = getattr(p, side)
            lines.append(f"{side} = {_q(ids[0]) if len(ids) == 1 else _value(ids)}")
        if p.match != "zip":
            lines.append(f"match = {_q(p.match)}")
        if p.shared:
            lines.append(f"shared = {_value(p.shared)}")
        if p.note:
            lines.append(f"note = {_q(p.note)}")
    return lines


def _review(r: Review) -> list[str]:
    out = []
    if r.status != "new":
        out.append(f"status = {_q(r.status)}")
    for name in ("translator", "note", "source"):
        v = getattr(r, name)
        if v:
            out.append(f"{name} = {_q(v)}")
    return out


def to_toml(c: CorpusDefinition) -> str:
    lines = ["# EEC Studio corpus definition (format 1). See docs/corpus.md \"Definition format\".",
             "format = 1", f"id = {_q(c.id)}", f"name = {_q(c.name)}", f"language = {_q(c.language)}"]
    for name in ("description", "source", "licence", "cite", "id_prefix"):
        v = getattr(c, name)
        if v:
            lines.append(f"{name} = {_q(v)}")
    if c.direction != "ltr":
        lines.append(f"direction = {_q(c.direction)}")
    lines.append(f"capitalize = {_value(c.capitalize)}")
    if c.speaker_gender:
        lines.append(f"speaker_gender = {_q(c.speaker_gender)}")
    lines += ["", "[features]"] + [f"{_key(k)} = {_value(v)}" for k, v in c.features.items()]
    for feat, rules in c.derive.items():
        lines += ["", f"[derive.{_key(feat)}]"] + [f"{_key(k)} = {_q(v)}" for k, v in rules.items()]
    for feat, rules in c.expect.items():
        lines += ["", f"[expect.{_key(feat)}]"] + [f"{_key(k)} = {_q(v)}" for k, v in rules.items()]
    if c.known_defects:
        lines += ["", "[known_defects]"] + [f"{_key(k)} = {_q(v)}" for k, v in c.known_defects.items()]
    for name, a in c.axes.items():
        lines += ["", f"[axes.{_key(name)}]"]
        if a.label:
            lines.append(f"label = {_q(a.label)}")
        lines += [f"groups = {_value(a.groups)}", f"reference = {_q(a.reference)}"]
        if a.feature_values:
            lines.append(f"feature = {_value(a.feature_values)}")
    for w in c.words:
        lines += ["", "[[words]]", f"id = {_q(w.id)}"] + _forms(w.forms) + _review(w.review)
    for t in c.templates:
        lines += ["", "[[templates]]", f"id = {_q(t.id)}"]
        if len(t.variants) == 1 and not t.variants[0].features and not t.select:
            lines.append(f"text = {_q(t.variants[0].text)}")
            if t.variants[0].published and not t.published:
                lines.append(f"published = {_q(t.variants[0].published)}")
        else:
            if t.select:
                lines.append(f"select = {_value(t.select)}")
            vs = []
            for v in t.variants:
                d = {**v.features, "text": v.text}
                if v.published:
                    d["published"] = v.published
                vs.append(_value(d))
            lines.append("variants = [\n    " + ",\n    ".join(vs) + ",\n]")
        if t.published:
            lines.append(f"published = {_q(t.published)}")
        if t.experiencer:
            lines.append(f"experiencer = {_q(t.experiencer)}")
        if t.source_template:
            lines.append(f"source_template = {_q(t.source_template)}")
        lines += _review(t.review)
    for p in c.persons:
        lines += ["", "[[persons]]", f"id = {_q(p.id)}", f"kind = {_q(p.kind)}"]
        lines += [f"{_key(k)} = {_q(v)}" for k, v in p.groups.items()]
        lines += _forms(p.forms)
        if p.features:
            lines.append(f"features = {_value(p.features)}")
        if p.pair:
            lines.append(f"pair = {_q(p.pair)}")
        lines += _review(p.review)
    for e in c.emotion_words:
        lines += ["", "[[emotion_words]]", f"id = {_q(e.id)}", f"emotion = {_q(e.emotion)}", f"kind = {_q(e.kind)}"]
        lines += _forms(e.forms)
        if e.features:
            lines.append(f"features = {_value(e.features)}")
        lines += _review(e.review)
    lines += _pairs(c)
    if c.spelling_accept:
        lines += ["", "[spelling]", f"accept = {_value(c.spelling_accept)}"]
    for r in c.restrictions:
        lines += ["", "[[restrictions]]"] + [f"{_key(k)} = {_value(v)}" for k, v in r.items()]
    text = "\n".join(lines) + "\n"
    if c.extra:  # sections this writer does not format itself (e.g. meta) go through tomli_w
        text += "\n" + tomli_w.dumps(c.extra)
    return text


_SAME = object()


def save_definition(c: CorpusDefinition, path: str | os.PathLike, *,
                    comments_from: str | os.PathLike | None | object = _SAME) -> Path:
    """Atomic save: a crash mid-save never leaves a truncated definition behind.

    The `#` comments of `comments_from` (by default the file being replaced) are carried over
    (engine.corpus.definition.comments): a save never deletes a translator's notes. Pass the file a
    document was opened from when saving it under another name; None writes no old comments."""
    path = Path(path)
    atomic_write_bytes(path, to_toml_keeping_comments(c, path if comments_from is _SAME else comments_from))
    return path


def to_toml_keeping_comments(c: CorpusDefinition, comments_from: str | os.PathLike | None) -> bytes:
    """`to_toml(c)` as UTF-8, with the comments of the file `comments_from` when it can be read."""
    text = to_toml(c)
    if comments_from is not None:
        try:
            old = Path(comments_from).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):  # no old file (a new one) or unreadable: nothing to carry
            old = None
        if old is not None:
            from engine.corpus.definition.comments import carry_comments

            text = carry_comments(old, text)
    return text.encode("utf-8")
