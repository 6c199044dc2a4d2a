"""Export a corpus as a Hugging Face dataset folder: parquet (or JSON Lines) files + a dataset card.

    export_hf_dataset("fr-my-eec", "out/fr-my-eec")      # then, anywhere:
    datasets.load_dataset("out/fr-my-eec")               # -> DatasetDict(test=…), the card's configs
    datasets.load_dataset("parquet", data_dir="out/fr-my-eec")   # parquet files: the same, without the card

Why two formats: parquet needs pyarrow, the 'parquet' extra (170 MB installed). Without it the data
files are JSON Lines (``data/test-00000-of-00001.jsonl``) with the same columns and the same
class codes and structs; the card's ``configs`` point at them and declare the features, so
``load_dataset(folder)`` gives the same dataset either way (tests/test_parquet_extra.py).

Why this layout: the Hub and ``load_dataset`` find splits by file name
(``data/test-00000-of-00001.parquet`` is the *test* split: an EEC is an evaluation corpus),
and read the card's YAML header for the language, licence, task and size. The card's body is
the corpus datasheet (``engine.package.datasheet``), so a dataset on the Hub says exactly
what a .eecpkg package says. Counterfactual pairs, when the corpus has them, are a second
configuration (``pairs/pairs-00000-of-00001.parquet``): their file name names no split, so
``load_dataset("parquet", data_dir=…)`` reads the sentences only and never mixes the two
tables. The folder is written next to its destination and renamed into place, so a failure
leaves no half dataset.

Why typed columns: categorical columns (gender, race, emotion, kinds) are ``ClassLabel``s and
``features`` a struct (slot -> grammatical feature -> value), declared both in the parquet
schema (the ``huggingface`` metadata ``datasets`` reads) and in the card's ``dataset_info``, so
the Hub's viewer and ``load_dataset`` show what each column holds; an empty category (a noun
phrase has no race, a neutral template no emotion) is null. Why the extra files: the card's
``license_link`` and its datasheet point to ``ATTRIBUTION.md`` and the native-review record
(``native_review.json``), so both travel in the folder — a card must not cite what is not there.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.corpus.check.checker import check_corpus
from engine.corpus.generate.compiled import CompiledCorpus
from engine.common.io import atomic_write_bytes

from engine.corpus.generate.generator import generate
from engine.common.languages import base_language
from engine.common.staged_folder import staged_folder
from engine.corpus.definition.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS, CorpusDefinition

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

SENTENCES_FILE = "data/test-00000-of-00001.parquet"
PAIRS_FILE = "pairs/pairs-00000-of-00001.parquet"
#: the data files' formats: parquet with the 'parquet' extra (pyarrow), else JSON Lines — the Hub and
#: ``load_dataset`` read both, and the card's ``configs`` name the files written
DATA_FORMATS = {"parquet": "Parquet", "jsonl": "JSON Lines"}
ATTRIBUTION_FILE = "ATTRIBUTION.md"
#: the native-review record (engine.corpus.translate.review_record); a name no split pattern of `datasets` matches
REVIEW_FILE = "native_review.json"
#: categorical columns of the sentences and of the pairs (ClassLabel in the Hub's terms)
SENTENCE_CLASSES = ("Gender", "Race", "Emotion", "person_kind", "emotion_kind")
PAIR_CLASSES = ("variable", "privileged_group", "minoritised_group", "emotion", "emotion_kind")
_LICENCES = {"cc-by-4.0": r"cc[- ]by[- ]4\.0", "cc-by-sa-4.0": r"cc[- ]by[- ]sa[- ]4\.0", "cc0-1.0": r"cc0",
             "mit": r"\bmit\b", "apache-2.0": r"apache", "cc-by-nc-4.0": r"cc[- ]by[- ]nc[- ]4\.0"}


@dataclass
class HFExport:
    path: Path
    rows: int
    pairs: int
    data_format: str = "parquet"  # a key of DATA_FORMATS


def data_file(name: str, data_format: str) -> str:
    """SENTENCES_FILE or PAIRS_FILE as written in ``data_format`` (``…-00000-of-00001.jsonl``)."""
    return f"{name.rsplit('.', 1)[0]}.{data_format}"


def default_data_format() -> str:
    """parquet where pyarrow (the 'parquet' extra) is installed, else JSON Lines."""
    from engine.common.extras import available

    return "parquet" if available("parquet") else "jsonl"


def size_category(n: int) -> str:
    """The Hub's size_categories bucket for ``n`` rows."""
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")):
        if n < limit:
            return label
    return "10M<n<100M"


