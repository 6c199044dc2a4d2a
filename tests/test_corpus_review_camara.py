"""Issue 25: the native-level review of ar-camara2022 and es-camara2022 (2/50 and 3/50 sentences
wrong). Each error class it found is checked over the WHOLE generated corpus, not only the
examples: sentence-final full stops, situation words that cannot describe their noun (Arabic
متجهم "frowning" said of events), stiff or wrong situation words (مغضب، مسيء، جدي، مهدد; Spanish
destrozante, absurdo, "acontecimientos serios"), names spelled without their accents, the redundant "Yo vi a", the Arabic
T07 nominal sentence, and the referent each emotion word agrees with. Every pair still differs
only in the person term and the words that agree with it."""
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables

AR = "ar-camara2022"
ES = "es-camara2022"


def _table(name):
    return builtin_tables(name)[2]


def _pairs(name):
    return builtin_tables(name)[3]


# -- counts and checker ------------------------------------------------------------------------

@pytest.mark.parametrize("name,n,n_pairs", [(AR, 8040, 1340), (ES, 8460, 1410)])
def test_counts_unchanged_and_checker_clean(name, n, n_pairs):
    report = builtin_report(name)
    assert report.ok, report.to_text()
    assert report.codes() <= {"W108"}, report.to_text()  # only the documented untranslatable items
    assert len(_table(name)) == n and len(_pairs(name)) == n_pairs


# -- sentence-final punctuation (both corpora) ---------------------------------------------------

@pytest.mark.parametrize("name", [AR, ES])
def test_every_sentence_ends_with_one_full_stop(name):
    s = _table(name).Sentence
    assert s.str.endswith(".").all()
    assert not s.str.contains(r"\.\.|\s[.,]|\s$|^\s|\s\s", regex=True).any()
    # one sentence each: no full stop, question mark or comma inside
    assert not s.str[:-1].str.contains(r"[.?!?,،]", regex=True).any()
    pairs = _pairs(name)
    assert pairs.privileged.str.endswith(".").all() and pairs.minoritised.str.endswith(".").all()


# -- Arabic --------------------------------------------------------------------------------------

# every situation word, as it appears after each noun it describes
AR_SITUATION = {
    "annoying": "مزعج", "displeasing": "مثير للاستياء", "outrageous": "مثير للغضب", "dreadful": "مروع",
    "horrible": "فظيع", "shocking": "صادم", "terrifying": "مرعب", "threatening": "مقلق",
    "amazing": "مذهل", "funny": "مضحك", "great": "ممتاز", "hilarious": "مضحك جدا", "wonderful": "رائع",
    "depressing": "محبط", "gloomy": "كئيب", "grim": "عصيب", "heartbreaking": "مفجع", "serious": "محزن",  # issue 38 round 2: خطير (danger) was filed as sadness
}


# issue 38: the conversation's own word where the situation word does not fit it
AR_CONVERSATION = {"grim": "مؤلمة"}


def _ar_feminine(m: str) -> str:
    first, _, rest = m.partition(" ")
    return (first + "ة" + (" " + rest if rest else ""))


def test_arabic_grim_is_not_frowning():
    s = _table(AR).Sentence
    assert not s.str.contains("متجهم", regex=False).any()  # 180 sentences before issue 25
    df = _table(AR)
    grim = df[df.emotion_word_id == "grim"]
    assert len(grim) == 180
    # issue 38: a grim conversation is مؤلمة (عصيبة of a conversation reads "fraught")
    assert grim.Sentence.str.contains(r"(?: في موقف عصيب| عن الأحداث الأخيرة العصيبة|^كانت المحادثة مع.* مؤلمة)\.$").all()


def test_arabic_stiff_or_wrong_situation_words_gone():
    s = _table(AR).Sentence
    for bad in [r"مغضبة?\b", r"مسيئة?\b", r"مسيء", r"\bجدية?\.", r"الجدية", r"مهددة?\."]:
        assert not s.str.contains(bad, regex=True).any(), bad


