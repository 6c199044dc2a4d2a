"""Write a corpus package (.eecpkg): one zip a translator hands to a researcher.

Layout (see layout.py and docs/packages.md): manifest.json, README.md (the datasheet),
checker.txt / checker.json, ATTRIBUTION.md (the attribution and licence texts the corpus
cites), definition/<id>.toml, corpus/<id>.csv (published EEC layout
first), corpus/<id>.jsonl, and pairs/<id>.csv when the corpus has counterfactual pairs.

Why the definition file's own bytes: it keeps the translators' comments; the generated
TOML is used only for a corpus that was changed in memory. Zip entries carry a fixed
date and mode so the same corpus always gives the same members (only the manifest's
creation time differs), which makes packages easy to compare.
"""
from __future__ import annotations

import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

from engine.corpus import CompiledCorpus, CorpusDefinition, DefinitionError, check_corpus, generate, parse_definition
from engine.common.io import atomic_write_bytes
from engine.corpus.generate.export import to_bytes
from engine.corpus.pairs.tables import generate_pairs
from engine.corpus.definition.registry import load_corpus
from engine.corpus.definition.writer import to_toml_keeping_comments

from .checker_json import report_to_bytes
from .datasheet import build_datasheet
from .attribution import attribution_markdown
from .layout import ATTRIBUTION, CHECKER_JSON, CHECKER_TEXT, MANIFEST, README, Layout, check_corpus_id
from .manifest import Manifest
from engine.common.overwrite import Confirm, may_replace
from .version import app_version

ZIP_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass
class ExportResult:
    path: Path
    manifest: Manifest


def definition_bytes(corpus: CorpusDefinition) -> bytes:
    """The file the corpus was read from, if it still says the same; else the corpus as TOML
    (with that file's comments carried over)."""
    if corpus.path:
        try:
            raw = Path(corpus.path).read_bytes()
            if parse_definition(raw, corpus.path) == corpus:
                return raw
        except (OSError, DefinitionError):
            pass
    return to_toml_keeping_comments(corpus, corpus.path or None)


def build_package(corpus: CorpusDefinition) -> tuple[bytes, Manifest]:
    """The package as bytes plus its manifest (nothing is written)."""
    check_corpus_id(corpus.id, corpus.path or corpus.id)
    layout = Layout(corpus.id)
    cc = CompiledCorpus(corpus)
    report = check_corpus(corpus, cc)
    df = generate(corpus, cc)
    pairs = generate_pairs(corpus, cc)
    pairs = pairs if len(pairs) else None  # a corpus that declares no pairs: no pairs file
    files: dict[str, bytes] = {
        layout.definition: definition_bytes(corpus),
        layout.csv: to_bytes(df, "csv"),
        layout.jsonl: to_bytes(df, "jsonl"),
        CHECKER_TEXT: (report.to_text() + "\n").encode("utf-8"),
        CHECKER_JSON: report_to_bytes(report),
        README: build_datasheet(corpus, report, pairs=None if pairs is None else len(pairs)).to_markdown().encode("utf-8"),
        ATTRIBUTION: attribution_markdown(corpus).encode("utf-8"),
    }
    if pairs is not None:
        files[layout.pairs] = to_bytes(pairs, "csv")
    manifest = Manifest(corpus_id=corpus.id, corpus_name=corpus.name, language=corpus.language, sentences=len(df),
                        pairs=0 if pairs is None else len(pairs), app_version=app_version())
    for name, data in files.items():
        manifest.add(name, data)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        for name, data in [(MANIFEST, manifest.to_bytes())] + sorted(files.items()):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            zf.writestr(info, data)
    return buf.getvalue(), manifest


def export_package(corpus: CorpusDefinition | str | os.PathLike, out: str | os.PathLike, *,
                   overwrite: bool = False, confirm: Confirm = None) -> ExportResult:
    """Build the package of ``corpus`` (a definition, a name or a path) and save it atomically to ``out``."""
    if not isinstance(corpus, CorpusDefinition):
        corpus = load_corpus(corpus)
    out = Path(out)
    may_replace(out, overwrite=overwrite, confirm=confirm, what="file")
    data, manifest = build_package(corpus)
    atomic_write_bytes(out, data)
    return ExportResult(out, manifest)
