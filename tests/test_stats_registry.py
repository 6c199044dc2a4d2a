"""The statistics registry: one entry is all it takes for the pipeline, the folder reader, the
plots, the report and the CLI to know a statistic (docs/stats.md, "Adding a statistic")."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import pytest

from engine.audit import AuditPlan, run_audit
from engine.results import read_audit
from engine.common.svg import Row
from engine.stats import registry
from engine.stats.registry import KeyRow, PlotSpec, Statistic


@dataclass
class GapResult:
    """Mean score of female minus male persons, per score column (a toy statistic)."""

    frame: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.frame

    def summary(self) -> str:
        return "mean gap\n" + self.frame.to_string(index=False)


def _compute(ctx):
    rows = []
    for col, (model, dim) in ctx.score_cols.items():
        g = ctx.scores.groupby("Gender")[col].mean()
        rows.append({"corpus": ctx.corpus_id, "model": model, "emotion": dim, "test": "mean_gap",
                     "gap": float(g.get("female", float("nan")) - g.get("male", float("nan"))), "p_value": float("nan")})
    return [GapResult(pd.DataFrame(rows))]


GAP = Statistic(id="mean_gap", label="Mean gap", title="Mean gap (toy)", paper="female − male mean",
                compute=_compute, needs=("corpus", "model", "emotion", "test", "gap"),
                plot=lambda f: PlotSpec("Mean gap", "female − male", [Row(f"{r.model}:{r.emotion}", r.gap)
                                                                      for r in f.itertuples()]),
                key_rows=lambda f: [KeyRow("mean_gap", r.corpus, r.model, r.emotion, "female − male", r.gap,
                                           float("nan"), float("nan"), float("nan")) for r in f.itertuples()])


@pytest.fixture
def gap():
    registry.register(GAP)
    yield GAP
    registry.unregister(GAP.id)


def test_builtin_entries_and_tables():
    """The papers' three come first, in this order; any other entry (a new statistic's) may follow."""
    assert registry.ids()[:3] == ("beta", "paired", "counterfactual")
    ids = [t.id for t in registry.tables()]
    assert ids.index("beta") < ids.index("paired") < ids.index("paired_pairs") < ids.index("counterfactual")
    assert registry.needed_columns("counterfactual") == ["corpus", "model", "emotion", "test", "mean_diff", "t_p_value"]
    assert registry.assoc_file_tables()["tests"] == "assoc"
    with pytest.raises(KeyError, match="choose from beta, paired, counterfactual"):  # then any others
        registry.get("nope")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.get("beta"))


def test_a_registered_statistic_runs_everywhere_without_other_edits(gap, tmp_path, run):
    from engine.report import build_report

    out = tmp_path / "audit"
    res = run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["mean_gap"], out_dir=out,
                              cache_dir=tmp_path / "cache"))
    vader_gap = res.scores["en-kiritchenko2018"].groupby("Gender")["vader:valence"].mean()
    assert res.tables["mean_gap"].gap.iloc[0] == pytest.approx(vader_gap["female"] - vader_gap["male"])
    assert (out / "stats" / "mean_gap.csv").is_file() and (out / "plots" / "mean_gap.svg").is_file()
    assert not (out / "tables" / "mean_gap.tex").exists() and not res.problems  # no paper layout: no problem
    back = read_audit(out)
    assert list(back.tables["mean_gap"].gap) == pytest.approx(list(res.tables["mean_gap"].gap))
    html = build_report(out, tmp_path / "report").read_text(encoding="utf-8")
    assert "Mean gap (toy)" in html and "female − male" in html
    # the CLI accepts it as well (its --stats choices come from the registry)
    done = run("audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--stats", "mean_gap",
               "--out", str(tmp_path / "cli"), "--cache-dir", str(tmp_path / "cache"))
    assert done.returncode == 0 and (tmp_path / "cli" / "stats" / "mean_gap.csv").is_file()


def test_the_folder_reader_checks_a_statistics_needed_columns(gap, tmp_path):
    from engine.results import AuditError

    out = tmp_path / "audit"
    run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["mean_gap"], out_dir=out, cache_dir=tmp_path / "c"))
    frame = pd.read_csv(out / "stats" / "mean_gap.csv").drop(columns=["gap"])
    frame.to_csv(out / "stats" / "mean_gap.csv", index=False)
    with pytest.raises(AuditError, match="lacks column 'gap'"):
        read_audit(out)


def test_audit_cli_writes_association_tests_beside_the_paired_table(run, tmp_path):
    out = tmp_path / "a"
    done = run("audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--stats", "paired", "--bootstrap", "0",
               "--assoc", "weat/T1", "--vectors", "glove-6b-50d", "--permutations", "1000", "--out", str(out),
               "--cache-dir", str(tmp_path / "cache"))
    assert done.returncode == 0, done.stderr
    assert (out / "stats" / "paired.csv").is_file()
    tests = pd.read_csv(out / "assoc" / "tests.csv")
    assert list(tests.test) == ["weat/T1"] and tests.effect_size.iloc[0] > 0.5
    assert (out / "tables" / "assoc.md").is_file() and (out / "plots" / "assoc.svg").is_file()
    assert "Association tests" in done.stdout and "weat/T1" in done.stdout
