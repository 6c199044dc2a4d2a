"""With several processes the statistics' paper tables are laid out in a forked child while the audit
process writes the corpora's files (engine.results.writer.write_outputs): the same files and the same
problems, in the same order, as in one process."""
import sys

import pytest

from engine.audit import AuditPlan, run_audit
from engine.results.writer import write_results

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks: Linux only"),
              pytest.mark.timeout(600, method="signal")]  # the thread watchdog would keep it from forking


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return run_audit(AuditPlan(["en-kiritchenko2018"], ["vader"], stats=["paired", "counterfactual"],
                               cache_dir=cache, settings={"n_resamples": 0, "jobs": 1}))


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _written(result, folder, processes):
    import copy

    mine = copy.deepcopy(result)
    write_results(mine, folder, processes=processes)
    return _files(folder), mine.problems


def test_the_tables_laid_out_beside_are_the_same_files(result, tmp_path, monkeypatch, request):
    from engine.common.executor.forked_call import ForkedCall
    from testkit.fresh_process import fork_here_or_in_a_fresh_process

    if not fork_here_or_in_a_fresh_process(request):
        return  # ran, and passed, in a fresh interpreter
    made = []
    real_init = ForkedCall.__init__

    def counted(self, *args):
        made.append(args[0].__name__)
        real_init(self, *args)

    monkeypatch.setattr(ForkedCall, "__init__", counted)
    one, one_problems = _written(result, tmp_path / "one", 1)
    assert made == []
    two, two_problems = _written(result, tmp_path / "two", 2)
    assert made == ["_beside"], "the tables were not laid out (nor the summaries made) in a child"
    one.pop("manifest.json"), two.pop("manifest.json")
    assert one == two and one_problems == two_problems
    assert "tables/paired.tex" in two and "tables/counterfactual.md" in two
    assert two["summary.txt"] == one["summary.txt"] and "Kiritchenko & Mohammad" in two["summary.txt"].decode()


def test_a_table_that_cannot_be_laid_out_is_the_same_problem(result, tmp_path):
    import copy

    broken = copy.deepcopy(result)
    broken.tables["paired"] = broken.tables["paired"].drop(columns=["axis"])  # the layout groups by it
    one, one_problems = _written(broken, tmp_path / "one", 1)
    two, two_problems = _written(broken, tmp_path / "two", 2)
    assert [p for p in one_problems if p.startswith("table layout for paired")], one_problems
    assert one_problems == two_problems
    assert "tables/paired.tex" not in two and "tables/counterfactual.tex" in two


def test_a_failed_write_leaves_no_child_behind(result, tmp_path, monkeypatch, request):
    import copy
    import os
    from pathlib import Path

    from engine.results import writer
    from testkit.fresh_process import fork_here_or_in_a_fresh_process

    if not fork_here_or_in_a_fresh_process(request):
        return  # ran, and passed, in a fresh interpreter

    def children():
        return {int(p) for task in Path(f"/proc/{os.getpid()}/task").iterdir()
                for p in (task / "children").read_text().split()}

    def full_disk(*_a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writer, "_write_corpora_and_tables", full_disk)
    before = children()
    with pytest.raises(OSError, match="No space left"):
        write_results(copy.deepcopy(result), tmp_path / "out", processes=2)
    assert children() <= before
