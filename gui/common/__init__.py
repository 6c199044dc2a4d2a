"""Widgets shared by the workbench, the audit runner and the results screens."""
