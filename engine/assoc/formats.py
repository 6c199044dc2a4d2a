"""Read test definitions from every format the product meets.

Why several readers: users bring the files of the papers they replicate. Besides the
product's own JSON (``"format": "eec-assoc-stimuli/1"``), this reads the sent-bias /
Italian SEAT ``.jsonl`` layout (``targ1``/``targ2``/``attr1``/``attr2`` with
``examples``), the Italian LPBS ``.jsonl`` layout (``singular``/``plural`` and
``templates``), the Italian WEAT ``.txt`` layout (``#`` comments, then four
comma-separated lines X, Y, A, B) and CrowS-Pairs ``.csv`` (``sent_more``,
``sent_less``). Every shape problem raises :class:`AssocError` naming file and field.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .errors import AssocError
from .stimuli import FiseSpec, SentenceItem, SentenceSet, TestSpec, WordSet

FORMAT = "eec-assoc-stimuli/1"
KINDS = ("weat", "seat", "lpbs", "crows", "fise")
SET_KEYS = ("X", "Y", "A", "B")
SENTBIAS_KEYS = {"targ1": "X", "targ2": "Y", "attr1": "A", "attr2": "B"}
MAX_BYTES = 32 * 1024 * 1024


def load_test_file(path: str | Path, *, test_id: str | None = None) -> TestSpec:
    """Read any supported test file; the format is recognised from its content."""
    p = Path(path)
    name = str(p)
    if not p.exists():
        raise AssocError("file not found", file=name, fix="check the path, or run `assoc list` for built-in test names")
    if p.is_dir():
        raise AssocError("is a folder, not a test file", file=name, fix="give one .json/.jsonl/.txt/.csv file")
    if p.stat().st_size > MAX_BYTES:
        raise AssocError("file too large for a stimulus file", file=name)
    tid = test_id or p.stem
    suffix = p.suffix.lower()
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise AssocError("not UTF-8 text", file=name, fix="save the file as UTF-8") from None
    if suffix == ".csv":
        return _read_crows_csv(text, name, tid)
    if suffix == ".txt":
        return _read_weat_txt(text, name, tid)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssocError(f"invalid JSON at line {exc.lineno}: {exc.msg}", file=name,
                         fix="fix the JSON syntax (a .jsonl test file is one JSON object)") from None
    if not isinstance(data, dict):
        raise AssocError("expected a JSON object at the top level", file=name)
    if data.get("format") == FORMAT:
        spec = parse_spec(data, name)
    elif set(SENTBIAS_KEYS) <= set(data):
        spec = _read_sentbias(data, name, tid)
    else:
        raise AssocError("unrecognised test file layout", file=name,
                         fix=f'use "format": "{FORMAT}", or the SEAT/LPBS layout with targ1, targ2, attr1, attr2')
    spec.path = name
    return spec


# --- the product's own format -------------------------------------------------

def parse_spec(data: dict[str, Any], name: str) -> TestSpec:
    kind = data.get("kind")
    if kind not in KINDS:
        raise AssocError(f"unknown kind {kind!r}", file=name, field="kind", fix=f"use one of {', '.join(KINDS)}")
    spec = TestSpec(
        id=str(data.get("id") or Path(name).stem), kind=kind, language=str(data.get("language", "en")),
        title=str(data.get("title", "")), source=str(data.get("source", "")), license=str(data.get("license", "")),
        forms=data.get("forms", "each"), templates=tuple(data.get("templates", ())),
        published=dict(data.get("published", {})), path=name,
    )
    if spec.forms not in ("each", "average"):
        raise AssocError(f"forms must be 'each' or 'average', not {spec.forms!r}", file=name, field="forms")
    if kind in ("weat", "seat", "lpbs"):
        sets = data.get("sets")
        if not isinstance(sets, dict):
            raise AssocError("missing the 'sets' object (X, Y, A, B)", file=name, field="sets")
        for key in SET_KEYS:
            if key not in sets:
                raise AssocError(f"missing set {key}", file=name, field=f"sets.{key}",
                                 fix="a test needs two target sets X, Y and two attribute sets A, B")
            setattr(spec, key, _parse_set(sets[key], kind, name, f"sets.{key}"))
        if kind == "lpbs":
            if not spec.templates:
                spec.templates = ("TARGET ATTRIBUTE",)
            for i, t in enumerate(spec.templates):
                if "TARGET" not in t or "ATTRIBUTE" not in t:
                    raise AssocError(f"template {t!r} lacks TARGET or ATTRIBUTE", file=name, field=f"templates[{i}]")
    elif kind == "crows":
        df = data.get("data")
        if not df:
            raise AssocError("missing 'data' (the pairs CSV next to this file)", file=name, field="data")
        spec.data_file = str(Path(name).parent / df)
    elif kind == "fise":
        spec.fise = _parse_fise(data.get("fise"), name)
    return spec


def _parse_set(obj: Any, kind: str, name: str, fld: str) -> WordSet | SentenceSet:
    if not isinstance(obj, dict):
        raise AssocError("expected an object with 'name' and 'terms' (or 'items')", file=name, field=fld)
    set_name = str(obj.get("name", fld))
    if kind == "seat":
        items = obj.get("items")
        if not isinstance(items, list) or not items:
            raise AssocError("a SEAT set needs a non-empty 'items' list", file=name, field=f"{fld}.items")
        out = []
        for i, it in enumerate(items):
            if isinstance(it, str):
                out.append(SentenceItem(it))
            elif isinstance(it, dict) and isinstance(it.get("sentence"), str):
                out.append(SentenceItem(it["sentence"], it.get("word")))
            else:
                raise AssocError("item must be a sentence or {sentence, word}", file=name, field=f"{fld}.items[{i}]")
        return SentenceSet(set_name, tuple(out))
    terms = obj.get("terms")
    if not isinstance(terms, list) or not terms:
        raise AssocError("a word set needs a non-empty 'terms' list", file=name, field=f"{fld}.terms")
    for i, t in enumerate(terms):
        ok = isinstance(t, str) and t.strip() or (isinstance(t, list) and t and all(isinstance(x, str) or x is None for x in t))
        if not ok:
            raise AssocError("term must be a word or a list of forms", file=name, field=f"{fld}.terms[{i}]")
    return WordSet.of(set_name, terms)


def _parse_fise(obj: Any, name: str) -> FiseSpec:
    if not isinstance(obj, dict):
        raise AssocError("missing the 'fise' object", file=name, field="fise")
    try:
        x, y = obj["x"], obj["y"]
        affect = {k: (WordSet.of(v["pos"]["name"], v["pos"]["terms"]), WordSet.of(v["neg"]["name"], v["neg"]["terms"]))
                  for k, v in obj.get("affect", {}).items()}
        return FiseSpec(
            x_name=x["name"], x_pos=WordSet.of(x["pos"]["name"], x["pos"]["terms"]),
            x_neg=WordSet.of(x["neg"]["name"], x["neg"]["terms"]),
            y_name=y["name"], y_pos=WordSet.of(y["pos"]["name"], y["pos"]["terms"]),
            y_neg=WordSet.of(y["neg"]["name"], y["neg"]["terms"]),
            targets=WordSet.of(obj["targets"]["name"], obj["targets"]["terms"]),
            affect=affect, target_forms=obj.get("target_forms", "each"),
        )
    except (KeyError, TypeError) as exc:
        raise AssocError(f"FISE definition lacks {exc}", file=name, field="fise",
                         fix="give x, y (each name/pos/neg), targets and optional affect") from None


def spec_to_json(spec: TestSpec) -> dict[str, Any]:
    """Serialise a spec in the product's format (used to build the packaged library)."""
    out: dict[str, Any] = {"format": FORMAT, "id": spec.id, "kind": spec.kind, "language": spec.language,
                           "title": spec.title, "source": spec.source, "license": spec.license}
    if spec.forms != "each":
        out["forms"] = spec.forms
    if spec.attr_language:
        out["attr_language"] = spec.attr_language
    if spec.kind in ("weat", "seat", "lpbs"):
        out["sets"] = {k: _set_json(v) for k, v in spec.sets().items()}
    if spec.templates:
        out["templates"] = list(spec.templates)
    if spec.kind == "crows":
        out["data"] = Path(spec.data_file).name
    if spec.kind == "fise" and spec.fise:
        f = spec.fise
        out["fise"] = {
            "x": {"name": f.x_name, "pos": _set_json(f.x_pos), "neg": _set_json(f.x_neg)},
            "y": {"name": f.y_name, "pos": _set_json(f.y_pos), "neg": _set_json(f.y_neg)},
            "targets": _set_json(f.targets), "target_forms": f.target_forms,
            "affect": {k: {"pos": _set_json(a), "neg": _set_json(b)} for k, (a, b) in f.affect.items()},
        }
    if spec.published:
        out["published"] = spec.published
    return out


