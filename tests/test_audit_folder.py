"""One reader of audit folders (engine.audit.folder) for the GUI, the report and notebooks."""
import json
import shutil

import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.audit.folder import AuditError, read_audit
from engine.report.audit_folder import read_audit as read_for_report
from engine.report.errors import ReportError


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
    report_view = read_for_report(audit_dir)
    pd.testing.assert_frame_equal(report_view.stats["beta"], r.tables["beta"])
    assert report_view.scores["en-kiritchenko2018"].name == "en-kiritchenko2018.csv"


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
        read_for_report(d)
