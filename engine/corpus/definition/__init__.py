"""What a corpus is: the model, its TOML definition (loader, writer keeping comments, template
syntax), ids, social axes, language presets, renames and where corpora live (registry)."""