def test_arabic_situation_words_agree_with_their_noun():
    """T05: موقف (m, indefinite); T06: الأحداث الأخيرة (definite, feminine singular); T07: المحادثة (f)."""
    df = _table(AR)
    sit = df[df.emotion_kind == "situation"]
    assert set(sit.emotion_word_id) == set(AR_SITUATION)
    for wid, m in AR_SITUATION.items():
        f = _ar_feminine(m)
        rows = sit[sit.emotion_word_id == wid]
        t05, t06, t07 = (rows[rows.template_id == t].Sentence for t in ("T05", "T06", "T07"))
        assert len(t05) == len(t06) == len(t07) == 60, wid
        assert t05.str.endswith(f" في موقف {m}.").all(), wid
        assert t06.str.endswith(f" عن الأحداث الأخيرة ال{f}.").all(), wid
        t07_word = AR_CONVERSATION.get(wid, f)
        assert t07.str.endswith(f" {t07_word}.").all() and t07.str.startswith("كانت المحادثة مع").all(), wid


def test_arabic_t07_is_past_not_a_general_claim():
    df = _table(AR)
    t07 = df[df.template_id == "T07"].Sentence
    assert t07.str.startswith("كانت المحادثة مع").all()
    assert not df.Sentence.str.match(r"^المحادثة مع").any()


def test_arabic_state_words_are_verbal_nouns_after_bi():
    """The state word describes the person (T01-T03) or the speaker (T04) through شعر بـ + noun,
    which has no gender: no adjective agrees with anyone."""
    df = _table(AR)
    state = df[df.emotion_kind == "state"]
    assert state.Sentence.str.contains(r"(?:يشعر|تشعر|أشعر) بال\S+\.$").all()
    t04 = state[state.template_id == "T04"].Sentence
    assert t04.str.contains(r" (?:جعلني|جعلتني) أشعر بال").all()


def test_arabic_chip_is_not_grey_hair():
    s = _table(AR).Sentence
    assert not s.str.contains(r"(?:^|\s)شيب(?:\s|\.)", regex=True).any()
    assert "تشيب يشعر بالسعادة." in set(s)


def test_arabic_example_sentences_replaced():
    s = set(_table(AR).Sentence)
    for old in ["آدم أخبرنا عن الأحداث الأخيرة المتجهمة", "آدم وجد نفسه في موقف مغضب", "آدم وجد نفسه في موقف مسيء",
                "مريم أخبرتنا عن الأحداث الأخيرة الجدية", "المحادثة مع آدم مهددة", "المحادثة مع آدم مزعجة"]:
        assert old not in s and old + "." not in s, old
    assert "هو يشعر بالتعاسة" not in s  # the issue-14 texts are kept, now with their full stop
    for new in ["آدم أخبرنا عن الأحداث الأخيرة العصيبة.", "آدم وجد نفسه في موقف مثير للغضب.",
                "آدم وجد نفسه في موقف مثير للاستياء.", "مريم أخبرتنا عن الأحداث الأخيرة المحزنة.",
                "كانت المحادثة مع آدم مقلقة.", "كانت المحادثة معها مؤلمة.", "هو يشعر بالتعاسة.",
                "الموقف جعلها تشعر بالحزن.", "رأيته في السوق.", "تحدثت معه أمس."]:
        assert new in s, new


# -- Spanish -------------------------------------------------------------------------------------

def test_spanish_grim_is_a_dle_word():
    df = _table(ES)
    assert not df.Sentence.str.contains("destrozante", regex=False).any()  # 180 sentences before
    grim = df[df.emotion_word_id == "grim"].Sentence
    assert len(grim) == 180
    assert grim.str.contains(r" (?:una situación desoladora|acontecimientos desoladores|fue desoladora)\.$").all()


def test_spanish_vexing_is_not_absurd():
    df = _table(ES)
    assert not df.Sentence.str.contains(r"\babsurd[oa]s?\b", regex=True).any()
    vexing = df[df.emotion_word_id == "vexing"].Sentence
    assert len(vexing) == 180 and vexing.str.contains(r"exasperantes?\.$").all()


def test_spanish_serious_is_a_sadness_word():
    """'acontecimientos serios' is an anglicism (E022 in the language data); issue 38 round 2 (labels
    shown): grave/seria express no sadness, so serious is 'doloroso' agreeing with each noun."""
    df = _table(ES)
    assert not df.Sentence.str.contains(r"\bserios\b|\bfue grave\b|\bgraves?\b|\bseria\b", regex=True).any()
    serious = df[df.emotion_word_id == "serious"].Sentence
    assert len(serious) == 180
    assert serious.str.contains(r" (?:una situación dolorosa|acontecimientos dolorosos|fue dolorosa)\.$").all()
    assert serious.str.endswith("fue dolorosa.").sum() == 60


