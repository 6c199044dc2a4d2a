"""A translator's tools around a corpus: starting a new language, glossary, translation memory,
progress and native-speaker review records."""
