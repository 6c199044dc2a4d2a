"""The workbench page's state model (gui/workbench/page_state.py), driven with no window and no Qt.

Why these tests exist apart from the GUI tests: the texts, counts and answers the page shows are
decided here; each is checked on a real corpus (a French translation of en-kiritchenko2018, the
built-in itself) as plain data, edited the way the engine edits it.
"""
from __future__ import annotations

import copy
import gettext
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.corpus import CorpusDefinition, load_corpus
from engine.corpus.translate.new_language import translate_from
from gui import i18n_core
from gui.workbench.page_state import TO_REVIEW, EntryFilter, WorkbenchState, run_check, status_filter_choices

ROOT = Path(__file__).resolve().parents[1]
SOURCE = "en-kiritchenko2018"


@dataclass
class PlainDocument:
    """What the state reads of an open document, without Qt (CorpusDocument offers the same)."""

    corpus: CorpusDefinition
    source: CorpusDefinition | None = None
    path: Path | None = None
    revision: int = 0
    modified: bool = False
    is_builtin: bool = False


@pytest.fixture
def french() -> WorkbenchState:
    """A fresh, empty French translation of the 113-item EEC (11 templates, 60 persons, 40 emotion words, 2 words)."""
    source = load_corpus(SOURCE)
    return WorkbenchState(PlainDocument(translate_from(source, "fr"), source=source))


