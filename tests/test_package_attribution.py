"""A corpus package contains what its datasheet cites; labels in one language per corpus."""
from __future__ import annotations

import io
import re
import zipfile

import pytest

from engine.corpus import load_corpus
from engine.corpus.definition.registry import builtin_names
from engine.package.attribution import attribution_rows
from engine.package.export import build_package

#: file names a datasheet may point a reader to (upstream spreadsheets are provenance, not references)
_REF = re.compile(r"[\w./-]+\.(?:md|toml|csv|jsonl|json|txt)\b")


@pytest.mark.slow  # builds every built-in corpus's package (about 10 s)
@pytest.mark.parametrize("name", builtin_names())
def test_every_file_the_datasheet_references_is_in_the_package(name):
    data, _ = build_package(load_corpus(name))
    zf = zipfile.ZipFile(io.BytesIO(data))
    members = set(zf.namelist())
    readme = zf.read("README.md").decode("utf-8")
    refs = set(_REF.findall(readme))
    assert "ATTRIBUTION.md" in refs  # the datasheet says where the licence texts are
    assert refs <= members, f"{name}: the datasheet cites {sorted(refs - members)}, which the package lacks"
    attribution = zf.read("ATTRIBUTION.md").decode("utf-8")
    corpus = load_corpus(name)
    assert corpus.licence in attribution and corpus.cite in attribution
    assert "As above" not in attribution  # a copied row must not point at rows left behind
    if "goldfarb2023" in name:  # the sources section the licence used to point at (docs/pairs.md)
        assert "No licence is stated in the repository" in attribution


def test_attribution_rows_expand_patterns_and_as_above():
    text = ("| file | taken from | licence / terms |\n|---|---|---|\n"
            "| `templates/en/x-a.toml`, `templates/en/x-b.toml` | A | CC BY 4.0 |\n"
            "| `templates/es/x-es.toml` | B | As above. |\n"
            "| `templates/{de,ja}/*-y.toml` | C | none |\n")
    assert attribution_rows("x-es", "es", text)[-1] == "| `templates/es/x-es.toml` | B | CC BY 4.0 |"
    assert attribution_rows("ja-y", "ja", text)[-1].endswith("| none |")
    assert attribution_rows("fr-y", "fr", text) == []


def test_axis_labels_are_in_one_language_per_corpus():
    """The app's tables and reports are in English; a built-in corpus's axis labels must not mix in
    another language ("Género" next to "Ethnicity")."""
    for name in builtin_names():
        labels = [a.display for a in load_corpus(name).axes.values()]
        assert all(re.fullmatch(r"[A-Za-z /,()-]+", label) for label in labels), (name, labels)
