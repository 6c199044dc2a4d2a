"""Presentation: verdict wording, format-neutral paper tables and their LaTeX/Markdown renderers,
and what each results plot draws."""
