"""The audit screen: choose corpora, scoring systems and statistics; run them off the UI thread."""
