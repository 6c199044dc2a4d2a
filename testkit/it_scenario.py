"""Issue 39's Italian scenario: en-kiritchenko2018 translated into Italian with both axes.

Shared by tests/test_gui_it_scenario.py and tools/screenshots_issue39.py. The scope: 3 templates
(T04 is a speaker template: "{person} made me feel {emotion}"), 4 noun phrases, 8 names (2 per
gender × race cell), 4 emotion words with feminine and masculine forms. The names stay as the
source has them (they signal the groups of the race axis); the Italian is checked as a native
speaker writes it: *si sente arrabbiata*, *la situazione fa sentire mia madre spaventata* (the
adjective agrees with the person), *mi ha fatto sentire arrabbiato* (it agrees with the speaker,
held masculine: ``speaker_gender = "m"``).
"""
from __future__ import annotations

SOURCE = "en-kiritchenko2018"
KEEP = ("T01, T02, T04, np_my_mother, np_my_father, np_my_sister, np_my_brother, "
        "ebony, jasmine, alonzo, jamel, amanda, betsy, adam, alan, angry, terrified, excited, depressed")

# one line per item, as a translator pastes them: the id or the English text, then the forms
# (tabs between columns, as copied from a spreadsheet, or "|" / a colon)
BATCH = [
    "T01\t{person} si sente {emotion kind=state gender=person.gender}.",
    "T02\tLa situazione fa sentire {person} {emotion kind=state gender=person.gender}.",
    "T04\t{person} mi ha fatto sentire {emotion kind=state}.",  # E002: its Fix holds it at the speaker's gender
    "my mother\tmia madre",
    "my father\tmio padre",
    "my sister: mia sorella",
    "my brother: mio fratello",
    "Ebony\tEbony", "Jasmine\tJasmine", "Alonzo\tAlonzo", "Jamel\tJamel",
    "Amanda\tAmanda", "Betsy\tBetsy", "Adam\tAdam", "Alan\tAlan",
    "angry\tarrabbiata\tarrabbiato",
    "terrified\tterrorizzata\tterrorizzato",
    "excited: emozionata | emozionato",
    "depressed: depressa | depresso",
]
