"""Shared data for the audit/results GUI tests, the stall bench and the screenshot script.

No tests here: a small corpus definition with every K&M and Beta cell (4 names per race × gender
cell, 2 noun-phrase pairs, 4 emotions, a neutral template: 462 sentences, 63 counterfactual
pairs), a prediction file with a planted bias, and an English FISE test that runs on the
packaged GloVe vectors.
"""
from __future__ import annotations

import json
from pathlib import Path

NAMES = {("female", "African-American"): ["Ebony", "Jasmine", "Lakisha", "Tia"],
         ("male", "African-American"): ["Alonzo", "Darnell", "Jamel", "Jerome"],
         ("female", "European"): ["Amanda", "Betsy", "Ellen", "Katie"],
         ("male", "European"): ["Adam", "Harry", "Josh", "Roger"]}
WORDS = {"anger": (["angry", "furious"], ["irritating"]), "fear": (["scared", "anxious"], ["horrible"]),
         "joy": (["happy", "glad"], ["wonderful"]), "sadness": (["sad", "miserable"], ["depressing"])}


def mini_corpus_text(corpus_id: str = "gui-mini") -> str:
    out = [f'''format = 1
id = "{corpus_id}"
name = "GUI test corpus"
language = "en"
capitalize = true

[features]
role = ["subject", "object"]
gender = ["f", "m"]

[axes.gender]
groups = ["female", "male"]
reference = "male"
feature = {{ female = "f", male = "m" }}

[axes.race]
groups = ["African-American", "European"]
reference = "European"

[[templates]]
id = "T1"
text = "{{person role=subject}} feels {{emotion kind=state}}."

[[templates]]
id = "T2"
text = "I made {{person role=object}} feel {{emotion kind=state}}."

[[templates]]
id = "T3"
text = "The conversation with {{person role=object}} was {{emotion kind=situation}}."

[[templates]]
id = "T4"
text = "I saw {{person role=object}} in the market."
''']
    for (gender, race), names in NAMES.items():
        for n in names:
            out.append(f'[[persons]]\nid = "{n.lower()}"\nkind = "name"\ngender = "{gender}"\nrace = "{race}"\ntext = "{n}"\n')
    out.append('[[persons]]\nid = "np_she"\nkind = "noun_phrase"\ngender = "female"\n'
               'forms = [{ text = "she", role = "subject" }, { text = "her", role = "object" }]\npair = "np_he"\n')
    out.append('[[persons]]\nid = "np_he"\nkind = "noun_phrase"\ngender = "male"\n'
               'forms = [{ text = "he", role = "subject" }, { text = "him", role = "object" }]\npair = "np_she"\n')
    for f, m in (("mother", "father"), ("sister", "brother")):
        out.append(f'[[persons]]\nid = "np_my_{f}"\nkind = "noun_phrase"\ngender = "female"\ntext = "my {f}"\npair = "np_my_{m}"\n')
        out.append(f'[[persons]]\nid = "np_my_{m}"\nkind = "noun_phrase"\ngender = "male"\ntext = "my {m}"\npair = "np_my_{f}"\n')
    for emotion, (states, situations) in WORDS.items():
        for kind, words in (("state", states), ("situation", situations)):
            for w in words:
                out.append(f'[[emotion_words]]\nid = "{w}"\nemotion = "{emotion}"\nkind = "{kind}"\ntext = "{w}"\n')
    return "\n".join(out)


def write_mini_corpus(folder: str | Path, corpus_id: str = "gui-mini") -> Path:
    path = Path(folder) / f"{corpus_id}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(mini_corpus_text(corpus_id), encoding="utf-8")
    return path


def write_predictions(corpus: str | Path, path: str | Path, *, gender: float = 0.05, race: float = 0.03,
                      seed: int = 7, emotions: tuple[str, ...] = ("anger", "fear", "joy", "sadness")) -> Path:
    """A black-box system's scores: noise plus `gender` for women and `race` for minority names."""
    import numpy as np
    import pandas as pd

    from engine.corpus import generate, load_corpus

    c = load_corpus(corpus)
    df = generate(c)
    minority = set(c.race_axis.minority_groups) if c.race_axis is not None else set()
    rng = np.random.default_rng(seed)
    out = pd.DataFrame({"ID": df.ID, "Sentence": df.Sentence})
    for k, e in enumerate(emotions):
        base = 0.35 + 0.1 * k + 0.12 * rng.random(len(df))
        out[e] = base + np.where(df.Gender == "female", gender, 0.0) + np.where(df.Race.isin(minority), race, 0.0)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(path, sep="\t", index=False)
    return path


