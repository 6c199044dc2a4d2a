"""One reader of audit folders (engine.results) for the GUI, the report and notebooks."""
import json
import shutil

import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.report import build_report
from engine.report.errors import ReportError
from engine.results import AuditError, read_audit, read_folder


@pytest.fixture(scope="module")
def audit_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("folder")
    out = root / "audit"
    run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["beta", "paired"], out_dir=out,
                        cache_dir=root / "cache", settings={"n_resamples": 0}))
    return out


def test_reads_back_what_the_audit_wrote(audit_dir):
    r = read_audit(audit_dir)
    assert {"beta", "paired"} <= set(r.tables) and len(r.scores["en-kiritchenko2018"]) == 8640
    again = pd.read_csv(audit_dir / "stats" / "paired.csv")
    pd.testing.assert_frame_equal(r.tables["paired"], again)
    light = read_audit(audit_dir / "manifest.json", load_scores=False)  # the manifest's folder
    assert not light.scores and set(light.tables) == set(r.tables)
    report_view = read_folder(audit_dir, load_scores=False, need_manifest=True)  # what build_report reads
    pd.testing.assert_frame_equal(report_view.stats["beta"], r.tables["beta"])
    assert report_view.score_files["en-kiritchenko2018"].name == "en-kiritchenko2018.csv"
    assert report_view.summary == (audit_dir / "summary.txt").read_text(encoding="utf-8")
    assert set(report_view.latex) == {"beta", "paired"} and not report_view.scores


@pytest.mark.parametrize("damage, message", [
    (lambda d: (d / "stats" / "beta.csv").write_text("corpus,model\nx,y\n"), r"beta.csv: the table lacks column 'emotion'"),
    (lambda d: (d / "stats" / "paired.csv").write_bytes(b"corpus,model\n\xff\xfe,1\n"), r"paired.csv: not a readable CSV"),
    (lambda d: (d / "manifest.json").write_text("{not json"), r"manifest.json: not valid JSON"),
    (lambda d: (d / "manifest.json").write_text("[1, 2]"), r"manifest.json: expected a JSON object"),
    (lambda d: (d / "manifest.json").write_text(json.dumps({"corpora": []})), r"field 'corpora' should be an object"),
])
def test_a_damaged_folder_is_one_line_for_the_gui_and_the_report(audit_dir, tmp_path, damage, message):
    d = tmp_path / "copy"
    shutil.copytree(audit_dir, d)
    damage(d)
    with pytest.raises(AuditError, match=message) as info:
        read_audit(d)
    assert "\n" not in str(info.value) and "—" in str(info.value)  # the message and its fix, one line
    with pytest.raises(ReportError, match=message):
        build_report(d, tmp_path / "report")
    assert not (tmp_path / "report").exists()


def test_reading_results_does_not_import_the_pipeline():
    """The report and the results reader stand below the audit: building a report of a folder copied
    to another machine needs the registry and pandas, not the scorers' pipeline."""
    import subprocess
    import sys

    code = ("import sys, engine.report, engine.results; "
            "print(sorted(m for m in sys.modules if m.startswith('engine.audit')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_file_the_manifest_does_not_list_is_not_read(audit_dir, tmp_path):
    d = tmp_path / "copy"
    shutil.copytree(audit_dir, d)
    (d / "stats" / "counterfactual.csv").write_text("corpus,model\nstale,1\n")  # left by another run
    (d / "tables" / "counterfactual.tex").write_text("stale")
    folder = read_folder(d)
    assert "counterfactual" not in folder.tables and "counterfactual" not in folder.latex
    assert all(p.name != "counterfactual.csv" for p in folder.data_files)
