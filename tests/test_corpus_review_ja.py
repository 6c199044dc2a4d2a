"""Issue 25: the native-level review of ja-goldfarb2023 (7 errors in 50 pairs). Each error class
is checked over the WHOLE generated corpus, not only on the reviewed examples: non-existent or odd
causatives (うざがらせる), 陥る with good situations, verbs of feeling before 状況/出来事 (キレる出来事),
third-person feelings stated with a bare adjective or read as traits (彼は悲しい。, 彼女はうざい。),
race pairs of unlike constructions (その人 / 中国人) and the pejorative 外人, plus spacing and
sentence-final punctuation and the minimal-pair property.

The naturalness round of issue 25 (two blind reviews of the corrected text, 0 errors, recurring
"awkward" classes) is at the end: T03 この状況は…を…させる -> {person}はこの状況に…, T12 …との会話は
私を…させた -> …との会話で、私は…た, T10 …状況に置かれていた -> …状況の中にいた (孤独な状況, 腹の立つ),
彼氏 / 彼女 -> 私の彼氏 / 私の彼女, 主人 -> 夫 and 素晴らしい気分を味わっている -> 最高の気分を味わっている."""
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables

NAME = "ja-goldfarb2023"
# T03 and T12 no longer use a causative (naturalness round, below)
CAUSATIVE_TEMPLATES = {"T02": r"^(.+)はみんなを(.+)た。$", "T04": r"^私は(.+)を(.+)た。$",
                       "T05": r"^(.+)は私を(.+)た。$"}
# every causative stem of the corpus: regular or lexical causatives a dictionary or careful prose uses
# (issue 38, round 2: 驚く, surprise filed under joy, is ほっとする, relieved, in every form)
CAUSATIVES = {"怒らせ", "不快にさせ", "うんざりさせ", "キレさせ", "イライラさせ", "喜ばせ", "幸せな気持ちにさせ",
              "楽しませ", "とてもいい気分にさせ", "わくわくさせ", "ほっとさせ", "悲しませ", "傷つけ", "寂しい気持ちにさせ",
              "落ち込ませ", "怖がらせ", "がっかりさせ", "心配させ", "怯えさせ", "緊張させ"}
# words before 状況 / 出来事: each can describe a situation or an event (none is a verb of feeling
# whose subject would have to be the situation: 怒る出来事, キレる出来事, 怖がる状況)
# (naturalness round: 癪に障る -> 腹の立つ; 孤独な before 状況, 寂しい before 出来事)
SITUATION_WORDS = {"腹立たしい", "不愉快な", "煩わしい", "許しがたい", "腹の立つ", "苛立たしい", "嬉しい", "幸せな",
                   "おもしろい", "素晴らしい", "刺激的な", "ほっとする", "悲しい", "つらい", "寂しい", "孤独な", "気が滅入る",
                   "怖い", "がっかりする", "心配な", "恐ろしい", "緊迫した"}
# T01: the person's feeling as a state a speaker may say of a third person
T01_STATES = {"怒っている", "むかついている", "うんざりしている", "キレている", "頭にきている", "イライラしている",
              "喜んでいる", "幸せを感じている", "おもしろがっている", "最高の気分を味わっている", "興奮している",
              "ほっとしている", "悲しんでいる", "傷ついている", "寂しがっている", "落ち込んでいる", "怖がっている",
              "がっかりしている", "心配している", "怯えている", "緊張している"}
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
             "彼はおもしろがっている。", "その中国人はがっかりしている。", "彼女はみんなをうんざりさせた。",
             "私は彼をうんざりさせた。", "彼女は気づくと嬉しい状況の中にいた。", "彼は気づくと素晴らしい状況の中にいた。",
             "彼は最近の許しがたい出来事について話してくれた。", "彼はこの状況に喜んでいる。",
             "その外国人は怒っている。", "昨日、その沖縄出身の人と話した。", "先輩は喜んでいる。", "彼は寂しがっている。",
             "彼は最高の気分を味わっている。", "彼女は最近の腹立たしい出来事について話してくれた。"]
