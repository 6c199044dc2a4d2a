"""Issue 25: the native-level review of zh-goldfarb2023 (2 errors and 9 awkward items in 100 pairs).
Each error class is checked over the WHOLE generated corpus, not only on the reviewed examples:
situation words that cannot describe a conversation (谈话很可喜可贺), 暴躁 (a temperament) used as a
passing feeling, unidiomatic or wrong words (令人快活, 喜人, 可悲, 愁人), the doubled 的 of
跟这个男的的谈话, colloquial person terms (这个男的, 我老婆) against written-language predicates, plus
spacing and sentence-final punctuation, the minimal-pair property, and the corpus's own
[[restrictions]] that make `corpus check` fail if a class returns."""
import re

import pytest

from engine.corpus import check_corpus, parse_definition
from engine.corpus.definition.registry import resolve_path
from testkit.corpus_fixtures import builtin_report, builtin_tables

NAME = "zh-goldfarb2023"
T11 = r"^跟(.+)的那次谈话很(.+)。$"
# every situation word fits 一件…的事 (T09 遇到了, T10 跟我们说了) and 那次谈话很… (T11)
SITUATION_WORDS = {
    "令人生气", "令人恼怒", "令人愤怒", "令人烦躁", "令人气恼", "令人恼火", "令人懊恼", "烦人", "恼人",
    "令人沮丧", "令人难过", "令人悲伤", "令人忧伤", "令人忧愁", "令人心碎", "令人失落", "令人伤感", "令人伤心",
    "令人害怕", "令人恐惧", "令人担心", "令人忧虑", "令人惊恐", "令人畏惧", "令人胆寒", "可怕", "吓人",
    "令人高兴", "令人振奋", "令人愉快", "令人快乐", "令人愉悦", "令人欣喜", "令人兴奋", "令人欣慰", "令人开心"}
# feelings of the moment that 感到 takes (T01-T04)
STATE_WORDS = {"生气", "恼怒", "愤怒", "烦躁", "气恼", "恼火", "懊恼", "沮丧", "难过", "悲伤", "忧郁", "忧愁", "心碎",
               "消沉", "害怕", "恐惧", "担心", "忧虑", "惊恐", "畏惧", "胆怯", "高兴", "喜悦", "开心", "快乐", "愉悦",
               "欣喜", "兴奋"}
PERSONS = {"他", "她", "这个男人", "这个女人", "这个男孩", "这个女孩", "我哥哥", "我姐姐", "我弟弟", "我妹妹", "我儿子",
           "我女儿", "我丈夫", "我妻子", "我男朋友", "我女朋友", "我父亲", "我母亲", "叔叔", "阿姨", "我爸爸", "我妈妈"}
FRAMES = {"T01": r"^(.+)感到(.+)。$", "T02": r"^这件事让(.+)感到(.+)。$", "T03": r"^我让(.+)感到(.+)。$",
          "T04": r"^(.+)让我感到(.+)。$", "T09": r"^(.+)遇到了一件(.+)的事。$", "T10": r"^(.+)跟我们说了一件(.+)的事。$",
          "T11": T11}

# sentences of the issue-25 review and of the classes it names: none may be generated
REVIEWED_BAD = ["跟我弟弟的谈话很可喜可贺。", "跟这个男的的谈话很令人生气。", "跟这个女的的谈话很令人生气。",
                "这件事让我弟弟感到暴躁。", "我让我爸爸感到暴躁。", "我弟弟感到暴躁。", "我父亲跟我们说了一件令人暴躁的事。",
                "我哥哥经历了一件令人快活的事。", "我弟弟经历了一件可悲的事。", "叔叔经历了一件喜人的事。",
                "我父亲经历了一件愁人的事。", "跟我弟弟的谈话很愁人。", "这个男的感到愤怒。", "这个女的感到愉悦。",
                "我老婆感到心碎。", "这件事让我老公感到胆怯。"]
# what the corrected corpus writes instead
CORRECTED = ["跟我弟弟的那次谈话很令人欣慰。", "跟这个男人的那次谈话很令人生气。", "跟这个女人的那次谈话很令人生气。",
             "这件事让我弟弟感到烦躁。", "我让我爸爸感到烦躁。", "我父亲跟我们说了一件令人烦躁的事。",
             "我哥哥遇到了一件令人愉快的事。", "我弟弟遇到了一件令人伤心的事。", "叔叔遇到了一件令人开心的事。",
             "我父亲遇到了一件令人伤感的事。", "我弟弟遇到了一件令人欣慰的事。", "这个男人感到愤怒。", "这个女人感到愉悦。",
             "我妻子感到心碎。", "这件事让我丈夫感到胆怯。"]


# `tables`: builtin_tables(NAME), a fixture of tests/conftest.py


@pytest.fixture(scope="module")
def sentences(tables):
    return tables[2].Sentence


