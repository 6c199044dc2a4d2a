"""ATTRIBUTION.md of a corpus package: the attribution and licence texts the corpus cites.

Why inside the package: a datasheet that says "see ATTRIBUTION.md" or "docs/pairs.md" points
at files of the EEC Studio checkout, which the researcher who receives the package does not
have. So the package carries the corpus's source, licence and citation, plus the passages of
the project's attribution files that concern it: the row of ATTRIBUTION.md naming its
definition file, and the "Sources and licences" section of each docs/*.md file that row or
the licence cites.
"""
from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from engine.corpus import CorpusDefinition

ROOT = Path(__file__).resolve().parents[2]
PROJECT_ATTRIBUTION = ROOT / "ATTRIBUTION.md"
SECTION = "Sources and licences"
_DOC_REF = re.compile(r"docs/[\w.-]+\.md")


def _patterns(cell: str) -> list[str]:
    """`templates/{de,es}/*-x.toml` -> the path patterns it names (braces expanded)."""
    out = []
    for path in re.findall(r"`([^`]+\.toml)`", cell):
        m = re.search(r"\{([^}]*)\}", path)
        options = [path.replace(m.group(0), o) for o in m.group(1).split(",")] if m else [path]
        out += options
    return out


def attribution_rows(corpus_id: str, language: str, text: str) -> list[str]:
    """The header and rows of the project's ATTRIBUTION.md tables that name the corpus's built-in
    definition file ``templates/<language>/<corpus_id>.toml``."""
    path = f"templates/{language}/{corpus_id}.toml"
    lines = text.splitlines()
    rows = []
    terms = ""  # the last licence cell, for rows that say "As above."
    for i, line in enumerate(lines):
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = line.split("|")
        first = cells[1]
        if len(cells) > 3 and cells[-2].strip().lower().startswith("as above"):
            line = "|".join(cells[:-2] + [f" {terms} |", ""]).rstrip("|") + "|"
        elif len(cells) > 3:
            terms = cells[-2].strip()
        if any(fnmatch.fnmatch(path, p) for p in _patterns(first)):
            header = next((lines[j] for j in range(i, -1, -1) if lines[j].startswith("| file")), "")
            if header and header not in rows:
                rows += [header, "|---|---|---|"]
            rows.append(line)
    return rows


def doc_section(path: Path, title: str = SECTION) -> str:
    """The text of section ``## title`` of a Markdown file ('' when absent)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return m.group(1).strip() if m else ""


def attribution_markdown(corpus: CorpusDefinition) -> str:
    parts = [f"# Attribution and licence — {corpus.id}", "",
             f"Source: {corpus.source or 'not stated in the definition.'}", "",
             f"Licence: {corpus.licence or 'not stated in the definition; ask the corpus authors before redistributing.'}",
             "", f"Cite: {corpus.cite or 'no citation given in the definition.'}", ""]
    rows = []
    if PROJECT_ATTRIBUTION.is_file():
        rows = attribution_rows(corpus.id, corpus.language, PROJECT_ATTRIBUTION.read_text(encoding="utf-8"))
    if rows:
        parts += ["## From EEC Studio's ATTRIBUTION.md", ""] + rows + [""]
    for ref in dict.fromkeys(_DOC_REF.findall(corpus.licence + " " + " ".join(rows))):
        section = doc_section(ROOT / ref)
        if section:
            parts += [f"## {SECTION} (from EEC Studio's {ref})", "", section, ""]
    return "\n".join(parts).rstrip() + "\n"