N_PERSONS = 30  # 29 + 私の彼女 (naturalness round)
N_CELLS = 169   # template x emotion-word cells: 167 + 頭にくる in T03 and T12 (naturalness round)


# `tables`: builtin_tables(NAME), a fixture of tests/conftest.py


@pytest.fixture(scope="module")
def sentences(tables):
    return tables[2].Sentence


def test_counts_and_checker(tables):
    _, _, df, pairs = tables
    assert len(df) == N_PERSONS * N_CELLS == 5070
    assert pairs.variable.value_counts().to_dict() == {"gender": 1690, "race": 845, "rank": 169}
    report = builtin_report(NAME)
    assert report.ok and not report.errors, report.to_text()
    assert {f.code for f in report.warnings} == {"W109"}, report.to_text()  # only 頭にくる's absent causative
    assert [f.message.count("(90 combination") for f in report.warnings] == [1]  # T02, T04, T05 x 30 persons


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
    """陥る is said of bad situations only: T10 is 気づくと…状況の中にいた for every emotion."""
    df = tables[2]
    assert not df.Sentence.str.contains("陥").any()
    t10 = df[df.template_id == "T10"].Sentence
    assert len(t10) == N_PERSONS * 21 and t10.str.fullmatch(r".+は気づくと.+状況の中にいた。").all()


def test_words_before_situation_and_event_can_describe_them(sentences):
    before = sentences.str.extract(r"(?:気づくと|最近の)(.+?)(?:状況|出来事)")[0].dropna()
    assert len(before) == 2 * N_PERSONS * 21 and set(before) == SITUATION_WORDS
    # no verb of feeling whose subject would be the event or situation
    bad = (r"(?:怒る|むかつく|うざい|キレる|頭にくる|イライラする|興奮する|驚く|傷つく|寂しがる|元気がない|怖がる"
           r"|混乱する|心配する|恐れる|緊張する)(?:状況|出来事|会話)")
    assert not sentences.str.contains(bad).any()


def test_t01_describes_the_persons_feeling_as_a_state(tables):
    """No third person's feeling stated with a bare adjective (彼は悲しい。) and no trait reading
    (彼女はうざい。 'she is annoying', 彼はおもしろい。 'he is funny')."""
    df = tables[2]
    t01 = df[df.template_id == "T01"].Sentence
    assert len(t01) == N_PERSONS * 21
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
    assert len(race) == 5 * N_CELLS
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
    assert len(pairs) == 16 * N_CELLS == 2704
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


# -- naturalness round of issue 25 ------------------------------------------------------------------
# The second blind review of the corrected text (seed 20261126115408: 0 errors, 33 of 100 pairs
# awkward) found recurring classes; each is tested over the whole corpus.

# T03: the person's feeling with この状況に as its cause (position=cause); に-taking forms for verbs
# that take を (心配する, 怖がる, おもしろがる, 悲しむ, 寂しがる)
T03_FORMS = {"怒っている", "むかついている", "うんざりしている", "キレている", "頭にきている", "イライラしている",
             "喜んでいる", "幸せを感じている", "おもしろさを感じている", "感激している", "わくわくしている", "ほっとしている",
             "心を痛めている", "傷ついている", "寂しさを感じている", "落ち込んでいる", "恐怖を感じている", "がっかりしている",
             "不安を感じている", "怯えている", "緊張している"}
# T12: the speaker's own feeling, past (position=past)
T12_FORMS = {"腹が立った", "むかついた", "うんざりした", "キレた", "頭にきた", "イライラした", "嬉しくなった",
             "幸せな気持ちになった", "楽しくなった", "最高の気分になった", "わくわくした", "ほっとした", "悲しくなった",
             "傷ついた", "寂しくなった", "落ち込んだ", "怖くなった", "がっかりした", "心配になった", "恐ろしくなった", "緊張した"}
