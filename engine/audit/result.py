"""``AuditResult`` lives with the results folder it is written to and read from (engine.results);
kept importable here for engine.sweep and notebooks that import it from the audit package."""
from engine.results.result import AuditResult

__all__ = ["AuditResult"]