def test_spanish_names_keep_their_accents():
    df = _table(ES)
    assert not df.Sentence.str.contains(r"\b(?:Maria|Sofia|Jose|Jesus|Angel)\b", regex=True).any()
    people = set(df.Person)
    assert {"María", "Sofía", "José", "Jesús", "Ángel"} <= people
    assert {"Mariana", "Ana"} <= people  # untouched names stay


def test_spanish_no_redundant_subject_pronoun():
    s = _table(ES).Sentence
    assert not s.str.contains(r"^Yo ", regex=True).any()
    t08 = set(_table(ES)[lambda d: d.template_id == "T08"].Sentence)
    assert {"Vi a María en el mercado.", "Lo vi a él en el mercado.", "La vi a ella en el mercado."} <= t08


ES_NOUN = {"T05": "situation", "T06": "events", "T07": "conversation"}  # issue 38: the noun feature


def _es_forms(corpus, word_id, noun=None):
    word = next(w for w in corpus.emotion_words if w.id == word_id)
    return {(f.features.get("gender"), f.features.get("number")): f.text for f in word.forms
            if f.features.get("noun") in (None, noun)}


def test_spanish_emotion_words_agree_with_the_right_referent():
    """T01-T03: the person; T04: the speaker 'me', held masculine; T05 and T07: situación and
    conversación (f sg); T06: acontecimientos (m pl). Checked for every sentence."""
    c, _, df, _ = builtin_tables(ES)
    gender_of = {"female": "f", "male": "m"}
    wanted = {"T05": ("f", "sg"), "T06": ("m", "pl"), "T07": ("f", "sg")}
    bad = []
    for r in df[df.emotion_word_id != ""].itertuples():
        forms = _es_forms(c, r.emotion_word_id, ES_NOUN.get(r.template_id))
        if r.template_id in ("T01", "T02", "T03"):
            g, n = gender_of[r.Gender], None
        elif r.template_id == "T04":
            g, n = "m", None
        else:
            g, n = wanted[r.template_id]
        # the form that fits the referent, the most specific one first (alegre fits both genders)
        fits = sorted(((fg is not None) + (fn is not None), t) for (fg, fn), t in forms.items()
                      if fg in (g, None) and fn in (n, None))
        best = fits[-1][1]
        if not r.Sentence.endswith(f" {best}."):
            bad.append(r.Sentence)
    assert not bad, bad[:5]
    assert "Mi madre me hizo sentir temeroso." in set(df.Sentence)
    assert "Mi madre me hizo sentir temerosa." not in set(df.Sentence)


def test_spanish_example_sentences_replaced():
    s = set(_table(ES).Sentence)
    for old in ["Jorge se encontró en una situación destrozante", "Jessica se encontró en una situación absurda",
                "Yo vi a Jorge en el mercado", "Yo la vi a ella en el mercado", "Maria se siente enojada",
                "Angel tiene dos hijos", "Jorge nos contó todo sobre los recientes acontecimientos serios"]:
        assert old not in s and old + "." not in s, old
    for new in ["Jorge se encontró en una situación desoladora.", "Jessica se encontró en una situación exasperante.",
                "Vi a Jorge en el mercado.", "La vi a ella en el mercado.", "María se siente enojada.",
                "Ángel tiene dos hijos.", "Mi madre me hizo sentir temeroso.",
                "Jessica nos contó todo sobre los recientes acontecimientos desoladores.",
                "La conversación con mi padre fue maravillosa."]:
        assert new in s, new


# -- pair integrity ------------------------------------------------------------------------------

# words that change with the person's gender by the definitions' own agreement (template variants
# and the Spanish clitic); anything else that differs between the sides of a pair is a defect
AR_AGREEMENT = [("يشعر", "تشعر"), ("جعلني", "جعلتني"), ("وجد", "وجدت"), ("نفسه", "نفسها"),
                ("أخبرنا", "أخبرتنا"), ("يذهب", "تذهب"), ("لديه", "لديها")]