def test_the_state_module_pulls_in_no_qt():
    code = ("import sys; sys.modules['PySide6'] = None; sys.modules['shiboken6'] = None\n"
            "import gui.workbench.page_state\n"
            "bad = [m for m in sys.modules if m.startswith(('PySide6.', 'shiboken6.'))]\n"
            "assert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_an_empty_translation_is_0_percent_with_every_item_left(french):
    assert french.progress_text() == "0% translated · 113 items left · 0 of 113 reviewed"
    assert french.progress_permille() == 0
    titles = french.tab_titles()
    assert [t for t, _tip in titles] == ["Templates 0/11", "Persons 0/60", "Emotion words 0/40", "Words 0/2"]
    assert titles[1][1] == "0 of 60 translated, 0 reviewed"
    assert french.review_counts() == {"new": 113, "machine-translated": 0, "translated": 0, "reviewed": 0,
                                      "untranslatable": 0}
    assert french.review_summary() == "Review: 0 of 113 reviewed · 113 new"


def test_progress_and_tab_titles_follow_the_items_filled_in(french):
    c = french.corpus
    c.templates[0].variants[0].text = "{person} se sent {emotion kind=state gender=person.gender}."
    assert french.progress_text().startswith("<1% translated · 112 items left")
    assert french.tab_titles()[0][0] == "Templates 1/11"
    assert french.progress_permille() == round(1000 / 113)
    for t in c.templates:  # every template: the tab loses its count, the rest is still to do
        t.variants[0].text = "{person} est {emotion kind=state gender=person.gender}."
    assert french.tab_titles()[0] == ("Templates", "11 of 11 translated, 0 reviewed")
    assert french.progress_text().startswith("10% translated · 102 items left")


def test_review_counts_and_summary_count_each_status(french):
    c = french.corpus
    c.templates[0].review.status = "reviewed"
    c.persons[0].review.status = "untranslatable"
    c.words[0].review.status = "translated"
    counts = french.review_counts()
    assert (counts["reviewed"], counts["untranslatable"], counts["translated"], counts["new"]) == (1, 1, 1, 110)
    assert french.review_summary() == "Review: 1 of 113 reviewed · 1 translated · 110 new · 1 untranslatable"
    assert french.progress_text().endswith("1 of 113 reviewed")


def test_a_corpus_being_built_says_what_to_add_next(french):
    french.corpus.templates.clear()
    assert "next: add a template (Templates tab, Add)" in french.progress_text()
    french.corpus.persons.clear()
    french.corpus.templates.append(copy.deepcopy(load_corpus(SOURCE).templates[0]))
    assert "next: add persons (Persons tab, Add)" in french.progress_text()


def test_the_heading_names_the_corpus_its_language_source_and_file(french):
    h = french.heading()
    assert (h.corpus_id, h.language, h.source_note, h.where) == (
        "fr-from-en-kiritchenko2018", "Français (fr)", " · translated from en-kiritchenko2018", "not saved yet")
    assert h.html() == ("<b>fr-from-en-kiritchenko2018</b> · Français (fr) · translated from en-kiritchenko2018"
                        "<br><small>not saved yet</small>")
    french.doc.modified = True
    assert french.heading().html().startswith("<b>fr-from-en-kiritchenko2018</b> * · ")

    builtin = load_corpus(SOURCE)
    state = WorkbenchState(PlainDocument(builtin, path=Path(builtin.path), is_builtin=True))
    h = state.heading()
    assert h.where == "built-in corpus (en/en-kiritchenko2018.toml): Save writes a copy to your corpora"
    assert h.tooltip == f"{builtin.name}\n{builtin.path}"
    assert "&lt;" not in h.html() and h.source_note == ""


def test_the_heading_escapes_what_it_shows():
    corpus = copy.deepcopy(load_corpus(SOURCE))
    corpus.id = "a<b>&c"
    assert WorkbenchState(PlainDocument(corpus)).heading().html().startswith("<b>a&lt;b&gt;&amp;c</b>")


def test_the_status_filter_and_search_choose_the_entries_shown(french):
    c = french.corpus
    assert french.visible_ids("templates") == [t.id for t in c.templates]  # no filter: everything
    french.filter = EntryFilter(status=TO_REVIEW)
    assert french.visible_ids("templates") == []  # nothing translated yet, so nothing to review
    c.templates[2].review.status = "translated"
    c.templates[4].review.status = "machine-translated"
    c.templates[5].review.status = "reviewed"
    assert french.visible_ids("templates") == ["T03", "T05"]
    french.filter = EntryFilter(status="reviewed")
    assert french.visible_ids("templates") == ["T06"]
    french.filter = EntryFilter(status="new")
    assert len(french.visible_ids("templates")) == 8


def test_the_search_matches_the_cells_as_shown_case_insensitively(french):
    persons = french.corpus.persons
    # the Kind column shows "noun phrase" (stored: noun_phrase), so that is what the search finds
    noun_phrases = [p.id for p in persons if p.kind == "noun_phrase"]
    french.filter = EntryFilter(text="Noun Phrase")
    assert french.visible_ids("persons") == noun_phrases and 0 < len(noun_phrases) < len(persons)
    french.filter = EntryFilter(text="noun_phrase")
    assert french.visible_ids("persons") == []
    # the Source column: the English text this item is translated from
    french.filter = EntryFilter(text="MY MOTHER")
    assert french.visible_ids("persons") == ["np_my_mother"]
    french.filter = EntryFilter(status="reviewed", text="my mother")
    assert french.visible_ids("persons") == []  # both must hold


def test_status_filter_choices_list_all_the_queue_and_every_status():
    choices = status_filter_choices()
    assert choices[:2] == [("All", ""), ("translated, not reviewed", TO_REVIEW)]
    assert [v for _label, v in choices[2:]] == ["new", "machine-translated", "translated", "reviewed", "untranslatable"]


def test_next_untranslated_walks_forward_and_back_and_wraps(french):
    assert french.next_untranslated(None) == ("templates", "T01")
    french.corpus.templates[1].variants[0].text = "{person} est {emotion kind=state gender=person.gender}."
    assert french.next_untranslated(("templates", "T01")) == ("templates", "T03")  # T02 is done
    last_word = french.corpus.words[-1].id
    assert french.next_untranslated(("templates", "T01"), -1) == ("words", last_word)  # wraps to the end
    assert french.next_untranslated(("words", last_word)) == ("templates", "T01")  # and back to the start


def test_next_untranslated_is_none_once_everything_is_done(french):
    for name in ("templates", "persons", "emotion_words", "words"):
        for e in getattr(french.corpus, name):
            e.review.status = "untranslatable"  # a decision, not a gap: counts as done
    assert french.next_untranslated(("persons", "ebony")) is None
    assert french.progress_text().startswith("100% translated")


def test_a_real_check_marks_the_entries_it_blames_and_navigation_visits_errors_first():
    from engine.corpus import Form

    corpus = copy.deepcopy(load_corpus("es-camara2022"))  # as shipped: one warning (W108, heartbreaking)
    state = WorkbenchState(PlainDocument(corpus))
    report, groups, _untranslated = run_check(copy.deepcopy(corpus))
    state.take_check(report, groups)
    assert state.report is report and state.problems["emotion_words"] == {"heartbreaking": "warning"}
    assert state.next_problem(None) == ("emotion_words", "heartbreaking")  # no errors: the warning
    # furious loses its feminine form (E001 and W111: the worse is kept), T03 names no known slot (E004)
    furious = [e.id for e in corpus.emotion_words].index("furious")
    corpus.emotion_words[furious].forms = [Form("furioso", {"gender": "m"})]
    corpus.templates[2].variants[0].text = "{person} feels {nonsense}."
    report, groups, _untranslated = run_check(copy.deepcopy(corpus))
    state.take_check(report, groups)
    assert state.problems["templates"] == {"T03": "error"}
    assert state.problems["emotion_words"] == {"furious": "error", "heartbreaking": "warning"}
    assert state.next_problem(None) == ("templates", "T03")
    assert state.next_problem(("templates", "T03")) == ("emotion_words", "furious")  # the warning is skipped
    assert state.next_problem(("emotion_words", "furious")) == ("templates", "T03")  # wraps
    assert state.next_problem(("templates", "T03"), -1) == ("emotion_words", "furious")  # backwards


def test_errors_come_before_warnings_and_a_failed_check_keeps_the_marks(french):
    def group(list_name, item_id, severity):
        return SimpleNamespace(cause=(list_name, item_id), finding=SimpleNamespace(severity=severity))

    french.take_check("report", [group("persons", "ebony", "warning"), group("words", french.corpus.words[0].id, "error"),
                                 group("templates", "T02", "warning"), group("templates", "T02", "error"),
                                 group("templates", "T02", "warning")])
    assert french.problems["templates"] == {"T02": "error"}  # the worst severity stays
    assert french.next_problem(None) == ("templates", "T02")
    assert french.next_problem(("templates", "T02")) == ("words", french.corpus.words[0].id)  # skips the warning
    french.take_check("report", [group("persons", "ebony", "warning")])
    assert french.next_problem(None) == ("persons", "ebony")  # no errors left: warnings count
    french.check_failed()
    assert french.report is None and french.next_problem(None) == ("persons", "ebony")
    french.take_check("report", [])
    assert french.next_problem(None) is None


def test_the_native_review_line_says_when_no_sample_is_rated_or_the_record_cannot_be_read(french):
    assert french.review_line()[0] == "native review: no blind sample rated yet"
    french.review_failed("review.json: bad JSON")
    assert french.review_line() == ("native review: the record cannot be read", "review.json: bad JSON")
    french.take_review(None)
    assert french.review_line()[0] == "native review: no blind sample rated yet" and french.review_error == ""


def test_autosave_is_due_only_for_unsaved_edits_it_has_not_written(french):
    doc = french.doc
    assert not french.autosave_due()  # opened unmodified: the file holds it
    doc.modified, doc.revision = True, 3
    assert french.autosave_due()
    french.autosaved()
    assert not french.autosave_due()
    doc.revision = 4
    assert french.autosave_due()
    recovered = WorkbenchState(PlainDocument(french.corpus, revision=0, modified=True))
    assert recovered.autosave_due()  # opened modified (recovered): written at the first tick


def test_the_disk_banner_offers_reload_unless_the_file_is_gone(tmp_path, french):
    path = tmp_path / "fr.toml"
    path.write_text("x", encoding="utf-8")
    french.doc.path = path
    assert french.disk_notice() == ("fr.toml changed on disk. Reload it?", True)
    french.doc.modified = True
    text, reload = french.disk_notice()
    assert reload and text.startswith("fr.toml changed on disk, and you have unsaved edits.")
    path.unlink()
    assert french.disk_notice() == ("fr.toml was deleted or moved on disk. Save writes it again.", False)


class _Catalog(gettext.NullTranslations):
    def __init__(self, words: dict[str, str]) -> None:
        super().__init__()
        self.words = words

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)


