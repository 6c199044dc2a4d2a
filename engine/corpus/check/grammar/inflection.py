"""Per-language inflection data (``languages/inflection/<lang>.toml``): what a word's other forms
look like, read once per language.

Why data: the checker used to trust the translator's tags. A form typed once for a gendered
word (*furioso*), two forms with their tags swapped (f = *furioso*, m = *furiosa*) or the same
text under both tags all generated a corpus that measures grammar instead of bias. The regular
endings of a language (Italian *-o* → *-a*, *-tore* → *-trice*, *-e* for both; Arabic *+ة*) and
their common exceptions are a table a linguist extends, not code (format: languages/inflection/
README.md, docs/corpus.md "Inflection data").

Two kinds of data:

- ``[[agreement]]`` sections: for one feature (gender, number), the *base* value the endings
  start from, the *other* value, and ``endings`` pairs ``[base ending, other ending]``; equal
  endings mean one form serves both. ``when`` restricts a section to forms with those features
  (German attributive adjectives: ``decl = "strong", case = "nom"``).
- ``[declension]``: classes of names (Arabic triptote/diptote, German -s genitive) and, per class
  and case, how the case form is written (``ending`` regex → ``add``/``replace``); ``frames``
  are literal contexts before a person slot that make it take a case (the object of جعل, رأى).

Only single words are read: a phrase (*di cattivo umore*, *en colère*) is left to the
translator's tags, since which of its words agrees is not in the data.
"""
from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from engine.common.errors import UserError

DATA_DIR = Path(__file__).with_name("languages") / "inflection"
BASE, OTHER, BOTH = "base", "other", "both"


class InflectionDataError(UserError):
    """A malformed inflection file, naming its field (the shipped files are parsed by their tests)."""


@dataclass(frozen=True)
class Agreement:
    """One feature's regular pattern: ``base`` forms turn into ``other`` forms by ``endings``."""

    feature: str
    base: str
    other: str
    endings: tuple[tuple[str, str], ...]
    when: tuple[tuple[str, str], ...] = ()
    exceptions: tuple[tuple[str, str], ...] = ()  # base word -> other word
    invariable: frozenset[str] = frozenset()
    #: not for forms with these features (the singular gender endings do not read plural forms:
    #: French 'agaçants' / 'agaçantes' would read as two masculine forms)
    unless: tuple[tuple[str, str], ...] = ()

    def applies(self, features: dict[str, str]) -> bool:
        return all(features.get(k) == v for k, v in self.when) and \
            not any(features.get(k) == v for k, v in self.unless)

    def read(self, word: str) -> str:
        """BASE, OTHER, BOTH (one form serves both values) or '' (the data cannot tell)."""
        w = word.lower()
        if not w or " " in w:
            return ""
        if w in self.invariable:
            return BOTH
        for b, o in self.exceptions:
            if w == b:
                return BOTH if b == o else BASE
            if w == o:
                return OTHER
        best, sides = -1, set()
        for b, o in self.endings:
            for ending, which in ((b, BASE), (o, OTHER)):
                if w.endswith(ending) and len(w) > len(ending):
                    side = BOTH if b == o else which
                    if len(ending) > best:
                        best, sides = len(ending), {side}
                    elif len(ending) == best:
                        sides.add(side)
        # the longest ending decides; on a tie "one form for both" wins (no false alarm), and a tie
        # between the two values means the data cannot tell
        if BOTH in sides:
            return BOTH
        return sides.pop() if len(sides) == 1 else ""

    def to_other(self, word: str) -> str | None:
        """The other-value form of a base word (itself when one form serves both); None if unknown."""
        return self._convert(word, BASE)

    def to_base(self, word: str) -> str | None:
        return self._convert(word, OTHER)

    def expected(self, word: str, value: str) -> str | None:
        """The form with ``value`` of the feature, from ``word`` whatever it reads as."""
        side = self.read(word)
        if side == BOTH:
            return word
        if side == "":
            return None
        want = BASE if value == self.base else OTHER
        if side == want:
            return word
        return self.to_other(word) if want == OTHER else self.to_base(word)

    def _convert(self, word: str, side: str) -> str | None:
        w = word.lower()
        read = self.read(word)
        if read == BOTH:
            return word
        if read != side:
            return None
        for b, o in self.exceptions:
            if w == (b if side == BASE else o):
                return _same_case(word, o if side == BASE else b)
        frm, to = max(((b, o) if side == BASE else (o, b) for b, o in self.endings
                       if w.endswith(b if side == BASE else o) and len(w) > len(b if side == BASE else o)),
                      key=lambda x: len(x[0]))
        return word[: len(word) - len(frm)] + to if frm else word + to


def _same_case(model: str, word: str) -> str:
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


