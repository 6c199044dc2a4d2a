"""Audit reports: one self-contained HTML file plus LaTeX/Markdown/CSV tables, in a folder.

    from engine.report import build_report
    html = build_report("runs/audit1", "runs/audit1/report")   # Path of index.html

Reads the audit output folder (layout: engine/results/layout.py) through the one reader, engine.results. No Qt, no network: charts
are inline SVG drawn here, the CSS is inline, nothing is loaded from elsewhere.
"""
from .build import build_report, key_results
from .errors import ReportError

__all__ = ["ReportError", "build_report", "key_results"]
