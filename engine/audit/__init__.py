"""Audits: corpora × scorers × statistics, run headless with progress, cancel and a cache."""
from .plan import STATISTICS, AuditPlan
from .run import AuditResult, run_audit

__all__ = ["AuditPlan", "AuditResult", "STATISTICS", "run_audit"]
