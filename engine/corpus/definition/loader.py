"""Read a corpus definition (TOML) into the corpus model, with shape validation.

Why TOML: human-editable, comments allowed, no indentation traps, in the standard
library (tomllib). Every shape error names the file, the field path and, where it can
be found, the line, plus what to do; nothing here raises anything but DefinitionError.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.corpus.definition.errors import DefinitionError
from engine.corpus.check.findings import GRAMMAR_CODES
from engine.common.toml_file import locate, parse_toml
from engine.corpus.definition.model import (
    Axis,
    CorpusDefinition,
    EmotionWord,
    EXPERIENCERS,
    PAIR_MATCHES,
    Form,
    Pair,
    PersonTerm,
    Review,
    Template,
    Variant,
    Word,
)

MAX_BYTES = 8 * 1024 * 1024  # a definition is a few hundred KB at most; refuse huge files early
FORMAT_VERSION = 1

TOP_KEYS = {
    "format", "id", "language", "name", "description", "source", "licence", "cite",
    "capitalize", "id_prefix", "direction", "features", "derive", "axes", "persons",
    "emotion_words", "words", "templates", "pairs", "meta", "expect",
    "known_defects", "speaker_gender", "spelling", "restrictions",
}
REVIEW_KEYS = {"status", "translator", "note", "source"}
PERSON_KEYS = {"id", "kind", "text", "forms", "features", "pair"} | REVIEW_KEYS
EMOTION_KEYS = {"id", "emotion", "kind", "text", "forms", "features"} | REVIEW_KEYS
WORD_KEYS = {"id", "text", "forms"} | REVIEW_KEYS
TEMPLATE_KEYS = {"id", "text", "variants", "select", "published", "experiencer", "source_template"} | REVIEW_KEYS
AXIS_KEYS = {"groups", "reference", "label", "feature"}
PAIR_KEYS = {"id", "variable", "privileged", "minoritised", "match", "shared", "note"}


def load_definition(path: str | Path) -> CorpusDefinition:
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DefinitionError(name, "file not found", fix="check the path or run `corpus list` for built-in names") from None
    except OSError as exc:
        raise DefinitionError(name, f"cannot read file ({exc.strerror})") from None
    if path.is_dir():
        raise DefinitionError(name, "is a folder, not a definition file", fix="give the .toml file inside it")
    if size > MAX_BYTES:
        raise DefinitionError(name, f"file is {size:,} bytes, over the {MAX_BYTES:,}-byte limit for a definition",
                              fix="a corpus definition is small text; check you opened the right file")
    raw = path.read_bytes()
    return parse_definition(raw, name)


def parse_definition(raw: bytes | str, name: str = "<definition>") -> CorpusDefinition:
    def fail(message: str, line: int | None, fix: str) -> DefinitionError:
        return DefinitionError(name, message, line=line, fix=fix)

    data, text = parse_toml(raw, fail)
    return _Builder(name, text).build(data)


class _Builder:
    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text

    # -- helpers -----------------------------------------------------------------
    def fail(self, field: str, message: str, fix: str = "") -> DefinitionError:
        return DefinitionError(self.name, message, field=field, line=locate(self.text, field), fix=fix)

    def table(self, value: Any, field: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a table, got {_kind(value)}")
        return value

    def array(self, value: Any, field: str) -> list:
        if not isinstance(value, list):
            raise self.fail(field, f"expected an array, got {_kind(value)}")
        return value

    def string(self, value: Any, field: str, *, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str):
            raise self.fail(field, f"expected a string, got {_kind(value)}", fix='write it in quotes, e.g. "value"')
        return value

    def ident(self, value: Any, field: str) -> str:
        s = self.string(value, field)
        if not s.strip():
            raise self.fail(field, "id is empty", fix="give every item a short unique id")
        if any(c.isspace() for c in s) or "." in s:
            raise self.fail(field, f"id {s!r} contains spaces or dots", fix="use letters, digits, '_' or '-'")
        return s

    def keys(self, d: dict, allowed: set[str], field: str) -> None:
        unknown = sorted(set(d) - allowed)
        if unknown:
            where = f"{field}.{unknown[0]}" if field else unknown[0]
            raise self.fail(where, f"unknown key {unknown[0]!r}",
                            fix=f"allowed keys here: {', '.join(sorted(allowed))}")

    def str_map(self, value: Any, field: str) -> dict[str, str]:
        d = self.table(value, field)
        for k, v in d.items():
            self.string(v, f"{field}.{k}")
        return dict(d)

    def review(self, d: dict) -> Review:
        return Review(status=d.get("status", "new"), translator=d.get("translator", ""),
                      note=d.get("note", ""), source=d.get("source", ""))

    def check_review(self, d: dict, field: str) -> None:
        for k in REVIEW_KEYS:
            if k in d:
                self.string(d[k], f"{field}.{k}")

    def forms(self, d: dict, field: str) -> list[Form]:
        if "text" in d and "forms" in d:
            raise self.fail(f"{field}.forms", "give either 'text' (one form) or 'forms' (several), not both")
        if "text" in d:
            return [Form(self.string(d["text"], f"{field}.text"))]
        if "forms" not in d:
            return []  # allowed: an untranslated entry; the checker reports it
        out = []
        for i, f in enumerate(self.array(d["forms"], f"{field}.forms")):
            fp = f"{field}.forms[{i}]"
            if isinstance(f, str):
                out.append(Form(f))
                continue
            f = self.table(f, fp)
            if "absent" in f:  # an explicitly missing form: no text, only the features it lacks
                if "text" in f:
                    raise self.fail(f"{fp}.absent", "a form has either 'text' or 'absent', not both",
                                    fix='write { absent = "why there is no such form", feature = "value" }')
                reason = self.string(f["absent"], f"{fp}.absent")
                if not reason.strip():
                    raise self.fail(f"{fp}.absent", "say why the form is absent", fix='e.g. absent = "idiom has no causative"')
                feats = {k: self.string(v, f"{fp}.{k}") for k, v in f.items() if k != "absent"}
                out.append(Form("", feats, absent=reason))
                continue
            if "text" not in f:
                raise self.fail(fp, "form has no 'text'", fix='write { text = "...", feature = "value" }')
            feats = {}
            for k, v in f.items():
                if k == "text":
                    continue
                feats[k] = self.string(v, f"{fp}.{k}")
            out.append(Form(self.string(f["text"], f"{fp}.text"), feats))
        return out

    # -- sections ----------------------------------------------------------------
    def build(self, data: dict) -> CorpusDefinition:
        self.keys(data, TOP_KEYS, "")
        fmt = data.get("format", FORMAT_VERSION)
        if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt != FORMAT_VERSION:
            raise self.fail("format", f"unsupported format {fmt!r}", fix=f"this version of EEC Studio reads format = {FORMAT_VERSION}")
        for req in ("id", "language"):
            if req not in data:
                raise DefinitionError(self.name, f"missing required key {req!r}", field=req,
                                      fix=f'add `{req} = "..."` at the top of the file')
        cid = self.ident(data["id"], "id")
        lang = self.string(data["language"], "language")
        if not lang or not all(p.isalnum() for p in lang.split("-")):
            raise self.fail("language", f"{lang!r} is not a BCP-47 tag", fix='e.g. "en", "es", "ar", "de", "ja", "zh-Hans"')
        capitalize = data.get("capitalize", True)
        if not isinstance(capitalize, bool):
            raise self.fail("capitalize", f"expected true or false, got {_kind(capitalize)}")
        features = {}
        for k, v in self.table(data.get("features", {}), "features").items():
            vals = self.array(v, f"features.{k}")
            features[k] = [self.string(x, f"features.{k}[{i}]") for i, x in enumerate(vals)]
        derive: dict[str, dict[str, str]] = {}
        for k, v in self.table(data.get("derive", {}), "derive").items():
            derive[k] = self.str_map(v, f"derive.{k}")
            for value, rx in derive[k].items():
                self.pattern(rx, f"derive.{k}.{value}")
        axes = self.axes(data.get("axes"))
        persons = [self.person(p, i, axes) for i, p in enumerate(self.array(data.get("persons", []), "persons"))]
        emotions = [self.emotion(e, i) for i, e in enumerate(self.array(data.get("emotion_words", []), "emotion_words"))]
        words = [self.word(w, i) for i, w in enumerate(self.array(data.get("words", []), "words"))]
        templates = [self.template(t, i) for i, t in enumerate(self.array(data.get("templates", []), "templates"))]
        for label, items in (("persons", persons), ("emotion_words", emotions), ("words", words), ("templates", templates)):
            seen: set[str] = set()
            for i, it in enumerate(items):
                if it.id in seen:
                    raise self.fail(f"{label}[{i}].id", f"duplicate id {it.id!r}", fix="ids must be unique within a section")
                seen.add(it.id)
        pairs = [self.pair(p, i) for i, p in enumerate(self.array(data.get("pairs", []), "pairs"))]
        seen_pairs: set[str] = set()
        for i, pr in enumerate(pairs):
            if pr.id in seen_pairs:
                raise self.fail(f"pairs[{i}].id", f"duplicate id {pr.id!r}", fix="ids must be unique within a section")
            seen_pairs.add(pr.id)
        expect = self.expect(data.get("expect", {}))
        known_defects = self.known_defects(data.get("known_defects", {}))
        extra = {k: data[k] for k in ("meta",) if k in data}
        speaker_gender = self.string(data.get("speaker_gender", ""), "speaker_gender", required=False)
        if speaker_gender and speaker_gender not in features.get("gender", []):
            raise self.fail("speaker_gender", f"{speaker_gender!r} is not a value of features.gender",
                            fix=f"use one of {features.get('gender') or 'the gender values (declare features.gender)'}")
        spelling = self.table(data.get("spelling", {}), "spelling")
        self.keys(spelling, {"accept"}, "spelling")
        accept = [self.accepted_word(w, f"spelling.accept[{i}]")
                  for i, w in enumerate(self.array(spelling.get("accept", []), "spelling.accept"))]
        restrictions = self.restrictions(data.get("restrictions", []))
        return CorpusDefinition(
            id=cid, language=lang, name=self.string(data.get("name", cid), "name"),
            axes=axes, features=features, persons=persons, emotion_words=emotions,
            templates=templates, words=words, derive=derive, capitalize=capitalize,
            description=self.string(data.get("description"), "description", required=False),
            source=self.string(data.get("source"), "source", required=False),
            licence=self.string(data.get("licence"), "licence", required=False),
            cite=self.string(data.get("cite"), "cite", required=False),
            id_prefix=self.string(data.get("id_prefix"), "id_prefix", required=False),
            direction=self.direction(data.get("direction", "ltr")),
            pairs=pairs, expect=expect, known_defects=known_defects, extra=extra, path=self.name,
            speaker_gender=speaker_gender, spelling_accept=accept, restrictions=restrictions,
        )

    def restrictions(self, value: Any) -> list[dict]:
        """The corpus's own grammar restrictions, checked as the language files' are."""
        from engine.corpus.check.grammar.language_data import LanguageDataError, parse_restriction

        out = []
        for i, r in enumerate(self.array(value, "restrictions")):
            r = self.table(r, f"restrictions[{i}]")
            try:
                parse_restriction(r, f"restrictions[{i}]")
            except LanguageDataError as exc:
                raise self.fail(exc.field, exc.message,
                                fix=exc.fix or "see engine/corpus/check/grammar/languages/README.md") from None
            out.append(dict(r))
        return out

    def pair(self, p: Any, i: int) -> Pair:
        fp = f"pairs[{i}]"
        p = self.table(p, fp)
        self.keys(p, PAIR_KEYS, fp)
        for req in ("id", "variable", "privileged", "minoritised"):
            if req not in p:
                raise self.fail(fp, f"pair has no {req!r}",
                                fix='write id, variable = "gender", privileged = "<person id>", minoritised = "<person id>"')
        match = self.string(p.get("match", "zip"), f"{fp}.match")
        if match not in PAIR_MATCHES:
            raise self.fail(f"{fp}.match", f"match {match!r} is not one of {list(PAIR_MATCHES)}")
        shared = self.array(p.get("shared", []), f"{fp}.shared")
        return Pair(id=self.ident(p["id"], f"{fp}.id"), variable=self.string(p["variable"], f"{fp}.variable"),
                    privileged=self.id_list(p["privileged"], f"{fp}.privileged"),
                    minoritised=self.id_list(p["minoritised"], f"{fp}.minoritised"), match=match,
                    shared=[self.string(x, f"{fp}.shared[{j}]") for j, x in enumerate(shared)],
                    note=self.string(p.get("note", ""), f"{fp}.note"))

    def id_list(self, value: Any, field: str) -> list[str]:
        """One person id or a list of them (a list declares several pairs at once)."""
        if isinstance(value, str):
            return [self.ident(value, field)]
        items = self.array(value, field)
        if not items:
            raise self.fail(field, "empty list", fix="name at least one person id")
        return [self.ident(x, f"{field}[{j}]") for j, x in enumerate(items)]

    def expect(self, value: Any) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for feat, rules in self.table(value, "expect").items():
            out[feat] = self.str_map(rules, f"expect.{feat}")
            for v, rx in out[feat].items():
                self.pattern(rx, f"expect.{feat}.{v}")
        return out

    def direction(self, value: Any) -> str:
        d = self.string(value, "direction")
        if d not in ("ltr", "rtl"):
            raise self.fail("direction", f"{d!r} is not a writing direction", fix='write "ltr" or "rtl"')
        return d

    def accepted_word(self, value: Any, field: str) -> str:
        """One entry of [spelling] accept: one word, as `corpus spelling-add` takes it (the check
        splits sentences into words: "two words" or a NUL would never match anything)."""
        from engine.corpus.check.spelling import WORD

        w = self.string(value, field)
        if WORD.fullmatch(w) is None:
            raise self.fail(field, f"{w!r} is not one word",
                            fix="one word per entry: letters, with an inner hyphen or apostrophe")
        return w

    def pattern(self, rx: str, field: str) -> None:
        """A user's regular expression: valid, and not one that backtracks without end."""
        from engine.common.patterns import PatternError, user_pattern

        try:
            user_pattern(rx, field=field)
        except PatternError as exc:
            raise self.fail(field, exc.message, fix=exc.fix) from None

    def known_defects(self, value: Any) -> dict[str, str]:
        """Grammar-rule codes a published text keeps on purpose, each with its reason."""
        out = self.str_map(value, "known_defects")
        for code, reason in out.items():
            if code not in GRAMMAR_CODES:
                raise self.fail(f"known_defects.{code}", f"{code!r} is not a grammar-rule code",
                                fix=f"only {', '.join(GRAMMAR_CODES)} can be declared known defects of a published text")
            if not reason.strip():
                raise self.fail(f"known_defects.{code}", "say why the defect is kept",
                                fix='e.g. E017 = "bare adjectives as published; kept to reproduce the paper"')
        return out

    def axes(self, value: Any) -> dict[str, Axis]:
        if value is None:
            raise DefinitionError(self.name, "missing [axes] section", field="axes",
                                  fix="declare at least [axes.gender] with groups and reference")
        out = {}
        for name, a in self.table(value, "axes").items():
            fp = f"axes.{name}"
            a = self.table(a, fp)
            self.keys(a, AXIS_KEYS, fp)
            groups = [self.string(g, f"{fp}.groups[{i}]") for i, g in enumerate(self.array(a.get("groups", []), f"{fp}.groups"))]
            if len(groups) < 2:
                raise self.fail(f"{fp}.groups", "an axis needs at least two groups")
            ref = self.string(a.get("reference"), f"{fp}.reference")
            if ref not in groups:
                raise self.fail(f"{fp}.reference", f"reference group {ref!r} is not one of {groups}",
                                fix="name the majority/reference group exactly as in groups")
            fv = self.str_map(a.get("feature", {}), f"{fp}.feature")
            out[name] = Axis(name=name, groups=groups, reference=ref,
                             label=self.string(a.get("label", ""), f"{fp}.label"), feature_values=fv)
        if "gender" not in out:
            raise self.fail("axes", "no gender axis", fix="add [axes.gender] groups = [\"female\", \"male\"], reference = \"male\"")
        return out

    def person(self, p: Any, i: int, axes: dict[str, Axis]) -> PersonTerm:
        fp = f"persons[{i}]"
        p = self.table(p, fp)
        self.keys(p, PERSON_KEYS | set(axes), fp)
        self.check_review(p, fp)
        pid = self.ident(p.get("id"), f"{fp}.id")
        kind = self.string(p.get("kind", "name"), f"{fp}.kind")
        groups = {a: self.string(p[a], f"{fp}.{a}") for a in axes if a in p}
        return PersonTerm(id=pid, kind=kind, groups=groups, forms=self.forms(p, fp),
                          features=self.str_map(p.get("features", {}), f"{fp}.features"),
                          pair=self.string(p.get("pair", ""), f"{fp}.pair"), review=self.review(p))

    def emotion(self, e: Any, i: int) -> EmotionWord:
        fp = f"emotion_words[{i}]"
        e = self.table(e, fp)
        self.keys(e, EMOTION_KEYS, fp)
        self.check_review(e, fp)
        return EmotionWord(id=self.ident(e.get("id"), f"{fp}.id"),
                           emotion=self.string(e.get("emotion", ""), f"{fp}.emotion"),
                           kind=self.string(e.get("kind", ""), f"{fp}.kind"),
                           forms=self.forms(e, fp),
                           features=self.str_map(e.get("features", {}), f"{fp}.features"),
                           review=self.review(e))

    def word(self, w: Any, i: int) -> Word:
        fp = f"words[{i}]"
        w = self.table(w, fp)
        self.keys(w, WORD_KEYS, fp)
        self.check_review(w, fp)
        return Word(id=self.ident(w.get("id"), f"{fp}.id"), forms=self.forms(w, fp), review=self.review(w))

    def template(self, t: Any, i: int) -> Template:
        fp = f"templates[{i}]"
        t = self.table(t, fp)
        self.keys(t, TEMPLATE_KEYS, fp)
        self.check_review(t, fp)
        tid = self.ident(t.get("id"), f"{fp}.id")
        if ("text" in t) == ("variants" in t):
            raise self.fail(fp, "a template needs exactly one of 'text' or 'variants'")
        if "text" in t:
            variants = [Variant(self.string(t["text"], f"{fp}.text"))]
        else:
            variants = []
            for j, v in enumerate(self.array(t["variants"], f"{fp}.variants")):
                vp = f"{fp}.variants[{j}]"
                v = self.table(v, vp)
                if "text" not in v:
                    raise self.fail(vp, "variant has no 'text'")
                feats = {k: self.string(x, f"{vp}.{k}") for k, x in v.items() if k not in ("text", "published")}
                variants.append(Variant(self.string(v["text"], f"{vp}.text"), feats,
                                        self.string(v.get("published", ""), f"{vp}.published")))
        experiencer = self.string(t.get("experiencer", ""), f"{fp}.experiencer", required=False)
        if experiencer and experiencer not in EXPERIENCERS:
            raise self.fail(f"{fp}.experiencer", f"{experiencer!r} is not one of {list(EXPERIENCERS)}",
                            fix="say who feels the emotion word: person, speaker, third (a third party) or noun")
        source_template = self.string(t.get("source_template", ""), f"{fp}.source_template", required=False)
        if "source_template" in t and (not source_template.strip() or any(c.isspace() or c == "." for c in source_template)):
            raise self.fail(f"{fp}.source_template", f"{source_template!r} is not a template id",
                            fix='name the source corpus\'s template this one translates, e.g. source_template = "T04", '
                                "or remove the key")
        return Template(id=tid, variants=variants, select=self.str_map(t.get("select", {}), f"{fp}.select"),
                        published=self.string(t.get("published", ""), f"{fp}.published"), review=self.review(t),
                        experiencer=experiencer, source_template=source_template)


def _kind(v: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(v), type(v).__name__)
