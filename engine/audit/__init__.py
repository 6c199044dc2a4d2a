"""Audits: corpora × scorers × statistics (+ association tests, report), run headless with
progress, cancel and a score cache. ``run_audit`` (engine.audit.pipeline) is the one entry
point; the CLI, the GUI's audit process and the demo all call it."""
from .assoc_step import AssocStep, association_tests
from .pipeline import run_audit
from .plan import AuditPlan, statistic_ids
from engine.results.result import AuditResult

__all__ = ["AssocStep", "association_tests", "AuditPlan", "AuditResult", "run_audit", "statistic_ids"]
