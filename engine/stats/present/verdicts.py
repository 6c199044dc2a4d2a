"""One wording for "is it significant?" versus "is it big enough to matter?".

Why one place: a counterfactual row ``-0.011***, p<0.001`` next to the bare verdict
"within band" reads as a contradiction. Significance (the test) and practical size (the
negligible band of Goldfarb-Tarrant et al.: |mean| ≤ band, default 3% of the score range)
answer different questions, so a verdict names both, in the same words in the report, the
LaTeX/Markdown tables and the GUI (which translates these exact strings; see
``gui/results``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd

from engine.common.fmt import as_float
from engine.common.i18n import N_

#: Significance level of the verdict (two-sided tests), as in the papers' bias groups.
ALPHA = 0.05

# TRANSLATORS: significance of a difference versus the "negligible band" (differences too small to matter)
SIGNIFICANT_BEYOND = N_("significant, beyond the negligible band")
SIGNIFICANT_WITHIN = N_("significant but within the negligible band")
NOT_SIGNIFICANT_BEYOND = N_("not significant, though beyond the negligible band")
NOT_SIGNIFICANT_WITHIN = N_("not significant, within the negligible band")
NOT_TESTED = N_("not tested")
# TRANSLATORS: verdict of a bias test whose persons (names) all score alike, so no test exists
NO_PERSON_TEST = N_("no person-level test")
# TRANSLATORS: verdict of a bias test where only one or two names differ from the rest, so the test
# statistic is fixed by the design rather than by the data
DESIGN_LIMITED_TEST = N_("too few persons differ: no test")
# TRANSLATORS: verdict under "crossed" inference (templates and words as random factors) when the design
# cannot estimate the template or word part (e.g. each template holds one pair)
NO_CROSSED_TEST = N_("no crossed test (not estimable)")
SIGNIFICANT, NOT_SIGNIFICANT = N_("significant"), N_("not significant")
#: Every verdict this module can return (marked for the GUI's catalogs; babel.cfg lists this file).
VERDICTS = (SIGNIFICANT_BEYOND, SIGNIFICANT_WITHIN, NOT_SIGNIFICANT_BEYOND, NOT_SIGNIFICANT_WITHIN, NOT_TESTED,
            NO_PERSON_TEST, DESIGN_LIMITED_TEST, NO_CROSSED_TEST, SIGNIFICANT, NOT_SIGNIFICANT)


def status_verdict(status: Any) -> str:
    """The verdict a row's status imposes whatever its numbers ("no person-level test"), or ""."""
    from engine.stats.hypothesis_tests.no_test import CROSSED_NOT_ESTIMABLE, DESIGN_LIMITED, NO_PERSON_VARIATION

    return {NO_PERSON_VARIATION: NO_PERSON_TEST, DESIGN_LIMITED: DESIGN_LIMITED_TEST,
            CROSSED_NOT_ESTIMABLE: NO_CROSSED_TEST}.get(status, "") if isinstance(status, str) else ""


def band_verdict(estimate: Any, p: Any, band: Any, alpha: float = ALPHA, status: Any = "") -> str:
    """The verdict for an effect ``estimate`` with p-value ``p`` and negligible band ``band``.

    A missing p-value or estimate gives "not tested" ("no person-level test" when ``status`` says
    the persons compared do not vary); a missing band gives only the significance
    ("significant" / "not significant").
    """
    if status_verdict(status):
        return status_verdict(status)
    est, pv, b = as_float(estimate), as_float(p), as_float(band)
    if est is None or pv is None:
        return NOT_TESTED
    significant = pv < alpha
    if b is None:
        return SIGNIFICANT if significant else NOT_SIGNIFICANT
    beyond = abs(est) > b
    if significant:
        return SIGNIFICANT_BEYOND if beyond else SIGNIFICANT_WITHIN
    return NOT_SIGNIFICANT_BEYOND if beyond else NOT_SIGNIFICANT_WITHIN


def frame_verdicts(frame: pd.DataFrame) -> list[str]:
    """The verdict of each counterfactual row (mean_diff, the t-test's p-value — adjusted when a
    correction was applied — and band)."""
    from engine.stats.entries._shared import p_column

    pc = p_column(frame, "t_p_value")
    return [band_verdict(r.get("mean_diff"), r.get(pc), r.get("band"), status=r.get("status", ""))
            for r in frame.to_dict("records")]
