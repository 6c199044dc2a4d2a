"""The translator workbench: edit a corpus definition with live checks, preview and coverage."""
