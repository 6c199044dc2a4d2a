"""Grammatical features a new corpus starts with, per language family (editable afterwards).

Why presets: a translator starting French should not have to know that forms need
``gender = [f, m]`` and ``number = [sg, pl]`` before the first word can agree; German needs
case, Arabic needs masculine/feminine template variants, Japanese voice and politeness. The
preset is a starting point the translator edits in the Corpus tab (or with ``--feature``); it
never decides anything the checker would not let them change.

Also here: the labels of the gender and race/ethnicity axes in the corpus language (a French
corpus translated from Spanish must not keep the column title *Género*). Language names,
tags and writing directions have their one home in engine.common.languages.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.common.languages import base_language



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


def preset_for(language: str) -> LanguagePreset:
    """The preset for a BCP-47 tag (``fr``, ``es-MX``, ``ar``); unknown languages get gender m/f."""
    lang = base_language(language)
    if lang in _OVERRIDES:
        return _OVERRIDES[lang]
    return _FAMILIES[_LANGUAGE_FAMILY.get(lang, "default")]


def axis_label(language: str, axis: str) -> str:
    """The axis title in the corpus language ('' when unknown: the UI then shows the axis name)."""
    return AXIS_LABELS.get(base_language(language), {}).get(axis, "")
