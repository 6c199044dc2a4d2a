r"""LaTeX tables as a two-column paper prints them (issue 31, part 1; issue 41, part 7): every table in
one ACL column (219 pt) at ≥ 0.9 scale at 10 pt and at ACL's 11 pt, or split; the table* variant
across the page; notes, not columns, for warnings; TeX quotes; what non-Latin labels need; a \label
on every float of an audit folder's files; the association tests' table too.

The compile tests need pdflatex (texlive-latex-base and texlive-latex-recommended, which .ci/run
installs); the scale is measured by TeX itself: ``adjustbox`` is replaced by a box that reports its
natural width against the line width, which is what ``max width`` scales by.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import engine.stats as S
from engine.stats.present import latex, markdown, render
from engine.stats.present.tables import NOT_TESTED, untested_reason

LONG_MODEL = "cardiffnlp/twitter-roberta-base-sentiment-latest"  # a real model id: the widest label we print
ARABIC_MODEL = "نموذج-المشاعر"  # a model label in Arabic script
COLUMN_PT, TEXTWIDTH_PT = 219.0, 455.0  # ACL: two 7.7 cm columns, 0.6 cm apart
MIN_SCALE = 0.9
WARNING = ("vader reads English only: scores of es-camara2022 (Spanish) measure its handling of another "
           "language, not bias in Spanish")


@pytest.fixture(scope="module")
def results() -> dict[str, pd.DataFrame]:
    """Real results of every layout on a small synthetic EEC with planted bias, with a row that was not
    tested (a constant scorer), a language warning and a second corpus."""
    df = S.synthetic_eec(names_per_cell=3, words_per_emotion=1)
    cols = {}
    for i, m in enumerate([LONG_MODEL, "vader"]):
        for e in ("anger", "fear", "joy", "sadness"):
            df[f"{m}|{e}"] = S.planted_scores(df, seed=i * 7 + len(e), delta_gender=0.04 * i)
            cols[f"{m}|{e}"] = (m, e)
    df["const|anger"] = 0.5
    beta = S.beta_regression(df, {**{c: v for c, v in cols.items() if v[0] == LONG_MODEL},
                                  "const|anger": ("constant-model", "anger")}).to_frame()
    paired = S.km_paired_analysis(df, cols, axis=["gender", "race"], np_pairs=S.synthetic_np_pairs(),
                                  n_resamples=0, subsets=("all", "neutral")).to_frame()
    frames = []
    for model, delta in ((LONG_MODEL, 0.05), ("vader", 0.01), (ARABIC_MODEL, 0.02)):
        d = df.copy()
        d["s"] = S.planted_scores(d, seed=3, delta_gender=-delta, precision=2000.0)
        pairs = S.synthetic_pairs(d, "s", variable="gender")
        frames.append(S.counterfactual_analysis(pairs, "score_privileged", "score_minoritised", model=model,
                                                emotion="anger", n_resamples=100, score_range=(0.0, 1.0)).to_frame())
    cf = pd.concat(frames, ignore_index=True)
    cf["language_warning"] = [WARNING if m == "vader" else "" for m in cf["model"]]
    confusion = S.confusion_matrix(pairs.assign(a=(pairs.score_privileged * 4).round(),
                                                b=(pairs.score_minoritised * 4).round()), "a", "b",
                                   model="vader", emotion="anger")
    # the race groups of real corpora are named longer than the papers' AA/EA (de/ja: "minority" and
    # "unmarked"/"Japanese", es: "Latino"/"Anglo"): their column summaries were 0.62-0.79 of full size
    long = paired.copy()
    race = long["axis"] == "race"
    long.loc[race, "label_a"], long.loc[race, "label_b"] = "minority", "unmarked"
    assoc = pd.DataFrame([
        {"test": "weat/T1", "title": "Flowers vs insects, pleasant vs unpleasant (Caliskan et al. 2017)",
         "effect_size": 1.5, "p_value": 0.0001, "p_method": "exact permutation", "n_x": 25, "n_y": 25, "n_a": 25,
         "n_b": 25, "status": "ok", "note": ""},
        {"test": "seat/angry-black-woman", "title": "Angry black woman stereotype (May et al. 2019)",
         "effect_size": float("nan"), "p_value": float("nan"), "p_method": "", "status": "refused",
         "note": "coverage 0.62 below --min-coverage 0.8"}])
    return {"beta": beta, "paired": paired, "paired_long_groups": long, "counterfactual": cf,
            "confusion": confusion, "assoc": assoc}


LAYOUTS = {"beta": [None], "paired": ["km_models", "km"], "paired_long_groups": ["km_models", "km"],
           "counterfactual": ["counterfactual"], "confusion": [None], "assoc": ["assoc"]}
SIZES = ("10pt", "11pt")  # ACL's papers are set at 11 pt; the column is 219 pt at both


def _tex(results, width: str, **kw) -> dict[str, str]:
    from engine.stats.present.tables import association_tables

    def one(name: str, lay) -> str:
        if lay == "assoc":
            return latex.render_all(association_tables(results[name], width=width), wide=width == "page",
                                    transliterate=kw.get("transliterate", False))
        return render.to_latex(results[name], lay, width=width, **kw)

    return {name: "\n\n".join(one(name, lay) for lay in layouts) for name, layouts in LAYOUTS.items()}


# --------------------------------------------------------------------------- pure Python
def test_column_layouts_are_table_floats_and_page_layouts_table_star(results):
    col, page = _tex(results, "column", transliterate=True), _tex(results, "page", transliterate=True)
    for name in LAYOUTS:
        assert r"\begin{table}" in col[name] and r"\begin{table*}" not in col[name], name
        assert r"\begin{table*}" in page[name] and r"\begin{table}[" not in page[name], name
        assert col[name].startswith(latex.PREAMBLE) and page[name].startswith(latex.PREAMBLE)


def test_warnings_are_notes_never_columns(results):
    for width in ("column", "page"):
        tables = render.build_tables(results["counterfactual"], "counterfactual", width=width)
        heads = [text for t in tables for h in t.header for text, _ in h]
        assert not any("warning" in h.lower() for h in heads), heads
        assert all(WARNING not in c.text for t in tables for r in t.rows for c in r)
        assert sum(WARNING in n for t in tables for n in t.notes) == 1  # once, as a note
        tex = latex.render_all(tables, transliterate=True)
        assert tex.count("vader reads English only") == 1 and r"\caption" in tex
        md = markdown.render_all(tables)
        assert md.count("vader reads English only") == 1


def test_tex_quotes_open_and_close():
    assert latex.escape("'no bias'") == "`no bias'"
    assert latex.escape('the "negligible" band') == "the ``negligible'' band"
    assert latex.escape("don't") == "don't"


def test_non_latin_labels_are_named_in_the_header_or_transliterated(results):
    tex = render.to_latex(results["counterfactual"], "counterfactual")
    head = "\n".join(line for line in tex.splitlines() if line.startswith("%"))
    assert "Arabic" in head and "xelatex" in head and "fontspec" in head and "Noto Naskh Arabic" in head
    plain = render.to_latex(results["counterfactual"], "counterfactual", transliterate=True)
    assert not re.search("[\u0600-\u06ff]", plain) and "Arabic" not in plain.split("\\begin")[0]


def test_not_tested_rows_print_a_dash_with_a_footnote(results):
    beta = results["beta"]
    const = beta[(beta.model == "constant-model") & beta.term.isin(["race", "gender", "intersection"])]
    assert len(const) and const.p_value.isna().all()  # the statistic's own verdict: no test
    reason = untested_reason(const.p_value.iloc[0], const.status.iloc[0], const.note.iloc[0])
    assert reason
    for width in ("column", "page"):
        tables = render.build_tables(beta, width=width)
        cells = [c for t in tables for r in t.rows for c in r]
        dashes = [c for c in cells if c.text == NOT_TESTED]
        assert len(dashes) == len(const) and all(c.sup for c in dashes)
        notes = [n for t in tables for n in t.notes]
        assert any(n.startswith(dashes[0].sup) and "Not tested" in n for n in notes)
    tex = render.to_latex(beta)
    assert r"---\textsuperscript{\dag{}}" in tex and r"\dag{} Not tested" in tex
    md = render.to_markdown(beta)
    assert "—†" in md and "† Not tested" in md


def test_long_tables_are_split_into_floats():
    from engine.stats.present.tables import Cell, Table

    rows = [[Cell(f"model {i}"), Cell("0.1", numeric=True)] for i in range(100)]
    tex = latex.render_all([Table("Caption.", [[("Model", 1), ("x", 1)]], rows, "lr", notes=["A note."])])
    floats = tex.count(r"\begin{table}")
    assert floats > 1 and tex.count("Caption. (continued)") == floats - 1
    assert tex.count("A note.") == floats  # every float carries the table's notes
    assert all(body.count(r" \\") <= latex.MAX_FLOAT_LINES + 2 for body in tex.split(r"\begin{table}")[1:])


# --------------------------------------------------------------------------- pdflatex
needs_tex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                               reason="pdflatex not installed (apt-get install texlive-latex-base "
                                      "texlive-latex-recommended; .ci/run does)")

ACL = r"""\documentclass[%(size)s,twocolumn]{article}
\usepackage[a4paper,textwidth=16cm,textheight=24.7cm,columnsep=0.6cm]{geometry}
\usepackage[T1]{fontenc}
\usepackage{booktabs,array}
%% adjustbox{max width=\linewidth}: the natural width is reported, the scale is min(1, linewidth/width)
\newsavebox\eecbox
\newenvironment{adjustbox}[1]{\begin{lrbox}{\eecbox}}{\end{lrbox}%%
  \typeout{EEC-WIDTH \the\wd\eecbox\space LINE \the\linewidth}%%
  \ifdim\wd\eecbox>\linewidth\resizebox{\linewidth}{!}{\usebox\eecbox}\else\usebox\eecbox\fi}
