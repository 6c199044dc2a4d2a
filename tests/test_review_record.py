"""Issue 25: a native review as a measured error rate — the sample sheet, the signed record beside
the corpus, the Clopper-Pearson interval, and what `corpus list` shows."""
import csv
import json

import pytest

from engine.common.errors import UsageError
from engine.common.fmt import percent
from engine.corpus import load_definition
from engine.corpus.translate.review_record import (clopper_pearson, draw_sample, load_records, read_review,
                                         review_status, save_record, write_sheet)
from testkit.corpus_fixtures import mini, mini_pairs


@pytest.mark.parametrize("k,n", [(0, 100), (1, 100), (2, 100), (7, 50), (50, 50), (3, 7), (0, 1)])
def test_clopper_pearson_matches_statsmodels(k, n):
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = clopper_pearson(k, n)
    want = proportion_confint(k, n, alpha=0.05, method="beta")
    assert lo == pytest.approx(want[0], abs=1e-12) and hi == pytest.approx(want[1], abs=1e-12)


def test_clopper_pearson_known_values():
    # 1 error in 100: 0.0253 % to 5.45 % (the rubric's "0.03-5.4 %"); 0 in 100: up to 3.62 %
    lo, hi = clopper_pearson(1, 100)
    assert round(100 * lo, 4) == 0.0253 and round(100 * hi, 2) == 5.45
    assert clopper_pearson(0, 100)[0] == 0 and round(100 * clopper_pearson(0, 100)[1], 2) == 3.62
    assert percent(0.000253) == "0.025" and percent(0.0545) == "5.5" and percent(0.0) == "0.0"


@pytest.fixture
def paired(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(mini_pairs(), encoding="utf-8")
    return path


@pytest.fixture
def plain(tmp_path):
    path = tmp_path / "plain.toml"
    # no pair declared, no gendered counterpart: a corpus reviewed sentence by sentence
    path.write_text(mini().replace('pair = "she"', "").replace('pair = "he"', ""), encoding="utf-8")
    return path


def fill(sheet, verdicts: dict[int, tuple[str, str, str]]):
    """Fill the sheet: row index -> (verdict, class, correction); the rest ok."""
    rows = list(csv.DictReader(open(sheet, encoding="utf-8")))
    for i, r in enumerate(rows):
        r["verdict"], r["error_class"], r["correction"] = verdicts.get(i, ("ok", "", ""))
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return rows


def test_sample_is_reproducible_by_seed_and_in_corpus_order(paired):
    c = load_definition(paired)
    a, b, other = draw_sample(c, 5, 42), draw_sample(c, 5, 42), draw_sample(c, 5, 43)
    assert a.unit == "items" and a.population > 5  # pairs, and the name sentences no pair covers
    assert [i.item_id for i in a.items] == [i.item_id for i in b.items] != [i.item_id for i in other.items]
    assert all(i.side_a and i.side_a != i.side_b for i in a.items)
    ids = [i.item_id for i in a.items]  # corpus order: the pairs, then the sentences no pair covers
    pairs_first = [i for i in ids if "-P" in i] + [i for i in ids if "-P" not in i]
    assert ids == pairs_first and [i for i in ids if "-P" in i] == sorted(i for i in ids if "-P" in i)
    assert len(draw_sample(c, 10_000, 1).items) == a.population  # never more than there is


def test_a_corpus_without_pairs_is_reviewed_by_sentence(plain):
    s = draw_sample(load_definition(plain), 4, 7)
    assert s.unit == "sentences" and all(i.side_b == "" for i in s.items)


def test_import_stores_a_signed_record_and_the_rate(paired, tmp_path):
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 8, 2026), tmp_path / "sheet.csv")
    rows = fill(sheet, {1: ("error", "agreement", "Ella está contenta."), 3: ("awkward", "lexical", "x")})
    rec = read_review(c, sheet, "Ana Pérez", "2026-11-26")
    assert (rec.n, rec.errors, rec.awkward, rec.seed, rec.unit) == (8, 1, 1, 2026, "items")
    assert rec.error_classes() == {"agreement": 1}
    n_pairs = sum(1 for i in rec.items if i.side_b)
    assert rec.summary() == (f"native review: 8 items ({n_pairs} pairs, {8 - n_pairs} sentences), 1 error, "
                             f"{percent(rec.interval[0])}–{percent(rec.interval[1])} %")
    path = save_record(c, rec)
    assert path == tmp_path / "mini.reviews.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["reviews"][0]["reviewer"] == "Ana Pérez" and data["reviews"][0]["items"][1]["verdict"] == "error"
    assert data["reviews"][0]["items"][1]["side_a"] == rows[1]["side_a"]
    assert load_records(c)[0].summary() == rec.summary()
    st = review_status(c)
    assert st.stale == 0 and st.text() == rec.summary()
    # a second review is appended; the status shows the latest
    sheet2 = write_sheet(draw_sample(c, 8, 7), tmp_path / "sheet2.csv")
    fill(sheet2, {})
    save_record(c, read_review(c, sheet2, "Luis", "2026-11-27"))
    assert [r.reviewer for r in load_records(c)] == ["Ana Pérez", "Luis"]
    assert review_status(c).text().startswith("native review: 8 items (") and ", 0 errors, 0.0–" in review_status(c).text()


