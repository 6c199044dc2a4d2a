"""User-interface language: gettext catalogs in ``locales/``, switchable at run time.

Why gettext + babel: translators know .po files (Poedit, Weblate); babel compiles them and
knows every language's own name ("Deutsch", "العربية"). A clean clone has only the .po
sources: when a .mo is missing or older than its .po we compile it in memory with babel (and
cache the result under the user's EEC Studio home, keyed by the .po's hash), so nothing
generated has to be committed and a stale binary catalog can never win.

Every visible string is wrapped in ``_()`` at the moment it is shown (never at import time,
use ``N_()`` to mark constants), and widgets re-read their texts on ``notifier.changed``.
"""
from __future__ import annotations

import gettext
import io
import locale
import os
from pathlib import Path

from PySide6.QtCore import QLocale, QObject, Qt, Signal

from engine.common.languages import endonym
from engine.common.languages import is_rtl as _is_rtl

from gui import i18n_core
# the translate functions live in the Qt-free core (the Qt-free models use them); re-exported here
from gui.i18n_core import N_, SOURCE_LANGUAGE, _, current_language, decimal, isolated, list_separator, localized, ngettext, number, percent, pgettext  # noqa: F401

DOMAIN = "eec_studio"
LOCALES_DIR = Path(__file__).resolve().parents[1] / "locales"

class _Notifier(QObject):
    """Emits ``changed(code)`` after the UI language switched, so widgets retranslate themselves."""

    changed = Signal(str)


notifier = _Notifier()


def available_languages() -> list[str]:
    """English (the source language) plus every language with a catalog in ``locales/``."""
    langs = [SOURCE_LANGUAGE]
    if LOCALES_DIR.is_dir():
        for po in sorted(LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            langs.append(po.parts[-3])
    return langs


def language_name(code: str) -> str:
    """The language's name in itself (babel's CLDR data): 'Deutsch', 'العربية', 'Español'."""
    return endonym(code)


def system_language() -> str:
    """The system locale's language if we have a catalog for it, else English."""
    name = QLocale.system().name() or ""
    for candidate in (name, os.environ.get("LANGUAGE", "").split(":")[0], (locale.getlocale()[0] or "")):
        code = candidate.split("_")[0].split(".")[0].lower()
        if code in available_languages():
            return code
    return SOURCE_LANGUAGE


def is_rtl(code: str | None = None) -> bool:
    """Whether ``code`` (default: the UI language) is written right to left."""
    return _is_rtl(code or current_language())


def load_catalog(code: str) -> gettext.NullTranslations:
    """The compiled catalog for ``code``: the .mo when it is up to date, else compiled from the .po."""
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    folder = LOCALES_DIR / code / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return gettext.GNUTranslations(fh)
    if not po.exists():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(_cached_compile(code, po)))


def _cached_compile(code: str, po: Path) -> bytes:
    """``compile_po`` through a cache named by the .po's content hash, so only the first start
    after a catalog changes pays for importing babel (about 70 ms); an edited .po has a new hash,
    so a stale cached catalog is never used. Cache write errors only cost the next start time."""
    import hashlib

    from engine.common.user_dirs import user_home

    data = po.read_bytes()
    cached = user_home() / "cache" / "locales" / f"{code}-{hashlib.sha1(data).hexdigest()[:16]}.mo"
    try:
        return cached.read_bytes()
    except OSError:
        pass
    mo = compile_po(po)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob(f"{code}-*.mo"):
            old.unlink(missing_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(mo)
        os.replace(tmp, cached)
    except OSError:
        pass
    return mo


def compile_po(po: Path) -> bytes:
    """Compile one .po file to .mo bytes with babel (fuzzy entries are left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fh:
        catalog = read_po(fh)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def compile_all(write: bool = True) -> list[Path]:
    """Compile every catalog to its .mo next to the .po (for packaging; the app does not need it)."""
    out = []
    for code in available_languages()[1:]:
        folder = LOCALES_DIR / code / "LC_MESSAGES"
        data = compile_po(folder / f"{DOMAIN}.po")
        if write:
            (folder / f"{DOMAIN}.mo").write_bytes(data)
        out.append(folder / f"{DOMAIN}.mo")
    return out


def set_language(code: str, app: object | None = None) -> str:
    """Switch the UI language (and layout direction); returns the language actually used."""
    if code not in available_languages():
        code = SOURCE_LANGUAGE
    i18n_core.install(load_catalog(code), code)
    if app is None:
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance()
    if app is not None:
        _install_qt_translations(app, code)
        app.setLayoutDirection(Qt.RightToLeft if is_rtl(code) else Qt.LeftToRight)
    notifier.changed.emit(code)
    return code


_qt_translator: QObject | None = None


def _install_qt_translations(app: object, code: str) -> None:
    """Qt's own texts (OK/Cancel, Save/Discard, file dialogs, context menus) from the qtbase
    catalogs that ship with Qt; installing or removing one retranslates them live."""
    global _qt_translator
    from PySide6.QtCore import QLibraryInfo, QTranslator

    if _qt_translator is not None:
        app.removeTranslator(_qt_translator)
        _qt_translator = None
    if code == SOURCE_LANGUAGE:
        return
    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    # Qt ships some languages only with a region (qtbase_pt_BR): take it when the bare one is missing
    names = [f"qtbase_{code}"] + sorted(p.stem for p in Path(folder).glob(f"qtbase_{code.split('-')[0]}_*.qm"))
    if any(translator.load(name, folder) for name in names):
        app.installTranslator(translator)
        _qt_translator = translator


def connect_retranslate(widget: QObject) -> None:
    """Call ``widget.retranslate()`` after every language switch.

    Connecting the bound method of a QObject lets Qt drop the connection when the widget
    dies, so a closed dialog never receives a late call on a deleted C++ object.
    """
    notifier.changed.connect(widget.retranslate)
