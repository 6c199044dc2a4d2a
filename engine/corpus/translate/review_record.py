"""A native-speaker review as a measured error rate: sample sheet, signed record, interval.

Why: "clean" is an adjective; a reader needs a rate with its sample size. A review draws a
random sample of counterfactual pairs (or of sentences, where a corpus has no pairs) with a
seed, a reviewer who did not make the corrections gives every item a verdict
(``ok``/``awkward``/``error``, ../shared/review-rubric.md), and the record is stored beside
the definition (``<id>.reviews.json``). The error rate is shown with its exact 95 %
Clopper–Pearson interval, e.g. "native review: 100 pairs, 1 error, 0.03–5.4 %".

A record keeps the sampled texts, so a later change to the corpus can be seen: the summary
then says how many reviewed items no longer read as reviewed (``stale``).
"""
from __future__ import annotations

import csv
import datetime as _dt
import io
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.common.errors import UsageError
from engine.common.io import atomic_write_text

from engine.corpus.definition.model import CorpusDefinition

if TYPE_CHECKING:
    from engine.corpus.generate.compiled import CompiledCorpus

VERDICTS = ("ok", "awkward", "error")
# the rubric's classes (../shared/review-rubric.md), as short names a sheet can carry
ERROR_CLASSES = ("grammar", "agreement", "lexical", "register", "spelling", "pair")
SHEET_COLUMNS = ["item", "unit", "corpus", "seed", "item_id", "template_id", "variable", "side_a", "side_b",
                 "verdict", "error_class", "correction", "comment"]
RECORD_SUFFIX = ".reviews.json"


@dataclass
class SampleItem:
    item: int  # 1-based position in the sheet
    item_id: str  # pair id or sentence id
    template_id: str
    variable: str  # the pair's variable ("" for sentences)
    side_a: str  # privileged side, or the sentence
    side_b: str = ""  # minoritised side ("" for sentences)


@dataclass
class Sample:
    corpus: str
    seed: int
    unit: str  # "pairs" | "sentences"
    population: int  # how many pairs/sentences the corpus has
    items: list[SampleItem]


@dataclass
class ReviewedItem:
    item_id: str
    template_id: str
    side_a: str
    side_b: str
    verdict: str
    error_class: str = ""
    correction: str = ""
    comment: str = ""