def hub_licence(text: str) -> str:
    """A Hub licence id when the definition's licence names one, else ``other`` (details in the card)."""
    low = text.lower()
    for hub_id, rx in _LICENCES.items():
        if re.search(rx, low):
            return hub_id
    return "other"


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def licence_id(corpus: CorpusDefinition) -> str:
    """The Hub's ``license_name`` for a licence it has no id for: an id (lower case, digits, '-')."""
    return re.sub(r"[^a-z0-9]+", "-", f"{corpus.id}-terms".lower()).strip("-")


# ----------------------------------------------------------------------------- typed columns
def class_names(corpus: CorpusDefinition, column: str, values: list[str]) -> list[str]:
    """The label names of a categorical column: the corpus's declared categories in their order
    (axis groups, the four emotions, the kinds), then any other value seen; '' is not a label."""
    axis_groups = [g for a in corpus.axes.values() for g in a.groups]
    declared = {"Gender": corpus.axes["gender"].groups if "gender" in corpus.axes else [],
                "Race": corpus.race_axis.groups if corpus.race_axis else [],
                "Emotion": list(EMOTIONS), "emotion": list(EMOTIONS),
                "person_kind": list(PERSON_KINDS), "emotion_kind": list(EMOTION_KINDS),
                "variable": list(corpus.axes), "privileged_group": axis_groups,
                "minoritised_group": axis_groups}.get(column, [])
    names = list(dict.fromkeys(str(v) for v in declared))
    return names + sorted({str(v) for v in values if v and str(v) not in names})


def _feature_slots(rows: list[Any]) -> dict[str, list[str]] | None:
    """slot -> its grammatical features, covering every row's ``features`` JSON, or None when a row
    is not of that shape or no slot has a feature (a struct needs at least one field)."""
    slots: dict[str, dict[str, None]] = {}
    for row in rows:
        if not isinstance(row, dict):
            return None
        for slot, feats in row.items():
            if not isinstance(feats, dict) or not all(isinstance(v, str) for v in feats.values()):
                return None
            slots.setdefault(str(slot), {}).update(dict.fromkeys(map(str, feats)))
    kept = {slot: list(feats) for slot, feats in slots.items() if feats}
    return kept or None


def typed_columns(df: "pd.DataFrame", corpus: CorpusDefinition,
                  classes: tuple[str, ...]) -> tuple[dict[str, list[Any]], dict]:
    """Each column as the dataset holds it — ClassLabel columns as int codes (None for ''),
    ``features`` as slot -> feature -> value, every other column a string — and the ``datasets``
    features. Plain Python, so that JSON Lines data files need no pyarrow."""
    columns: dict[str, list[Any]] = {}
    features: dict[str, dict] = {}
    for col in df.columns:
        name, values = str(col), df[col].tolist()
        if col in classes:
            names = class_names(corpus, col, values)
            code = {n: i for i, n in enumerate(names)}
            columns[name] = [code[str(v)] if v else None for v in values]
            features[name] = {"names": names, "_type": "ClassLabel"}
            continue
        if col == "features":
            parsed = [json.loads(v) if v else {} for v in values]
            slots = _feature_slots(parsed)
            if slots is not None:
                columns[name] = [{slot: {f: (r.get(slot) or {}).get(f) for f in fs} for slot, fs in slots.items()}
                                 for r in parsed]
                features[name] = {slot: {f: {"dtype": "string", "_type": "Value"} for f in fs}
                                  for slot, fs in slots.items()}
                continue
        columns[name] = [None if v is None else str(v) for v in values]
        features[name] = {"dtype": "string", "_type": "Value"}
    return columns, features


def _arrow_type(feature: dict) -> "pa.DataType":
    import pyarrow as pa

    if feature.get("_type") == "ClassLabel":
        return pa.int64()
    if feature.get("_type") == "Value":
        return pa.string()
    return pa.struct([pa.field(k, _arrow_type(v)) for k, v in feature.items()])


