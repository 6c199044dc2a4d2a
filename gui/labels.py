"""Words the engine uses as data keys (emotions, statuses, checker titles), marked for translation.

Why here: engine/ must not depend on gettext and its keywords stay English in files and
tables; the GUI shows them translated by passing the key through ``_()``. Listing them with
``N_`` lets babel extract them into the catalogs.
"""
from gui.i18n import N_

EMOTION_LABELS = [N_("anger"), N_("fear"), N_("joy"), N_("sadness"), N_("neutral")]
STATUS_LABELS = [N_("new"), N_("machine-translated"), N_("translated"), N_("reviewed"), N_("untranslatable")]
GENDER_LABELS = [N_("female"), N_("male")]
PERSON_GROUP_LABELS = [N_("noun phrase"), N_("name"), N_("identity_term")]
CHECK_TITLES = [
    N_("no form with the features the slot needs"),
    N_("several forms fit the slot (ambiguous)"),
    N_("template has no person slot"),
    N_("unknown slot"),
    N_("unknown feature name"),
    N_("unknown feature value"),
    N_("emotion word without a valid emotion or kind"),
    N_("empty form"),
    N_("no template variant fits"),
    N_("template syntax or reference error"),
    N_("person term with unknown kind or group"),
    N_("entry has no forms"),
    N_("same form listed for different entries"),
    N_("stray punctuation or whitespace in a form"),
    N_("sentence does not start with a capital letter"),
    N_("name not capitalised"),
    N_("stray whitespace in template text"),
    N_("counterpart (pair) missing, not mirrored or not of the other gender"),
    N_("review status not recognised"),
    N_("entry marked untranslatable: its combinations are skipped"),
]