@dataclass(frozen=True)
class CaseRule:
    ending: re.Pattern[str]
    add: str = ""
    replace: str | None = None  # replaces what ``ending`` matched (None: the text is kept)


@dataclass(frozen=True)
class DeclensionClass:
    name: str
    about: str
    cases: dict[str, tuple[CaseRule, ...]]  # case -> rules, first match wins; () = unchanged

    def decline(self, text: str, case: str) -> str:
        for rule in self.cases.get(case, ()):
            m = rule.ending.search(text)
            if m:
                return (text if rule.replace is None else text[: m.start()] + rule.replace) + rule.add
        return text


@dataclass(frozen=True)
class CaseFrame:
    case: str
    before: re.Pattern[str]  # the literal text before a person slot
    about: str


@dataclass(frozen=True)
class Declension:
    feature: str = "declension"  # the person feature naming the class
    case: str = "case"  # the slot feature naming the case
    classes: dict[str, DeclensionClass] = field(default_factory=dict)
    frames: tuple[CaseFrame, ...] = ()


@dataclass(frozen=True)
class Inflection:
    language: str
    agreement: tuple[Agreement, ...] = ()
    declension: Declension | None = None

    def sections(self, feature: str, features: dict[str, str]) -> list[Agreement]:
        return [a for a in self.agreement if a.feature == feature and a.applies(features)]

    def expected(self, word: str, feature: str, value: str, features: dict[str, str]) -> str | None:
        """The form of ``word`` with ``feature=value`` by the first section that reads it; None
        when no section can tell."""
        for a in self.sections(feature, features):
            if value not in (a.base, a.other):
                continue
            got = a.expected(word, value)
            if got is not None:
                return got
        return None


def _pairs(value, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                              for p in value):
        raise InflectionDataError("expected a list of [base ending, other ending] pairs", field=where)
    return tuple((a.lower(), b.lower()) for a, b in value)


def _agreement(d: dict, where: str) -> Agreement:
    for key in ("feature", "base", "other"):
        if not isinstance(d.get(key), str) or not d[key]:
            raise InflectionDataError(f"give {key} (a string)", field=f"{where}.{key}")
    exc = d.get("exceptions", {})
    if not isinstance(exc, dict):
        raise InflectionDataError("expected a table base word = other word", field=f"{where}.exceptions")
    return Agreement(d["feature"], d["base"], d["other"], _pairs(d.get("endings", []), f"{where}.endings"),
                     when=tuple(sorted((str(k), str(v)) for k, v in d.get("when", {}).items())),
                     unless=tuple(sorted((str(k), str(v)) for k, v in d.get("unless", {}).items())),
                     exceptions=tuple((str(k).lower(), str(v).lower()) for k, v in exc.items()),
                     invariable=frozenset(str(w).lower() for w in d.get("invariable", ())))


def _regex(value, where: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except (re.error, TypeError) as exc:
        raise InflectionDataError(f"not a valid regular expression ({exc})", field=where) from None


def _declension(d: dict, where: str) -> Declension:
    classes = {}
    for name, c in d.get("classes", {}).items():
        cw = f"{where}.classes.{name}"
        if not isinstance(c.get("about"), str) or not c["about"].strip():
            raise InflectionDataError("say what the class is and which words belong to it", field=f"{cw}.about")
        cases = {}
        for case, rules in c.items():
            if case == "about":
                continue
            cases[case] = tuple(CaseRule(_regex(r.get("ending", "$"), f"{cw}.{case}[{i}].ending"), str(r.get("add", "")),
                                         None if r.get("replace") is None else str(r["replace"])) for i, r in enumerate(rules))
        classes[name] = DeclensionClass(name, c["about"].strip(), cases)
    frames = tuple(CaseFrame(str(f.get("case", "")), _regex(f.get("before"), f"{where}.frames[{i}].before"),
                             str(f.get("about", ""))) for i, f in enumerate(d.get("frames", ())))
    return Declension(str(d.get("feature", "declension")), str(d.get("case", "case")), classes, frames)


@functools.lru_cache(maxsize=None)
def inflection(language: str) -> Inflection:
    """The data for ``language`` (``es-MX`` reads ``es.toml``); empty when there is none."""
    base = language.split("-")[0].split("_")[0].lower()
    path = DATA_DIR / f"{base}.toml"
    if not path.is_file():
        return Inflection(base)
    try:
        d = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InflectionDataError(f"not valid TOML ({exc})", file=str(path)) from None
    agreement = tuple(_agreement(a, f"{path.name}: agreement[{i}]") for i, a in enumerate(d.get("agreement", ())))
    decl = _declension(d["declension"], f"{path.name}: declension") if "declension" in d else None
    return Inflection(base, agreement, decl)
