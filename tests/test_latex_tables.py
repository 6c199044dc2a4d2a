"""LaTeX tables as a paper's author compiles them: signs in math mode, fit the page, one float per table.

The pdflatex test needs TeX (texlive-latex-base, -recommended, -extra for adjustbox) and
poppler's pdftotext; CI does not install TeX (too big), so it skips there with the reason.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import engine.stats as S
from engine.stats.present import latex, render
from engine.stats.present.verdicts import SIGNIFICANT_BEYOND, SIGNIFICANT_WITHIN, band_verdict

LONG_MODEL = "cardiffnlp/twitter-roberta-base-sentiment-latest"  # a real model id: the widest label we print
#: Text width of a full-width table in ACL/A4 papers (455 pt) and the smallest scale we accept (0.8).
TEXTWIDTH_PT = 455
MIN_SCALE = 0.8


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    """Real results of every layout on a small synthetic EEC with planted bias (about 1.5 s)."""
    df = S.synthetic_eec(names_per_cell=3, words_per_emotion=1)
    cols = {}
    for i, m in enumerate([LONG_MODEL, "vader"]):
        for e in ("anger", "fear", "joy", "sadness"):
            df[f"{m}|{e}"] = S.planted_scores(df, seed=i * 7 + len(e), delta_gender=0.04 * i)
            cols[f"{m}|{e}"] = (m, e)
    # the Beta regression of the widest label only (4 fits): the camara layout's width comes from it
    out: dict[str, object] = {"beta": S.beta_regression(df, {c: v for c, v in cols.items() if v[0] == LONG_MODEL})}
    out["paired"] = S.km_paired_analysis(df, cols, axis=["gender", "race"], np_pairs=S.synthetic_np_pairs(),
                                         n_resamples=0, subsets=("all", "neutral"))
    frames = []
    # planted gender bias: 0.05 (beyond the 0.03 band) and 0.01 (significant but within it)
    for model, delta in ((LONG_MODEL, 0.05), ("vader", 0.01)):
        d = df.copy()
        d["s"] = S.planted_scores(d, seed=3, delta_gender=-delta, precision=2000.0)
        pairs = S.synthetic_pairs(d, "s", variable="gender")
        frames.append(S.counterfactual_analysis(pairs, "score_privileged", "score_minoritised", model=model,
                                                emotion="anger", n_resamples=100, score_range=(0.0, 1.0)).to_frame())
    out["counterfactual"] = pd.concat(frames, ignore_index=True)
    out["confusion"] = S.confusion_matrix(pairs.assign(a=(pairs.score_privileged * 4).round(),
                                                       b=(pairs.score_minoritised * 4).round()), "a", "b",
                                          model="vader", emotion="anger")
    return out


@pytest.fixture(scope="module")
def tex(results) -> dict[str, str]:
    # the papers' page-wide layouts (table*); the column layouts are tested in test_latex_paper.py
    return {"beta": render.to_latex(results["beta"], width="page"),
            "paired": render.to_latex(results["paired"].to_frame(), "km_models", width="page") + "\n\n"
            + render.to_latex(results["paired"].to_frame(), "km", width="page"),
            "counterfactual": render.to_latex(results["counterfactual"], "counterfactual", width="page"),
            "confusion": render.to_latex(results["confusion"], width="page")}


def _outside_math(text: str) -> str:
    """The text with math segments ($...$) removed (escaped \\$ kept out of the way)."""
    return re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " ", text.replace(r"\$", ""))


# --------------------------------------------------------------------------- pure Python
def test_no_comparison_sign_or_symbol_left_in_text_mode(tex):
    for name, body in tex.items():
        text = _outside_math(body)
        for line in text.splitlines():
            if line.lstrip().startswith(("%", r"\begin{tabular}")):  # comments, column specs
                continue
            assert not re.search(r"[<>|]", line), f"{name}: sign in text mode: {line}"
            assert not re.search("[Δ↑↓−≤≥α×·±]", line), f"{name}: Unicode symbol pdfLaTeX cannot print: {line}"
        assert body.count("$") % 2 == 0


def test_escape_puts_signs_in_math_and_joins_them():
    assert latex.escape("Avg. Δ > 0") == r"Avg. $\Delta > 0$"
    assert latex.escape("p<0.001") == "p$< 0.001$"
    assert latex.escape("(|mean| ≤ band)") == r"($|$mean$| \leq$ band)"
    assert latex.escape("F↑–M↓ significant") == r"F$\uparrow$--M$\downarrow$ significant"
    assert latex.escape("50% & $5_") == r"50\% \& \$5\_"
    assert latex.escape("org/model_x", breaks=True) == r"org/\allowbreak{}model\_\allowbreak{}x"


def test_one_float_per_logical_table(tex, results):
    # Câmara: four emotions in blocks of two -> one float; K&M: one float per corpus x axis and layout
    assert tex["beta"].count(r"\begin{table*}") == 1 and tex["beta"].count(r"\begin{tabular}") == 2
    frame = results["paired"].to_frame()
    per_axis = frame.groupby(["corpus", "axis"]).ngroups
    assert tex["paired"].count(r"\begin{table*}") == 2 * per_axis
    assert tex["paired"].count(r"\begin{tabular}") == 2 * frame.groupby(["corpus", "axis", "subset"]).ngroups
    assert tex["counterfactual"].count(r"\begin{table*}") == 1
    assert all(body.startswith(latex.PREAMBLE) for body in tex.values())  # the packages needed


def test_counterfactual_verdict_says_significant_but_negligible(tex, results):
    cf = results["counterfactual"]
    verdicts = [band_verdict(r.mean_diff, r.t_p_value, r.band) for r in cf.itertuples()]
    assert verdicts == [SIGNIFICANT_BEYOND, SIGNIFICANT_WITHIN]  # the planted 0.05 and 0.01
    assert "significant but within the negligible band" in tex["counterfactual"]
    assert (cf["t_p_value"] < 0.001).all() and r"${<}0.001$" in tex["counterfactual"]


def test_markdown_keeps_blocks_under_one_caption(results):
    md = render.to_markdown(results["counterfactual"], "counterfactual")
    assert md.count("Counterfactual pairs:") == 1 and "*Size of the difference*" in md
    assert "significant but within the negligible band" in md


# --------------------------------------------------------------------------- pdflatex
def _has_adjustbox() -> bool:
    if shutil.which("kpsewhich") is None:
        return False
    return bool(subprocess.run(["kpsewhich", "adjustbox.sty"], capture_output=True, text=True).stdout.strip())


needs_tex = pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("pdftotext") is None
                               or not _has_adjustbox(),
                               reason="pdflatex/pdftotext/adjustbox not installed (apt-get install texlive-latex-base "
                                      "texlive-latex-recommended texlive-latex-extra poppler-utils); CI installs "
                                      "TeX without -extra and measures the tables in test_latex_paper.py instead")

DOC = r"""\documentclass{article}
\usepackage[a4paper,textwidth=%(width)spt,textheight=26cm]{geometry}
\usepackage{booktabs,array,adjustbox}
%(extra)s
\begin{document}
%(body)s
\end{document}
"""


def _compile(tmp_path, name: str, body: str, width: float, extra: str = "") -> tuple[str, str]:
    (tmp_path / f"{name}.tex").write_text(DOC % {"width": width, "body": body, "extra": extra}, encoding="utf-8")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    log = (tmp_path / f"{name}.log").read_text(encoding="latin-1")
    assert res.returncode == 0, log[-3000:]
    pdf_text = subprocess.run(["pdftotext", "-layout", f"{name}.pdf", "-"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60).stdout
    return log, pdf_text


def _overfull(log: str) -> list[float]:
    return [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.slow
@needs_tex
def test_tables_compile_print_signs_and_fit(tmp_path, tex):
    body = "\n\\clearpage\n".join(tex.values())
    log, text = _compile(tmp_path, "tables", body, TEXTWIDTH_PT)
    assert [w for w in _overfull(log) if w > 5] == []
    assert "<0.001" in text and "¡" not in text and "¿" not in text
    assert re.search(r"Avg\. ∆ > 0", text) and re.search(r"Avg\. ∆ < 0", text)
    assert "significant but within the negligible band" in re.sub(r"\s+", " ", text)
    assert "Too many unprocessed floats" not in log
    # readable minimum: without adjustbox's shrinking, every table fits TEXTWIDTH / MIN_SCALE
    log, _ = _compile(tmp_path, "natural", body, TEXTWIDTH_PT / MIN_SCALE,
                      r"\renewenvironment{adjustbox}[1]{\ignorespaces}{\unskip}")
    assert [w for w in _overfull(log) if w > 5] == []
