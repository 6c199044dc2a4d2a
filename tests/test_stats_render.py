"""LaTeX and Markdown tables in the layouts of Câmara et al. (Tables 3–5) and Kiritchenko &
Mohammad (Tables 5–7)."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from engine.stats import (beta_regression, confusion_matrix, counterfactual_analysis, km_paired_analysis,
                          planted_scores, synthetic_eec, synthetic_np_pairs, synthetic_pairs, to_latex, to_markdown)
from engine.stats.present.latex import escape

MODELS = {"BERT_plus": 0.03, "SVM-tfidf": 0.0}
EMOS = ["anger", "fear", "joy"]


@pytest.fixture(scope="module")
def scored() -> tuple[pd.DataFrame, dict]:
    df = synthetic_eec(words_per_emotion=2)
    spec = {}
    for i, (m, dg) in enumerate(MODELS.items()):
        for j, e in enumerate(EMOS):
            col = f"{m}:{e}"
            df[col] = planted_scores(df, seed=100 + 10 * i + j, delta_gender=dg)
            spec[col] = (m, e)
    return df, spec


@pytest.fixture(scope="module")
def beta(scored):
    df, spec = scored
    return beta_regression(df, spec)


@pytest.fixture(scope="module")
def km(scored):
    df, spec = scored
    return km_paired_analysis(df, spec, axis="both", np_pairs=synthetic_np_pairs(), n_resamples=0)


def _md_rows(md: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip().strip("|").split(" | ")] for line in md.splitlines()
            if line.startswith("| ")]


def test_camara_markdown_layout_and_values(beta):
    md = to_markdown(beta)
    rows = _md_rows(md)
    # emotions in blocks of two, as in the paper: anger+fear, then joy
    assert rows[0][2:5] == ["Anger Coefficients: Race/Ethnicity", "Anger Coefficients: Gender",
                            "Anger Coefficients: Intersection"]
    assert rows[0][5] == "Fear Coefficients: Race/Ethnicity"
    blocks = [r for r in rows if r[0] == "Corpus"]
    assert len(blocks) == 2 and len(blocks[1]) == 2 + 3
    body = [r for r in rows if r[0] != "Corpus"]
    assert [r[1] for r in body[:2]] == ["BERT\\_plus", "SVM-tfidf"]
    assert body[0][0] == "synthetic-eec" and body[1][0] == ""
    f = beta.to_frame().set_index(["model", "emotion", "term"])
    r = f.loc[("BERT_plus", "anger", "gender")]
    expect = f"{r['ame']:.3f}" + r["stars"].replace("*", "\\*")
    assert body[0][3] == expect
    assert r["stars"] == "***"  # planted gender effect
    # logit coefficients instead of AMEs
    md2 = to_markdown(beta, value="estimate")
    assert f"{r['estimate']:.3f}" in md2 and "logit scale" in md2


def test_camara_latex(beta):
    tex = to_latex(beta, label="tab:beta", width="page")  # the paper's page-wide layout (table*)
    # the emotion blocks are stacked in one float, as in the paper
    assert tex.count(r"\begin{table*}") == 1 and tex.count(r"\begin{tabular}") == 2 and r"\label{tab:beta}" in tex
    assert r"\multicolumn{3}{c}{Anger Coefficients}" in tex and r"\cmidrule(lr){3-5}" in tex
    assert "BERT\\_plus" in tex and "\\toprule" in tex and "\\bottomrule" in tex
    assert re.search(r"\$-?0\.\d{3}\^\{\*\*\*\}\$", tex)
    # every body line has the right number of cells
    for line in tex.splitlines():
        if line.endswith(r"\\") and "multicolumn" not in line:
            assert line.count("&") == 7 or line.count("&") == 4, line


def test_correction_stars_and_bad_options(scored):
    df, spec = scored
    res = beta_regression(df, spec, correction="bonferroni")
    md = to_markdown(res, p_col="p_adjusted")
    assert "stars from p\\_adjusted" in md
    with pytest.raises(ValueError, match="no column"):
        to_markdown(res, p_col="p_holm")  # the method-named column of old folders is no longer written
    with pytest.raises(ValueError, match="value"):
        to_markdown(res, value="odds")
    with pytest.raises(ValueError, match="unknown layout"):
        to_markdown(res, layout="fancy")


def test_km_table_counts_and_averages(km):
    md = to_markdown(km)
    f = km.to_frame()
    assert md.count("| Task |") == 4  # gender/race × all/neutral
    g = f[(f["axis"] == "gender") & (f["subset"] == "all") & (f["emotion"] == "anger")]
    rows = _md_rows(md)
    start = next(i for i, r in enumerate(rows) if r[0] == "Anger intensity prediction")
    block = {r[1]: r for r in rows[start:start + 4]}
    assert set(block) == {"F=M not significant", "F↑–M↓ significant", "F↓–M↑ significant", "All"}
    counts = [int(block[k][2]) for k in ("F=M not significant", "F↑–M↓ significant", "F↓–M↑ significant")]
    assert sum(counts) == int(block["All"][2]) == len(MODELS)
    assert block["All"][3] == f"{g['avg_delta_pos'].mean():.3f}"
    assert block["All"][4] == f"{g['avg_delta_neg'].mean():.3f}"
    up = g[g["significant"] & (g["direction"] > 0)]
    assert int(block["F↑–M↓ significant"][2]) == len(up)
    empty = [k for k, c in zip(("F=M not significant", "F↑–M↓ significant", "F↓–M↑ significant"), counts)
             if c == 0]
    for k in empty:
        assert block[k][3] == "–"
    assert "AA=EA not significant" in md
    tex = to_latex(km, width="page")
    assert r"F$\uparrow$--M$\downarrow$ significant" in tex and r"\#Subm." in tex
    assert "↑" not in tex and "–" not in tex  # compiles with pdfLaTeX


def test_km_models_and_counterfactual_layouts(scored, km):
    md = to_markdown(km, layout="km_models")
    assert "| Model | Task | Bias group |" in md and "BERT\\_plus" in md
    df, _ = scored
    pairs = synthetic_pairs(df, "BERT_plus:anger")
    cf = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", model="BERT", score_range=(0, 1))
    md = to_markdown(cf)
    r = cf.to_frame().iloc[0]
    assert f"| {r['mean_diff']:.3f} | [{r['ci_low']:.3f}, {r['ci_high']:.3f}] |" in md
    assert "| Variable |" in md
    tex = to_latex(cf, width="page")
    # one float, split in two blocks as wide tables are in the papers; the verdict column wraps
    assert tex.count(r"\begin{table*}") == 1
    assert re.search(r"\\begin\{tabular\}\{llrrrrr>\{\\raggedright\\arraybackslash\}p\{[\d.]+cm\}\}", tex)
    assert r"\begin{tabular}{llrrrrr}" in tex


def test_layout_inference_from_frames(beta, km):
    assert to_markdown(beta.to_frame()) == to_markdown(beta)
    mixed = pd.concat([beta.to_frame(), km.to_frame()], ignore_index=True)
    with pytest.raises(ValueError, match="cannot infer"):
        to_markdown(mixed)
    with pytest.raises(TypeError):
        to_markdown([1, 2])


def test_latex_escape():
    assert escape("a_b & c%") == r"a\_b \& c\%"
    assert escape("F↑–M↓") == r"F$\uparrow$--M$\downarrow$"
    assert escape("{x}^~#$") == r"\{x\}\textasciicircum{}\textasciitilde{}\#\$"


def test_km_task_labels_follow_the_paper(scored):
    df, _ = scored
    # a valence system is "Valence prediction" in K&M's tables, emotions "<Emotion> intensity prediction"
    res = km_paired_analysis(df, {"BERT_plus:anger": ("BERT", "valence"), "SVM-tfidf:joy": ("SVM", "joy")},
                             np_pairs=synthetic_np_pairs(), subsets=("all",), n_resamples=0)
    rows = _md_rows(to_markdown(res))
    tasks = [r[0] for r in rows if r[0] and r[0] != "Task"]
    assert tasks == ["Valence prediction", "Joy intensity prediction"]


def test_confusion_matrix_layout():
    p = pd.DataFrame({"a": [1, 2, 3, 3, 5], "b": [1, 3, 2, 3, 1]})
    cm = confusion_matrix(p, "a", "b", labels=[1, 2, 3, 4, 5], model="svm")
    rows = _md_rows(to_markdown(cm))
    assert rows[0] == ["Privileged / minoritised", "1", "2", "3", "4", "5"]
    assert rows[1:] == [["1", "1", "0", "0", "0", "0"], ["2", "0", "0", "1", "0", "0"],
                        ["3", "0", "1", "1", "0", "0"], ["4", "0", "0", "0", "0", "0"],
                        ["5", "1", "0", "0", "0", "0"]]
    md = to_markdown(cm)
    assert "Below the diagonal (privileged higher): 0.400; above (minoritised higher): 0.200." in md
    assert "| 0.200 |" in to_markdown(cm, shares=True)
    tex = to_latex(cm)
    assert r"\begin{tabular}{lrrrrr}" in tex and "5 & 1 & 0 & 0 & 0 & 0 \\\\" in tex
