"""From a definition to sentences: compilation, realisation, the generated table and its plain
exports (CSV/JSONL/Parquet). Hugging Face dataset folders, which carry a datasheet, are packages
(engine.package.hf_dataset)."""
