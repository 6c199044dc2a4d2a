"""From a definition to sentences: compilation, realisation, the generated table and its exports
(CSV/JSONL/Parquet, Hugging Face dataset folders)."""
