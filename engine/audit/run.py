"""Run an audit: generate each corpus, score it with each scorer, compute the statistics.

Output folder contract (read by the HTML report and the GUI):
    manifest.json                      run manifest (corpora hashes, scorer fingerprints, settings, versions)
    scores/<corpus>.csv                the generated corpus + one column per scorer × dimension ("scorer:dim")
    pairs/<corpus>.csv                 counterfactual pairs with ":privileged"/":minoritised" score columns
    stats/beta.csv, stats/paired.csv, stats/paired_pairs.csv, stats/counterfactual.csv   tidy tables
    stats/*.parquet, scores/*.parquet  the same tidy tables as parquet (typed columns, for pandas/R/Arrow)
    tables/<stat>.md, tables/<stat>.tex   rendered in the papers' layouts
    plots/<stat>.svg                   forest plots (estimate and CI per row), no plotting library needed
    summary.txt                        the results objects' own summaries
Why files: results outlive the process, and a cancelled run resumes from the score cache.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from engine.corpus import CompiledCorpus, generate, load_corpus
from engine.common.io import atomic_write_bytes
from engine.corpus.registry import resolve_path
from engine.models.base import Cancelled, is_cancelled

from .manifest import device_info, now_iso, package_versions, sha256_file, sha256_text
from .plan import AuditPlan

LogFn = Callable[[str], None]


@dataclass
class AuditResult:
    out_dir: Path | None
    scores: dict[str, pd.DataFrame] = field(default_factory=dict)
    pairs: dict[str, pd.DataFrame] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    results: dict[str, list[Any]] = field(default_factory=dict)
    manifest: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = []
        for name, items in self.results.items():
            for r in items:
                parts.append(r.summary())
        if self.problems:
            parts.append("problems:\n" + "\n".join(f"  - {p}" for p in self.problems))
        return "\n\n".join(parts)


def _pair_table(corpus) -> pd.DataFrame | None:
    try:
        from engine.corpus.pairs import generate_pairs
    except ImportError:
        return None
    pairs = generate_pairs(corpus)
    return pairs if pairs is not None and len(pairs) else None


def run_audit(plan: AuditPlan, *, progress: Callable[[int, int, float | None], None] | None = None,
              cancel: Any = None, log: LogFn | None = None) -> AuditResult:
    """Headless audit; raises engine.models.base.Cancelled when `cancel` is set (scores so far stay cached).

    `progress(done, total, eta_seconds)` counts texts over the whole plan (cache hits included);
    `cancel` is a callable or a `threading.Event`, checked between batches and before each
    statistic; `Cancelled.stage` says which ("scoring" or "statistics"). Nothing is written
    to `out_dir` unless the run completes.
    """
    from engine.audit.cache import ScoreCache

    plan.validate()
    cache = ScoreCache(plan.cache_dir)
    try:
        return _run(plan, cache, progress, cancel, log or (lambda _msg: None))
    finally:
        cache.close()


def _run(plan: AuditPlan, cache: Any, progress: Any, cancel: Any, say: LogFn) -> AuditResult:
    from engine.models.specs import load_scorer
    from engine.audit.scoring import score_texts

    started = time.perf_counter()
    result = AuditResult(plan.out_dir)
    plan_scorers = [s if isinstance(s, str) else f"<object {type(s).__name__}>" for s in plan.scorers]
    manifest: dict[str, Any] = {"created": now_iso(), "plan": {"corpora": plan.corpora, "scorers": plan_scorers,
                                "stats": plan.stats, "settings": plan.settings}, "corpora": {}, "scorers": {},
                                "versions": package_versions()}

    # 1. corpora
    corpora = []
    for name in plan.corpora:
        corpus = load_corpus(name)
        df = generate(corpus, CompiledCorpus(corpus))
        pairs = _pair_table(corpus) if "counterfactual" in plan.stats else None
        path = resolve_path(name)
        manifest["corpora"][corpus.id] = {"definition": str(path), "definition_sha256": sha256_file(path),
                                          "sentences": len(df), "corpus_sha256": sha256_text("\n".join(df.Sentence)),
                                          "pairs": 0 if pairs is None else len(pairs)}
        corpora.append((corpus, df, pairs))
        say(f"{corpus.id}: {len(df):,} sentences" + (f", {len(pairs):,} pairs" if pairs is not None else ""))

    # 2. scoring (one progress bar over everything)
    scorers = []
    ids: dict[str, str] = {}  # sentence -> corpus ID, for prediction files keyed by ID
    for _corpus, df, _pairs in corpora:
        for sid, sentence in zip(df.ID, df.Sentence):
            ids.setdefault(sentence, sid)
    for spec in plan.scorers:
        # a spec string (engine.models.specs) or a ready scorer object (notebooks, tests, the GUI)
        scorer = load_scorer(spec, allow_pickle=plan.allow_pickle, ids=ids) if isinstance(spec, str) else spec
        if scorer.name in manifest["scorers"]:
            raise ValueError(f"audit: two models are both named {scorer.name!r}; their score columns would clash — "
                             f"give one another name (append ?name=OTHER to its --model spec)")
        scorers.append(scorer)
        manifest["scorers"][scorer.name] = scorer_record(spec, scorer)
    jobs = []
    for corpus, df, pairs in corpora:
        texts = list(dict.fromkeys(df.Sentence))
        if pairs is not None:
            texts = list(dict.fromkeys(texts + list(pairs.privileged) + list(pairs.minoritised)))
        for scorer in scorers:
            jobs.append((corpus, scorer, texts))
    total = sum(len(t) for _, _, t in jobs)
    offset = 0
    eta = _PlanEta([(scorer.name, len(texts)) for _corpus, scorer, texts in jobs])
    scored: dict[tuple[str, str], dict[str, pd.Series]] = {}
    manifest["scoring"] = []
    for j, (corpus, scorer, texts) in enumerate(jobs):
        say(f"scoring {corpus.id} with {scorer.name} ({len(texts):,} texts)")
        eta.start_job(j)

        def relay(done: int, _total: int, job_eta: float | None, _off: int = offset, _j: int = j) -> None:
            if progress is not None:
                progress(_off + done, total, eta.estimate(_j, done, job_eta))

        frame = score_texts(scorer, texts, cache=cache, progress=relay, cancel=cancel)
        eta.end_job(j)
        stats = frame.attrs.get("scoring")
        if stats is not None:
            say(f"  {stats.scored:,} scored, {stats.cache_hits:,} from cache, {stats.seconds:.1f} s")
            manifest["scoring"].append({"corpus": corpus.id, "scorer": scorer.name, "texts": stats.unique,
                                        "scored": stats.scored, "cache_hits": stats.cache_hits,
                                        "seconds": round(stats.seconds, 3)})
        scored[(corpus.id, scorer.name)] = {dim: pd.Series(frame[dim].to_numpy(), index=texts) for dim in scorer.dimensions}
        offset += len(texts)
    if progress is not None:
        progress(total, total, 0.0)

    # 3. tables with score columns; Cancel still works here (bootstraps and Beta fits take a while):
    # checked before every statistic and before anything is written, so a cancelled run leaves no
    # half-written results folder and its scores are all in the cache
    def stop_here() -> None:
        if is_cancelled(cancel):
            raise Cancelled(total, total, stage="statistics")

    for corpus, df, pairs in corpora:
        df = df.copy()
        score_cols: dict[str, tuple[str, str]] = {}
        for scorer in scorers:
            for dim, series in scored[(corpus.id, scorer.name)].items():
                col = f"{scorer.name}:{dim}"
                df[col] = df.Sentence.map(series).to_numpy()
                score_cols[col] = (scorer.name, dim)
        result.scores[corpus.id] = df
        if pairs is not None:
            pairs = pairs.copy()
            if "corpus" not in pairs.columns:
                pairs["corpus"] = corpus.id
            for col, (sname, dim) in score_cols.items():
                series = scored[(corpus.id, sname)][dim]
                pairs[f"{col}:privileged"] = pairs.privileged.map(series).to_numpy()
                pairs[f"{col}:minoritised"] = pairs.minoritised.map(series).to_numpy()
            result.pairs[corpus.id] = pairs
        _statistics(plan, corpus, df, pairs, score_cols, result, say, stop_here)

    stop_here()
    manifest["device"] = device_info()
    manifest["seconds"] = round(time.perf_counter() - started, 3)
    manifest["problems"] = result.problems
    manifest["cache"] = {"path": str(cache.path), "hits": cache.hits, "misses": cache.misses, "writes": cache.writes}
    result.manifest = manifest
    if plan.out_dir is not None:
        write_outputs(result, Path(plan.out_dir))
        say(f"results written to {plan.out_dir}")
    return result


def _statistics(plan: AuditPlan, corpus, df: pd.DataFrame, pairs: pd.DataFrame | None,
                score_cols: dict[str, tuple[str, str]], result: AuditResult, say: LogFn,
                stop_here: Callable[[], None] = lambda: None) -> None:
    import engine.stats as st

    correction = plan.setting("correction", None)
    seed = plan.setting("seed", 0)
    n_resamples = plan.setting("n_resamples", 1000)

    def keep(name: str, fn: Callable[[], Any]) -> None:
        stop_here()
        try:
            res = fn()
        except (ValueError, KeyError) as exc:  # one degenerate input must not sink the audit
            msg = f"{name} on {corpus.id}: {exc}"
            result.problems.append(msg)
            say(f"  skipped: {msg}")
            return
        result.results.setdefault(name, []).append(res)
        frame = res.to_frame()
        result.tables[name] = pd.concat([result.tables.get(name, pd.DataFrame()), frame], ignore_index=True)
        if name == "paired" and getattr(res, "pairs", None) is not None:
            result.tables["paired_pairs"] = pd.concat([result.tables.get("paired_pairs", pd.DataFrame()), res.pairs],
                                                      ignore_index=True)

    race = corpus.race_axis
    beta_cols = unit_interval_columns(df, score_cols)
    if "beta" in plan.stats and race is not None:
        for col in sorted(set(score_cols) - set(beta_cols)):
            msg = (f"Beta regression on {corpus.id}: {col} lies outside [0, 1] (e.g. 1–5 stars) and is left out; "
                   f"use its [0, 1] column (such as expected_01) for the regression")
            result.problems.append(msg)
            say(f"  note: {msg}")
    if "beta" in plan.stats and race is not None and beta_cols:
        say(f"  Beta regression on {corpus.id}")
        keep("beta", lambda: st.beta_regression(df, beta_cols, corpus=corpus.id,
                                                 minority=_minority(race), majority=race.reference,
                                                 noun_phrases=plan.setting("noun_phrases", "exclude"),
                                                 correction=correction))
    if "paired" in plan.stats:
        say(f"  paired analysis on {corpus.id}")
        np_pairs = noun_phrase_pairs(corpus, pairs)
        axis = "both" if race is not None else "gender"
        keep("paired", lambda: st.km_paired_analysis(df, score_cols, axis=axis, corpus=corpus.id,
                                                      minority=_minority(race) if race else None,
                                                      majority=race.reference if race else None,
                                                      np_pairs=np_pairs or None, alpha=plan.setting("alpha", 0.05),
                                                      correction=correction, n_resamples=n_resamples, seed=seed))
    if "counterfactual" in plan.stats and pairs is not None:
        say(f"  counterfactual analysis on {corpus.id}")
        p = result.pairs[corpus.id]
        for col, (sname, dim) in score_cols.items():
            keep("counterfactual", lambda col=col, sname=sname, dim=dim: st.counterfactual_analysis(
                p, f"{col}:privileged", f"{col}:minoritised", model=sname, emotion=dim, corpus=corpus.id,
                band_share=plan.setting("band_share", 0.03), correction=correction,
                n_resamples=n_resamples, seed=seed))


def unit_interval_columns(df: pd.DataFrame, score_cols: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """The score columns a Beta regression can take: every non-missing value within [0, 1].

    Why: a classifier also reports its expected star rating (1–5) and argmax label; one such column
    must not sink the regression of the [0, 1] columns beside it (its ``expected_01`` twin).
    """
    keep: dict[str, tuple[str, str]] = {}
    for col, label in score_cols.items():
        values = pd.to_numeric(df[col], errors="coerce").dropna()
        if len(values) and values.between(0.0, 1.0).all():
            keep[col] = label
    return keep


def scorer_record(spec: Any, scorer: Any) -> dict[str, Any]:
    """What the run manifest says about one scorer: spec, fingerprint, and how it was built and run."""
    rec: dict[str, Any] = {"spec": spec if isinstance(spec, str) else f"<object {type(scorer).__name__}>",
                           "fingerprint": scorer.fingerprint(), "dimensions": list(scorer.dimensions)}
    describe = getattr(scorer, "describe", None)
    if callable(describe):
        try:
            rec["describe"] = describe()
        except Exception as exc:  # noqa: BLE001 - a description must never sink the audit
            rec["describe"] = {"error": f"{type(exc).__name__}: {exc}"}
    trained = getattr(scorer, "manifest", None)
    if isinstance(trained, dict) and trained:
        keep = ("system", "name", "language", "model_id", "model_fingerprint", "seed", "seeds", "created",
                "preprocess", "metrics", "paper_row")
        rec["trained"] = {k: trained[k] for k in keep if k in trained}
        rec["trained"]["data"] = [{k: d.get(k) for k in ("role", "path", "sha256", "rows")}
                                  for d in trained.get("data", []) if isinstance(d, dict)]
        rec["trained"]["versions"] = trained.get("versions", {})
    return rec


class _PlanEta:
    """ETA over a whole plan: the current job's own ETA plus the later jobs at observed rates.

    Why not just the job's ETA: an audit is several (corpus × scorer) jobs, and a bar that
    says "0 s left" at the end of each job is useless. Later jobs are costed at the seconds
    per text their scorer took before (cache hits included), else the current job's rate.
    """

    def __init__(self, jobs: list[tuple[str, int]]):
        self.jobs = jobs
        self.rate: dict[str, float] = {}  # scorer name -> seconds per text, from finished jobs
        self._t0 = 0.0

    def start_job(self, j: int) -> None:
        self._t0 = time.perf_counter()

    def end_job(self, j: int) -> None:
        name, n = self.jobs[j]
        if n:
            self.rate[name] = (time.perf_counter() - self._t0) / n

    def estimate(self, j: int, done: int, job_eta: float | None) -> float | None:
        name, n = self.jobs[j]
        elapsed = time.perf_counter() - self._t0
        rate_now = None  # seconds per text of the current scorer, as seen in this job
        if job_eta is not None and n > done:
            rate_now = job_eta / (n - done)
        elif done and elapsed > 0:
            rate_now = elapsed / done
        current = self.rate.get(name, rate_now)
        if job_eta is None:
            if current is None:
                return None
            job_eta = max(n - done, 0) * current
        rest = 0.0
        for later, m in self.jobs[j + 1:]:
            r = self.rate.get(later, current if later == name else None)
            if r is None:
                r = rate_now if rate_now is not None else (current or 0.0)
            rest += m * r
        return job_eta + rest


def noun_phrase_pairs(corpus, pairs: pd.DataFrame | None = None) -> dict[str, str] | None:
    """{female person id: male person id} for noun phrases (my mother ↔ my father).

    From the persons' own `pair` field, else from the corpus's gender [[pairs]] (as in the
    counterfactual pair corpora), oriented by each person's gender.
    """
    gender = {p.id: p.gender for p in corpus.persons}
    out = {p.id: p.pair for p in corpus.persons if p.pair and p.gender == "female"}
    for p in corpus.persons:  # a male entry that names its female counterpart
        if p.pair and p.gender == "male" and gender.get(p.pair) == "female":
            out.setdefault(p.pair, p.id)
    for pair in getattr(corpus, "pairs", []) or []:
        if getattr(pair, "variable", "") != "gender" or getattr(pair, "match", "zip") != "zip":
            continue
        for a, b in zip(pair.privileged, pair.minoritised):
            if gender.get(a) == "male" and gender.get(b) == "female":
                out.setdefault(b, a)
            elif gender.get(a) == "female" and gender.get(b) == "male":
                out.setdefault(a, b)
    return out or None


def _minority(axis) -> str | None:
    groups = axis.minority_groups
    return groups[0] if len(groups) == 1 else None


def write_outputs(result: AuditResult, out: Path) -> None:
    import engine.stats as st

    out.mkdir(parents=True, exist_ok=True)
    for cid, df in result.scores.items():
        atomic_write_bytes(out / "scores" / f"{cid}.csv", df.to_csv(index=False).encode("utf-8"))
        _write_parquet(df, out / "scores" / f"{cid}.parquet", result)
    for cid, df in result.pairs.items():
        atomic_write_bytes(out / "pairs" / f"{cid}.csv", df.to_csv(index=False).encode("utf-8"))
    for name, df in result.tables.items():
        atomic_write_bytes(out / "stats" / f"{name}.csv", df.to_csv(index=False).encode("utf-8"))
        _write_parquet(df, out / "stats" / f"{name}.parquet", result)
    for name, items in result.results.items():
        md, tex = [], []
        for r in items:
            try:
                md.append(st.to_markdown(r))
                tex.append(st.to_latex(r))
            except (ValueError, KeyError, TypeError) as exc:
                result.problems.append(f"table layout for {name}: {exc}")
        if md:
            atomic_write_bytes(out / "tables" / f"{name}.md", "\n\n".join(md).encode("utf-8"))
            atomic_write_bytes(out / "tables" / f"{name}.tex", "\n\n".join(tex).encode("utf-8"))
    from .plots import write_plots

    write_plots(result.tables, out / "plots")
    atomic_write_bytes(out / "summary.txt", result.summary().encode("utf-8"))
    atomic_write_bytes(out / "manifest.json", json.dumps(result.manifest, indent=2, ensure_ascii=False,
                                                        default=str).encode("utf-8"))


def _write_parquet(df: pd.DataFrame, path: Path, result: AuditResult) -> None:
    """Parquet copy of a tidy table; mixed-type object columns are written as text."""
    import io

    frame = df.copy()
    for col in frame.columns:
        if frame[col].dtype == object:
            kinds = {type(v) for v in frame[col].dropna()}
            if len(kinds) > 1 or (kinds and not kinds <= {str}):
                frame[col] = frame[col].map(lambda v: v if v is None or (isinstance(v, float) and v != v) else str(v))
    buf = io.BytesIO()
    try:
        frame.to_parquet(buf, index=False)
    except (ImportError, ValueError, TypeError) as exc:  # pyarrow missing or an odd column: CSV still stands
        result.problems.append(f"parquet for {path.name}: {exc}")
        return
    atomic_write_bytes(path, buf.getvalue())
