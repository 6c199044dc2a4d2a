"""Fixtures shared by tests, benchmarks and tools (tiny local models, small corpora and
prediction files). Not part of the installed product: tests, bench/ and tools/ import it from
the checkout."""
