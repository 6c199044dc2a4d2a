"""``N_``: marks an engine string for the GUI's translation catalog without translating it.

Why: the engine speaks English (CLI, files, notebooks); the GUI shows some engine strings
(statistic labels in the registry) translated. Marking them here lets ``tools/i18n.py extract``
collect them (babel.cfg lists the engine files that use it), and the GUI passes them to ``_()``.
"""
from __future__ import annotations


def N_(message: str) -> str:
    return message
