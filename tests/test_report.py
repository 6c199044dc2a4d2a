"""Audit reports: built from a small real audit, self-contained, with tables, stars, manifest and datasheets."""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.corpus import generate, load_corpus
from engine.report import ReportError, build_report

REMOTE = re.compile(r"""(?:src|href|xlink:href|action|poster|data)\s*=\s*["']?\s*(?:[a-z]+:)?//|url\(|@import|<link\b|<script\b|<iframe\b|<object\b|<embed\b""", re.I)


@pytest.fixture(scope="module")
def audit(tmp_path_factory) -> Path:
    """A real audit: a black-box system with +0.05 for sentences about women, on the English EEC."""
    d = tmp_path_factory.mktemp("audit")
    df = generate(load_corpus("en-kiritchenko2018"))
    rng = np.random.default_rng(7)
    score = 0.4 + 0.1 * rng.random(len(df)) + np.where(df.Gender == "female", 0.05, 0.0)
    pred = d / "system.tsv"
    pd.DataFrame({"ID": df.ID, "Sentence": df.Sentence, "anger": score}).to_csv(pred, sep="\t", index=False)
    plan = AuditPlan(["en-kiritchenko2018"], [f"predictions:{pred}?key=sentence&name=sys"],
                     stats=["beta", "paired", "counterfactual"], out_dir=d / "out", cache_dir=d / "cache",
                     settings={"n_resamples": 50, "seed": 0})
    run_audit(plan)
    return d / "out"


@pytest.fixture(scope="module")
def report(audit, tmp_path_factory) -> Path:
    return build_report(audit, tmp_path_factory.mktemp("rep") / "report")


def test_report_folder_contents(report, audit):
    root = report.parent
    assert report.name == "index.html"
    for f in ["tables/beta.tex", "tables/beta.md", "tables/beta.csv", "tables/paired.tex", "tables/counterfactual.tex",
              "data/beta.csv", "data/paired.csv", "data/counterfactual.csv", "datasheets/en-kiritchenko2018.md",
              "manifest.json", ".eec-report"]:
        assert (root / f).is_file(), f
    tex = (root / "tables" / "beta.tex").read_text()
    assert r"\begin{tabular}" in tex and r"\toprule" in tex and "^{***}" in tex  # the planted gender effect
    rows = list(csv.reader(io.StringIO((root / "tables" / "beta.csv").read_text())))
    assert rows[0][:2] == ["Corpus", "Model"] and any(c.endswith("***") for c in rows[1])
    assert (root / "data" / "beta.csv").read_bytes() == (audit / "stats" / "beta.csv").read_bytes()
    assert json.loads((root / "manifest.json").read_text()) == json.loads((audit / "manifest.json").read_text())


def test_report_html_has_tables_stars_plots_manifest_datasheet(report, audit):
    html = report.read_text(encoding="utf-8")
    man = json.loads((audit / "manifest.json").read_text())
    beta = pd.read_csv(audit / "stats" / "beta.csv")
    g = beta[(beta.term == "gender") & (beta.subset == "names")].iloc[0]
    assert f'{g.ame:.3f}<sup class="stars">***</sup>' in html  # the planted +0.05 with its stars
    assert "F↑–M↓ significant" in html  # paired verdict
    assert html.count("<svg") >= 3 and "<circle" in html  # forest plots of the three statistics
    assert "Race/Ethnicity" in html and "Intersection" in html
    c = man["corpora"]["en-kiritchenko2018"]
    assert c["definition_sha256"] in html and c["corpus_sha256"] in html
    assert man["scorers"]["sys"]["fingerprint"] in html and man["versions"]["pandas"] in html
    assert "Equity Evaluation Corpus" in html and "Where the names come from" in html  # the datasheet
    assert "Ebony" in html and "How to cite" in html
    assert "African-American · female" in html  # group means
    # the counterfactual verdict names significance and the negligible band, in the engine's words
    from engine.stats.present.verdicts import SIGNIFICANT_BEYOND, frame_verdicts

    cf = pd.read_csv(audit / "stats" / "counterfactual.csv")
    verdicts = frame_verdicts(cf)
    assert SIGNIFICANT_BEYOND in verdicts and all(v in html for v in verdicts)  # the planted 0.05 > band
    assert "within band" not in html and "beyond band" not in html  # the old, ambiguous wording


def test_report_is_self_contained(report):
    html = report.read_text(encoding="utf-8")
    assert REMOTE.findall(html) == []
    assert "http://" not in html and "https://" not in html
    assert html.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in html and "<style>" in html