def test_status_says_when_the_text_changed_since_the_review(paired, tmp_path):
    c = load_definition(paired)
    sample = draw_sample(c, 30, 5)
    sheet = write_sheet(sample, tmp_path / "s.csv")
    fill(sheet, {})
    save_record(c, read_review(c, sheet, "Ana", "2026-11-26"))
    changed = paired.read_text(encoding="utf-8").replace("{emotion", "really {emotion", 1)
    paired.write_text(changed, encoding="utf-8")
    st = review_status(load_definition(paired))
    assert 0 < st.stale < len(sample.items)
    assert f"(text changed since: {st.stale} of {len(sample.items)} reviewed items differ)" in st.text()
    assert review_status(c, check_stale=False).stale == 0


@pytest.mark.parametrize("edit,field,line", [
    (lambda r: r[2].update(verdict="maybe"), "verdict", 4),
    (lambda r: r[0].update(verdict="error", error_class="grammar", correction=""), "correction", 2),
    (lambda r: r[1].update(verdict="error", error_class="style", correction="x"), "error_class", 3),
    (lambda r: r[3].update(side_a=r[3]["side_a"] + " x"), "side_a/side_b", 5),
    (lambda r: r[4].update(item_id="nope"), "item_id", 6),
])
def test_bad_sheets_get_one_line_naming_the_line_and_field(paired, tmp_path, edit, field, line):
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 6, 11), tmp_path / "s.csv")
    rows = fill(sheet, {})
    edit(rows)
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(UsageError) as err:
        read_review(c, sheet, "Ana")
    assert err.value.field == field and err.value.line == line and "\n" not in str(err.value)
    assert not (tmp_path / "mini.reviews.json").exists()


def test_review_needs_a_reviewer_and_a_date(paired, tmp_path):
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 3, 1), tmp_path / "s.csv")
    fill(sheet, {})
    with pytest.raises(UsageError, match="reviewer"):
        read_review(c, sheet, "  ")
    with pytest.raises(UsageError, match="YYYY-MM-DD"):
        read_review(c, sheet, "Ana", "26/11/2026")