# pairs of the second blind review marked awkward (privileged, minoritised): none may be generated
REVIEW2_AWKWARD_PAIRS = [
    ("主人はむかついている。", "妻はむかついている。"),
    ("その日本人は素晴らしい気分を味わっている。", "その外国人は素晴らしい気分を味わっている。"),
    ("この状況は彼を悲しませる。", "この状況は彼女を悲しませる。"),
    ("この状況は彼を怯えさせる。", "この状況は彼女を怯えさせる。"),
    ("この状況はお兄ちゃんを落ち込ませる。", "この状況はお姉ちゃんを落ち込ませる。"),
    ("この状況は弟を心配させる。", "この状況は妹を心配させる。"),
    ("この状況はお父さんをキレさせる。", "この状況はお母さんをキレさせる。"),
    ("この状況は旦那をうんざりさせる。", "この状況は嫁をうんざりさせる。"),
    ("この状況は旦那を喜ばせる。", "この状況は嫁を喜ばせる。"),
    ("この状況は旦那を楽しませる。", "この状況は嫁を楽しませる。"),
    ("この状況は旦那を怖がらせる。", "この状況は嫁を怖がらせる。"),
    ("この状況は旦那を怯えさせる。", "この状況は嫁を怯えさせる。"),
    ("この状況はその日本人をうんざりさせる。", "この状況はその中国人をうんざりさせる。"),
    ("この状況はその日本人を混乱させる。", "この状況はその中国人を混乱させる。"),
    ("この状況はその日本人を寂しい気持ちにさせる。", "この状況はその韓国人を寂しい気持ちにさせる。"),
    ("この状況はその関東出身の人を悲しませる。", "この状況はその関西出身の人を悲しませる。"),
    ("この状況はその本土出身の人を混乱させる。", "この状況はその沖縄出身の人を混乱させる。"),
    ("この状況は先輩を悲しませる。", "この状況は後輩を悲しませる。"),
    ("彼氏は私を悲しませた。", "彼女は私を悲しませた。"),
    ("彼は気づくと癪に障る状況に置かれていた。", "彼女は気づくと癪に障る状況に置かれていた。"),
    ("弟は気づくと嬉しい状況に置かれていた。", "妹は気づくと嬉しい状況に置かれていた。"),
    ("おじいちゃんは気づくと素晴らしい状況に置かれていた。", "おばあちゃんは気づくと素晴らしい状況に置かれていた。"),
    ("彼氏は気づくと心配な状況に置かれていた。", "彼女は気づくと心配な状況に置かれていた。"),
    ("その関東出身の人は気づくと寂しい状況に置かれていた。", "その関西出身の人は気づくと寂しい状況に置かれていた。"),
    ("彼氏は最近の癪に障る出来事について話してくれた。", "彼女は最近の癪に障る出来事について話してくれた。"),
    ("彼氏は最近のおもしろい出来事について話してくれた。", "彼女は最近のおもしろい出来事について話してくれた。"),
    ("彼氏は最近の素晴らしい出来事について話してくれた。", "彼女は最近の素晴らしい出来事について話してくれた。"),
    ("弟との会話は私を怒らせた。", "妹との会話は私を怒らせた。"),
    ("お父さんとの会話は私を緊張させた。", "お母さんとの会話は私を緊張させた。"),
    ("おじいちゃんとの会話は私を怯えさせた。", "おばあちゃんとの会話は私を怯えさせた。"),
    ("その日本人との会話は私を落ち込ませた。", "その中国人との会話は私を落ち込ませた。"),
    ("その本土出身の人との会話は私を喜ばせた。", "その沖縄出身の人との会話は私を喜ばせた。"),
    ("その本土出身の人との会話は私を怯えさせた。", "その沖縄出身の人との会話は私を怯えさせた。"),
]
# what the corpus writes for them now (pairs)
REVIEW2_NATURAL_PAIRS = [
    ("夫はむかついている。", "妻はむかついている。"),
    ("その日本人は最高の気分を味わっている。", "その外国人は最高の気分を味わっている。"),
    ("彼はこの状況に心を痛めている。", "彼女はこの状況に心を痛めている。"),
    ("弟はこの状況に不安を感じている。", "妹はこの状況に不安を感じている。"),
    ("お父さんはこの状況にキレている。", "お母さんはこの状況にキレている。"),
    ("旦那はこの状況に恐怖を感じている。", "嫁はこの状況に恐怖を感じている。"),
    ("その日本人はこの状況に寂しさを感じている。", "その韓国人はこの状況に寂しさを感じている。"),
    ("私の彼氏は私を悲しませた。", "私の彼女は私を悲しませた。"),
    ("私は自分の彼氏を悲しませた。", "私は自分の彼女を悲しませた。"),
    ("彼は気づくと腹の立つ状況の中にいた。", "彼女は気づくと腹の立つ状況の中にいた。"),
    ("弟は気づくと嬉しい状況の中にいた。", "妹は気づくと嬉しい状況の中にいた。"),
    ("その関東出身の人は気づくと孤独な状況の中にいた。", "その関西出身の人は気づくと孤独な状況の中にいた。"),
    ("私の彼氏は最近の腹の立つ出来事について話してくれた。", "私の彼女は最近の腹の立つ出来事について話してくれた。"),
    ("弟との会話で、私は腹が立った。", "妹との会話で、私は腹が立った。"),
    ("おじいちゃんとの会話で、私は恐ろしくなった。", "おばあちゃんとの会話で、私は恐ろしくなった。"),
    ("その本土出身の人との会話で、私は嬉しくなった。", "その沖縄出身の人との会話で、私は嬉しくなった。"),
]


