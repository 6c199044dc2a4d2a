"""Checker findings: what is wrong, where, how bad, under a stable code.

Codes are stable so that translators, the GUI checks panel and tests can refer to
them (like Weblate's check ids). Errors block generation of the combination or item
they name; warnings do not.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ERROR = "error"
WARNING = "warning"

# code -> (severity, short title)
CODES: dict[str, tuple[str, str]] = {
    "E001": (ERROR, "no form with the features the slot needs"),
    "E002": (ERROR, "several forms fit the slot (ambiguous)"),
    "E003": (ERROR, "template has no person slot"),
    "E004": (ERROR, "unknown slot"),
    "E005": (ERROR, "unknown feature name"),
    "E006": (ERROR, "unknown feature value"),
    "E007": (ERROR, "emotion word without a valid emotion or kind"),
    "E008": (ERROR, "empty form"),
    "E009": (ERROR, "no template variant fits"),
    "E010": (ERROR, "template syntax or reference error"),
    "E011": (ERROR, "person term with unknown kind or group"),
    "E012": (ERROR, "entry has no forms"),
    "E013": (ERROR, "pair names an unknown person or variable, or repeats a pair"),
    "E014": (ERROR, "pair sides differ in more than the variable (slot features, text or template variant)"),
    "E015": (ERROR, "pair sides swapped or not separated by the variable alone"),
    # Grammar rules (engine.corpus.check.grammar): language-specific faults the agreement machinery
    # cannot see. A published text kept for reproduction lists its own in [known_defects],
    # which reports them as warnings.
    "E016": (ERROR, "emotion word agrees with the wrong referent (the person, where the speaker or a noun feels)"),
    "E017": (ERROR, "Arabic: bare adjective after a verb of feeling"),
    "E018": (ERROR, "Arabic: object pronoun together with a noun object"),
    "E019": (ERROR, "Japanese: two を objects in one clause"),
    "E020": (ERROR, "Japanese: na-adjective before a noun without な"),
    "E021": (ERROR, "Japanese: causative without a causee"),
    # data-driven rules (engine/corpus/check/grammar/languages/<lang>.toml and a corpus's [[restrictions]])
    "E022": (ERROR, "word that cannot describe its referent or stand in this frame"),
    "E023": (ERROR, "form that does not exist in the language, or a false friend"),
    "E024": (ERROR, "construction with the wrong reading (a calque, a trait for a feeling)"),
    "E025": (ERROR, "missing or non-standard sentence-final punctuation"),
    # agreement the checker knows (engine.corpus.check.agreement, grammar/languages/inflection/<lang>.toml)
    "E026": (ERROR, "a form the slot needs is missing (agreement)"),
    "E027": (ERROR, "two forms typed as one (joined by a separator)"),
    "E028": (ERROR, "form does not match the language's inflection (tags swapped, same form, wrong ending)"),
    "E029": (ERROR, "name in a slot asking for a case has no (known) declension"),
    "E030": (ERROR, "person in a frame that governs a case, without that case"),
    "W101": (WARNING, "same form listed for different entries"),
    "W102": (WARNING, "stray punctuation or whitespace in a form"),
    "W103": (WARNING, "sentence does not start with a capital letter"),
    "W104": (WARNING, "name not capitalised"),
    "W105": (WARNING, "stray whitespace in template text"),
    "W106": (WARNING, "counterpart (pair) missing, not mirrored or not of the other gender"),
    "W107": (WARNING, "review status not recognised"),
    "W108": (WARNING, "entry marked untranslatable: its combinations are skipped"),
    "W109": (WARNING, "form declared absent: its combinations are skipped"),
    "W110": (WARNING, "pair sides differ in length beyond the person term"),
    "W111": (WARNING, "only one side of a pair has a sentence: the pair is skipped"),
    "W112": (WARNING, "realised form does not have the shape [expect] asks for"),
    "W113": (WARNING, "word not in the language's spelling dictionary (Hunspell, UniDic)"),
    "W114": (WARNING, "no spelling dictionary for the language on this system: spelling not checked"),
    "W115": (WARNING, "a group of a social axis has no names"),
    "W116": (WARNING, "unbalanced design: the cells of the social axes hold different numbers of names"),
}

# Codes a definition may declare in [known_defects] (a published text kept as it was).
GRAMMAR_CODES = ("E016", "E017", "E018", "E019", "E020", "E021", "E022", "E023", "E024", "E025", "E026", "E028", "E030")


@dataclass
class Finding:
    """One finding: its code, where, and what it says as data — ``key`` (a message of
    engine.corpus.check.messages) and ``params`` (its typed fields), from which ``message`` (the
    engine's English) and every interface language are rendered (``messages.finding_text``).
    ``Finding(code, said(key, **fields), …)`` or a plain English ``message`` (no key: shown as is)."""

    code: str
    message: Any
    item: str = ""  # e.g. "templates[T05]", "persons[she]"
    template: str = ""
    slot: str = ""
    person: str = ""
    emotion_word: str = ""
    wanted: dict[str, str] = field(default_factory=dict)
    available: list[str] = field(default_factory=list)
    # Non-empty: the definition declares this fault a known defect of the published text it
    # reproduces ([known_defects]); the finding is then a warning, and this is the reason given.
    known: str = ""
    key: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from engine.corpus.check.messages import Said

        if isinstance(self.message, Said):
            self.key, self.params = self.message.key, dict(self.message.params)
        if self.key:
            self.render()

    def render(self) -> None:
        """``message`` again from the key and fields (after a count or a known defect was added)."""
        from engine.corpus.check.messages import finding_text

        self.message = finding_text(self)

    @property
    def severity(self) -> str:
        return WARNING if self.known else CODES[self.code][0]

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        where = self.item or "/".join(x for x in (self.template, self.person, self.emotion_word) if x)
        return f"{self.severity.upper()} {self.code} {where}: {self.message}"
