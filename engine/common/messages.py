"""Messages as data: a catalog of templates over named fields, and the one function that renders them.

Why one home: the checker's findings (engine.corpus.check.messages) and the statistics' reasons for
an untested row (engine.stats.reasons) both say something that the engine writes in English (the
command line, files, papers) and the GUI shows in the interface language. Each says it as a key and
typed fields (``Said``); a catalog holds, per key, the English template (``en``) and the interface's
sentence (``ui``, N_-marked so the translators' catalogs hold it) over the same fields. ``render``
is the only place either becomes text, so rewording the English changes no interface language —
and no interface reads the engine's English back.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

Translate = Callable[[str], str]
#: ``values(name, value)``: a field's value as the interface names it (e.g. who feels, a factor's name)
Values = Callable[[str, Any], Any]


@dataclass(frozen=True)
class Message:
    """One entry of a catalog: its code (a checker code, a statistic's status), the English template
    (``str.format``; ``!r`` quotes as Python does) and the interface's template over the same fields.
    ``complete``: the interface sentence carries everything the English does."""

    code: str
    en: str
    ui: str
    complete: bool = True


Catalog = Mapping[str, Message]


@dataclass(frozen=True)
class Said:
    """A message key and its fields (``str()``: the English). ``catalog`` is where the key lives."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    catalog: Catalog = field(default_factory=dict, compare=False, repr=False)

    def __str__(self) -> str:
        return render(self.catalog, self.key, self.params)

    def as_data(self) -> dict[str, Any]:
        """{"key": …, "params": {…}}: what a file keeps (JSON), nested fields included."""
        return {"key": self.key, "params": {k: _data(v) for k, v in self.params.items()}}


class Told(str):
    """A message's English that keeps the message: ``str`` is the English, ``said`` the data.

    Why: where a list of English lines is already an interface (an audit's problems: the summary,
    the manifest, notebooks that test ``"es-x" in p``), each line stays a string — comparisons,
    ``in``, JSON — and a reader that knows the catalog (the GUI) renders ``said`` in its language."""

    said: Said

    def __new__(cls, said: Said) -> "Told":
        text = super().__new__(cls, str(said))
        text.said = said
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # (a worker's problems come back pickled)
        return (Told, (self.said,))


def said_in(catalog: Catalog, key: str, params: dict[str, Any], where: str) -> Said:
    """A ``Said`` of ``catalog``; an unknown key is a bug in the caller (``where`` names the catalog)."""
    if key not in catalog:
        raise LookupError(f"no message {key!r} in {where}")
    return Said(key, dict(params), catalog)


def _data(value: Any) -> Any:
    if isinstance(value, Said):
        return value.as_data()
    if isinstance(value, (list, tuple)):
        return [_data(v) for v in value]
    return value


def to_json(s: Said | None) -> str:
    """The compact JSON of a message ('' for none): one CSV cell."""
    return "" if s is None else json.dumps(s.as_data(), ensure_ascii=False, separators=(",", ":"))


def from_json(catalog: Catalog, text: Any) -> Said | None:
    """The message a JSON cell holds (None: empty, unreadable, or a key this catalog does not know —
    a file from another version keeps its English note)."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return from_data(catalog, data)


def from_data(catalog: Catalog, data: Any) -> Said | None:
    """The message ``as_data()`` gave (a manifest's, already parsed), or None as ``from_json`` says."""
    if not (isinstance(data, dict) and isinstance(data.get("key"), str) and data["key"] in catalog):
        return None
    params = data.get("params") if isinstance(data.get("params"), dict) else {}
    return Said(data["key"], {k: _nested(catalog, v) for k, v in params.items()}, catalog)


def _nested(catalog: Catalog, value: Any) -> Any:
    if isinstance(value, dict) and "key" in value:
        return from_data(catalog, value) or value
    if isinstance(value, list):
        return [_nested(catalog, v) for v in value]
    return value


def _shown(catalog: Catalog, name: str, value: Any, translate: Translate | None, values: Values | None) -> Any:
    """A field as its template gets it: a nested message rendered in the same language, a list as
    'a, b' (nested messages joined by '; '), a value as the interface names it, numbers as numbers
    (so that format specs such as ``{tol:.0e}`` work in every language). The English keeps a plain list
    as Python writes it, as the checker's templates always have."""
    if isinstance(value, Said):
        return render(catalog, value.key, value.params, translate, values)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Said) for v in value):
        return "; ".join(str(_shown(catalog, name, v, translate, values)) for v in value)
    if isinstance(value, (list, tuple)) and translate is not None:  # the English keeps Python's list
        return ", ".join(str(_shown(catalog, name, v, translate, values)) for v in value)
    if translate is not None and values is not None:
        return values(name, value)
    return value


def render(catalog: Catalog, key: str, params: Mapping[str, Any], translate: Translate | None = None,
           values: Values | None = None) -> str:
    """The one rendering of a message: the English template without ``translate``; the interface's
    template in the language of ``translate`` (gettext's ``_``) otherwise, with ``values(name, value)``
    naming a field's value in that language."""
    msg = catalog[key]
    shown = {k: _shown(catalog, k, v, translate, values) for k, v in params.items()}
    return msg.en.format(**shown) if translate is None else translate(msg.ui).format(**shown)
