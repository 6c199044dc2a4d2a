"""Issue 42: importing the engine for a lexicon (VADER) audit costs little more than the lexicon library
itself — pandas, numpy and the statistics' libraries load when the audit runs, not at import
(bench/bench_import.py measures the time)."""
import subprocess
import sys

from conftest import ROOT

HEAVY = ("pandas", "numpy", "scipy", "statsmodels", "torch", "pyarrow", "sklearn", "importlib.metadata")


def _loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_a_lexicon_audit_imports_no_heavy_library_before_it_runs():
    assert _loaded_after("from engine.audit import AuditPlan, run_audit\n"
                         "from engine.models.specs import load_scorer\n"
                         "load_scorer('vader').warm()") == []


def test_the_results_package_loads_its_reader_on_first_use():
    assert _loaded_after("import engine.results") == []
    assert "pandas" in _loaded_after("from engine.results import read_audit")