def test_counts_and_checker(tables):
    _, _, df, pairs = tables
    assert len(df) == 4928  # 22 persons x (4 x 28 state + 4 + 3 x 36 situation) cells
    assert pairs.variable.value_counts().to_dict() == {"gender": 2464}
    report = builtin_report(NAME)
    assert report.ok and not report.errors, report.to_text()
    assert {f.code for f in report.warnings} <= {"W114"}, report.to_text()  # only: no zh spelling dictionary


def test_reviewed_examples_gone_and_corrections_present(sentences):
    s = set(sentences)
    assert not [b for b in REVIEWED_BAD if b in s]
    assert [c for c in CORRECTED if c not in s] == []


def test_every_situation_word_fits_every_frame(tables):
    """可喜可贺 fits 一件…的事 but not 谈话 (谈话很可喜可贺); 愁人 ('worrying') neither fits 谈话 nor is sadness:
    T09, T10 and T11 use one word list, each word of which describes an event and a conversation."""
    df = tables[2]
    used = {}
    for tid in ("T09", "T10", "T11"):
        words = df[df.template_id == tid].Sentence.str.extract(FRAMES[tid])[1]
        assert words.notna().all(), tid
        used[tid] = set(words)
    assert used["T09"] == used["T10"] == used["T11"] == SITUATION_WORDS
    assert not df.Sentence.str.contains(r"谈话很(?:可喜可贺|愁人|喜人|可悲)").any()
    assert not df.Sentence.str.contains("可喜可贺").any()


def test_states_are_feelings_not_temperaments(tables):
    """暴躁 is a temperament (脾气暴躁): 感到暴躁 / 令人暴躁 -> 烦躁 / 令人烦躁, everywhere."""
    df = tables[2]
    assert not df.Sentence.str.contains("暴躁").any()
    for tid in ("T01", "T02", "T03", "T04"):
        words = df[df.template_id == tid].Sentence.str.extract(FRAMES[tid])[1]
        assert words.notna().all() and set(words) == STATE_WORDS, tid


def test_unidiomatic_or_wrong_words_gone(sentences):
    """令人快活 (unidiomatic), 喜人 (results and trends, not an event), 可悲 ('deplorable', not 'sad'),
    愁人 ('worrying'): none is left in any template."""
    assert not sentences.str.contains(r"令人快活|喜人|可悲|愁人").any()


def test_no_doubled_de(tables):
    """跟这个男的的谈话: no person term ends in 的, and no sentence has 的的."""
    df = tables[2]
    assert not df.Sentence.str.contains("的的").any()
    assert not df.Person.str.endswith("的").any()
    t11 = df[df.template_id == "T11"].Sentence.str.extract(T11)
    assert t11.notna().all().all() and set(t11[0]) == PERSONS


def test_person_terms_in_written_register(tables):
    """这个男的/这个女的 and 我老公/我老婆 are colloquial against 感到愤怒, 感到愉悦."""
    df = tables[2]
    assert set(df.Person) == PERSONS
    assert not df.Sentence.str.contains(r"这个[男女]的|老[公婆]").any()


def test_spacing_and_final_punctuation(sentences):
    assert not sentences.str.contains(r"\s").any()
    assert sentences.str.endswith("。").all()
    assert (sentences.str.count("。") == 1).all()
    assert not sentences.str.contains(r"[.,!?;:]").any()  # no ASCII punctuation


def test_pairs_differ_only_in_the_person(tables):
    _, _, df, pairs = tables
    assert len(pairs) and (pairs.emotion_word == pairs.minoritised_emotion_word).all()
    for row in pairs.itertuples():
        a, b = row.privileged, row.minoritised
        pa, pb = row.privileged_person, row.minoritised_person
        assert a.count(pa) == 1 and b.count(pb) == 1, (a, b)
        assert a.replace(pa, "{}") == b.replace(pb, "{}"), (a, b)  # same construction, same words


@pytest.mark.parametrize("old,new,code", [
    ('text = "烦躁"', 'text = "暴躁"', "E023"),
    ('text = "令人欣慰"', 'text = "可喜可贺"', "E022"),
    ('text = "令人开心"', 'text = "喜人"', "E023"),
    ('text = "这个男人"', 'text = "这个男的"', "E022"),
    ('text = "我妻子"', 'text = "我老婆"', "E022"),
])
def test_restrictions_stop_a_class_from_returning(old, new, code):
    text = resolve_path(NAME).read_text("utf-8")
    assert text.count(old) == 1
    report = check_corpus(parse_definition(text.replace(old, new), NAME))
    assert code in {f.code for f in report.errors}, report.to_text()



def test_recurring_awkward_classes_of_the_first_blind_review_are_gone():
    """The first blind review of the corrected text (seed 20261126115117: 0 errors, 19 awkward) found:
    T09's 经历 with pleasant or petty events, 快活 after 感到, and lasting moods (消沉, 忧郁) or
    'daunting' (胆怯) as the effect of one event, 令人喜悦 for a conversation."""
    sentences = builtin_tables("zh-goldfarb2023")[2].Sentence
    assert not sentences.str.contains(r"经历|快活|令人消沉|令人忧郁|令人胆怯|令人喜悦", regex=True).any()
