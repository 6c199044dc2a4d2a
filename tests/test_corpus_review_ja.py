"""Issue 25: the native-level review of ja-goldfarb2023 (7 errors in 50 pairs). Each error class
is checked over the WHOLE generated corpus, not only on the reviewed examples: non-existent or odd
causatives (うざがらせる), 陥る with good situations, verbs of feeling before 状況/出来事 (キレる出来事),
third-person feelings stated with a bare adjective or read as traits (彼は悲しい。, 彼女はうざい。),
race pairs of unlike constructions (その人 / 中国人) and the pejorative 外人, plus spacing and
sentence-final punctuation and the minimal-pair property."""
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables

NAME = "ja-goldfarb2023"
CAUSATIVE_TEMPLATES = {"T02": r"^(.+)はみんなを(.+)た。$", "T03": r"^この状況は(.+)を(.+)る。$",
                       "T04": r"^私は(.+)を(.+)た。$", "T05": r"^(.+)は私を(.+)た。$",
                       "T12": r"^(.+)との会話は私を(.+)た。$"}
# every causative stem of the corpus: regular or lexical causatives a dictionary or careful prose uses
CAUSATIVES = {"怒らせ", "不快にさせ", "うんざりさせ", "キレさせ", "イライラさせ", "喜ばせ", "幸せな気持ちにさせ",
              "楽しませ", "とてもいい気分にさせ", "わくわくさせ", "驚かせ", "悲しませ", "傷つけ", "寂しい気持ちにさせ",
              "落ち込ませ", "怖がらせ", "混乱させ", "心配させ", "怯えさせ", "緊張させ"}
# words before 状況 / 出来事: each can describe a situation or an event (none is a verb of feeling
# whose subject would have to be the situation: 怒る出来事, キレる出来事, 怖がる状況)
SITUATION_WORDS = {"腹立たしい", "不愉快な", "煩わしい", "許しがたい", "癪に障る", "苛立たしい", "嬉しい", "幸せな",
                   "おもしろい", "素晴らしい", "刺激的な", "驚くべき", "悲しい", "つらい", "寂しい", "気が滅入る", "怖い",
                   "不可解な", "心配な", "恐ろしい", "緊迫した"}
# T01: the person's feeling as a state a speaker may say of a third person
T01_STATES = {"怒っている", "むかついている", "うんざりしている", "キレている", "頭にきている", "イライラしている",
              "喜んでいる", "幸せを感じている", "おもしろがっている", "素晴らしい気分を味わっている", "興奮している",
              "驚いている", "悲しんでいる", "傷ついている", "寂しがっている", "落ち込んでいる", "怖がっている",
              "混乱している", "心配している", "怯えている", "緊張している"}
RACE_TERMS = {"その日本人", "その外国人", "その中国人", "その韓国人", "その関東出身の人", "その関西出身の人",
              "その本土出身の人", "その沖縄出身の人"}

# sentences of the issue-25 review and of the error classes it names: none may be generated
REVIEWED_BAD = ["その人は悲しい。", "彼は悲しい。", "彼女はうざい。", "彼はおもしろい。", "中国人は混乱する。",
                "彼女はみんなをうざがらせた。", "私は彼をうざがらせた。", "彼女は嬉しい状況に陥った。",
                "彼は素晴らしい状況に陥った。", "彼はおもしろい状況に陥った。", "彼女は幸せな状況に陥った。",
                "彼は最近のキレる出来事について話してくれた。", "外人は怒る。", "その人は怒る。", "先輩は嬉しい。",
                "彼は寂しい。", "彼は素晴らしい。", "その状況は彼を嬉しがらせる。"]
REVIEWED_BAD_PARTS = ["うざがらせ", "最近のキレる出来事", "状況に陥った", "外人", "関東人", "関西人", "ないちゃー",
                      "うちなーんちゅ"]
# what the corrected corpus writes instead
CORRECTED = ["その日本人は悲しんでいる。", "その中国人は悲しんでいる。", "彼は悲しんでいる。", "彼女はうんざりしている。",
             "彼はおもしろがっている。", "その中国人は混乱している。", "彼女はみんなをうんざりさせた。",
             "私は彼をうんざりさせた。", "彼女は気づくと嬉しい状況に置かれていた。", "彼は気づくと素晴らしい状況に置かれていた。",
             "彼は最近の許しがたい出来事について話してくれた。", "この状況は彼を喜ばせる。",
             "その外国人は怒っている。", "昨日、その沖縄出身の人と話した。", "先輩は喜んでいる。", "彼は寂しがっている。",
             "彼は素晴らしい気分を味わっている。", "彼女は最近の腹立たしい出来事について話してくれた。"]


@pytest.fixture(scope="module")
def tables():
    return builtin_tables(NAME)


@pytest.fixture(scope="module")
def sentences(tables):
    return tables[2].Sentence


def test_counts_and_checker(tables):
    _, _, df, pairs = tables
    assert len(df) == 4843  # 29 persons x 167 template x emotion-word cells
    assert pairs.variable.value_counts().to_dict() == {"gender": 1670, "race": 835, "rank": 167}
    report = builtin_report(NAME)
    assert report.ok and not report.errors, report.to_text()
    assert {f.code for f in report.warnings} == {"W109"}, report.to_text()  # only 頭にくる's absent causative