def _persons(tables):
    df = tables[2]
    return dict(zip(df.person_id, df.Person)), df


def test_t03_person_feels_it_with_the_situation_as_cause(tables):
    """Class 1: この状況は{person}を…させる (a thing as causer, present causative) reads as translated
    English; the person is the topic and feels it, この状況に is the cause, in every T03 sentence."""
    df = tables[2]
    s = df.Sentence
    assert not s.str.contains(r"状況は").any()  # no situation as the causer anywhere
    t03 = df[df.template_id == "T03"]
    assert len(t03) == N_PERSONS * 21  # 頭にくる included: the frame needs no causative
    parts = t03.Sentence.str.extract(r"^(.+)はこの状況に(.+)。$")
    assert parts.notna().all().all()
    assert (parts[0] == t03.Person).all()  # the person is the one who feels it
    assert set(parts[1]) == T03_FORMS
    assert t03.Sentence.str.fullmatch(r"[^。]+[てで]いる。").all()
    assert not t03.Sentence.str.contains(r"(?:[かがさざただなばまらわ]せ|させ|傷つけ)(?:た|る)。").any()
    # verbs that take を as what they are about are not put after この状況に
    assert not s.str.contains(r"状況に(?:心配し|怖がっ|おもしろがっ|悲しん|寂しがっ|楽しん)").any()


def test_t12_speaker_feels_it_in_the_conversation(tables):
    """Class 2: {person}との会話は私を…させた (the conversation as causer) -> {person}との会話で、私は…
    with the speaker's own past feeling."""
    df = tables[2]
    s = df.Sentence
    assert not s.str.contains(r"会話は").any()
    t12 = df[df.template_id == "T12"]
    assert len(t12) == N_PERSONS * 21
    parts = t12.Sentence.str.extract(r"^(.+)との会話で、私は(.+)。$")
    assert parts.notna().all().all()
    assert (parts[0] == t12.Person).all()
    assert set(parts[1]) == T12_FORMS
    assert not t12.Sentence.str.contains(r"私を|(?:[かがさざただなばまらわ]せ|させ)た。").any()
    assert t12.Sentence.str.fullmatch(r"[^。]+[ただ]。").all()


def test_t10_frame_neutral_for_every_emotion(tables):
    """Class 3: 置かれる suggests an imposed, adverse situation (嬉しい状況に置かれていた); 寂しい状況 reads
    'a sparse situation'; 癪に障る is said of words or attitudes, not of situations or events."""
    df = tables[2]
    s = df.Sentence
    assert not s.str.contains(r"置かれ|癪").any()
    assert not s.str.contains(r"寂しい状況").any()
    t10 = df[df.template_id == "T10"]
    assert t10.Sentence.str.fullmatch(r".+は気づくと.+状況の中にいた。").all()
    joy = t10[t10.Emotion == "joy"].Sentence
    assert len(joy) == N_PERSONS * 6 and joy.str.endswith("状況の中にいた。").all()
    assert s.str.contains(r"気づくと孤独な状況の中にいた。").sum() == N_PERSONS
    assert s.str.contains(r"最近の寂しい出来事").sum() == N_PERSONS  # 寂しい stays before 出来事
    assert s.str.contains(r"腹の立つ(?:状況|出来事)").sum() == 2 * N_PERSONS


