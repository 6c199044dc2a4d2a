"""The audit's problems in the interface language.

Why: each problem the engine reports as a message (engine.audit.problems: a key and typed fields)
is rendered here from the catalog's interface sentence, translated, with counts in the language's
notation and ids bidi-isolated; one the engine keeps as English text (an exception's message, a
statistic's own note, a scorer's warning) is shown as it is. A results folder keeps the messages
under the manifest's ``problem_messages``; a folder from an earlier version has only the English."""
from __future__ import annotations

from typing import Any

from gui.i18n import _, isolated, number


def problem_lines(problems: list[Any], manifest: dict[str, Any] | None = None) -> list[str]:
    """One line per problem: a message in the interface language, else the engine's English."""
    from engine.audit.problems import PROBLEMS, read_problems
    from engine.common.messages import Told, render

    items = list(problems)
    if not any(isinstance(p, Told) for p in items):  # read from a folder: the English and the data beside it
        items = read_problems(items, (manifest or {}).get("problem_messages"))
    return [render(PROBLEMS, p.said.key, p.said.params, _, _shown) if isinstance(p, Told) else str(p)
            for p in items]


def _shown(_name: str, value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return number(value)
    return isolated(value)