def _user_corpus(paired, tmp_path, monkeypatch):
    """The paired corpus as a user corpus in a fresh home, and where its sheet goes."""
    home = tmp_path / "home"
    (home / "corpora").mkdir(parents=True)
    target = home / "corpora" / "mini.toml"
    target.write_text(paired.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setenv("EEC_STUDIO_HOME", str(home))
    return target, tmp_path / "sheet.csv"


def test_cli_sample_import_and_list(run, paired, tmp_path, monkeypatch):
    target, sheet = _user_corpus(paired, tmp_path, monkeypatch)
    proc = run("corpus", "review-sample", str(target), "--n", "10", "--seed", "99", "--out", str(sheet))
    assert proc.returncode == 0 and "seed 99" in proc.stdout
    assert run("corpus", "review-sample", str(target), "--n", "10", "--out", str(sheet)).returncode == 2  # exists
    fill(sheet, {0: ("error", "grammar", "fixed")})
    proc = run("corpus", "review-import", str(target), str(sheet), "--reviewer", "Ana", "--date", "2026-11-26")
    assert proc.returncode == 0, proc.stderr
    assert "native review: 10 items (" in proc.stdout and "sentences), 1 error" in proc.stdout and "grammar 1" in proc.stdout
    listing = run("corpus", "list").stdout
    line = next(l for l in listing.splitlines() if l.startswith("mini "))
    lo, hi = clopper_pearson(1, 10)
    assert "native review: 10 items (" in line and f"sentences), 1 error, {percent(lo)}–{percent(hi)} %" in line
    # the built-in corpora show their committed reviews, or say they have none
    en = next(l for l in listing.splitlines() if l.startswith("en-kiritchenko2018 "))
    assert "native review: 100 items (" in en  # pairs and the name sentences no pair covers
    assert all(("native review:" in l or "not reviewed" in l) for l in listing.splitlines()[1:])


@pytest.mark.slow  # generates every built-in corpus (about 10 s)
def test_docs_show_the_rates_the_records_hold():
    """docs/corpus-review.md's rate table is generated from the .reviews.json records (and says how
    many reviewed items a corpus no longer generates): it must match them."""
    import subprocess
    import sys

    from conftest import ROOT

    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "review_rates.py"), "--check"], capture_output=True,
                          text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_datasheet_and_dataset_card_show_the_rate(paired, tmp_path):
    from engine.package.hf_dataset import export_hf_dataset
    from engine.package.datasheet import build_datasheet

    c = load_definition(paired)
    md = build_datasheet(c).to_markdown()
    assert "| Native review | not reviewed |" in md and "Not reviewed: no blind native-speaker review" in md
    sheet = write_sheet(draw_sample(c, 6, 3), tmp_path / "s.csv")
    fill(sheet, {2: ("error", "lexical", "better")})
    rec = read_review(c, sheet, "Ana", "2026-11-26")
    save_record(c, rec)
    md = build_datasheet(c).to_markdown()
    assert f"| Native review | {rec.summary()} |" in md
    assert "Ana, 2026-11-26" in md and "drawn with seed 3" in md and "| Errors by class | lexical 1 |" in md
    assert f"| Label errors (the sentence does not express its emotion label) | {rec.label_text()} |" in md
    assert rec.label_text().startswith("0 label errors, 0.0–")  # the sheet showed the labels (issue 38)
    card = (export_hf_dataset(paired, tmp_path / "hf").path / "README.md").read_text(encoding="utf-8")
    assert rec.summary() in card


def test_sentences_no_pair_covers_are_in_the_population_too(tmp_path):
    """Most sentences of the Câmara and Kiritchenko corpora are name sentences that no pair covers
    (their pairs are noun phrases): a review drawn from pairs alone would never see them."""
    from engine.corpus import generate, generate_pairs
    from engine.corpus.translate.review_record import population

    path = tmp_path / "m.toml"
    # the pair fixture plus one name, which no pair covers
    path.write_text(mini_pairs() + '\n[[persons]]\nid = "ana"\nkind = "name"\ngender = "female"\nrace = "x"\n'
                    'text = "Ana"\n', encoding="utf-8")
    c = load_definition(path)
    unit, units = population(c)
    pairs, sentences = generate_pairs(c), generate(c)
    covered = set(pairs.privileged_id) | set(pairs.minoritised_id)
    assert unit == "items" and len(units) == len(pairs) + len(set(sentences.ID) - covered)
    singles = [u for u in units if not u.side_b]
    assert {u.item_id for u in singles} == set(sentences.ID) - covered
    assert {u.item_id for u in singles} >= set(sentences[sentences.Person == "Ana"].ID)
    s = draw_sample(c, len(units), 1)
    sheet = write_sheet(s, tmp_path / "s.csv")
    fill(sheet, {})
    rec = read_review(c, sheet, "Ana", "2026-11-26")
    n_pairs = sum(1 for i in rec.items if i.side_b)
    assert rec.summary().startswith(f"native review: {rec.n} items ({n_pairs} pairs, {rec.n - n_pairs} sentences), 0 errors")


# ---------------------------------------------------------------- issue 38: labels on the sheet

def test_sheet_shows_each_items_emotion_word_and_label(paired, tmp_path):
    """The reviewer sees what each item is labelled: emotion, emotion word as written, the word's label."""
    c = load_definition(paired)
    sample = draw_sample(c, 40, 5)
    rows = list(csv.DictReader(open(write_sheet(sample, tmp_path / "s.csv"), encoding="utf-8")))
    assert {"emotion", "emotion_word", "word_label"} <= set(rows[0])
    words = {e.id: e for e in c.emotion_words}
    emotional = [r for r in rows if r["emotion"]]
    assert emotional, "the sample has sentences with an emotion word"
    for r in emotional:
        assert r["emotion"] in {e.emotion for e in words.values()}
        for w in r["emotion_word"].split(" / "):  # the word as the sentence(s) have it
            assert w in r["side_a"] + " " + r["side_b"]
        assert r["emotion"] == next(e.emotion for e in words.values() if any(f.text == r["emotion_word"].split(" / ")[0]
                                                                             for f in e.forms))