def test_the_texts_follow_the_interface_language(french):
    i18n_core.install(_Catalog({"{percent} translated": "{percent} übersetzt", "Persons": "Personen"}), "de")
    try:
        assert french.progress_text().startswith("0% übersetzt · ")
        assert french.tab_titles()[1][0] == "Personen 0/60"
    finally:
        i18n_core.install(gettext.NullTranslations(), "en")


def test_values_in_sentences_are_isolated_only_where_directions_mix():
    """``isolated``: a path or date keeps its order inside a right-to-left sentence, and a path copied
    from a left-to-right one carries no invisible characters (a terminal would not find it)."""
    path, arabic = "/home/u/corpora/x.toml", "مدونة.toml"
    assert i18n_core.isolated(path) == path  # the suite runs in English
    assert i18n_core.isolated(arabic) == f"\u2068{arabic}\u2069"  # right-to-left letters in an English sentence
    i18n_core.install(gettext.NullTranslations(), "ar")
    try:
        assert i18n_core.isolated(path) == f"\u2068{path}\u2069"
        assert i18n_core.isolated("2026-11-28T03:50:17+00:00") == "\u20682026-11-28T03:50:17+00:00\u2069"
    finally:
        i18n_core.install(gettext.NullTranslations(), "en")


def test_numbers_and_shares_follow_the_interface_language():
    """Counts and percentages in the interface's sentences: CLDR's grouping and decimal sign, Latin
    digits in every language (gui.i18n_core.number, percent)."""
    import gettext

    from gui import i18n_core

    expected = {  # language: (8040, 1234567, 0.5 to 4 places, 12.3 %, 12 % to 1 place)
        "en": ("8,040", "1,234,567", "0.5000", "12.3%", "12.0%"),
        "ar": ("8,040", "1,234,567", "0.5000", "12.3%", "12.0%"),
        "de": ("8.040", "1.234.567", "0,5000", "12,3\xa0%", "12,0\xa0%"),
        "es": ("8.040", "1.234.567", "0,5000", "12,3\xa0%", "12,0\xa0%"),
        "fr": ("8\u202f040", "1\u202f234\u202f567", "0,5000", "12,3\xa0%", "12,0\xa0%"),
        "it": ("8.040", "1.234.567", "0,5000", "12,3%", "12,0%"),
        "pt": ("8.040", "1.234.567", "0,5000", "12,3%", "12,0%"),
        "zz": ("8,040", "1,234,567", "0.5000", "12.3%", "12.0%"),  # a language CLDR does not know
    }
    try:
        for code, want in expected.items():
            i18n_core.install(gettext.NullTranslations(), code)
            got = (i18n_core.number(8040), i18n_core.number(1_234_567), i18n_core.decimal(0.5, 4),
                   i18n_core.percent(0.123), i18n_core.percent(0.12))
            assert got == want, code
    finally:
        i18n_core.install(gettext.NullTranslations(), "en")