\usepackage{graphicx}
\begin{document}
%(body)s
\end{document}
"""


def _compile(tmp_path, name: str, body: str, size: str = "11pt") -> str:
    (tmp_path / f"{name}.tex").write_text(ACL % {"body": body, "size": size}, encoding="utf-8")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=180)
    log = (tmp_path / f"{name}.log").read_text(encoding="latin-1")
    assert res.returncode == 0, log[-3000:]
    return log


def _scales(log: str) -> list[tuple[float, float]]:
    """(natural width, line width) in pt of every tabular, in order."""
    return [(float(w), float(lw)) for w, lw in re.findall(r"EEC-WIDTH ([\d.]+)pt LINE ([\d.]+)pt", log)]


@pytest.mark.slow
@needs_tex
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("width,line", [("column", COLUMN_PT), ("page", TEXTWIDTH_PT)])
def test_every_table_fits_the_acl_geometry_at_09_scale(tmp_path, results, width, line, size):
    tex = _tex(results, width, transliterate=True)
    report = []
    for name, body in tex.items():
        log = _compile(tmp_path, f"{name}-{width}-{size}", "\n\\clearpage\n".join([body]), size)
        sizes = _scales(log)
        assert sizes, f"{name}: no table measured"
        for natural, lw in sizes:
            assert abs(lw - line) < 1.0, f"{name}: a {width} table is set in {lw} pt, not {line} pt"
            report.append((name, natural, round(min(1.0, lw / natural), 3)))
        assert "Float too large" not in log, f"{name}: a float is taller than the page"
        assert not re.findall(r"Overfull \\hbox \((\d\d+\.?\d*)pt too wide\)", log), f"{name}: overfull box"
    small = [r for r in report if r[2] < MIN_SCALE]
    assert not small, f"tables below {MIN_SCALE} scale in a {line} pt {width} at {size}: {small}"


@pytest.mark.slow
@needs_tex
def test_compiled_text_keeps_signs_quotes_and_notes(tmp_path, results):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed (poppler-utils)")
    body = "\n\\clearpage\n".join(_tex(results, "column", transliterate=True).values())
    _compile(tmp_path, "all", body + "\n\n" + latex.render_all([], preamble=False)
             + "\n\\begin{table}\\caption{" + latex.escape("verdict 'no bias'") + "}\\end{table}")
    text = subprocess.run(["pdftotext", "all.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout
    flat = re.sub(r"\s+", " ", text)
    assert "<0.001" in text and "¡" not in text and "¿" not in text
    # an opening quote, then a closing one (pdftotext names the glyphs ` and ' of the bitmap fonts)
    assert re.search(r"[`‘]no bias['’]", flat) and not re.search(r"['’]no bias", flat)
    assert "vader reads English only" in flat and "Not tested" in flat


def test_long_group_names_keep_a_column_summary_narrow(results):
    """A column summary names the direction by Δ = a − b where the groups' names are long; F/M stay."""
    from engine.stats.present.tables import km_tables

    long = km_tables(results["paired_long_groups"], width="column")
    race = [t for t in long if "race" in t.caption]
    assert race and all("minority" not in text for t in race for h in t.header for text, _ in h)
    assert any("Δ = score(minority) − score(unmarked)" in n for t in race for n in t.notes)
    assert [r[1].text for r in race[0].rows[:3]] == ["n.s.", "Δ > 0 sig.", "Δ < 0 sig."]
    gender = [t for t in long if "gender" in t.caption]
    assert gender[0].rows[0][1].text == "F=M n.s."


def test_every_float_of_an_audit_folders_tables_has_a_label(results):
    from engine.results.writer import assoc_files
    from engine.stats.present.render import statistic_files

    files = {**statistic_files("paired", results["paired"]), **assoc_files(results["assoc"])}
    for rel, data in files.items():
        if rel.endswith(".tex"):
            tex = data.decode()
            floats = re.findall(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", tex, re.S)
            assert floats and all(r"\label{tab:" in f for f in floats), rel
            labels = re.findall(r"\\label\{([^}]+)\}", tex)
            assert len(labels) == len(set(labels)) == len(floats), rel  # unique, one each


def test_the_association_tests_have_a_latex_table(results):
    from engine.results.writer import assoc_files

    files = assoc_files(results["assoc"])
    assert set(files) == {"tables/assoc.md", "tables/assoc.tex", "tables/assoc-wide.tex"}
    column = files["tables/assoc.tex"].decode()
    assert r"\begin{table}" in column and "weat/T1" in column and "1.500" in column
    assert r"Not tested: refused: coverage 0.62" in column  # the refused test: a dash with its reason
    assert r"\begin{table*}" in files["tables/assoc-wide.tex"].decode()
