"""Check a package completely before anything is written: zip safety, manifest, hashes,
schema of every member, the definition and the agreement checker.

Why everything up front: import must never leave half a corpus behind, and `package verify`
must be able to say "this is exactly what its author exported" (or why not) without
importing. Problems that make the package unusable raise PackageError, and so does content that is
not what the packaged definition and datasheet state (unless accept_modified); differences that
do not (a newer app version, sentences this version would generate differently) are
returned as warnings.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.corpus import COLUMNS, PUBLISHED_COLUMNS, CheckReport, CompiledCorpus, CorpusDefinition, DefinitionError
from engine.corpus import check_corpus, generate, parse_definition
from engine.corpus.generate.export import to_bytes

from .checker_json import summary_counts
from .errors import PackageError
from .layout import CHECKER_JSON, CHECKER_TEXT, MANIFEST, README, Layout
from .limits import DEFAULT_LIMITS, Limits
from .manifest import Manifest, parse_manifest, sha256
from .safe_zip import read_zip
from .version import app_version


@dataclass
class VerifiedPackage:
    file: str
    manifest: Manifest
    corpus: CorpusDefinition
    report: CheckReport
    members: dict[str, bytes]
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        m = self.manifest
        lines = [f"{self.file}: corpus {m.corpus_id} ({m.language}), {m.sentences:,} sentences"
                 + (f", {m.pairs:,} pairs" if m.pairs else "") + f", made by EEC Studio {m.app_version} on {m.created}",
                 f"  {len(self.members)} files, every sha256 matches the manifest",
                 f"  checker: {len(self.report.errors)} error(s), {len(self.report.warnings)} warning(s)"]
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


def verify_package(path: str | Path, *, limits: Limits = DEFAULT_LIMITS, allow_errors: bool = False,
                   accept_modified: bool = False) -> VerifiedPackage:
    """Check every member of the package at ``path``; PackageError on the first that is wrong.

    A package whose content is not what its own definition makes — the sentences, the datasheet
    (README.md) or the checker report differ from what this version generates from the packaged
    definition — was edited after export (and re-hashed: the hashes alone cannot tell) or made by
    a version that generates differently. Either way its datasheet does not describe its data, so
    it is refused unless ``accept_modified`` (then each difference is a warning)."""
    file = str(path)
    members = read_zip(path, limits)
    data = {m.name: m.data for m in members}
    if MANIFEST not in data:
        raise PackageError(file, "no manifest.json", fix="this is not a package made by `package export`")
    if len(data[MANIFEST]) > limits.manifest_bytes:
        raise PackageError(file, "manifest.json is too large", member=MANIFEST, fix="the package is damaged")
    manifest = parse_manifest(data[MANIFEST], file)
    layout = Layout(manifest.corpus_id)
    _check_members(file, data, manifest, layout)
    warnings: list[str] = []
    if manifest.app_version != app_version():
        warnings.append(f"made by EEC Studio {manifest.app_version}; this is {app_version()}")
    for name in (README, CHECKER_TEXT):
        _text(file, name, data[name], limits.text_bytes)
    corpus = _definition(file, layout, data[layout.definition], manifest)
    cc = CompiledCorpus(corpus)
    report = check_corpus(corpus, cc)
    if report.errors and not allow_errors:
        first = report.errors[0]
        raise PackageError(file, f"the agreement checker finds {len(report.errors)} error(s) in the definition, "
                           f"e.g. {first}", member=layout.definition,
                           fix="fix the definition and export again, or pass --allow-errors to import it for editing")
    packaged = summary_counts(data[CHECKER_JSON])
    if packaged is None:
        raise PackageError(file, "checker.json is not a checker report", member=CHECKER_JSON,
                           fix="the package is damaged; export it again")
    ours = (report.sentences, len(report.errors), len(report.warnings))
    modified: list[str] = []
    if packaged != ours:
        modified.append(f"the packaged checker report says {packaged[0]:,} sentences, {packaged[1]} error(s), "
                        f"{packaged[2]} warning(s); this version finds {ours[0]:,}, {ours[1]}, {ours[2]}")
    header, rows = _csv(file, layout.csv, data[layout.csv], limits)
    _corpus_schema(file, layout, header, rows, manifest)
    _jsonl(file, layout.jsonl, data[layout.jsonl], header, rows)
    if layout.pairs in data:
        pheader, prows = _csv(file, layout.pairs, data[layout.pairs], limits)
        if "pair_id" not in pheader:
            raise PackageError(file, "the pairs table has no pair_id column", member=layout.pairs,
                               fix="the package is damaged; export it again")
        if prows != manifest.pairs:
            raise PackageError(file, f"the pairs table has {prows:,} rows, the manifest says {manifest.pairs:,}",
                               member=layout.pairs, fix="the package is damaged; export it again")
    elif manifest.pairs:
        raise PackageError(file, f"the manifest lists {manifest.pairs:,} pairs but there is no {layout.pairs}",
                           fix="the package is damaged; export it again")
    df = generate(corpus, cc)
    regenerated = to_bytes(df, "csv")
    if regenerated != data[layout.csv]:
        modified.insert(0, _difference(regenerated, data[layout.csv]))
    if len(df) != manifest.sentences:
        modified.append(f"the definition generates {len(df):,} sentences, the manifest says {manifest.sentences:,}")
    sheet = _datasheet_difference(corpus, report, data[README], manifest.pairs or None)
    if sheet:
        modified.append(sheet)
    if modified and not accept_modified:
        version = (f"; it was made by EEC Studio {manifest.app_version}, this is {app_version()}"
                   if manifest.app_version != app_version() else "")
        raise PackageError(file, f"the package's content is not what its definition and datasheet state: {modified[0]}"
                           + (f" (and {len(modified) - 1} more difference(s))" if len(modified) > 1 else "") + version,
                           member=layout.definition,
                           fix="ask its author for an unmodified package, or pass --accept-modified to take it as it "
                               "is (the differences are then listed as warnings)")
    warnings.extend(f"{m} (accepted: --accept-modified; the package keeps its own sentences)" for m in modified)
    return VerifiedPackage(file, manifest, corpus, report, data, warnings)


def _datasheet_difference(corpus: CorpusDefinition, report: Any, readme: bytes, pairs: int | None) -> str:
    """'' when README.md is the datasheet this version builds from the packaged definition, else what differs."""
    from .datasheet import build_datasheet

    ours = build_datasheet(corpus, report, pairs=pairs).to_markdown().encode("utf-8")
    if ours == readme:
        return ""
    a, b = ours.decode("utf-8").splitlines(), readme.decode("utf-8", "replace").splitlines()
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"the datasheet (README.md) differs from the one its definition gives, from line {first + 1}"


def _check_members(file: str, data: dict[str, bytes], manifest: Manifest, layout: Layout) -> None:
    allowed = layout.allowed()
    for name in data:
        if name != MANIFEST and name not in allowed:
            raise PackageError(file, f"unknown member {name!r}",
                               fix=f"a package of {layout.corpus_id} holds only {', '.join(sorted(allowed | {MANIFEST}))}")
    listed = set(manifest.files)
    if MANIFEST in listed:
        raise PackageError(file, "the manifest lists itself", member=MANIFEST, fix="the package is damaged")
    for name in sorted(listed - allowed):
        raise PackageError(file, f"the manifest lists an unknown file {name!r}", member=MANIFEST,
                           fix="the package is damaged or was not made by EEC Studio")
    present = set(data) - {MANIFEST}
    for name in sorted(listed - present):
        raise PackageError(file, f"{name} is listed in the manifest but missing", fix="the package is incomplete; export it again")
    for name in sorted(present - listed):
        raise PackageError(file, f"{name} is not listed in the manifest", fix="the package was altered; do not import it")
    for name in layout.required():
        if name not in data:
            raise PackageError(file, f"required file {name} is missing", fix="the package is incomplete; export it again")
    for name, entry in sorted(manifest.files.items()):
        blob = data[name]
        if len(blob) != entry.bytes or sha256(blob) != entry.sha256:
            raise PackageError(file, f"{name} does not match its sha256 in the manifest",
                               fix="the file was damaged or altered after export; get a fresh copy from its author")


def _text(file: str, name: str, raw: bytes, max_bytes: int) -> str:
    if len(raw) > max_bytes:
        raise PackageError(file, f"{name} is too large ({len(raw):,} bytes)", member=name, fix="the package is damaged")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise PackageError(file, f"{name} is not UTF-8 text", member=name, fix="the package is damaged") from None
    if "\x00" in text:
        raise PackageError(file, f"{name} contains NUL bytes, so it is not text", member=name,
                           fix="the package is damaged; export it again")
    return text


def _definition(file: str, layout: Layout, raw: bytes, manifest: Manifest) -> CorpusDefinition:
    try:
        corpus = parse_definition(raw, layout.definition)
    except DefinitionError as exc:
        raise PackageError(file, f"invalid definition: {exc}", fix="") from None
    except RecursionError:
        raise PackageError(file, "invalid definition: nesting too deep", member=layout.definition) from None
    if corpus.id != manifest.corpus_id:
        raise PackageError(file, f"the definition's id is {corpus.id!r}, the manifest says {manifest.corpus_id!r}",
                           member=layout.definition, fix="the package was altered; export it again")
    if corpus.language != manifest.language:
        raise PackageError(file, f"the definition's language is {corpus.language!r}, the manifest says "
                           f"{manifest.language!r}", member=layout.definition, fix="the package was altered")
    return corpus


def _csv(file: str, name: str, raw: bytes, limits: Limits) -> tuple[list[str], int]:
    text = _text(file, name, raw, limits.member_bytes)
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, None)
        if not header:
            raise PackageError(file, "empty table", member=name, fix="the package is damaged; export it again")
        n = 0
        for row in reader:
            if len(row) != len(header):
                raise PackageError(file, f"row {n + 2} has {len(row)} fields, the header {len(header)}", member=name,
                                   fix="the package is damaged; export it again")
            n += 1
    except csv.Error as exc:
        raise PackageError(file, f"not a valid CSV table ({exc})", member=name, fix="the package is damaged") from None
    return header, n


def _corpus_schema(file: str, layout: Layout, header: list[str], rows: int, manifest: Manifest) -> None:
    if header[:len(PUBLISHED_COLUMNS)] != PUBLISHED_COLUMNS:
        raise PackageError(file, "the corpus table does not start with the published EEC columns "
                           f"({','.join(PUBLISHED_COLUMNS)})", member=layout.csv, fix="the package is damaged")
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise PackageError(file, f"the corpus table lacks column {missing[0]!r}", member=layout.csv,
                           fix="the package is damaged or from an incompatible version")
    if rows != manifest.sentences:
        raise PackageError(file, f"the corpus table has {rows:,} rows, the manifest says {manifest.sentences:,}",
                           member=layout.csv, fix="the package is damaged; export it again")


def _jsonl(file: str, name: str, raw: bytes, header: list[str], rows: int) -> None:
    try:
        lines = [ln for ln in raw.decode("utf-8").split("\n") if ln.strip()]
    except UnicodeDecodeError:
        raise PackageError(file, "not UTF-8", member=name, fix="the package is damaged") from None
    if len(lines) != rows:
        raise PackageError(file, f"{len(lines):,} records, the CSV table has {rows:,}", member=name,
                           fix="the package is damaged; export it again")
    keys = set(header)
    for i, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise PackageError(file, f"line {i} is not JSON", member=name, fix="the package is damaged") from None
        if not isinstance(rec, dict) or set(rec) != keys:
            raise PackageError(file, f"line {i} does not have the corpus table's columns", member=name,
                               fix="the package is damaged; export it again")


def _difference(ours: bytes, theirs: bytes) -> str:
    a, b = ours.decode("utf-8").splitlines(), theirs.decode("utf-8", "replace").splitlines()
    differing = sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))
    return (f"the packaged corpus differs from what EEC Studio {app_version()} generates from the definition "
            f"({differing:,} of {max(len(a), len(b)) - 1:,} rows)")
