"""Why a statistic is not tested, as data: one catalog of reasons with named fields.

Why: a row without a test (no variation between persons, a design-limited t, crossed factors that
cannot be estimated, too few pairs, a fit with nothing to fit) carries its ``status`` and its reason
as a key and typed fields (the ``reason`` column: JSON ``{"key": …, "params": {…}}``). Its English
(the ``note`` column, files, papers) and the interface's sentence in any language are rendered from
this catalog by the one function engine.common.messages.render — the checker's findings work the same
way (engine.corpus.check.messages). The GUI used to translate the engine's English note, which broke
the moment the English was reworded; now it renders ``ui`` (N_-marked: the translators' catalogs hold
it) over the same fields, and a reworded English template changes no interface language.

``STATUSES``: each status's short reason (N_-marked), field-free so that a table can give every row
with the same status one footnote mark (engine.stats.present.tables), and the interface's fallback
for a file written before rows carried their reason. A key is the status, or ``status.variant`` where
one status has several sentences (``code`` is the status). Adding a reason: its status in STATUSES,
its templates here, ``reason(key, **fields)`` where the row is made.
"""
from __future__ import annotations

from typing import Any

from engine.common.i18n import N_
from engine.common.messages import Message, Said, Translate, Values, from_json, render, said_in, to_json

#: The result column that holds a row's reason (JSON; '' for a tested row).
REASON_COLUMN = "reason"

#: Each status's short reason: a table's footnote ("Not tested: …") and the interface's fallback.
STATUSES: dict[str, str] = {
    "constant": N_("the scores do not vary (every sentence scored alike)"),
    "no_within_group_variation": N_("no variation within the groups compared"),
    "insufficient_data": N_("too little data"),
    "not_converged": N_("the model fit did not converge"),
    "no_person_variation": N_("no variation between the persons compared: there is no person-level test"),
    "constant_difference": N_("every pair differs by the same amount"),
    "design_limited": N_("only one or two persons differ from the rest of their group: the t statistic is fixed by "
                         "the design"),
    "crossed_not_estimable": N_("templates or words as random factors cannot be estimated from this design"),
    "too_few": N_("too few pairs"),
    "no_pairs": N_("no pairs"),
}

#: The random factors' names (engine.stats._common.crossed_factors) as the interface says them.
FACTORS: dict[str, str] = {"template": N_("templates"), "word": N_("emotion words")}


def _r(code: str, en: str, ui: str) -> Message:
    return Message(code, en, ui)