def typed_table(df: "pd.DataFrame", corpus: CorpusDefinition, classes: tuple[str, ...]) -> tuple["pa.Table", dict]:
    """``typed_columns`` as an Arrow table (ClassLabel columns int64, ``features`` a struct, the rest
    strings) whose schema carries the ``datasets`` features; and those features."""
    import pyarrow as pa

    columns, features = typed_columns(df, corpus, classes)
    arrays = [pa.array(values, _arrow_type(features[name])) for name, values in columns.items()]
    table = pa.Table.from_arrays(arrays, names=list(columns))
    meta = {b"huggingface": json.dumps({"info": {"features": features}}).encode("utf-8")}
    return table.replace_schema_metadata(meta), features


def jsonl_bytes(columns: dict[str, list[Any]]) -> bytes:
    """The typed columns as JSON Lines (one object per row; null where a category does not apply)."""
    names = list(columns)
    return "".join(json.dumps(dict(zip(names, row)), ensure_ascii=False) + "\n"
                   for row in zip(*columns.values())).encode("utf-8")


def parquet_bytes(table: "pa.Table") -> bytes:
    import io

    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def _yaml_features(features: dict, indent: str) -> list[str]:
    """``dataset_info.features`` in the card's YAML (the Hub's list form)."""
    lines = []
    for name, f in features.items():
        lines.append(f"{indent}- name: {_yaml_str(name)}")
        if f.get("_type") == "ClassLabel":
            lines += [f"{indent}  dtype:", f"{indent}    class_label:", f"{indent}      names:"]
            lines += [f"{indent}        '{i}': {_yaml_str(n)}" for i, n in enumerate(f["names"])]
        elif f.get("_type") == "Value":
            lines.append(f"{indent}  dtype: {f['dtype']}")
        else:
            lines.append(f"{indent}  struct:")
            lines += _yaml_features(f, indent + "  ")
    return lines


def dataset_card(corpus: CorpusDefinition, rows: int, pairs: int, datasheet_md: str, *,
                 features: dict | None = None, pair_features: dict | None = None, sentences_sha256: str = "",
                 data_format: str = "parquet") -> str:
    """README.md with the YAML header the Hub reads, then the datasheet and how to load and cite it.

    A licence the Hub has an id for is given by that id; any other is ``license: other`` with an
    id as ``license_name`` and ``license_link`` to ATTRIBUTION.md, which is in the folder."""
    lic = hub_licence(corpus.licence)
    sentences_file, pairs_file = data_file(SENTENCES_FILE, data_format), data_file(PAIRS_FILE, data_format)
    head = ["---", f"language:\n- {base_language(corpus.language)}", f"license: {lic}"]
    if lic == "other":
        head += [f"license_name: {licence_id(corpus)}", f"license_link: {ATTRIBUTION_FILE}"]
    head += [f"pretty_name: {_yaml_str(corpus.name)}",
             "task_categories:\n- text-classification",
             "task_ids:\n- sentiment-classification",
             f"size_categories:\n- {size_category(rows)}",
             "tags:\n- bias\n- fairness\n- equity-evaluation-corpus",
             "configs:",
             "- config_name: default",
             "  default: true",
             "  data_files:",
             "  - split: test",
             f"    path: {sentences_file}"]
    if pairs:
        head += ["- config_name: pairs", "  data_files:", "  - split: test", f"    path: {pairs_file}"]
    infos = [("default", features)] + ([("pairs", pair_features)] if pairs else [])
    if any(f for _name, f in infos):
        head.append("dataset_info:")
        for name, feats in infos:
            if feats:
                # no `splits`: the Hub wants their size in bytes as datasets holds them, which only it knows
                head += [f"- config_name: {name}", "  features:"] + _yaml_features(feats, "  ")
    head.append("---")
    usage = ("## Loading\n\n```python\nfrom datasets import load_dataset\n"
             'ds = load_dataset("PATH/TO/THIS/FOLDER")   # or the Hub id; the pairs: load_dataset(..., "pairs")\n'
             "```\n\n"
             f"{rows:,} sentences in the `test` split" + (f"; {pairs:,} counterfactual pairs in the `pairs` "
                                                           "configuration" if pairs else "") + ". "
             + (f"Categorical columns are class labels ({', '.join(f'`{c}`' for c in SENTENCE_CLASSES)}; "
                "null where a category does not apply: a noun phrase has no race, a neutral template no emotion) "
                "and `features` is a struct: slot → grammatical feature → value. " if features else "")
             + f"The data files are {DATA_FORMATS[data_format]} (`{sentences_file}`"
             + (f", `{pairs_file}`" if pairs else "") + ").\n")
    cite = ["## Citation", "", "Cite the work this corpus comes from:", "", "```text",
            corpus.cite or "(no citation given in the corpus definition)", "```", "",
            f"and name exactly these sentences: corpus `{corpus.id}`, generated by EEC Studio {_app_version()}"
            + (f", `{sentences_file}` with sha256 `{sentences_sha256}`" if sentences_sha256 else "")
            + f". Source, licence and attribution texts: [{ATTRIBUTION_FILE}]({ATTRIBUTION_FILE})."]
    return "\n".join(head) + "\n\n" + datasheet_md.rstrip() + "\n\n" + usage + "\n" + "\n".join(cite) + "\n"


