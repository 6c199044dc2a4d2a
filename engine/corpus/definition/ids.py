"""Entry ids derived from what the translator typed (``mon père`` -> ``mon_pere``).

Why: ids are the keys that line corpora up across languages and that templates name
(``{self …}``); ``person07`` says nothing when a checker message names it. An id is the text
without accents, lower-case, with ``_`` between words; scripts without Latin letters keep
their letters (``أمي``), since an id needs only to be unique and free of spaces.
"""
from __future__ import annotations

import re
import unicodedata


def slug(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip())
    latin = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    latin = latin.replace("œ", "oe").replace("Œ", "oe").replace("æ", "ae").replace("ß", "ss")
    s = re.sub(r"[^\w]+", "_", latin.casefold(), flags=re.UNICODE).strip("_")
    return unicodedata.normalize("NFC", s)


def derive_id(text: str, taken: set[str], fallback: str = "item") -> str:
    """A unique id for an entry whose (first) form is ``text``."""
    base = slug(text) or fallback
    if base[0].isdigit():
        base = f"{fallback}_{base}"
    new, n = base, 2
    while new in taken:
        new, n = f"{base}_{n}", n + 1
    return new