def _set_json(s: WordSet | SentenceSet) -> dict[str, Any]:
    if isinstance(s, SentenceSet):
        return {"name": s.name, "items": [{"sentence": i.sentence, "word": i.word} if i.word else i.sentence
                                          for i in s.items]}
    return {"name": s.name, "terms": [t.forms[0] if len(t.forms) == 1 else list(t.forms) for t in s.terms]}


# --- foreign formats ------------------------------------------------------------

def _read_sentbias(data: dict[str, Any], name: str, tid: str) -> TestSpec:
    first = data["targ1"]
    if isinstance(first, dict) and "singular" in first:  # Italian LPBS layout
        sets = {}
        for k, key in SENTBIAS_KEYS.items():
            v = data[k]
            words = (v.get("singular", []) + v.get("plural", [])) if isinstance(v, dict) else v
            if not isinstance(words, list) or not words:
                raise AssocError("expected a non-empty word list", file=name, field=k)
            sets[key] = WordSet.of(k, words)
        tmpl = data.get("templates", {})
        templates = (tmpl.get("singular", []) + tmpl.get("plural", [])) if isinstance(tmpl, dict) else list(tmpl)
        return TestSpec(id=tid, kind="lpbs", templates=tuple(templates or ["TARGET ATTRIBUTE"]), path=name, **sets)
    examples: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for k in SENTBIAS_KEYS:
        v = data[k]
        if not isinstance(v, dict) or not isinstance(v.get("examples"), list) or not v["examples"]:
            raise AssocError("expected {category, examples: [...]}", file=name, field=k)
        examples[k] = [str(e) for e in v["examples"]]
        cat = str(v.get("category", k))
        names[k] = k if cat in ("", "TODO") else cat
    is_words = all(len(e.split()) == 1 and not e.rstrip().endswith((".", "!", "?")) for ex in examples.values() for e in ex)
    if is_words:
        sets = {key: WordSet.of(names[k], examples[k]) for k, key in SENTBIAS_KEYS.items()}
        return TestSpec(id=tid, kind="weat", path=name, **sets)
    sets = {key: SentenceSet(names[k], tuple(SentenceItem(e) for e in examples[k])) for k, key in SENTBIAS_KEYS.items()}
    return TestSpec(id=tid, kind="seat", path=name, **sets)