FISE_EN = {
    "format": "eec-assoc-stimuli/1", "id": "en/fise/occupations", "kind": "fise", "language": "en",
    "title": "FISE (English): occupations by gender and race",
    "source": "word lists written for the EEC Studio tests and screenshots", "license": "MIT",
    "fise": {
        "x": {"name": "gender",
              "pos": {"name": "men", "terms": ["man", "men", "he", "him", "his", "boy", "father", "son", "brother",
                                               "husband", "uncle", "king"]},
              "neg": {"name": "women", "terms": ["woman", "women", "she", "her", "hers", "girl", "mother",
                                                 "daughter", "sister", "wife", "aunt", "queen"]}},
        "y": {"name": "race",
              "pos": {"name": "white", "terms": ["white", "european", "caucasian", "british", "english", "irish",
                                                 "scottish", "german", "french", "swedish"]},
              "neg": {"name": "black", "terms": ["black", "african", "nigerian", "kenyan", "ghanaian", "ethiopian",
                                                 "jamaican", "haitian", "somali", "congolese"]}},
        "targets": {"name": "occupations", "terms": [
            "nurse", "engineer", "doctor", "teacher", "lawyer", "secretary", "pilot", "dancer", "scientist", "cook",
            "farmer", "banker", "plumber", "librarian", "surgeon", "cashier", "carpenter", "receptionist", "soldier",
            "janitor", "professor", "maid", "mechanic", "nanny", "chemist", "driver", "singer", "guard", "artist",
            "manager", "clerk", "athlete", "architect", "hairdresser", "economist", "boxer", "poet", "sailor",
            "tailor", "judge", "designer", "programmer", "cleaner", "musician", "painter", "preacher", "baker",
            "butcher", "dentist", "firefighter"]},
        "target_forms": "each",
        "affect": {"valence": {
            "pos": {"name": "positive", "terms": ["caress", "freedom", "health", "love", "peace", "cheer", "friend",
                                                  "heaven", "loyal", "pleasure", "diamond", "gentle", "honest",
                                                  "lucky", "rainbow", "gift", "honor", "miracle", "sunrise",
                                                  "family", "happy", "laughter", "paradise", "vacation"]},
            "neg": {"name": "negative", "terms": ["abuse", "crash", "filth", "murder", "sickness", "accident",
                                                  "death", "grief", "poison", "stink", "assault", "disaster",
                                                  "hatred", "pollute", "tragedy", "divorce", "jail", "poverty",
                                                  "ugly", "cancer", "kill", "rotten", "vomit", "agony"]}}},
    },
}


def write_fise_test(folder: str | Path) -> Path:
    path = Path(folder) / "fise_en_occupations.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(FISE_EN, indent=1), encoding="utf-8")
    return path


def make_tiny_classifier(folder: str | Path) -> Path:
    """A tiny random BERT sentiment classifier (negative/positive) saved with save_pretrained."""
    from testkit.tiny_models import make_tiny_bert

    return make_tiny_bert(folder, labels=["negative", "positive"], seed=3)


class PacedScorer:
    """A scorer that takes `delay` seconds per batch of 4 texts (deterministic scores from a hash).

    Why: a tiny BERT scores the 462-sentence corpus in a fraction of a second on a fast machine, so
    a test that cancels "half-way" from the UI would race the end of scoring; with a known pace the
    cancel request always arrives while batches are still to come. Module-level (picklable by
    reference), so it also runs inside the audit's own process."""

    name = "paced"
    dimensions = ["valence"]

    def __init__(self, delay: float = 0.03, batch: int = 4) -> None:
        self.delay, self.batch = delay, batch

    def fingerprint(self) -> str:
        return f"paced-test-scorer/{self.batch}"

    def score(self, texts, *, progress=None, cancel=None):
        import hashlib
        import time

        from engine.models.base import make_frame

        from engine.common.progress import ProgressTracker, check_cancel

        tracker = ProgressTracker(len(texts), progress)
        values = []
        for i in range(0, len(texts), self.batch):
            check_cancel(cancel, tracker.done, len(texts))
            time.sleep(self.delay)
            chunk = texts[i:i + self.batch]
            values += [int(hashlib.sha256(t.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF for t in chunk]
            tracker.advance(len(chunk))
        return make_frame(values, self.dimensions)


class TickGaps:
    """Gaps between the ticks of a 10 ms QTimer on the UI thread: how long, each time, the event
    loop could not respond (a click, a repaint). Shared by the audit GUI test and the stall bench."""

    def __init__(self, interval_ms: int = 10) -> None:
        import time

        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self._clock = time.perf_counter
        self._last = 0.0
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = self._clock()
        self.gaps.append(now - self._last)
        self._last = now

    def start(self) -> None:
        self._last = self._clock()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
