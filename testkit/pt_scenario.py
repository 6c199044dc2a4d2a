"""The Portuguese translator scenario of issue 28: what a translator types to build a small corpus
from nothing (a race axis, three templates, eight names, two noun-phrase pairs, eight emotion words).
One home for the GUI test that counts its actions and the screenshot tool that shows its screens."""
from __future__ import annotations

AXIS = "race:Raça=branco*,negro"
TEMPLATES = ["{person} está {emotion kind=state}.",  # no gender agreement yet: the checker's fix adds it
             "Eu vi {person} muito {emotion kind=state gender=person.gender}.",
             "{person} sente-se {emotion kind=state gender=person.gender}."]
NAMES = ["Ana f branco", "Beatriz f branco", "João m branco", "Pedro m branco",
         "Jasmine f negro", "Ebony f negro", "Darnell m negro", "Jamal m negro"]
PAIRS = ["minha mãe f ~ meu pai m", "minha irmã f ~ meu irmão m"]
WORDS = ["anger: irritada / irritado", "anger: furiosa / furioso", "fear: assustada / assustado",
         "fear: ansiosa / ansioso", "joy: animada / animado", "joy: encantada / encantado",
         "sadness: deprimida / deprimido", "sadness: desanimada / desanimado"]


def build_page(win):
    """The scenario's corpus in the workbench of ``win`` (a gui MainWindow), entered through the
    widgets a translator uses (new corpus, axis, Add dialog's line syntax); returns the page."""
    from engine.corpus.definition.axes import parse_axis_option, with_axis
    from gui.workbench.add_entry import AddEntryDialog

    page = win.new_corpus("Portuguese")
    doc = page.doc
    doc.set(("axes",), with_axis(doc.corpus, parse_axis_option(AXIS)), "axis")
    tab = page.entry_tabs["templates"]
    for text in TEMPLATES:
        tab.add_entries([{"text": text}])
    for list_name, kind, lines in (("persons", "name", NAMES), ("persons", "noun_phrase", PAIRS),
                                   ("emotion_words", "state", WORDS)):
        dlg = AddEntryDialog(doc.corpus, list_name, page.entry_tabs[list_name].add_entries, page)
        dlg.boxes["kind"].setCurrentIndex(dlg.boxes["kind"].findData(kind))
        dlg.text.setPlainText("\n".join(lines))
        dlg.add()
        dlg.deleteLater()
    return page