def _read_weat_txt(text: str, name: str, tid: str) -> TestSpec:
    lines = [ln.strip() for ln in text.splitlines()]
    content = [ln for ln in lines if ln and not ln.startswith("#")]
    comments = [ln.lstrip("#").strip() for ln in lines if ln.startswith("#")]
    if len(content) < 4:
        raise AssocError(f"expected 4 comma-separated word lines (X, Y, A, B), found {len(content)}", file=name,
                         fix="put one set per line after the # comment lines")
    sets = {}
    for key, line in zip(SET_KEYS, content[:4]):
        words = [w.strip() for w in line.split(",") if w.strip()]
        sets[key] = WordSet.of(key, words)
    return TestSpec(id=tid, kind="weat", title=comments[0] if comments else "", path=name, **sets)


def _read_crows_csv(text: str, name: str, tid: str) -> TestSpec:
    header = next(csv.reader([text.splitlines()[0] if text else ""]), [])
    if not {"sent_more", "sent_less"} <= set(header):
        raise AssocError("a CrowS-Pairs CSV needs columns sent_more and sent_less", file=name, field="header",
                         fix="use the CrowS-Pairs layout: sent_more, sent_less, stereo_antistereo, bias_type")
    return TestSpec(id=tid, kind="crows", data_file=name, path=name)


def read_crows_pairs(path: str) -> list[dict[str, str]]:
    """Rows of a CrowS-Pairs CSV as dicts (sent_more, sent_less, stereo_antistereo, bias_type)."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except FileNotFoundError:
        raise AssocError("CrowS-Pairs data file not found", file=path) from None
    if not rows or "sent_more" not in rows[0] or "sent_less" not in rows[0]:
        raise AssocError("needs columns sent_more and sent_less", file=path, field="header")
    for i, r in enumerate(rows):
        if not (r.get("sent_more") or "").strip() or not (r.get("sent_less") or "").strip():
            raise AssocError("empty sentence", file=path, field=f"row {i + 2}")
    return rows