def test_every_causative_exists(tables):
    """うざがらせる does not exist; 嬉しがらせる ('flatter'), おもしろがらせる and 寂しがらせる are odd with a
    situation, a conversation or 私 as causee: every causative of the corpus is one of CAUSATIVES."""
    df = tables[2]
    found = set()
    for tid, pattern in CAUSATIVE_TEMPLATES.items():
        sub = df[df.template_id == tid].Sentence
        assert len(sub)
        stems = sub.str.extract(pattern)[1]
        assert stems.notna().all(), tid
        found |= set(stems)
    assert found == CAUSATIVES
    s = df.Sentence
    assert not s.str.contains(r"(?<!怖)がらせ").any()  # 怖がらせる is the only -garaseru causative left
    assert not s.str.contains(r"うざ|嬉しがら|おもしろがらせ|寂しがらせ|素晴らしい気持ち").any()


def test_no_otoshiiru_with_any_situation(tables):
    """陥る is said of bad situations only: T10 is 気づくと…状況に置かれていた for every emotion."""
    df = tables[2]
    assert not df.Sentence.str.contains("陥").any()
    t10 = df[df.template_id == "T10"].Sentence
    assert len(t10) == 29 * 21 and t10.str.fullmatch(r".+は気づくと.+状況に置かれていた。").all()


def test_words_before_situation_and_event_can_describe_them(sentences):
    before = sentences.str.extract(r"(?:気づくと|最近の)(.+?)(?:状況|出来事)")[0].dropna()
    assert len(before) == 2 * 29 * 21 and set(before) == SITUATION_WORDS
    # no verb of feeling whose subject would be the event or situation
    bad = (r"(?:怒る|むかつく|うざい|キレる|頭にくる|イライラする|興奮する|驚く|傷つく|寂しがる|元気がない|怖がる"
           r"|混乱する|心配する|恐れる|緊張する)(?:状況|出来事|会話)")
    assert not sentences.str.contains(bad).any()


def test_t01_describes_the_persons_feeling_as_a_state(tables):
    """No third person's feeling stated with a bare adjective (彼は悲しい。) and no trait reading
    (彼女はうざい。 'she is annoying', 彼はおもしろい。 'he is funny')."""
    df = tables[2]
    t01 = df[df.template_id == "T01"].Sentence
    assert len(t01) == 29 * 21
    states = t01.str.extract(r"^(?:.+?)は(.+)。$")[0]
    assert set(states) == T01_STATES
    assert t01.str.fullmatch(r".+は.+[てで]いる。").all()
    # over the whole corpus: no sentence ends in a bare emotion adjective, 幸せだ, 元気がない or a plain
    # verb of feeling (彼は怒る。 reads as a habit or a future)
    bare = (r"(?:悲し|嬉し|寂し|うざ|おもしろ|素晴らし|怖|恐ろし|腹立たし|つら|元気がな)い。$|幸せだ。$"
            r"|(?:怒る|むかつく|キレる|頭にくる|イライラする|興奮する|驚く|傷つく|怖がる|混乱する|心配する|恐れる|緊張する)。$")
    assert not df.Sentence.str.contains(bare).any()


def test_race_pairs_compare_one_individual_on_both_sides(tables):
    _, _, df, pairs = tables
    race = pairs[pairs.variable == "race"]
    assert len(race) == 5 * 167
    assert set(race.privileged_person) | set(race.minoritised_person) == RACE_TERMS
    assert (race.privileged_person.str.startswith("その") & race.minoritised_person.str.startswith("その")).all()
    # both sides the same construction: その + noun, or その + 〜出身の人 on both sides
    same = (race.privileged_person.str.endswith("出身の人") == race.minoritised_person.str.endswith("出身の人"))
    assert same.all()
    s = df.Sentence
    # no bare group noun (a generic claim about the group) and no unmarked その人 anywhere
    assert not s.str.contains(r"(?<!その)(?:日本|外国|中国|韓国)人").any()
    assert not s.str.contains(r"(?<!その)(?:関東|関西|本土|沖縄)出身").any()
    assert not s.str.contains(r"その人").any()
    assert not s.str.contains(r"外人|関東人|関西人|ないちゃー|うちなーんちゅ").any()
    assert not s.str.contains("その状況はその").any()  # T03 says この状況


def test_spacing_and_sentence_final_punctuation(sentences):
    assert not sentences.str.contains(r"\s").any()  # written Japanese has no spaces
    assert sentences.str.fullmatch(r"[^。]+。").all()  # one full-width 。 at the end, none inside
    assert not sentences.str.contains(r"[.,!?;:]").any()  # no ASCII punctuation


def test_reviewed_sentences_are_gone_and_replaced(sentences):
    text = set(sentences)
    assert not set(REVIEWED_BAD) & text
    for part in REVIEWED_BAD_PARTS:
        assert not sentences.str.contains(part, regex=False).any(), part
    assert set(CORRECTED) <= text


def test_every_pair_differs_only_in_the_person_term(tables):
    """Japanese marks no agreement: a pair is the same sentence with the other person term."""
    pairs = tables[3]
    assert len(pairs) == 2672
    for row in pairs.itertuples():
        a, b = row.privileged, row.minoritised
        assert a.count(row.privileged_person) >= 1 and b.count(row.minoritised_person) >= 1
        assert a.replace(row.privileged_person, "<P>", 1) == b.replace(row.minoritised_person, "<P>", 1), row.pair_id
        assert row.emotion_word == row.minoritised_emotion_word


def test_recurring_awkward_classes_of_the_first_blind_review_are_gone():
    """The first blind review of the corrected text (seed 20261126114936: 0 errors, 24 awkward) found
    these recurring awkward classes: 状況にいた (English-shaped), 素晴らしい気分にさせ (a calque),
    興奮させ with 私 (reads sexual), むかつかせ (rare; 'cause nausea')."""
    df = builtin_tables("ja-goldfarb2023")[2]
    assert not df.Sentence.str.contains(r"状況にいた|素晴らしい気分にさせ|興奮させ|むかつかせ", regex=True).any()
