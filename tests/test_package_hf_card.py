"""The Hugging Face dataset folder and its card (issue 31, part 4): typed features, a licence the Hub
understands, links that resolve inside the folder, the review record and a citation of what exists.

The card's YAML is checked with the Hub's own card classes (huggingface_hub.DatasetCard, datasets'
DatasetInfosDict and MetadataConfigs), which work offline; the size and language values against the
lists `datasets` ships.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.corpus import load_corpus
from engine.package.hf_dataset import (ATTRIBUTION_FILE, PAIRS_FILE, REVIEW_FILE, SENTENCES_FILE, export_hf_dataset,
                                      hub_licence)
from engine.corpus.translate.review_record import load_records

datasets = pytest.importorskip("datasets")
hub = pytest.importorskip("huggingface_hub")

#: licence ids of the Hub that hub_licence() may give (https://huggingface.co/docs/hub/repositories-licenses)
HUB_LICENCES = {"cc-by-4.0", "cc-by-sa-4.0", "cc0-1.0", "mit", "apache-2.0", "cc-by-nc-4.0", "other"}


@pytest.fixture(scope="module")
def ja(tmp_path_factory) -> Path:
    """The Japanese corpus: pairs, a native-review record, a licence the Hub has no id for."""
    return export_hf_dataset("ja-goldfarb2023", tmp_path_factory.mktemp("hf") / "ja").path


def _card(folder: Path):
    return hub.DatasetCard.load(folder / "README.md")


def test_load_dataset_shows_typed_features(ja, tmp_path):
    ds = datasets.load_dataset(str(ja), cache_dir=str(tmp_path / "cache"))["test"]
    f = ds.features
    for col in ("Gender", "Race", "Emotion", "person_kind", "emotion_kind"):
        assert isinstance(f[col], datasets.ClassLabel), col
    assert f["Gender"].names == ["female", "male"] and f["Emotion"].names == ["anger", "fear", "joy", "sadness"]
    assert isinstance(f["features"], dict) and isinstance(f["features"]["emotion"]["voice"], datasets.Value)
    row = ds[0]
    assert f["Gender"].int2str(row["Gender"]) in ("female", "male") and isinstance(row["features"], dict)
    # a category that does not apply is null, not a made-up label: noun phrases have no race
    assert any(r is None for r in ds["Race"]) and "" not in f["Race"].names
    pairs = datasets.load_dataset(str(ja), "pairs", cache_dir=str(tmp_path / "cache"))["test"]
    assert isinstance(pairs.features["variable"], datasets.ClassLabel)
    assert set(pairs.features["variable"].names) == {"gender", "race", "rank"}
    # the plain parquet route still reads the sentences only
    plain = datasets.load_dataset("parquet", data_dir=str(ja), cache_dir=str(tmp_path / "cache2"))
    assert list(plain) == ["test"] and plain["test"].num_rows == ds.num_rows


def test_card_yaml_passes_the_hubs_card_classes(ja):
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs

    card = _card(ja)
    data = card.data
    configs = MetadataConfigs.from_dataset_card_data(data)
    assert set(configs) == {"default", "pairs"}
    infos = DatasetInfosDict.from_dataset_card_data(data)
    loaded = datasets.Features.from_arrow_schema(__import__("pyarrow.parquet").parquet.read_schema(ja / SENTENCES_FILE))
    assert infos["default"].features == loaded  # the card and the parquet file say the same
    resources = Path(datasets.__file__).parent / "utils" / "resources"
    assert set(data.size_categories) <= set(json.loads((resources / "size_categories.json").read_text()))
    assert set(data.language) <= set(json.loads((resources / "languages.json").read_text()))
    assert data.license in HUB_LICENCES


def test_other_licence_is_an_id_with_a_link_inside_the_folder(ja):
    data = _card(ja).data
    assert data.license == "other"
    assert re.fullmatch(r"[a-z0-9][a-z0-9.-]*", data.license_name), data.license_name
    assert (ja / data.license_link).is_file() and data.license_link == ATTRIBUTION_FILE
    attribution = (ja / ATTRIBUTION_FILE).read_text(encoding="utf-8")
    assert load_corpus("ja-goldfarb2023").licence in attribution


def test_a_licence_the_hub_knows_is_given_by_its_id(tmp_path):
    corpus = load_corpus("es-camara2022")
    corpus.licence = "CC BY 4.0 (word lists); see ATTRIBUTION.md"
    folder = export_hf_dataset(corpus, tmp_path / "es").path
    data = _card(folder).data
    assert data.license == "cc-by-4.0" and "license_name" not in data.to_dict() and "license_link" not in data.to_dict()


def test_every_link_and_file_the_card_names_is_in_the_folder(ja):
    text = (ja / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not re.match(r"[a-z]+://", target):
            assert (ja / target).is_file(), f"the card links {target}, which the folder lacks"
    for name in set(re.findall(r"(?<![\w./-])([\w-][\w./-]*\.(?:md|json|parquet))\b", text)):
        assert (ja / name).is_file(), f"the card names {name}, which the folder lacks"
    assert (ja / SENTENCES_FILE).is_file() and (ja / PAIRS_FILE).is_file()
    assert "package" not in text.lower(), "the card speaks of a package the folder is not"
    assert "is copied into this package" not in text


def test_review_record_and_citation_are_there(ja):
    import hashlib

    text = (ja / "README.md").read_text(encoding="utf-8")
    record = load_records(load_corpus("ja-goldfarb2023"))[-1]
    assert json.loads((ja / REVIEW_FILE).read_text(encoding="utf-8"))["corpus"] == "ja-goldfarb2023"
    assert record.summary() in text and f"{REVIEW_FILE} in this folder" in text
    digest = hashlib.sha256((ja / SENTENCES_FILE).read_bytes()).hexdigest()
    cite = text.split("## Citation", 1)[1]
    assert load_corpus("ja-goldfarb2023").cite in cite and digest in cite


def test_hub_licence_ids():
    assert hub_licence("CC BY-SA 4.0") == "cc-by-sa-4.0" and hub_licence("no licence stated") == "other"
