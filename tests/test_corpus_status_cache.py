"""Issue 42 item 4: `corpus list` answers from a cache kept by content (engine/corpus/check/status_cache.py),
and a cold answer realises each corpus once (the review column reuses the checker's sentences)."""
import pytest

from engine.corpus import load_definition
from engine.corpus.check import status_cache
from engine.corpus.check.checker import check_corpus
from engine.corpus.check.status_cache import compute_status, corpus_status
from engine.corpus.generate.compiled import CompiledCorpus
from engine.corpus.pairs.tables import generate_pairs
from engine.corpus.translate.review_record import ReviewRecord, ReviewedItem, population, save_record
from testkit.corpus_fixtures import mini, mini_pairs


@pytest.fixture
def corpus_file(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(mini_pairs(), encoding="utf-8")
    return path


def _no_compute(path):
    raise AssertionError(f"{path} was checked again")


def test_second_answer_comes_from_the_cache(corpus_file, monkeypatch):
    first = corpus_status(corpus_file)
    assert first.sentences > 0 and first.review == "not reviewed"
    assert list(status_cache.cache_dir().glob("*.json"))  # under EEC_STUDIO_CACHE (conftest)
    monkeypatch.setattr(status_cache, "compute_status", _no_compute)
    assert corpus_status(corpus_file) == first


def test_a_changed_file_is_checked_again(corpus_file, monkeypatch):
    before = corpus_status(corpus_file)
    corpus_file.write_text(mini(), encoding="utf-8")  # other persons and templates
    after = corpus_status(corpus_file)
    assert after.sentences != before.sentences
    assert after == compute_status(corpus_file)


def test_a_new_review_is_shown(corpus_file):
    assert corpus_status(corpus_file).review == "not reviewed"
    corpus = load_definition(corpus_file)
    _, units = population(corpus)
    u = units[0]
    save_record(corpus, ReviewRecord(corpus.id, "Ana", "2026-11-27", 1, "items", len(units),
                                     [ReviewedItem(u.item_id, u.template_id, u.side_a, u.side_b, "error", "grammar")]))
    assert corpus_status(corpus_file).review.startswith("native review: 1 items")


def test_new_code_or_dictionaries_change_the_key(corpus_file, monkeypatch, tmp_path):
    data = corpus_file.read_bytes()
    key = status_cache.status_key(corpus_file, data)
    monkeypatch.setattr(status_cache, "code_fingerprint", lambda: "another version")
    assert status_cache.status_key(corpus_file, data) != key
    monkeypatch.undo()
    dicts = tmp_path / "dicts"
    dicts.mkdir()
    monkeypatch.setenv("DICPATH", str(dicts))
    status_cache.dictionaries_fingerprint.cache_clear()
    try:
        without = status_cache.dictionaries_fingerprint()
        (dicts / "de_DE.dic").write_text("1\nHaus\n", encoding="utf-8")
        status_cache.dictionaries_fingerprint.cache_clear()
        assert status_cache.dictionaries_fingerprint() != without
    finally:
        status_cache.dictionaries_fingerprint.cache_clear()


def test_unreadable_cache_is_recomputed_and_refresh_recomputes(corpus_file, monkeypatch):
    first = corpus_status(corpus_file)
    for f in status_cache.cache_dir().glob("*.json"):
        f.write_text("{not json", encoding="utf-8")
    assert corpus_status(corpus_file) == first
    calls = []
    monkeypatch.setattr(status_cache, "compute_status", lambda p: calls.append(p) or first)
    corpus_status(corpus_file)
    assert not calls
    corpus_status(corpus_file, refresh=True)
    assert calls == [corpus_file]


@pytest.mark.parametrize("text", [mini_pairs(), mini()])
def test_a_cold_status_realises_each_combination_once(tmp_path, monkeypatch, text):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    corpus = load_definition(path)
    save_record(corpus, ReviewRecord(corpus.id, "Ana", "2026-11-27", 1, "items", 1,
                                     [ReviewedItem("x", "T01", "a", "b", "ok")]))
    combos = []
    real = CompiledCorpus.realise
    monkeypatch.setattr(CompiledCorpus, "realise", lambda self, ct, p, e: combos.append((ct.id, p.id, e and e.id))
                        or real(self, ct, p, e))
    st = compute_status(path)
    assert st.review.endswith("(text changed since: 1 of 1 reviewed items differ)")
    assert len(combos) == len(set(combos)), "the review column realised the corpus a second time"


@pytest.mark.parametrize("text", [mini_pairs(), mini()])
def test_kept_sentences_give_the_same_check_population_and_pairs(tmp_path, text):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    corpus = load_definition(path)
    plain = check_corpus(corpus)
    cc = CompiledCorpus(corpus)
    kept = check_corpus(corpus, cc, keep_sentences=True)
    assert [str(f) for f in kept.findings] == [str(f) for f in plain.findings]
    assert (kept.sentences, kept.pairs) == (plain.sentences, plain.pairs)
    assert population(corpus, cc) == population(corpus)
    assert generate_pairs(corpus, cc).equals(generate_pairs(corpus))


def test_cli_list_twice_gives_the_same_lines(run, tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "corpora").mkdir(parents=True)
    (home / "corpora" / "mini.toml").write_text(mini(), encoding="utf-8")
    monkeypatch.setenv("EEC_STUDIO_HOME", str(home))
    import engine.corpus.cli as cli

    everything = cli.list_corpora
    monkeypatch.setattr(cli, "list_corpora", lambda: [e for e in everything() if e.id in ("mini", "zh-goldfarb2023")])
    cold = run("corpus", "list").stdout
    monkeypatch.setattr(status_cache, "compute_status", _no_compute)
    assert run("corpus", "list").stdout == cold
    line = next(l for l in cold.splitlines() if l.startswith("mini "))
    assert " 20 " in line and "not reviewed" in line


@pytest.mark.timeout(600, method="signal")  # the thread watchdog would keep the pool from forking
def test_statuses_of_several_files_computed_side_by_side(tmp_path, monkeypatch):
    """`corpus list` asks for every corpus at once: those not cached are checked in up to `jobs`
    processes, in order, the same answers one at a time gives; a broken file is its row's error."""
    from engine.corpus.check.status_cache import corpus_statuses

    paths = []
    for k, text in enumerate([mini_pairs(), mini(), mini_pairs().replace('id = "mini"', 'id = "mini-b"')]):
        paths.append(tmp_path / f"c{k}.toml")
        paths[-1].write_text(text, encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text("[corpus\nid = ", encoding="utf-8")
    missing = tmp_path / "gone.toml"
    got = corpus_statuses([paths[0], broken, paths[1], missing, paths[2]], jobs=2)
    assert [type(s).__name__ for s in got[:1] + got[2:3] + got[4:]] == ["CorpusStatus"] * 3
    assert [got[0], got[2], got[4]] == [compute_status(p) for p in paths]
    assert isinstance(got[1], Exception) and "broken.toml" in str(got[1])
    assert isinstance(got[3], OSError)
    monkeypatch.setattr(status_cache, "compute_status", _no_compute)  # all cached now: nothing checked again
    assert corpus_statuses(paths, jobs=2) == [got[0], got[2], got[4]]
