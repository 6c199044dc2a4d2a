"""The interface language's gettext functions, without Qt: ``_``, ``ngettext``, ``pgettext``, ``N_``.

Why apart from ``gui.i18n``: the Qt-free models of the interface (the workbench's page state)
word their texts in the interface language too, and must be importable — and testable — with
no Qt at all. ``gui.i18n`` re-exports these functions and owns the switching (catalogs, Qt's own
translations, the ``changed`` signal); ``install`` is how it sets the catalog every function reads.
"""
from __future__ import annotations

import gettext
from functools import lru_cache

SOURCE_LANGUAGE = "en"

_translation: gettext.NullTranslations = gettext.NullTranslations()
_current = SOURCE_LANGUAGE


def install(translation: gettext.NullTranslations, code: str) -> None:
    """Make ``translation`` (the catalog of language ``code``) the one every function here reads."""
    global _translation, _current
    _translation, _current = translation, code


def current_language() -> str:
    return _current


def _(message: str) -> str:
    """Translate one message into the current UI language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count (languages differ in plural rules; Arabic has six forms)."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate a short message whose meaning needs a context ("s" as the unit of seconds)."""
    return _translation.pgettext(context, message)


def list_separator() -> str:
    """", " between items of a list, in the UI language (Arabic: "، ")."""
    return pgettext("separator between the items of a list", ", ")


def isolated(value: object) -> str:
    """``value`` as text for a translated sentence — a path, a date, an identifier, JSON — wrapped in
    Unicode's first-strong isolate (U+2068 … U+2069) where directions mix: a right-to-left interface,
    or a value with right-to-left letters. Elsewhere it is left as it is.

    Why: in a right-to-left sentence the bidi algorithm reorders a left-to-right value's runs — the
    Arabic Notes tab showed the creation time 2026-11-28T03:50:17+00:00 as
    "28T03:50:17+00:00-11-2026". Isolated, the value keeps its own direction and order. Why not
    always: the isolate characters are invisible but are copied with the text, and a path copied
    from an English message into a terminal must be the path."""
    import unicodedata

    from engine.common.languages import is_rtl

    text = str(value)
    if is_rtl(_current) or any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        return f"\u2068{text}\u2069"
    return text


def number(n: float) -> str:
    """A count as the interface language writes it.

    Why: "8,040 frasi" — Python's ``f"{n:,}"`` in every language — reads as eight point zero four
    sentences in Italian, German, Spanish or Portuguese, which write 8.040 (French 8 040). Grouping
    comes from CLDR (babel); the digits stay Latin in every language, Arabic included, as in the
    corpora, tables and files the numbers are compared with. A measured value: ``decimal``."""
    from babel.core import UnknownLocaleError
    from babel.numbers import format_decimal

    try:
        return format_decimal(n, locale=_current.replace("-", "_"), numbering_system="latn")
    except (UnknownLocaleError, ValueError):  # a language CLDR does not know: the source language's way
        return f"{n:,}"


def decimal(x: float, digits: int, *, signed: bool = False) -> str:
    """A measured value on screen (an effect size, a mean difference, a coordinate) with ``digits``
    fixed places in the interface language's notation: 0,042 in Italian; ``signed`` puts "+" before
    a value that is not negative, as ``f"{x:+.3f}"`` does. No grouping: these are small numbers."""
    text = f"{abs(x):.{digits}f}" if signed else f"{x:.{digits}f}"
    text = localized(text)
    return (("-" if x < 0 else "+") + text) if signed else text


def localized(numeric: str) -> str:
    """A number Python or the engine wrote ("0.042", "p < 0.001", "-0.05") with the interface
    language's decimal sign; a plot's tick labels and the engine's p-phrases go through it, so the
    same plot never mixes 0,01 (a translated legend) with 0.001 (a value)."""
    sign = _decimal_sign(_current)
    return numeric if sign == "." else numeric.replace(".", sign)


@lru_cache(maxsize=None)
def _decimal_sign(code: str) -> str:
    """The language's decimal sign, looked up once (babel took 44 µs a call; a plot's axes ask for
    every tick label at each redraw)."""
    from babel.core import UnknownLocaleError
    from babel.numbers import get_decimal_symbol

    try:
        return get_decimal_symbol(code.replace("-", "_"), numbering_system="latn")
    except (UnknownLocaleError, ValueError):
        return "."


def percent(share: float, decimals: int = 1) -> str:
    """A share (0.123) as a percentage in the interface language's notation, with ``decimals`` fixed
    places: 12.3% in English, 12,3 % in French and German, 12,3% in Italian (CLDR's pattern)."""
    from babel import Locale
    from babel.core import UnknownLocaleError
    from babel.numbers import format_percent

    try:
        code = _current.replace("-", "_")
        head, zero, tail = Locale.parse(code).percent_formats[None].pattern.rpartition("0")
        pattern = head + zero + ("." + "0" * decimals if decimals else "") + tail
        return format_percent(share, format=pattern, locale=code, numbering_system="latn")
    except (UnknownLocaleError, ValueError, KeyError):  # a language CLDR does not know
        return f"{share:.{decimals}%}"


def N_(message: str) -> str:
    """Mark a constant for extraction without translating it yet (it is translated when shown)."""
    return message
