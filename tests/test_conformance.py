"""Every registered statistic and scorer passes the conformance checks (testkit/conformance.py), as
scikit-learn's check_estimator runs over every estimator: the lists are never pinned, so a new entry
— built in, or registered at run time — is checked the moment it exists, and a broken one fails with
its name, as a bug in that entry (exit 4), not as the user's error."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from engine.models import specs
from engine.stats import registry
from engine.stats.registry import KeyRow, PlotSpec, Statistic
from engine.stats.settings import Setting
from testkit.conformance import ConformanceError, check_scorer, check_statistic


@pytest.mark.parametrize("stat_id", registry.ids())
def test_every_registered_statistic_conforms(stat_id, tmp_path, qtbot):
    check_statistic(stat_id, tmp_path, gui=True)


@pytest.mark.parametrize("kind", specs.kinds())
def test_every_registered_scorer_kind_conforms(kind):
    check_scorer(kind)  # kinds that need a file: their declaration; vader and textblob also load and score


# -- a toy statistic and a toy scorer, registered at run time -------------------------------------------


def _median_gap(ctx) -> list:
    rows = []
    gender = ctx.scores["Gender"].astype(str).str.lower()
    for col, (model, emotion) in ctx.score_cols.items():
        s = pd.to_numeric(ctx.scores[col], errors="coerce")
        rows.append({"corpus": ctx.corpus_id, "model": model, "emotion": emotion, "test": "median_gap",
                     "gap": float(s[gender == "female"].median() - s[gender == "male"].median()),
                     "cutoff": ctx.setting("toy_cutoff")})
    return [_Frame(pd.DataFrame(rows))]


@dataclasses.dataclass
class _Frame:
    frame: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.frame

    def summary(self) -> str:
        return self.frame.to_string()


def _median_tables(frame: pd.DataFrame, width: str) -> tuple[list, list]:
    from engine.stats.present.tables import Cell, Table

    rows = [[Cell(f"{r.model}:{r.emotion}"), Cell(f"{r.gap:.3f}", numeric=True)] for r in frame.itertuples()]
    return [Table(caption="Median gap, female − male", header=[[("System", 1), ("Gap", 1)]], rows=rows, align="lr")], []


CUTOFF = Setting("toy_cutoff", "float", 0.5, low=0.0, high=1.0, label="Toy cutoff:", fix="e.g. 0.5",
                 help="toy statistic: a cutoff it carries into its table")
TOY = Statistic(id="toy_median_gap", label="Median gap (toy)", title="Median gap (a test's toy statistic)",
                paper="a statistic registered by a test", compute=_median_gap,
                needs=("corpus", "model", "emotion", "test", "gap"), settings=(CUTOFF,), tables=_median_tables,
                plot=lambda f: PlotSpec("Median gap", "female − male", [
                    __import__("engine.common.svg", fromlist=["Row"]).Row(f"{r.model}:{r.emotion}", r.gap)
                    for r in f.itertuples()]),
                key_rows=lambda f: [KeyRow("toy_median_gap", r.corpus, r.model, r.emotion, "median gap", r.gap,
                                           float("nan"), float("nan"), float("nan")) for r in f.itertuples()])


class _LengthScorer:
    name, dimensions = "length", ["valence"]

    def fingerprint(self) -> str:
        return "length/1"

    def score(self, texts, **_kw) -> pd.DataFrame:
        from engine.models.base import make_frame

        return make_frame(np.array([min(len(t), 40) / 40 for t in texts]), self.dimensions)


TOY_SCORER = specs.ScorerKind("toy-length", lambda req: _LengthScorer(), "text length as valence (a test's scorer)",
                              needs_target=False, label="Length (toy)")


@pytest.fixture
def toys():
    registry.register(TOY)
    specs.register_scorer(TOY_SCORER)
    try:
        yield
    finally:
        registry.unregister(TOY.id)
        specs.unregister_scorer(TOY_SCORER.kind)


def test_a_toy_statistic_and_scorer_added_at_run_time_conform(toys, tmp_path, qtbot):
    check_statistic(TOY.id, tmp_path, gui=True)
    check_scorer(TOY_SCORER.kind, gui=True)
    from engine.models.specs import model_option_help
    from gui.audit.setup_model import AuditSetup

    assert "toy-length: text length as valence (a test's scorer)" in model_option_help()  # audit --help
    assert "Length (toy)" in [c.name for c in AuditSetup.with_defaults().scorers]  # the Audit page's systems


def test_a_broken_entry_fails_the_suite_with_its_name(tmp_path):
    broken = dataclasses.replace(TOY, id="toy_broken", needs=TOY.needs + ("ci_low",))
    registry.register(broken)
    try:
        with pytest.raises(Exception, match=r"statistic 'toy_broken' \(.*\): its table lacks the column\(s\) it "
                                            r"declares in `needs`: ci_low — a bug in that registry entry"):
            check_statistic(broken.id, tmp_path)
        no_help = dataclasses.replace(TOY, id="toy_nohelp", settings=(dataclasses.replace(CUTOFF, key="toy_x", help=""),))
        registry.register(no_help)
        with pytest.raises(ConformanceError, match="statistic 'toy_nohelp', setting 'toy_x': needs a help text"):
            check_statistic(no_help.id, tmp_path / "b")
    finally:
        registry.unregister("toy_broken")
        registry.unregister("toy_nohelp")
    with pytest.raises(ConformanceError, match="scorer kind 'nope': is not registered"):
        check_scorer("nope")


def test_a_broken_entry_is_a_bug_named_on_the_command_line_exit_4(tmp_path, capsys, monkeypatch):
    """Not exit 2 with "run the audit again" (the user's error): exit 4, the entry and its module named."""
    import main
    from engine.common import exits
    from testkit.audit_fixtures import write_mini_corpus, write_predictions

    monkeypatch.delenv("EEC_DEBUG", raising=False)
    corpus = write_mini_corpus(tmp_path)
    pred = write_predictions(corpus, tmp_path / "system.tsv")
    broken = dataclasses.replace(TOY, id="toy_broken", needs=TOY.needs + ("ci_low",))
    registry.register(broken)
    try:
        rc = main.main(["audit", "--corpus", str(corpus), "--model", f"predictions:{pred}", "--stats", "toy_broken",
                        "--out", str(tmp_path / "out")])
    finally:
        registry.unregister("toy_broken")
    err = capsys.readouterr().err
    assert rc == exits.INTERNAL
    assert "unexpected BrokenEntryError: statistic 'toy_broken' (" in err and "test_conformance): its table lacks" in err
    assert "ci_low — a bug in that registry entry" in err and "run the audit again" not in err