def test_rebuild_replaces_own_report_but_not_other_folders(audit, tmp_path):
    out = tmp_path / "rep"
    first = build_report(audit, out)
    (out / "stale.txt").write_text("from an older report")
    build_report(audit, out)
    assert first.is_file() and not (out / "stale.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]  # no staging or backup left
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("do not lose me")
    with pytest.raises(ReportError, match="folder exists and is not an earlier report; nothing was changed"):
        build_report(audit, mine)
    assert (mine / "thesis.tex").read_text() == "do not lose me"
    with pytest.raises(ReportError):
        build_report(audit, mine, confirm=lambda q: False)
    build_report(audit, mine, confirm=lambda q: True)
    assert (mine / "index.html").is_file() and not (mine / "thesis.tex").exists()
    with pytest.raises(ReportError, match="would replace the audit folder"):
        build_report(audit, audit)


def test_bad_audit_folders_are_one_clear_message(tmp_path, audit):
    with pytest.raises(ReportError, match="folder not found"):
        build_report(tmp_path / "nope", tmp_path / "r")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReportError, match="no manifest.json: this is not an audit output folder"):
        build_report(tmp_path / "empty", tmp_path / "r")
    bad = tmp_path / "bad"
    shutil.copytree(audit, bad, ignore=shutil.ignore_patterns("scores", "pairs", "paired_pairs.csv"))
    (bad / "stats" / "beta.csv").write_text("corpus,model\nx,y\n")
    with pytest.raises(ReportError, match=r"beta.csv: the table lacks column 'emotion'"):
        build_report(bad, tmp_path / "r")
    (bad / "manifest.json").write_text("{not json")
    with pytest.raises(ReportError, match=r"manifest.json: not valid JSON"):
        build_report(bad, tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_report_without_scores_or_definition(tmp_path, audit):
    """A copied audit folder: no scores, the definition file moved away — still a report, with a note."""
    d = tmp_path / "copy"
    shutil.copytree(audit, d, ignore=shutil.ignore_patterns("scores", "pairs", "paired_pairs.csv"))
    m = json.loads((d / "manifest.json").read_text())
    m["corpora"]["en-kiritchenko2018"]["definition"] = str(tmp_path / "gone.toml")
    m["files"] = m.get("files", []) + ["assoc/tests.csv"]  # the report reads only the files the manifest lists
    (d / "manifest.json").write_text(json.dumps(m))
    (d / "assoc").mkdir()
    pd.DataFrame({"test": ["WEAT1", "WEAT6"], "kind": ["weat", "weat"], "representation": ["glove-6b-50d"] * 2,
                  "language": ["en", "en"], "effect_size": [1.53, 0.12], "p_value": [0.0001, 0.41],
                  "n_x": [25, 8], "n_y": [25, 8], "n_a": [25, 8], "n_b": [25, 8]}).to_csv(d / "assoc" / "tests.csv",
                                                                                          index=False)
    out = build_report(d, tmp_path / "r")
    html = out.read_text(encoding="utf-8")
    assert "is not here; this is the datasheet of corpus" in html and "Where the names come from" in html
    assert "Scores by group" not in html
    assert 'id="assoc"' in html and '1.53<sup class="stars">***</sup>' in html and "WEAT6" in html
    assert (out.parent / "data" / "assoc_tests.csv").is_file()


def test_cli_report(audit, tmp_path, capsys):
    from main import main

    rc = main(["report", str(audit), "--out", str(tmp_path / "r")])
    out, err = capsys.readouterr()
    assert rc == 0 and out.strip() == f"report: {tmp_path / 'r' / 'index.html'}", err
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("x")
    rc = main(["report", str(audit), "--out", str(tmp_path / "other")])
    out, err = capsys.readouterr()
    assert rc == 2 and "pass --overwrite" in err and err.count("\n") == 1
    rc = main(["report", str(tmp_path / "missing")])
    assert rc == 2 and "folder not found" in capsys.readouterr().err


def test_chromium_renders_the_report(report, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (bench/bench_report_render.py --install)")
    png = tmp_path / "r.png"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                        f"--screenshot={png}", "--window-size=1280,1600", report.resolve().as_uri()],
                       capture_output=True, timeout=120)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000  # a real page, not a blank one


def _chromium() -> str | None:
    return next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


@pytest.mark.slow
@pytest.mark.skipif(_chromium() is None or shutil.which("pdftotext") is None,
                    reason="headless Chromium and pdftotext not installed (apt-get install chromium poppler-utils)")
def test_printed_report_keeps_every_key_results_column_and_the_collapsed_tables(report, tmp_path):
    """The route to a paper's supplement: the report printed to PDF by a browser (issue 31, part 2)."""
    from engine.report.key_results import HEADERS

    pdf = tmp_path / "report.pdf"
    subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", report.as_uri()], capture_output=True, timeout=120, check=True)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, timeout=60).stdout
    header = next(line for line in text.splitlines() if line.lstrip().startswith("statistic") and "model" in line)
    assert header.split() == " ".join(HEADERS).split(), header  # every column, on one line, in order
    flat = re.sub(r"\s+", " ", text)
    html = report.read_text(encoding="utf-8")
    # every key row's verdict (the rightmost column) is printed, not cut at the page edge
    assert flat.count("significant") >= html.split('id="results"')[1].split("<h2")[0].count("significant")
    # the collapsed summary tables (<details>) print expanded
    assert "Summary tables in the paper's layout" in html and "Analysis of gender bias" in flat


def test_report_and_audit_write_the_same_table_files(report, audit):
    """One set of paper tables (issue 31, part 6): before, audit/tables/paired.tex had the K&M summary only
    (8 tables) and the report's the per-system tables too (16)."""
    mine = {p.name: p.read_bytes() for p in (report.parent / "tables").iterdir()}
    theirs = {p.name: p.read_bytes() for p in (audit / "tables").iterdir() if not p.name.startswith("assoc")}
    assert mine == theirs
    assert {"paired.tex", "paired-wide.tex", "paired.md", "paired.csv"} <= set(mine)
    wide = mine["paired-wide.tex"].decode()
    assert "Paired gender analysis per system" in wide and "Analysis of gender bias" in wide