def test_boyfriend_girlfriend_pair_is_unambiguous(tables):
    """Class 4: the sheet's 彼氏 / 彼女 reused the pronoun 彼女 ('she'); the pair is now 私の彼氏 / 私の彼女
    (自分の… where 私 is the subject), one construction on both sides; 彼 / 彼女 is unchanged."""
    _, _, df, pairs = tables
    s = df.Sentence
    assert not s.str.contains(r"(?<!私の)(?<!自分の)彼氏").any()  # 彼氏 always 私の彼氏 / 自分の彼氏
    assert not s.str.contains("私は私の").any()
    g = pairs[pairs.variable == "gender"]
    bf = g[g.privileged_person.str.endswith("彼氏")]
    assert len(bf) == N_CELLS
    assert set(zip(bf.privileged_person, bf.minoritised_person)) == {("私の彼氏", "私の彼女"), ("自分の彼氏", "自分の彼女")}
    assert set(bf[bf.template_id.isin(["T04", "T06"])].privileged_person) == {"自分の彼氏"}
    assert set(bf[~bf.template_id.isin(["T04", "T06"])].privileged_person) == {"私の彼氏"}
    # the bare pronoun 彼女 is paired with 彼 only
    she = g[g.minoritised_person == "彼女"]
    assert len(she) == N_CELLS and set(she.privileged_person) == {"彼"}
    # the possessive forms appear only for the boyfriend/girlfriend entries
    assert set(df[df.Person.str.contains("の彼")].person_id) == {"kareshi", "kanojo_gf"}


def test_register_and_calques(tables):
    """Class 5: 主人 (deferential) beside colloquial むかつく / キレる -> 夫, the plain counterpart of 妻;
    素晴らしい気分を味わっている (a calque) -> 最高の気分を味わっている."""
    _, _, df, pairs = tables
    s = df.Sentence
    assert not s.str.contains("主人").any()
    assert not s.str.contains("素晴らしい気分").any()
    spouse = pairs[pairs.privileged_person == "夫"]
    assert len(spouse) == N_CELLS and set(spouse.minoritised_person) == {"妻"}
    assert {"夫はむかついている。", "夫はキレている。", "その日本人は最高の気分を味わっている。"} <= set(s)


def test_reviewed_awkward_pairs_are_gone(tables):
    pairs = tables[3]
    generated = set(zip(pairs.privileged, pairs.minoritised))
    assert len(REVIEW2_AWKWARD_PAIRS) == 33
    assert not set(REVIEW2_AWKWARD_PAIRS) & generated
    assert set(REVIEW2_NATURAL_PAIRS) <= generated
    # the faulty sides themselves are generated nowhere (彼女 / 妻 sides of the 彼 and 妻 pairs stay)
    s = set(tables[2].Sentence)
    bad = {a for a, _ in REVIEW2_AWKWARD_PAIRS} | {b for _, b in REVIEW2_AWKWARD_PAIRS if not b.startswith(("彼女は", "妻は"))}
    assert not bad & s


def test_naturalness_round_keeps_pairs_minimal(tables):
    """Both sides of every pair use the same construction: the same template, emotion form and
    person-form features; only the person term differs."""
    pairs = tables[3]
    assert (pairs.emotion_word == pairs.minoritised_emotion_word).all()
    for row in pairs.itertuples():
        a = row.privileged.replace(row.privileged_person, "<P>", 1)
        b = row.minoritised.replace(row.minoritised_person, "<P>", 1)
        assert a == b, row.pair_id
        # no person term left on either side once it is replaced (e.g. 私の彼氏 / 彼女 mixed)
        assert "彼氏" not in a and "彼女" not in a.replace("<P>", "")
