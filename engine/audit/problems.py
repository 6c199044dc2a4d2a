"""What an audit reports beside its results — its problems — as data: a key and typed fields.

Why: the problems list (the summary's "problems:", the report, the manifest, the GUI's Notes tab)
held English sentences, so an Italian or Arabic interface showed the run's most important warnings
— a scorer that does not read the corpus's language, a tokenizer that cannot tell identities apart
— in English. Each is now a ``Said`` of this catalog: ``str()`` is the English every file and the
command line keep, word for word as before, and the GUI renders the ``ui`` template (N_-marked, in
the translators' catalogs) over the same fields, as the checker's findings and the statistics'
reasons do (engine.common.messages). The manifest keeps the English under ``problems`` and the data
under ``problem_messages``. What a problem quotes from elsewhere (an exception's text, a
statistic's own note, a scorer's warning) stays English inside the translated sentence, or stays a
plain string.
"""
from __future__ import annotations

from typing import Any

from engine.common.i18n import N_
from engine.common.messages import Message, Said, Told, from_data, said_in
from engine.models.messages import MODEL_MESSAGES

PROBLEMS: dict[str, Message] = {
    **MODEL_MESSAGES,
    "in_corpus": Message("problem", "{corpus}: {said}", N_("{corpus}: {said}")),
    "warning": Message("problem", "warning: {said}", N_("warning: {said}")),
    "identity": Message(
        "identity", "{corpus} × {scorer}: the model cannot tell identities apart — {parts} (a tokenizer without "
                    "this language's words; choose a model that reads it)",
        N_("{corpus} × {scorer}: the model cannot tell identities apart — {parts} (its tokenizer lacks this "
           "language’s words; choose a model that reads it)")),
    "identity.unknown": Message(
        "identity", "{n} of {total} person words become unknown tokens ({words})",
        N_("person words that become unknown tokens: {n} of {total} ({words})")),
    "identity.unknown_more": Message(
        "identity", "{n} of {total} person words become unknown tokens ({words} and {more} more)",
        N_("person words that become unknown tokens: {n} of {total} ({words}, …)"), complete=False),
    "identity.colliding": Message(
        "identity", "{n:,} of {total:,} sentences reach the model as the same token ids as another sentence",
        N_("sentences that reach the model as the same token ids as another sentence: {n} of {total}")),
    "identity.pairs": Message(
        "identity", "{n:,} of {total:,} counterfactual pairs have identical ids on both sides and are left out of "
                    "its paired tests",
        N_("counterfactual pairs with the same ids on both sides, left out of its paired tests: {n} of {total}")),
    "statistic_skipped": Message("skipped", "{statistic} on {corpus}: {reason}",
                                 N_("{statistic} on {corpus} was not computed: {reason}")),
    "assoc_skipped": Message("skipped", "association test {test}: {reason}",
                             N_("association test {test} was not run: {reason}")),
    "crows_not_in_audit": Message(
        "skipped", "association test {test}: CrowS-Pairs results are not part of an audit; run it with `{command}`",
        N_("association test {test}: CrowS-Pairs results are not part of an audit; run it with {command}")),
}


def problem(key: str, **params: Any) -> Said:
    """A problem of this catalog (an unknown key is a bug in the caller)."""
    return said_in(PROBLEMS, key, params, "engine.audit.problems")


def told(key: str, **params: Any) -> Told:
    """A problem for an audit's problems list: its English, keeping the message (``Told``)."""
    return Told(problem(key, **params))


def read_problems(texts: list[Any], data: Any) -> list[str]:
    """The problems a manifest holds (``problems``, and ``problem_messages`` beside them): each a
    ``Told`` where its data is a message this catalog knows and still words as the file does (a
    folder from another version keeps its English), else the English text."""
    data = data if isinstance(data, list) and len(data) == len(texts) else [None] * len(texts)
    out: list[str] = []
    for text, d in zip(texts, data):
        said = from_data(PROBLEMS, d)
        out.append(Told(said) if said is not None and str(said) == str(text) else str(text))
    return out
