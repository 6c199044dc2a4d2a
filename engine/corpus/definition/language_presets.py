"""Grammatical features a new corpus starts with, per language family (editable afterwards).

Why presets: a translator starting French should not have to know that forms need
``gender = [f, m]`` and ``number = [sg, pl]`` before the first word can agree; German needs
case, Arabic needs masculine/feminine template variants, Japanese voice and politeness. The
preset is a starting point the translator edits in the Corpus tab (or with ``--feature``); it
never decides anything the checker would not let them change.

Also here: the labels of the gender and race/ethnicity axes in the corpus language (a French
corpus translated from Spanish must not keep the column title *Género*), and the language
list by name (babel's CLDR data), so a language is chosen as "French", never as "fr".
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

RTL_LANGUAGES = {"ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv"}


@dataclass(frozen=True)
class LanguagePreset:
    """What a new corpus in one language starts with."""

    family: str  # "romance", "germanic-case", "semitic", … (shown to the user as a hint)
    features: dict[str, list[str]] = field(default_factory=dict)
    # template variants chosen by the person's gender (Arabic verbs and pronouns agree with the subject)
    variant_select: dict[str, str] = field(default_factory=dict)
    capitalize: bool = True


_GENDER_NUMBER = {"gender": ["f", "m"], "number": ["sg", "pl"]}
_FAMILIES: dict[str, LanguagePreset] = {
    "romance": LanguagePreset("romance", dict(_GENDER_NUMBER)),
    "germanic-case": LanguagePreset("germanic-case", {"case": ["nom", "acc", "dat"], "gender": ["f", "m", "n"],
                                                      "number": ["sg", "pl"]}),
    "germanic": LanguagePreset("germanic", {"role": ["subject", "object"], "gender": ["f", "m"]}),
    "slavic": LanguagePreset("slavic", {"case": ["nom", "gen", "dat", "acc", "ins", "loc"],
                                        "gender": ["f", "m", "n"], "number": ["sg", "pl"]}),
    "greek": LanguagePreset("greek", {"case": ["nom", "gen", "acc"], "gender": ["f", "m", "n"], "number": ["sg", "pl"]}),
    "semitic": LanguagePreset("semitic", {"gender": ["f", "m"]}, variant_select={"gender": "person.gender"}),
    "indo-aryan": LanguagePreset("indo-aryan", {"gender": ["f", "m"], "number": ["sg", "pl"]}),
    "japanese": LanguagePreset("japanese", {"voice": ["active", "causative"], "politeness": ["plain", "polite"]},
                               capitalize=False),
    "korean": LanguagePreset("korean", {"politeness": ["plain", "polite"]}, capitalize=False),
    "no-gender": LanguagePreset("no-gender", {}, capitalize=False),
    "default": LanguagePreset("default", {"gender": ["f", "m"]}),
}
_LANGUAGE_FAMILY = {
    **dict.fromkeys(("fr", "es", "it", "pt", "ca", "ro", "gl", "oc"), "romance"),
    **dict.fromkeys(("de", "is", "lb"), "germanic-case"),
    **dict.fromkeys(("en", "nl", "sv", "da", "no", "nb", "nn", "af"), "germanic"),
    **dict.fromkeys(("ru", "pl", "cs", "sk", "uk", "be", "sl", "hr", "sr", "bs", "bg", "mk"), "slavic"),
    "el": "greek",
    **dict.fromkeys(("ar", "he", "mt"), "semitic"),
    **dict.fromkeys(("hi", "ur", "bn", "pa", "mr", "gu", "ne"), "indo-aryan"),
    "ja": "japanese",
    "ko": "korean",
    **dict.fromkeys(("zh", "yue", "tr", "fi", "et", "hu", "fa", "id", "ms", "vi", "th", "sw", "tl"), "no-gender"),
}
# bg and mk lost their case system: articles and adjectives agree in gender and number only
_OVERRIDES = {"bg": LanguagePreset("slavic", dict(_GENDER_NUMBER) | {"gender": ["f", "m", "n"]}),
              "mk": LanguagePreset("slavic", dict(_GENDER_NUMBER) | {"gender": ["f", "m", "n"]})}

# Axis titles as a speaker of the corpus language writes them (shown as the persons table's
# column headers and in the datasheet). Unknown languages fall back to English.
AXIS_LABELS: dict[str, dict[str, str]] = {
    "en": {"gender": "Gender", "race": "Race/ethnicity"},
    "fr": {"gender": "Genre", "race": "Origine"},
    "es": {"gender": "Género", "race": "Etnia"},
    "it": {"gender": "Genere", "race": "Etnia"},
    "pt": {"gender": "Gênero", "race": "Etnia"},
    "de": {"gender": "Geschlecht", "race": "Herkunft"},
    "nl": {"gender": "Gender", "race": "Etniciteit"},
    "ru": {"gender": "Пол", "race": "Этническая принадлежность"},
    "pl": {"gender": "Płeć", "race": "Pochodzenie etniczne"},
    "ar": {"gender": "الجنس", "race": "العرق"},
    "he": {"gender": "מגדר", "race": "מוצא"},
    "ja": {"gender": "性別", "race": "出自"},
    "zh": {"gender": "性别", "race": "族裔"},
    "tr": {"gender": "Cinsiyet", "race": "Etnik köken"},
}


def base_language(tag: str) -> str:
    return tag.replace("_", "-").split("-")[0].lower()


def preset_for(language: str) -> LanguagePreset:
    """The preset for a BCP-47 tag (``fr``, ``es-MX``, ``ar``); unknown languages get gender m/f."""
    lang = base_language(language)
    if lang in _OVERRIDES:
        return _OVERRIDES[lang]
    return _FAMILIES[_LANGUAGE_FAMILY.get(lang, "default")]


def direction_of(language: str) -> str:
    return "rtl" if base_language(language) in RTL_LANGUAGES else "ltr"


def axis_label(language: str, axis: str) -> str:
    """The axis title in the corpus language ('' when unknown: the UI then shows the axis name)."""
    return AXIS_LABELS.get(base_language(language), {}).get(axis, "")


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


def language_tag(text: str, display_locale: str = "en") -> str:
    """A tag from what a user typed: a tag (``fr``, ``es-MX``) or a name (``French``, ``français``).

    Raises ValueError with the fix when neither is recognised.
    """
    from babel import Locale, UnknownLocaleError

    text = text.strip()
    if not text:
        raise ValueError("no language given: pass a language tag such as fr or es-MX, or a name such as French")
    by_name = {name.casefold(): code for name, code in language_choices(display_locale)}
    by_name.update({name.casefold(): code for name, code in language_choices("en")})
    if text.casefold() in by_name:
        return by_name[text.casefold()]
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
    raise ValueError(f"unknown language {text!r}: give a tag such as fr or es-MX, or an English name such as French")
