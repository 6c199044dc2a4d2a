"""Run an audit: generate each corpus, score it with each scorer, compute the statistics.

Output folder contract (read by the HTML report and the GUI):
    manifest.json                      run manifest (corpora hashes, scorer fingerprints, settings, versions)
    scores/<corpus>.csv                the generated corpus + one column per scorer × dimension ("scorer:dim")
    pairs/<corpus>.csv                 counterfactual pairs with ":privileged"/":minoritised" score columns
    stats/beta.csv, stats/paired.csv, stats/paired_pairs.csv, stats/counterfactual.csv   tidy tables
    tables/<stat>.md, tables/<stat>.tex   rendered in the papers' layouts
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
from engine.corpus.export import atomic_write_bytes
from engine.corpus.registry import resolve_path

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
    """Headless audit; raises engine.models.base.Cancelled when `cancel` is set (scores so far stay cached)."""
    from engine.models.specs import load_scorer
    from engine.runner.cache import ScoreCache
    from engine.runner.scoring import score_texts

    plan.validate()
    say = log or (lambda _msg: None)
    started = time.perf_counter()
    cache = ScoreCache(plan.cache_dir)
    result = AuditResult(plan.out_dir)
    manifest: dict[str, Any] = {"created": now_iso(), "plan": {"corpora": plan.corpora, "scorers": plan.scorers,
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
        scorer = load_scorer(spec, allow_pickle=plan.allow_pickle, ids=ids)
        scorers.append(scorer)
        manifest["scorers"][scorer.name] = {"spec": spec, "fingerprint": scorer.fingerprint(),
                                            "dimensions": list(scorer.dimensions)}
    jobs = []
    for corpus, df, pairs in corpora:
        texts = list(dict.fromkeys(df.Sentence))
        if pairs is not None:
            texts = list(dict.fromkeys(texts + list(pairs.privileged) + list(pairs.minoritised)))
        for scorer in scorers:
            jobs.append((corpus, scorer, texts))
    total = sum(len(t) for _, _, t in jobs)
    offset = 0
    scored: dict[tuple[str, str], dict[str, pd.Series]] = {}
    for corpus, scorer, texts in jobs:
        say(f"scoring {corpus.id} with {scorer.name} ({len(texts):,} texts)")

        def relay(done: int, _total: int, eta: float | None, _off: int = offset) -> None:
            if progress is not None:
                progress(_off + done, total, eta)

        frame = score_texts(scorer, texts, cache=cache, progress=relay, cancel=cancel)
        stats = frame.attrs.get("scoring")
        if stats is not None:
            say(f"  {stats.scored:,} scored, {stats.cache_hits:,} from cache, {stats.seconds:.1f} s")
        scored[(corpus.id, scorer.name)] = {dim: pd.Series(frame[dim].to_numpy(), index=texts) for dim in scorer.dimensions}
        offset += len(texts)
    if progress is not None:
        progress(total, total, 0.0)

    # 3. tables with score columns
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
        _statistics(plan, corpus, df, pairs, score_cols, result, say)

    manifest["device"] = device_info()
    manifest["seconds"] = round(time.perf_counter() - started, 3)
    manifest["problems"] = result.problems
    manifest["cache"] = str(cache.path)
    result.manifest = manifest
    if plan.out_dir is not None:
        write_outputs(result, Path(plan.out_dir))
        say(f"results written to {plan.out_dir}")
    return result


def _statistics(plan: AuditPlan, corpus, df: pd.DataFrame, pairs: pd.DataFrame | None,
                score_cols: dict[str, tuple[str, str]], result: AuditResult, say: LogFn) -> None:
    import engine.stats as st

    correction = plan.setting("correction", None)
    seed = plan.setting("seed", 0)
    n_resamples = plan.setting("n_resamples", 1000)

    def keep(name: str, fn: Callable[[], Any]) -> None:
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
    if "beta" in plan.stats and race is not None:
        say(f"  Beta regression on {corpus.id}")
        keep("beta", lambda: st.beta_regression(df, score_cols, corpus=corpus.id,
                                                 minority=_minority(race), majority=race.reference,
                                                 noun_phrases=plan.setting("noun_phrases", "exclude"),
                                                 correction=correction))
    if "paired" in plan.stats:
        say(f"  paired analysis on {corpus.id}")
        np_pairs = {p.id: p.pair for p in corpus.persons if p.pair and p.gender == "female"}
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


def _minority(axis) -> str | None:
    groups = axis.minority_groups
    return groups[0] if len(groups) == 1 else None


def write_outputs(result: AuditResult, out: Path) -> None:
    import engine.stats as st

    out.mkdir(parents=True, exist_ok=True)
    for cid, df in result.scores.items():
        atomic_write_bytes(out / "scores" / f"{cid}.csv", df.to_csv(index=False).encode("utf-8"))
    for cid, df in result.pairs.items():
        atomic_write_bytes(out / "pairs" / f"{cid}.csv", df.to_csv(index=False).encode("utf-8"))
    for name, df in result.tables.items():
        atomic_write_bytes(out / "stats" / f"{name}.csv", df.to_csv(index=False).encode("utf-8"))
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
    atomic_write_bytes(out / "summary.txt", result.summary().encode("utf-8"))
    atomic_write_bytes(out / "manifest.json", json.dumps(result.manifest, indent=2, ensure_ascii=False,
                                                        default=str).encode("utf-8"))
