"""The models' sentences an audit reports and the GUI shows in its language, as data (a key and
typed fields, engine.common.messages): ``str()`` is the English of the log and the files, and the
GUI renders ``ui`` (N_-marked, in the translators' catalogs) over the same fields. The audit's own
problems (engine.audit.problems) include this catalog, so a problem can nest one of these."""
from __future__ import annotations

from typing import Any

from engine.common.i18n import N_
from engine.common.messages import Message, Said, said_in

MODEL_MESSAGES: dict[str, Message] = {
    "language.mismatch": Message(
        "language", "{scorer} reads {reads} but the corpus is in {language}: its scores (and any 'no bias' verdict) "
                    "are not meaningful for this corpus",
        N_("{scorer} reads {reads}, but the corpus is in the language {language}: its scores (and any “no bias” "
           "verdict) mean nothing for this corpus")),
}


def model_message(key: str, **params: Any) -> Said:
    """A message of this catalog (an unknown key is a bug in the caller)."""
    return said_in(MODEL_MESSAGES, key, params, "engine.models.messages")