def _app_version() -> str:
    from engine.package.version import app_version

    return app_version()


def export_hf_dataset(corpus: CorpusDefinition | str | os.PathLike, out: str | os.PathLike, *,
                      overwrite: bool = False, data_format: str | None = None) -> HFExport:
    """Write the dataset folder ``out`` (refuses to replace an existing one unless ``overwrite``).

    ``data_format``: "parquet" or "jsonl"; by default parquet where pyarrow is installed, else
    JSON Lines (same columns and features; parquet asked for without pyarrow names the extra)."""
    from engine.common.errors import UsageError
    from engine.common.extras import require

    from engine.package.datasheet import build_datasheet
    from engine.package.errors import PackageError

    from engine.corpus.pairs.tables import generate_pairs
    from engine.corpus.definition.registry import load_corpus

    from engine.package.attribution import attribution_markdown
    from engine.package.datasheet import Shipped

    from engine.corpus.translate.review_record import records_path

    fmt = data_format or default_data_format()
    if fmt not in DATA_FORMATS:
        raise UsageError(f"unknown data file format {fmt!r}", field="--format", fix=f"choose one of {', '.join(DATA_FORMATS)}")
    if fmt == "parquet":
        require("parquet data files", "pyarrow")  # or --format jsonl
    c = corpus if isinstance(corpus, CorpusDefinition) else load_corpus(corpus)
    out = Path(out)
    if (out.exists() or out.is_symlink()) and not overwrite:
        raise PackageError(str(out), "already exists; nothing was changed",
                           fix="pass --overwrite to replace it, or choose another folder")
    cc = CompiledCorpus(c)
    report = check_corpus(c, cc)
    df = generate(c, cc)
    pairs = generate_pairs(c, cc)
    pairs = pairs if len(pairs) else None  # no pairs declared: no pairs configuration
    n_pairs = 0 if pairs is None else len(pairs)
    sentences_file = data_file(SENTENCES_FILE, fmt)
    data, features = _data_bytes(df, c, SENTENCE_CLASSES, fmt)
    files = {sentences_file: data, ATTRIBUTION_FILE: attribution_markdown(c).encode("utf-8")}
    pair_features = None
    if pairs is not None:
        files[data_file(PAIRS_FILE, fmt)], pair_features = _data_bytes(pairs, c, PAIR_CLASSES, fmt)
    review = records_path(c) if c.path else None
    if review is not None and review.is_file():
        files[REVIEW_FILE] = review.read_bytes()
    digest = hashlib.sha256(files[sentences_file]).hexdigest()
    shipped = Shipped(attribution=f"{ATTRIBUTION_FILE} in this folder",
                      review=f"{REVIEW_FILE} in this folder" if REVIEW_FILE in files else "",
                      fingerprint=f"the sha256 of {sentences_file} ({digest})")
    sheet = build_datasheet(c, report, pairs=None if pairs is None else n_pairs, shipped=shipped).to_markdown()
    files["README.md"] = dataset_card(c, len(df), n_pairs, sheet, features=features, pair_features=pair_features,
                                      sentences_sha256=digest, data_format=fmt).encode("utf-8")
    with staged_folder(out, tag="hf-export") as staging:  # the old folder stays whole until the new one is
        for rel, data in files.items():
            atomic_write_bytes(staging / rel, data)
    return HFExport(out, len(df), n_pairs, fmt)


def _data_bytes(df: "pd.DataFrame", corpus: CorpusDefinition, classes: tuple[str, ...],
                data_format: str) -> tuple[bytes, dict]:
    """One data file's bytes in ``data_format`` and its ``datasets`` features."""
    if data_format == "parquet":
        table, features = typed_table(df, corpus, classes)
        return parquet_bytes(table), features
    columns, features = typed_columns(df, corpus, classes)
    return jsonl_bytes(columns), features
