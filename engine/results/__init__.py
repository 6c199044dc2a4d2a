"""An audit's results folder: its layout (``layout``), the writer (``writer``, ``plots``) and the one
reader (``reader``) below the audit (engine.audit writes through it), the report (engine.report reads
through it), the GUI's Results page and notebooks.

Why a package of its own: the folder is the contract between whoever runs an audit and whoever reads
it later, on another machine. Before, the writer lived in the pipeline's package and the report had a
reader of its own on top of the pipeline's, so building a report imported the whole pipeline. Here
nothing imports ``engine.audit``: reading results needs the registry of statistics and pandas only.
"""
from .errors import AuditError
from .layout import audit_folder_path, is_audit_folder, run_files
from .result import AuditResult

_READER = ("ResultsFolder", "read_audit", "read_folder")


def __getattr__(name: str):
    """The reader's names, imported on first use: it needs pandas (about half a second), and a run
    that only writes a folder (a lexicon audit) imports engine.results at start."""
    if name in _READER:
        from . import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["AuditError", "AuditResult", "ResultsFolder", "audit_folder_path", "is_audit_folder", "read_audit",
           "read_folder", "run_files"]
