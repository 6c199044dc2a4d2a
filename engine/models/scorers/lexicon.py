"""Lexicon sentiment systems that install from PyPI and need no download: VADER and TextBlob.

Mapping to [0, 1] valence (stated once, used everywhere):
* VADER: `valence = (compound + 1) / 2`, where `compound` ∈ [-1, 1] is VADER's normalised
  sum of valences (`polarity_scores(text)["compound"]`).
* TextBlob: `valence = (polarity + 1) / 2`, where `polarity` ∈ [-1, 1] is the PatternAnalyzer
  score (`TextBlob(text).sentiment.polarity`).
Both maps are affine, so differences between paired sentences are simply halved and
their signs and rankings are unchanged; 0.5 means "neutral". English only.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.models.base import WorkerSpec, make_frame, stable_hash

from engine.common.progress import ProgressTracker, check_cancel
from engine.models.errors import ModelError

CHUNK = 256


def _version(dist: str) -> str:
    from importlib import metadata  # 0.1 s to import: only when a fingerprint is asked for

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


class _LexiconScorer:
    dimensions = ["valence"]
    scales = {"valence": (0.0, 1.0)}  # (compound or polarity + 1) / 2
    languages = ("en",)  # English lexicons: other languages score only their English-looking tokens
    kind = ""  # the spec keyword: "vader", "textblob"
    name = ""  # its score columns' prefix: the kind unless renamed (`vader?name=vader-2`)
    dist = ""
    mapping = ""

    def __init__(self, name: str | None = None) -> None:
        self._fn: Callable[[str], float] | None = None
        self.batch_size = CHUNK
        if name:
            self.name = name

    def _raw(self) -> Callable[[str], float]:  # pragma: no cover - overridden
        raise NotImplementedError

    def fingerprint(self) -> str:
        # the kind, not the display name: a renamed VADER gives VADER's scores and shares its cache
        return stable_hash(self.kind, _version(self.dist), self.mapping)

    def worker_spec(self) -> WorkerSpec:
        """Pure-Python and CPU-bound: worker processes re-create it from its spec (`vader`, `textblob`)."""
        if self.name == self.kind:
            return WorkerSpec(self.kind)
        from urllib.parse import urlencode

        return WorkerSpec(f"{self.kind}?{urlencode({'name': self.name})}")

    def warm(self) -> None:
        """Load the lexicon now rather than at the first text (VADER reads its tables, TextBlob its
        pattern lexicon), e.g. before worker processes are forked from this one."""
        if self._fn is None:
            self._fn = self._raw()

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None) -> Any:
        self.warm()
        texts = list(texts)
        tracker = ProgressTracker(len(texts), progress)
        out: list[float] = []
        for start in range(0, len(texts), CHUNK):
            check_cancel(cancel, tracker.done, len(texts))
            chunk = texts[start:start + CHUNK]
            out.extend((self._fn(t) + 1.0) / 2.0 for t in chunk)
            tracker.advance(len(chunk))
        return make_frame(out, self.dimensions)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.name, "name": self.name, "fingerprint": self.fingerprint(), "mapping": self.mapping,
                "package": f"{self.dist} {_version(self.dist)}"}


class VaderScorer(_LexiconScorer):
    """VADER compound score mapped to valence = (compound + 1) / 2."""

    kind = name = "vader"
    dist = "vadersentiment"
    mapping = "valence = (compound + 1) / 2"

    def _raw(self) -> Callable[[str], float]:
        try:
            from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
        except ImportError:
            raise ModelError("vader", "the VADER package is not installed", fix="pip install vadersentiment") from None
        analyzer = SentimentIntensityAnalyzer()
        return lambda t: float(analyzer.polarity_scores(t)["compound"])


class TextBlobScorer(_LexiconScorer):
    """TextBlob (PatternAnalyzer) polarity mapped to valence = (polarity + 1) / 2."""

    kind = name = "textblob"
    dist = "textblob"
    mapping = "valence = (polarity + 1) / 2"

    def _raw(self) -> Callable[[str], float]:
        # what `TextBlob(t).sentiment.polarity` computes (PatternAnalyzer.analyze calls exactly this),
        # without building a TextBlob and a namedtuple class per sentence: 2.3x faster, same numbers
        # (tests/test_models_classic.py compares them)
        pattern_sentiment = _pattern_sentiment()
        return lambda t: float(pattern_sentiment(t)[0])


def _pattern_sentiment() -> Callable[[str], Any]:
    """TextBlob's English `sentiment` (its pattern lexicon), loaded without TextBlob's `__init__`.

    Why: `import textblob` imports NLTK, which imports scipy.stats and scikit-learn — 0.9 s of a
    4-second audit, paid again by every process that scores (the GUI's audit process, each worker
    that is not forked) — while the polarity is computed by `textblob.en` and `textblob._text`
    alone, which import only the standard library. They are loaded under a bare `textblob`
    package that is removed again at once (under the import lock, so no other thread sees it): a
    later `import textblob` anywhere runs TextBlob's own `__init__` and gets its own modules.
    Whatever fails here (another TextBlob layout), the normal import is used."""
    import importlib
    import importlib.util
    import sys

    import _imp

    if "textblob.en" in sys.modules:  # TextBlob is imported already: use its lexicon
        return sys.modules["textblob.en"].sentiment
    try:
        spec = importlib.util.find_spec("textblob")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise ModelError("textblob", "the TextBlob package is not installed", fix="pip install textblob")
    names = ("textblob", "textblob._text", "textblob.en")
    _imp.acquire_lock()
    try:
        saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
        sys.modules["textblob"] = importlib.util.module_from_spec(spec)  # a package whose __init__ never ran
        try:
            return importlib.import_module("textblob.en").sentiment
        except Exception:  # noqa: BLE001 - not the layout this was written for: the normal import below
            pass
        finally:
            for n in names:
                sys.modules.pop(n, None)
            sys.modules.update(saved)
    finally:
        _imp.release_lock()
    try:
        from textblob.en.sentiments import pattern_sentiment
    except ImportError:
        raise ModelError("textblob", "the TextBlob package is not installed", fix="pip install textblob") from None
    return pattern_sentiment
