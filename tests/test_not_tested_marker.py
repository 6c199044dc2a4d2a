""""Not tested" is never drawn or printed as a number (issue 31, part 5): one marker in every format.

A statistic without a test (a scorer that gives every sentence the same score, too few pairs) has no
p-value; before, the report drew it as a grey "not significant" dot at 0.000 and the tables printed
0.000. Now: tables print "—" with a footnote giving the reason, plots a hollow marker labelled "not
tested", the key-results table "—" with the reason; the tidy CSV keeps the statistic's status column.
"""
from __future__ import annotations

import math
import re

import pandas as pd
import pytest

import engine.stats as S
from engine.common.svg import UNTESTED, Row, forest, level_of
from engine.stats.registry import KeyRow


@pytest.fixture(scope="module")
def beta() -> pd.DataFrame:
    df = S.synthetic_eec(names_per_cell=3, words_per_emotion=1)
    df["const|anger"] = 0.5
    df["real|anger"] = S.planted_scores(df, seed=1, delta_gender=0.05)
    return S.beta_regression(df, {"const|anger": ("constant-model", "anger"),
                                  "real|anger": ("real-model", "anger")}).to_frame()


def test_a_missing_p_value_is_untested_not_insignificant():
    assert level_of(float("nan")) == UNTESTED and level_of(None) == UNTESTED
    assert level_of(0.2) == "ns" and level_of(0.01) == "sig"


def test_forest_draws_a_hollow_labelled_marker(beta):
    from engine.stats.entries.beta import plot

    spec = plot(beta)
    const = [r for r in spec.rows if "constant-model" in r.label]
    real = [r for r in spec.rows if "real-model" in r.label]
    assert const and all(r.level == UNTESTED for r in const) and all(r.level != UNTESTED for r in real)
    svg = forest(spec.rows, title=spec.title)
    assert svg.count(">not tested</text>") == len([r for r in const if r.value == r.value])
    hollow = re.findall(r'<circle [^>]*fill="#ffffff"[^>]*/>', svg)
    assert len(hollow) == svg.count(">not tested</text>") and all("stroke=" in c for c in hollow)
    filled = re.findall(r'<circle [^>]*fill="(#[0-9a-f]{6})"', svg)
    assert filled.count("#ffffff") == len(hollow) and len(filled) == len(spec.rows)


def test_tables_print_a_dash_with_the_reason(beta):
    from engine.stats.present import render

    md = render.to_markdown(beta)
    assert "—†" in md and "† Not tested: " in md
    const = beta[(beta.model == "constant-model") & (beta.term == "gender")].iloc[0]
    assert math.isnan(const.p_value) and const.status != "ok"  # the statistic's own verdict; CSV keeps status
    assert "status" in beta.columns


def test_key_results_say_not_tested_instead_of_a_number():
    from engine.report.key_results import key_results_html

    html = key_results_html([KeyRow("beta", "c", "constant-model", "anger", "Gender", 0.0, 0.0, 0.0,
                                    float("nan"), "constant"),
                             KeyRow("beta", "c", "real", "anger", "Gender", 0.05, 0.04, 0.06, 0.001, "")])
    first = html.split("<tr>")[2]
    assert "0.000" not in first and "—" in first and "not tested: the scores do not vary" in first
    assert "0.050" in html.split("<tr>")[3]


def test_paired_and_counterfactual_plots_mark_untested_rows():
    from engine.stats.entries.counterfactual import plot as cf_plot
    from engine.stats.entries.paired import plot as paired_plot

    paired = pd.DataFrame({"corpus": ["c"], "model": ["m"], "emotion": ["anger"], "label_a": ["F"], "label_b": ["M"],
                           "subset": ["all"], "mean_delta": [0.0], "ci_low": [None], "ci_high": [None],
                           "p_value": [float("nan")], "significant": [False], "status": ["too_few"]})
    assert paired_plot(paired).rows[0].level == UNTESTED
    cf = pd.DataFrame({"corpus": ["c"], "model": ["m"], "emotion": ["anger"], "variable": ["gender"],
                       "mean_diff": [0.0], "ci_low": [0.0], "ci_high": [0.0], "share_changed": [0.0],
                       "exceeds_band": [False], "band": [0.03], "t_p_value": [float("nan")]})
    assert cf_plot(cf).rows[0].level == UNTESTED
    assert ">not tested</text>" in forest([Row("m", 0.0, level=UNTESTED)])


def test_a_plot_label_is_the_reasons_first_clause_wrapped_and_the_whole_sentence_is_its_tooltip():
    """The design-limited sentence ran off the plot's edge ("…differ from the rest of the"): the plot
    prints its first clause in lines of about 48 characters; the tooltip keeps every word."""
    pytest.importorskip("pyqtgraph")
    from engine.stats.reasons import reason, reason_text
    from gui.results.plots import has_italics, plot_label

    whole = "not tested: " + reason_text(reason("design_limited", n=1, total=50), lambda s: s)
    label = plot_label(whole)
    assert label.replace("\n", " ") == ("not tested: too few persons differ from the rest of their group "
                                         "(1 of the 50 compared) …")
    assert all(len(line) <= 48 for line in label.splitlines()) and len(label.splitlines()) == 2
    assert plot_label("not tested: no pairs") == "not tested: no pairs"  # short: whole, one line
    # scripts without italics are drawn upright (an oblique font without Arabic glyphs drew boxes)
    assert has_italics(label) and not has_italics("لم يُختبر: 1 فقط من أصل 50")
