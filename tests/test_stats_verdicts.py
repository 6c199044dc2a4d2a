"""The one verdict wording for significance versus the negligible band."""
from __future__ import annotations

import math

from engine.stats.present import verdicts as V


def test_band_verdict_names_both_questions():
    assert V.band_verdict(-0.011, 1e-6, 0.03) == "significant but within the negligible band"
    assert V.band_verdict(0.05, 0.001, 0.03) == V.SIGNIFICANT_BEYOND
    assert V.band_verdict(0.05, 0.2, 0.03) == V.NOT_SIGNIFICANT_BEYOND
    assert V.band_verdict(0.01, 0.2, 0.03) == V.NOT_SIGNIFICANT_WITHIN
    assert V.band_verdict(0.03, 0.01, 0.03) == V.SIGNIFICANT_WITHIN  # |mean| ≤ band is within, as exceeds_band
    assert V.band_verdict(0.01, 0.049, 0.03, alpha=0.01) == V.NOT_SIGNIFICANT_WITHIN
    assert V.band_verdict(0.01, math.nan, 0.03) == V.NOT_TESTED
    assert V.band_verdict(None, 0.01, 0.03) == V.NOT_TESTED
    assert V.band_verdict(0.01, 0.01, None) == "significant"
    assert set(V.VERDICTS) >= {V.SIGNIFICANT_WITHIN, V.SIGNIFICANT_BEYOND}


def test_gui_shows_the_engine_verdicts_translated():
    """The results screen's counterfactual table carries the same verdict, in the interface language."""
    import pandas as pd

    from conftest import ROOT
    from gui import i18n
    from gui.results.data import with_verdict

    pot = (ROOT / "locales" / "eec_studio.pot").read_text(encoding="utf-8")
    assert all(f'msgid "{v}"' in pot for v in V.VERDICTS)  # defined and marked once, in the engine
    frame = pd.DataFrame({"model": ["a", "b"], "mean_diff": [-0.011, 0.08], "t_p_value": [1e-5, 0.2],
                          "t_p_adjusted": [2e-5, 0.4], "band": [0.03, 0.03], "exceeds_band": [False, True]})
    try:
        i18n.set_language("es")
        shown = with_verdict(frame)
        assert list(shown.columns).index("verdict") == list(shown.columns).index("exceeds_band") + 1
        assert list(shown["verdict"]) == ["significativo pero dentro de la banda despreciable",
                                          "no significativo, aunque fuera de la banda despreciable"]
    finally:
        i18n.set_language("en")
    assert V.frame_verdicts(frame.assign(t_p_adjusted=[0.2, 0.4])) == [V.NOT_SIGNIFICANT_WITHIN, V.NOT_SIGNIFICANT_BEYOND]


def test_folders_written_before_the_p_adjusted_convention_still_give_adjusted_verdicts():
    """Audit folders before the one convention named the adjusted column after the method (t_p_holm);
    reading them must still take the adjusted p-values, not the raw ones."""
    import pandas as pd

    frame = pd.DataFrame({"mean_diff": [0.08], "t_p_value": [0.01], "t_p_holm": [0.2], "band": [0.03]})
    assert V.frame_verdicts(frame) == [V.NOT_SIGNIFICANT_BEYOND]
    assert V.frame_verdicts(frame.drop(columns=["t_p_holm"])) == [V.SIGNIFICANT_BEYOND]