@dataclass
class ReviewRecord:
    corpus: str
    reviewer: str
    date: str  # ISO date the verdicts were given
    seed: int
    unit: str
    population: int
    items: list[ReviewedItem] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.items)

    @property
    def errors(self) -> int:
        return sum(1 for i in self.items if i.verdict == "error")

    @property
    def awkward(self) -> int:
        return sum(1 for i in self.items if i.verdict == "awkward")

    @property
    def interval(self) -> tuple[float, float]:
        return clopper_pearson(self.errors, self.n)

    @property
    def pairs_reviewed(self) -> int:
        """How many of the sampled items are pairs (the rest are single sentences)."""
        return sum(1 for i in self.items if i.side_b)

    def interval_text(self) -> str:
        """'0.025–5.4 %': the 95 % Clopper–Pearson interval of the error rate."""
        from engine.common.fmt import percent  # fmt loads numpy: `import engine.corpus` must not (GUI start)

        lo, hi = self.interval
        return f"{percent(lo)}–{percent(hi)} %"

    def summary(self) -> str:
        """'native review: 100 pairs, 1 error, 0.03–5.4 %' (the 95 % Clopper–Pearson interval); a sample
        of pairs and single sentences says '100 items (40 pairs, 60 sentences)'."""
        err = f"{self.errors} error" + ("" if self.errors == 1 else "s")
        what = f"{self.n} {self.unit}"
        if self.unit == "items":
            what += f" ({self.pairs_reviewed} pairs, {self.n - self.pairs_reviewed} sentences)"
        return f"native review: {what}, {err}, {self.interval_text()}"

    def error_classes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in self.items:
            if i.verdict == "error":
                out[i.error_class] = out.get(i.error_class, 0) + 1
        return out


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The exact (conservative) binomial interval; (0, 1) for an empty sample."""
    if n <= 0:
        return 0.0, 1.0
    from scipy.stats import beta

    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


# ---------------------------------------------------------------- sampling

def population(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> tuple[str, list[SampleItem]]:
    """Every reviewable unit of the corpus: its counterfactual pairs, and every sentence no pair
    covers (a corpus whose pairs are its noun phrases has most of its name sentences outside them:
    2/3 of the Câmara and Kiritchenko corpora). The unit is "pairs", "sentences" or "items" (both).

    Ids and texts are those of ``generate_pairs`` and ``generate``, read from the realised sentences
    (no tables built); with the ``compiled`` corpus a ``check_corpus(..., keep_sentences=True)`` left
    them on, nothing is realised again."""
    from engine.corpus.generate.compiled import CompiledCorpus
    from engine.corpus.pairs.pairing import realise_all
    from engine.corpus.pairs.tables import usable_pair_rows

    cc = compiled or CompiledCorpus(corpus)
    sentences = realise_all(cc)
    prefix = corpus.id_prefix or corpus.id
    units, covered = [], set()
    for i, (ct, pp, a, b) in enumerate(usable_pair_rows(corpus, cc)):
        units.append(SampleItem(0, f"{prefix}-P{i:05d}", ct.id, pp.variable, a.realisation.sentence,
                                b.realisation.sentence))
        covered.update((a.id, b.id))
    single = [SampleItem(0, r.id, r.template.id, "", r.realisation.sentence)
              for r in sentences.values() if r.id not in covered]
    unit = "items" if units and single else "pairs" if units else "sentences"
    return unit, units + single


def draw_sample(corpus: CorpusDefinition, n: int = 100, seed: int | None = None) -> Sample:
    """``n`` units drawn without replacement by ``random.Random(seed)`` (stable across versions),
    in corpus order. Without a seed, one is made from the clock (UTC, as digits)."""
    if seed is None:
        seed = new_seed()
    unit, units = population(corpus)
    if not units:
        raise UsageError("the corpus generates no sentences to review", file=corpus.path or corpus.id,
                         fix="run `corpus check` and fix its errors first")
    picked = sorted(random.Random(seed).sample(range(len(units)), min(n, len(units))))
    items = [SampleItem(k + 1, units[i].item_id, units[i].template_id, units[i].variable, units[i].side_a,
                        units[i].side_b) for k, i in enumerate(picked)]
    return Sample(corpus.id, seed, unit, len(units), items)


def new_seed() -> int:
    return int(_dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d%H%M%S"))


def sheet_text(sample: Sample) -> str:
    """The sheet a reviewer fills in (CSV, UTF-8; verdict, error_class, correction, comment empty)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(SHEET_COLUMNS)
    for it in sample.items:
        w.writerow([it.item, sample.unit, sample.corpus, sample.seed, it.item_id, it.template_id, it.variable,
                    it.side_a, it.side_b, "", "", "", ""])
    return buf.getvalue()


def write_sheet(sample: Sample, path: str | Path) -> Path:
    path = Path(path)
    atomic_write_text(path, sheet_text(sample))
    return path


# ---------------------------------------------------------------- import