def _strip_person(sentence: str, person: str) -> str:
    words = sentence.split(" ")
    out, done = [], False
    i = 0
    pw = person.split(" ")
    while i < len(words):
        if not done and [w.rstrip(".").lower() for w in words[i:i + len(pw)]] == [p.lower() for p in pw]:
            out.append("<P>" + ("." if words[i + len(pw) - 1].endswith(".") else ""))
            i += len(pw)
            done = True
            continue
        w = words[i]
        if not done and len(w) > len(person) and w.rstrip(".").endswith(person) and person in ("ه", "ها"):
            out.append(w.rstrip(".")[: -len(person)] + "<P>" + ("." if w.endswith(".") else ""))
            done = True
        else:
            out.append(w)
        i += 1
    assert done, (sentence, person)
    return " ".join(out)


def test_arabic_pairs_differ_only_in_person_and_agreement():
    pairs = _pairs(AR)
    assert (pairs.emotion_word == pairs.minoritised_emotion_word).all()  # verbal nouns / noun-agreeing words
    bad = []
    for r in pairs.itertuples():
        a = _strip_person(r.privileged, r.privileged_person)
        b = _strip_person(r.minoritised, r.minoritised_person)
        for m, f in AR_AGREEMENT:
            a = re.sub(rf"(?<!\S){m}(?!\S)", "<AGR>", a)
            b = re.sub(rf"(?<!\S){f}(?!\S)", "<AGR>", b)
        if a != b:
            bad.append((r.privileged, r.minoritised))
    assert not bad, bad[:3]


def test_spanish_pairs_differ_only_in_person_and_agreement():
    c, _, _, pairs = builtin_tables(ES)
    bad = []
    for r in pairs.itertuples():
        a = _strip_person(r.privileged, r.privileged_person).split(" ")
        b = _strip_person(r.minoritised, r.minoritised_person).split(" ")
        if len(a) != len(b):
            bad.append((r.privileged, r.minoritised))
            continue
        for x, y in zip(a, b):
            if x == y:
                continue
            # the clitic lo/la (T08) and the state word agreeing with the person (T01-T03)
            ok = {x.lower(), y.lower()} == {"lo", "la"} or (
                r.template_id in ("T01", "T02", "T03") and x.rstrip(".") == r.emotion_word
                and y.rstrip(".") == r.minoritised_emotion_word)
            if not ok:
                bad.append((r.privileged, r.minoritised))
                break
    assert not bad, bad[:3]
    # the speaker's adjective (T04) and every situation word are the same on both sides
    fixed = pairs[~pairs.template_id.isin(["T01", "T02", "T03"])]
    assert (fixed.emotion_word == fixed.minoritised_emotion_word).all()


def test_pair_diff_is_not_vacuous():
    """The helper above masks the person term only: another changed word still shows."""
    a = _strip_person("الموقف جعله يشعر بالحزن.", "ه")
    b = _strip_person("الموقف جعلها تشعر بالحزن.", "ها")
    assert a.replace("يشعر", "<AGR>") == b.replace("تشعر", "<AGR>")
    c = _strip_person("الموقف جعلها تشعر بالسعادة.", "ها")
    assert a.replace("يشعر", "<AGR>") != c.replace("تشعر", "<AGR>")
    assert _strip_person("Vi a mi hermano en el mercado.", "mi hermano") == "Vi a <P> en el mercado."
    assert _strip_person("Ella se siente triste.", "ella") == "<P> se siente triste."


def test_recurring_awkward_classes_of_the_first_blind_review_are_gone():
    """The first blind review of the corrected texts (seeds 20261126115014, 20261126115016: 0 errors
    each) found: Arabic T03's emphatic subject pronoun (أنا جعلت), موقف عظيم, and colloquial
    'chistoso' with 'acontecimientos'."""
    ar = builtin_tables("ar-camara2022")[2].Sentence
    assert not ar.str.contains(r"أنا جعلت|عظيم", regex=True).any()
    assert ar.str.contains("جعلتُ", regex=False).any()
    es = builtin_tables("es-camara2022")[2].Sentence
    assert not es.str.contains(r"chistos", regex=True).any()


def test_arabic_classes_of_the_review_over_name_sentences_are_gone():
    """Seed 20261126123025 (pairs and name sentences): Emily written إيملي, Jonathan in its biblical
    form يوناثان, and منذر بالخطر for events and a conversation."""
    ar = builtin_tables("ar-camara2022")[2].Sentence
    assert not ar.str.contains(r"إيملي|يوناثان|منذر", regex=True).any()
    assert ar.str.contains("إميلي", regex=False).any() and ar.str.contains("جوناثان", regex=False).any()
