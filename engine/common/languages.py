"""Languages by tag: their names (babel's CLDR data), the tag a user typed by name, and direction.

Why one home: the corpus engine (new corpora, translation, datasheets, HF cards, TMX), the
exchange formats and the GUI all name languages and decide right-to-left layout; with three
lists the GUI knew 4 right-to-left languages and the engine 9, so a Persian corpus was laid out
left-to-right in the workbench. Here a language is chosen as "French", never as "fr".
"""
from __future__ import annotations

import functools

from engine.common.errors import UsageError

#: Languages written right to left (base language of a BCP-47 tag).
RTL_LANGUAGES = frozenset({"ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv"})


def base_language(tag: str) -> str:
    """'es-MX' / 'es_MX' -> 'es'."""
    return tag.replace("_", "-").split("-")[0].lower()


def direction_of(language: str) -> str:
    """'rtl' or 'ltr' for a BCP-47 tag."""
    return "rtl" if base_language(language) in RTL_LANGUAGES else "ltr"


def is_rtl(language: str) -> bool:
    return direction_of(language) == "rtl"


def language_name(tag: str, display_locale: str = "en") -> str:
    """'fr' -> 'French' (in ``display_locale``); the tag itself when CLDR does not know it."""
    try:
        from babel import Locale

        return Locale.parse(tag.replace("-", "_")).get_display_name(display_locale.replace("-", "_")) or tag
    except Exception:  # babel raises several types for odd tags; a name is only cosmetic
        return tag


def language_choices(display_locale: str = "en") -> list[tuple[str, str]]:
    """(name, tag) of every language CLDR names, sorted by name in ``display_locale``.

    Only plain two- or three-letter languages: a region (es-MX) can be typed as a tag.
    """
    from babel import Locale

    try:
        names = Locale.parse(display_locale.replace("-", "_")).languages
    except Exception:  # an unknown UI locale: English names
        names = Locale("en").languages
    out = [(name, code) for code, name in names.items() if code.isalpha() and 2 <= len(code) <= 3 and code.islower()]
    return sorted(out, key=lambda x: x[0].casefold())


@functools.lru_cache(maxsize=1)
def _endonyms() -> dict[str, str]:
    """Each language's name in itself ("deutsch" -> de); built once (about a second of CLDR reads)."""
    from babel import Locale

    out: dict[str, str] = {}
    for _name, code in language_choices("en"):
        try:
            own = Locale.parse(code).get_display_name(code)
        except Exception:  # noqa: BLE001 - CLDR has names for codes it has no locale data for
            continue
        if own:
            out.setdefault(own.casefold(), code)
    return out


# The common languages' names in themselves (CLDR's, as babel gives them; tests/test_gui_workbench_issue39.py
# checks the table against babel): "italiano", "español", "Deutsch", "日本語", "العربية" are understood at
# once in a language field, where reading every endonym from CLDR (``_endonyms``) takes about a second.
COMMON_ENDONYMS = {
    "af": "Afrikaans", "ar": "العربية", "bg": "български", "bn": "বাংলা", "bs": "bosanski", "ca": "català",
    "cs": "čeština", "da": "dansk", "de": "Deutsch", "el": "Ελληνικά", "en": "English", "es": "español",
    "et": "eesti", "fa": "فارسی", "fi": "suomi", "fr": "français", "gl": "galego", "gu": "ગુજરાતી",
    "he": "עברית", "hi": "हिन्दी", "hr": "hrvatski", "hu": "magyar", "id": "Indonesia", "is": "íslenska",
    "it": "italiano", "ja": "日本語", "ko": "한국어", "lb": "Lëtzebuergesch", "mk": "македонски", "mr": "मराठी",
    "ms": "Melayu", "mt": "Malti", "nb": "norsk bokmål", "ne": "नेपाली", "nl": "Nederlands",
    "nn": "norsk nynorsk", "no": "norsk", "pa": "ਪੰਜਾਬੀ", "pl": "polski", "pt": "português", "ro": "română",
    "ru": "русский", "sk": "slovenčina", "sl": "slovenščina", "sr": "српски", "sv": "svenska",
    "sw": "Kiswahili", "th": "ไทย", "tr": "Türkçe", "uk": "українська", "ur": "اردو", "vi": "Tiếng Việt",
    "yue": "粵語", "zh": "中文",
}


def common_endonym_tag(text: str) -> str:
    """'italiano' -> 'it' (case aside) for the common languages; '' when not one of them."""
    folded = text.strip().casefold()
    return next((code for code, name in COMMON_ENDONYMS.items() if name.casefold() == folded), "")


def endonym(tag: str) -> str:
    """The language's name in itself, capitalised where the script has case: 'Deutsch', 'español' -> 'Español', 'العربية'."""
    name = language_name(tag, tag)
    return name[:1].upper() + name[1:]


def language_tag(text: str, display_locale: str = "en") -> str:
    """A tag from what a user typed: a tag (``fr``, ``es-MX``) or a name (``French``, ``français``).

    Raises UsageError (a ValueError) with the fix when neither is recognised.
    """
    from babel import Locale, UnknownLocaleError

    text = text.strip()
    if not text:
        raise UsageError("no language given: pass a language tag such as fr or es-MX, or a name such as French")
    by_name = {name.casefold(): code for name, code in language_choices(display_locale)}
    by_name.update({name.casefold(): code for name, code in language_choices("en")})
    if text.casefold() in by_name:
        return by_name[text.casefold()]
    if common_endonym_tag(text):  # "italiano", "日本語": the name in the language itself
        return common_endonym_tag(text)
    try:
        loc = Locale.parse(text.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        loc = None
    if loc is not None:
        try:  # the endonym names itself: "français" -> fr
            if Locale.parse(loc.language).get_display_name(loc.language):
                return text.replace("_", "-")
        except Exception:
            pass
    code = _endonyms().get(text.casefold())
    if code:
        return code
    raise UsageError(f"unknown language {text!r}: give a tag such as fr or es-MX, or an English name such as French")