REASONS: dict[str, Message] = {
    # -- no person-level test (engine.stats.hypothesis_tests.no_test) --------------------------------
    "no_person_variation": _r(
        "no_person_variation",
        "no variation between the persons this contrast compares (each group's persons have the same mean score "
        "up to {tol:.0e} of the score scale): there is no person-level test, not a tiny p-value; the permutation "
        "p-value, where given, is the test that exists",
        N_("no variation between the persons this contrast compares (each group's persons have the same mean score "
           "up to {tol:.0e} of the score scale): there is no person-level test, not a tiny p-value")),
    "design_limited": _r(
        "design_limited",
        # worded so that any {n} reads right ("only 1 of the 50 persons compared differ" did not; review 2026-11-28)
        "too few persons differ from the rest of their group ({n} of the {total} compared): the t statistic is fixed "
        "by the design (t = ±1 when one person differs), not by the size of the difference, so there is no "
        "person-level test; the permutation p-value, where given, is the test that exists",
        N_("too few persons differ from the rest of their group ({n} of the {total} compared): the t statistic is "
           "fixed by the design, not by the size of the difference, so there is no person-level test")),
    # -- the sentence-pair tests (engine.stats.hypothesis_tests.paired_tests) -------------------------
    "constant_difference": _r(
        "constant_difference",
        "{test}: every pair differs by the same amount ({difference:.6g}): no variation to test the difference "
        "against, so no p-value",
        N_("every pair differs by the same amount ({difference:.6g}): there is no variation to test the difference "
           "against, so no p-value")),
    "too_few.pairs": _r("too_few", "{test}: {n} pair(s); at least 2 are needed for a test",
                        N_("a test needs at least 2 pairs; this comparison has {n}")),
    # -- persons (engine.stats.hypothesis_tests.person_tests) ----------------------------------------
    "too_few.group": _r("too_few", "a group has {n} person(s); at least 2 per group are needed for a person-level test",
                        N_("a person-level test needs at least 2 persons per group; a group has {n}")),
    "too_few.person_pairs": _r("too_few", "{n} person pair(s); at least 2 are needed",
                               N_("a person-level test needs at least 2 person pairs; this comparison has {n}")),
    "too_few.no_persons": _r("too_few", "no persons", N_("no persons to test")),
    "no_pairs": _r("no_pairs", "no pairs", N_("no pairs")),
    # -- crossed inference (engine.stats.models.crossed): ``parts`` holds one reason per factor -------
    "crossed_not_estimable": _r(
        "crossed_not_estimable",
        "templates and emotion words cannot both be random factors here: {parts} — no crossed p-value (the "
        "person-level one stays in person_p_value)",
        N_("templates and emotion words cannot both be random factors here: {parts}; there is no crossed p-value "
           "(the person-level one is in its own column)")),
    "crossed.single_level": _r("crossed_not_estimable", "{factor}: {levels} level(s) only, nothing to generalise over",
                               N_("{factor}: only {levels}, nothing to generalise over")),
    "crossed.no_noise": _r("crossed_not_estimable",
                           "{factor}: each of its {levels} levels is seen once per row of the design, so its own "
                           "variation cannot be told from the noise",
                           N_("{factor}: each of its {levels} levels is seen once per row of the design, so its own "
                              "variation cannot be told from the noise")),
    # -- the Beta regression's fits (engine.stats.models.beta) ---------------------------------------
    "constant": _r("constant", "constant scores: difference exactly 0, not tested",
                   N_("every sentence has the same score: the difference is exactly 0, not tested")),
    "no_within_group_variation": _r("no_within_group_variation",
                                    "no variation within groups: exact difference, not tested",
                                    N_("no variation within the groups: the difference is exact, not tested")),
    "insufficient_data.cells": _r("insufficient_data", "no sentences for {cells}: the model cannot be estimated",
                                  N_("no sentences for {cells}: the model cannot be estimated")),
    "insufficient_data.names": _r("insufficient_data", "no name sentences in this corpus: the race/gender/intersection "
                                                       "model cannot be fitted",
                                  N_("no name sentences in this corpus: the race/gender/intersection model cannot be "
                                     "fitted")),
    "insufficient_data.noun_phrases": _r("insufficient_data", "no noun-phrase sentences in this corpus",
                                         N_("no noun-phrase sentences in this corpus")),
    "not_converged": _r("not_converged", "fit did not converge: treat with caution",
                        N_("the fit did not converge: treat it with caution")),
}


def reason(key: str, **params: Any) -> Said:
    """Why a row is not tested, as data: ``reason("design_limited", n=1, total=12)``."""
    return said_in(REASONS, key, params, "engine.stats.reasons")  # unknown: a bug in the statistic


def reason_json(r: Said | None) -> str:
    """The ``reason`` cell of a row ('' for a tested row)."""
    return to_json(r)


def read_reason(cell: Any) -> Said | None:
    """The reason a ``reason`` cell holds (None: empty, unreadable, or from another version)."""
    return from_json(REASONS, cell)


def factor_label(translate: Translate) -> Values:
    """``values`` for render: a random factor's name in the interface language."""
    def values(name: str, value: Any) -> Any:
        return translate(FACTORS[value]) if name == "factor" and value in FACTORS else value
    return values


def reason_text(r: Said, translate: Translate | None = None) -> str:
    """A reason in the engine's English (no ``translate``) or in the interface language of ``translate``."""
    return render(REASONS, r.key, r.params, translate, factor_label(translate) if translate else None)


def status_of(r: Said) -> str:
    """The status a reason explains."""
    return REASONS[r.key].code