def test_label_errors_have_their_class_and_their_own_rate(paired, tmp_path):
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 10, 2026), tmp_path / "s.csv")
    fill(sheet, {0: ("error", "label", "fear, not sadness"), 2: ("error", "grammar", "x"),
                 4: ("error", "label", "another word")})
    rec = read_review(c, sheet, "Ana", "2026-11-27")
    assert rec.labels_shown and rec.errors == 3 and rec.label_errors == 2
    assert rec.error_classes() == {"label": 2, "grammar": 1}
    lo, hi = clopper_pearson(2, 10)
    assert rec.label_text() == f"2 label errors, {percent(lo)}–{percent(hi)} %"
    assert all(i.emotion == r for i, r in zip(rec.items, [it.emotion for it in draw_sample(c, 10, 2026).items]))
    save_record(c, rec)
    again = load_records(c)[-1]
    assert again.labels_shown and again.label_errors == 2 and again.items[0].emotion == rec.items[0].emotion
    assert "label" in json.loads((tmp_path / "mini.reviews.json").read_text(encoding="utf-8"))["rubric"]


def test_a_record_without_label_columns_says_the_labels_were_not_reviewed(paired, tmp_path):
    """A sheet drawn before issue 38 (no label columns) still imports; its record never claims a label rate."""
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 6, 3), tmp_path / "s.csv")
    rows = fill(sheet, {})
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        keep = [k for k in rows[0] if k not in ("emotion", "emotion_word", "word_label", "draw")]
        w = csv.DictWriter(fh, fieldnames=keep, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    rec = read_review(c, sheet, "Ana", "2026-11-27")
    assert not rec.labels_shown and rec.label_text().startswith("labels not reviewed")


def test_an_edited_label_is_refused_naming_line_and_column(paired, tmp_path):
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 12, 9), tmp_path / "s.csv")
    rows = fill(sheet, {})
    k = next(i for i, r in enumerate(rows) if r["emotion"])
    rows[k]["emotion"] = "joy" if rows[k]["emotion"] != "joy" else "fear"
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(UsageError) as err:
        read_review(c, sheet, "Ana")
    assert err.value.field == "emotion" and err.value.line == k + 2 and "class label" in str(err.value.fix)


def test_stratified_draw_takes_pairs_and_unpaired_sentences_apart(paired, tmp_path):
    c = load_definition(paired)
    s = draw_sample(c, 4, 77, sentences=3)
    assert s.draw == "4+3" and sum(1 for i in s.items if i.side_b) == 4 and sum(1 for i in s.items if not i.side_b) == 3
    assert [i.item_id for i in s.items] == [i.item_id for i in draw_sample(c, 4, 77, sentences=3).items]
    sheet = write_sheet(s, tmp_path / "s.csv")
    fill(sheet, {})
    rec = read_review(c, sheet, "Ana", "2026-11-27")  # re-drawn from the draw column, not from the row count
    assert rec.draw == "4+3" and rec.n == 7 and rec.pairs_reviewed == 4


def test_cli_sample_with_sentences_and_list_shows_the_label_rate(run, paired, tmp_path, monkeypatch):
    target, sheet = _user_corpus(paired, tmp_path, monkeypatch)
    proc = run("corpus", "review-sample", str(target), "--n", "4", "--sentences", "2", "--seed", "5", "--out", str(sheet))
    assert proc.returncode == 0 and "(4 pairs, 2 sentences), seed 5" in proc.stdout and "label" in proc.stdout
    fill(sheet, {1: ("error", "label", "joy")})
    proc = run("corpus", "review-import", str(target), str(sheet), "--reviewer", "Ana", "--date", "2026-11-27")
    assert proc.returncode == 0, proc.stderr
    lo, hi = clopper_pearson(1, 6)
    assert f"1 label error, {percent(lo)}–{percent(hi)} %" in proc.stdout
    listing = run("corpus", "list").stdout
    assert "label errors" in listing.splitlines()[0]
    line = next(l for l in listing.splitlines() if l.startswith("mini "))
    assert f"1 label error, {percent(lo)}–{percent(hi)} %" in line


def test_an_edited_draw_is_refused(paired, tmp_path):
    c = load_definition(paired)
    sheet = write_sheet(draw_sample(c, 3, 11, sentences=2), tmp_path / "s.csv")
    rows = fill(sheet, {})
    rows[1]["draw"] = "3+9"
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(UsageError) as err:
        read_review(c, sheet, "Ana")
    assert err.value.field == "draw" and "'3+2'" in str(err.value) and "'3+9'" in str(err.value)