def read_review(corpus: CorpusDefinition, sheet: str | Path, reviewer: str, date: str | None = None) -> ReviewRecord:
    """Check a filled-in sheet against the corpus as it is now and return the record.

    The sheet must be the sample its seed draws from today's corpus (same items, same text):
    a verdict on text that has since changed would be a verdict on another corpus. Every
    problem is one UsageError naming the sheet's line and field.
    """
    sheet = Path(sheet)
    if not reviewer.strip():
        raise UsageError("a review needs the reviewer's name", field="--reviewer", fix="pass --reviewer NAME")
    if date is None:
        date = _dt.date.today().isoformat()
    else:
        try:
            _dt.date.fromisoformat(date)
        except ValueError:
            raise UsageError(f"not a date: {date!r}", field="--date", fix="write it as YYYY-MM-DD") from None
    try:
        text = sheet.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError("no such file", file=str(sheet), fix="give the path of the filled-in sheet") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the sheet ({type(exc).__name__})", file=str(sheet),
                         fix="save it as UTF-8 CSV") from None
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows:
        raise UsageError("the sheet has no rows", file=str(sheet), fix="fill in the sheet `corpus review-sample` wrote")
    missing = [c for c in ("seed", "item_id", "side_a", "side_b", "verdict", "error_class", "correction")
               if c not in rows[0]]
    if missing:
        raise UsageError(f"column(s) missing: {', '.join(missing)}", file=str(sheet), line=1,
                         fix="keep the columns `corpus review-sample` wrote")
    seeds = {r["seed"] for r in rows}
    if len(seeds) != 1 or not next(iter(seeds)).strip().isdigit():
        raise UsageError("the seed column must hold one whole number on every row", file=str(sheet), field="seed",
                         fix="do not edit the seed; draw a new sheet instead")
    seed = int(next(iter(seeds)))
    sample = draw_sample(corpus, len(rows), seed)
    expected = {it.item_id: it for it in sample.items}
    items: list[ReviewedItem] = []
    seen: set[str] = set()
    for line, r in enumerate(rows, start=2):
        iid = (r.get("item_id") or "").strip()
        want = expected.get(iid)
        if want is None or iid in seen:
            why = "appears twice" if iid in seen else f"is not in the sample seed {seed} draws from {corpus.id} today"
            raise UsageError(f"item {iid!r} {why}", file=str(sheet), line=line, field="item_id",
                             fix="the corpus changed since the sheet was drawn, or rows were edited: draw a new sheet")
        seen.add(iid)
        if (r.get("side_a") or "") != want.side_a or (r.get("side_b") or "") != want.side_b:
            raise UsageError(f"the text of {iid} differs from what the corpus generates today", file=str(sheet),
                             line=line, field="side_a/side_b",
                             fix="put corrections in the correction column, not in the sentence; or draw a new sheet")
        verdict = (r.get("verdict") or "").strip().lower()
        if verdict not in VERDICTS:
            raise UsageError(f"verdict {r.get('verdict')!r} of {iid}", file=str(sheet), line=line, field="verdict",
                             fix=f"write one of {', '.join(VERDICTS)}")
        cls = (r.get("error_class") or "").strip().lower()
        correction = (r.get("correction") or "").strip()
        if verdict != "ok":
            if cls not in ERROR_CLASSES:
                raise UsageError(f"error class {r.get('error_class')!r} of {iid} ({verdict})", file=str(sheet),
                                 line=line, field="error_class", fix=f"write one of {', '.join(ERROR_CLASSES)}")
            if not correction:
                raise UsageError(f"{iid} is marked {verdict} without a correction", file=str(sheet), line=line,
                                 field="correction", fix="write the corrected sentence(s)")
        items.append(ReviewedItem(iid, want.template_id, want.side_a, want.side_b, verdict,
                                  cls if verdict != "ok" else "", correction, (r.get("comment") or "").strip()))
    if len(items) != len(sample.items):
        raise UsageError(f"{len(items)} rows for a sample of {len(sample.items)}", file=str(sheet),
                         fix="keep every row the sheet was drawn with")
    return ReviewRecord(corpus.id, reviewer.strip(), date, seed, sample.unit, sample.population, items)


# ---------------------------------------------------------------- storage

def records_path(corpus: CorpusDefinition) -> Path:
    if not corpus.path:
        raise UsageError("the corpus has no file to store its review beside", field="corpus",
                         fix="save the corpus to a .toml file first")
    p = Path(corpus.path)
    return p.with_name(p.stem + RECORD_SUFFIX)


def load_records(corpus: CorpusDefinition) -> list[ReviewRecord]:
    """The corpus's reviews, oldest first ([] when it has none or no file)."""
    if not corpus.path:
        return []
    path = records_path(corpus)
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [ReviewRecord(**{**r, "items": [ReviewedItem(**i) for i in r["items"]]}) for r in data["reviews"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"unreadable review record ({type(exc).__name__})", file=str(path),
                         fix="restore it from version control or delete it") from None


def save_record(corpus: CorpusDefinition, record: ReviewRecord) -> Path:
    """Append ``record`` to the corpus's review file (atomically)."""
    records = load_records(corpus) + [record]
    path = records_path(corpus)
    data = {"corpus": corpus.id, "rubric": "shared/review-rubric.md (verdicts ok/awkward/error)",
            "reviews": [asdict(r) for r in records]}
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return path


@dataclass
class ReviewStatus:
    record: ReviewRecord | None
    stale: int = 0  # reviewed items whose text the corpus no longer generates

    def text(self) -> str:
        if self.record is None:
            return "not reviewed"
        out = self.record.summary()
        if self.stale:
            out += f" (text changed since: {self.stale} of {self.record.n} reviewed items differ)"
        return out


def review_status(corpus: CorpusDefinition, check_stale: bool = True,
                  compiled: CompiledCorpus | None = None) -> ReviewStatus:
    """The latest review, and how many of its items the corpus still generates as reviewed
    (``compiled``: see ``population``)."""
    records = load_records(corpus)
    if not records:
        return ReviewStatus(None)
    last = records[-1]
    if not check_stale:
        return ReviewStatus(last)
    _, units = population(corpus, compiled)
    now = {u.item_id: (u.side_a, u.side_b) for u in units}
    stale = sum(1 for i in last.items if now.get(i.item_id) != (i.side_a, i.side_b))
    return ReviewStatus(last, stale)
