"""The one audit pipeline: ``AuditPlan`` → ``AuditResult``. The CLI (`main.py audit`), the GUI's
audit process, the demo and notebooks all call ``run_audit``; nothing else composes an audit.

Steps: corpora (generate sentences and counterfactual pairs) → scoring (every scorer over every
corpus, through the score cache, one progress bar) → statistics (the registry's entries) →
association tests (optional) → files → HTML report (optional). With ``jobs`` above 1 the steps ask
the executor (engine.common.executor) for processes: a helper generates corpora from the front of
the list while this process loads the scorers and generates them from the back, worker processes
score chunks beside this one while it imports the statistics' modules (engine.audit.schedule), and
the statistics of the corpora run side by side once the scores are in (engine.audit.analysis).
Where workers cannot be forked (not Linux, or other threads in this process) only the scoring uses
them, and each corpus's statistics run here as soon as its scores are in.

The results folder's layout, writer and reader are engine.results (layout: engine/results/layout.py);
nothing is written unless the run completes, and then the folder is replaced as a whole (an earlier
audit folder only with plan.overwrite, engine.audit.out_folder); a cancelled run resumes from the
score cache.
"""
from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from engine.common.errors import UsageError
from engine.common.progress import Cancelled, LogFn, PhaseFn, ProgressFn, StepFn, StepTracker, is_cancelled

from .manifest import device_info, now_iso, package_versions, scorer_record, sha256_file, sha256_text, spec_label
from .plan import AuditPlan
from engine.results.result import AuditResult

if TYPE_CHECKING:  # pandas loads in about half a second: `import engine.audit` does not wait for it
    import pandas as pd



def run_audit(plan: AuditPlan, *, progress: ProgressFn | None = None, cancel: Any = None, log: LogFn | None = None,
              on_phase: PhaseFn | None = None, on_step: StepFn | None = None,
              manifest_extra: dict[str, Any] | None = None) -> AuditResult:
    """Run ``plan``; raises ``engine.common.progress.Cancelled`` when ``cancel`` is set.

    ``progress(done, total, eta_seconds)`` counts the items of the current phase: texts while
    scoring (cache hits included, over the whole plan), statistics done (one per statistic and
    corpus) while computing statistics, tests while running association tests.
    ``on_phase(name, total)`` announces each phase: "scoring", "statistics", "assoc", "writing",
    "report". ``on_step(what, on)`` says which statistic starts on which corpus ("Beta regression",
    "en-kiritchenko2018"; with several processes, as each starts in this process or is handed to a
    worker). ``cancel`` is a callable or a ``threading.Event``, checked between batches, before
    each statistic and each association test, and before anything is written; ``Cancelled.stage``
    says where it stopped ("scoring", "statistics", "assoc" or "writing": a last look before the
    results folder is put in place), and the scores so far stay cached.
    ``manifest_extra``: further top-level manifest sections from a caller that drove part of the
    run itself (``engine.sweep`` records its scheduler and workers under ``sweep``).
    """
    plan.validate()
    if plan.out_dir is not None:
        from .out_folder import may_write_audit

        may_write_audit(plan.out_dir, overwrite=plan.overwrite)
    say = log or (lambda _msg: None)
    phase = on_phase or (lambda _name, _total: None)
    result = AuditResult(plan.out_dir)
    result.manifest = {"created": now_iso(), "plan": _plan_record(plan), "corpora": {}, "scorers": {},
                       "versions": package_versions(), **(manifest_extra or {})}
    spill = _SpillFolder(plan.out_dir)
    try:
        _run_steps(plan, result, progress, cancel, say, phase, on_step, spill)
    finally:
        spill.remove()
    return result


def _run_steps(plan: AuditPlan, result: AuditResult, progress: ProgressFn | None, cancel: Any, say: LogFn,
               phase: PhaseFn, on_step: StepFn | None, spill: _SpillFolder) -> None:
    """Scoring and statistics, association tests, the folder and the report (``run_audit``)."""
    started = time.perf_counter()
    total_scored = 0
    if plan.corpora:
        from .cache import ScoreCache

        cache = ScoreCache(plan.cache_dir)
        try:
            total_scored = _score_and_analyse(plan, cache, result, progress, cancel, say, phase, on_step, spill)
            result.manifest["cache"] = {"path": str(cache.path), "hits": cache.hits, "misses": cache.misses,
                                        "writes": cache.writes}
        finally:
            cache.close()
    if plan.has_assoc:
        phase("assoc", len(plan.assoc.tests))
        _association_tests(plan, result, progress, cancel, say)
    if is_cancelled(cancel):
        raise Cancelled(total_scored, total_scored, stage="statistics")
    result.manifest["device"] = device_info()
    result.manifest["seconds"] = round(time.perf_counter() - started, 3)
    if plan.out_dir is not None:
        phase("writing", 0)
        from engine.common.executor import resolve_jobs
        from engine.common.staged_folder import staged_folder

        from engine.results.writer import write_results

        # the whole folder at once: an earlier run's files cannot survive beside this run's
        with staged_folder(plan.out_dir) as staging:
            write_results(result, staging, processes=resolve_jobs(plan.jobs))
            if is_cancelled(cancel):  # a last look before the folder is put in place (engine.common.interrupts)
                raise Cancelled(total_scored, total_scored, stage="writing")
        say(f"results written to {plan.out_dir}")
        if plan.report:
            phase("report", 0)
            from engine.report import build_report

            result.report = Path(build_report(plan.out_dir, plan.out_dir / "report"))
            say(f"report: {result.report}")


#: a corpus of this many sentences or more is streamed: its statistics as soon as it is scored, then
#: its score and pair files written beside the results folder and its frames let go (result.scores
#: reads them back on access), so a run's memory is that of its largest corpus, not of all of them
STREAM_ROWS = 100_000


class _SpillFolder:
    """Where streamed corpora's files wait for the results folder: a hidden folder beside it (the same
    file system, so they are moved in, not copied), made on first use and removed when the run ends."""

    def __init__(self, out_dir: Path | None) -> None:
        self.out_dir = out_dir
        self.path: Path | None = None

    def folder(self) -> Path:
        if self.path is None:
            import tempfile

            parent = Path(self.out_dir).resolve().parent
            parent.mkdir(parents=True, exist_ok=True)
            self.path = Path(tempfile.mkdtemp(prefix=f".{Path(self.out_dir).name}.streamed-", dir=parent))
        return self.path

    def remove(self) -> None:
        if self.path is not None:
            import shutil

            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None


def _plan_record(plan: AuditPlan) -> dict[str, Any]:
    scorers = [spec_label(s) for s in plan.scorers]
    return {"corpora": list(plan.corpora), "scorers": scorers, "stats": list(plan.stats or []),
            "settings": dict(plan.settings)}


def _load_corpora(plan: AuditPlan, result: AuditResult, say: LogFn) -> list[tuple[Any, pd.DataFrame, Any]]:
    corpora, records, lines = _build_corpora(list(plan.corpora), _wants_pairs(plan))
    _record_corpora(result, records, lines, say)
    return corpora


def _wants_pairs(plan: AuditPlan) -> bool:
    from engine.stats import registry

    return any(registry.get(s).needs_pairs for s in plan.stats or [])


def _record_corpora(result: AuditResult, records: dict[str, Any], lines: list[str], say: LogFn) -> None:
    result.manifest["corpora"].update(records)
    for line in lines:
        say(line)


def _build_corpora(names: list[str], want_pairs: bool
                   ) -> tuple[list[tuple[Any, pd.DataFrame, Any]], dict[str, Any], list[str]]:
    """(corpus, sentences, pairs) per corpus named, their manifest records and log lines — plain
    data from plain arguments, so a worker can build some while the audit process loads the scorers."""
    return _as_frames([_corpus_columns(name, want_pairs) for name in names])


def _corpus_columns(name: str, want_pairs: bool) -> tuple[Any, dict[str, list], dict[str, list] | None, dict, str]:
    """One corpus generated as plain lists, without pandas: (definition, sentence columns, pair
    columns or None where it has no pairs, manifest record, log line). The corpus helper forked with
    several processes makes these before pandas is imported anywhere (``_corpora_and_scorers``)."""
    from engine.corpus import CompiledCorpus, load_corpus
    from engine.corpus.definition.registry import resolve_path
    from engine.corpus.generate.generator import sentence_columns
    from engine.corpus.pairs.tables import pair_columns

    corpus = load_corpus(name)
    compiled = CompiledCorpus(corpus)
    cols = sentence_columns(corpus, compiled)
    pairs = pair_columns(corpus, compiled) if want_pairs else None  # the compiled corpus the sentences came from
    n, n_pairs = len(cols["Sentence"]), (len(pairs["pair_id"]) if pairs is not None else 0)
    pairs = pairs if n_pairs else None
    path = resolve_path(name)
    record = {"definition": str(path), "definition_sha256": sha256_file(path), "sentences": n,
              "corpus_sha256": sha256_text("\n".join(cols["Sentence"])), "pairs": n_pairs}
    line = f"{corpus.id}: {n:,} sentences" + (f", {n_pairs:,} pairs" if pairs is not None else "")
    return corpus, cols, pairs, record, line


def _as_frames(built: list[tuple[Any, dict[str, list], dict[str, list] | None, dict, str]]
               ) -> tuple[list[tuple[Any, pd.DataFrame, Any]], dict[str, Any], list[str]]:
    """``_corpus_columns``'s corpora as ``_build_corpora`` gives them: tables, records, lines."""
    from engine.corpus.generate.generator import sentence_frame
    from engine.corpus.pairs.tables import pair_frame

    out = [(corpus, sentence_frame(cols), None if pairs is None else pair_frame(pairs))
           for corpus, cols, pairs, _record, _line in built]
    return out, {corpus.id: record for corpus, _c, _p, record, _l in built}, [line for *_rest, line in built]


def _corpus_sizes(names: list[str], want_pairs: bool) -> list[tuple[int, int]]:
    """Each corpus's most sentences (``sentence_bound``) and, with pairs wanted, its expected pairs
    (its usable person pairs' share of its sentences: exact on 15 of the 21 built-in corpora, at most
    4 % over on the others), counted from the definitions without generating anything (a few
    milliseconds a corpus)."""
    from engine.corpus import CompiledCorpus, load_corpus
    from engine.corpus.generate.generator import sentence_bound
    from engine.corpus.pairs.pair_checks import usable_pairs

    sizes = []
    for name in names:
        corpus = load_corpus(name)
        bound = sentence_bound(corpus, CompiledCorpus(corpus))
        pairs = 0
        if want_pairs and corpus.persons:
            try:
                pairs = bound * len(usable_pairs(corpus)[0]) // len(corpus.persons)
            except Exception:  # noqa: BLE001 - an estimate: the corpus's error comes when it is generated
                pairs = 0
        sizes.append((bound, pairs))
    return sizes


def _corpora_and_scorers(plan: AuditPlan, result: AuditResult, say: LogFn, *, processes: int,
                         sizes: Callable[[], list[tuple[int, int]]]) -> tuple[list[tuple[Any, pd.DataFrame, Any]], list[Any]]:
    """The corpora and the plan's scorers, loaded.

    With several processes, where a worker starts in milliseconds (forked), a helper is forked
    before pandas is imported and generates corpora as plain lists (``_corpus_columns``), the
    largest expected first (``sizes()``: sentences and pairs), while this process imports pandas,
    loads the scorers and warms those that load lazily, then generates corpora from the other end,
    the smallest first, until the two meet (``TwoEnded``), so that the scoring workers started next
    are handed warm scorers and both processes finish together. The helper's lists become tables
    here (milliseconds).

    Why: forked after pandas' import (0.2–0.3 s), the helper started that much later (importing
    pandas in both processes cost the helper as much); it starts before this process is free, so it
    takes the largest corpus. Traced, four English corpora: ready at 0.64–0.77 s instead of 0.81 s.
    (The statistics' modules imported here instead left the helper idle for 0.4 s; they are
    imported while the scoring workers score, ``_Scoring.prepare_statistics``.)
    Errors are those of the serial path, in its order (the first bad corpus's, then a scorer's): a
    corpus whose build failed anywhere, or that the helper took and did not hand back, is generated
    here in its turn."""
    from engine.common.executor import LocalPool, TwoEnded, can_fork
    from engine.common.executor.handoff import handoff_folder, take_over

    # one corpus is built here: built in a worker, its table came back pickled — for a corpus of a
    # million sentences 13 s and 400 MB more than building it here (bench/bench_growth.py, issue 42)
    if processes < 2 or not can_fork() or len(plan.corpora) < 2:
        corpora = _load_corpora(plan, result, say)
        return corpora, _load_scorers(plan, lambda: _sentence_ids(corpora), result)
    names, want_pairs = list(plan.corpora), _wants_pairs(plan)
    order = _largest_first(sizes, len(names))
    queue = TwoEnded(len(names))  # positions in `order`
    mine: dict[int, Any] = {}  # index -> (corpora, records, lines) built here or handed over
    failed: set[int] = set()  # indices whose build failed here (built again in their turn)
    built: list[tuple[Any, pd.DataFrame, Any]] = []

    with handoff_folder() as folder, LocalPool(1, inherit={_CORPUS_QUEUE: queue}) as helper:  # (helper ends first)
        # one task a corpus, each taking the next corpus from the front when it runs (None once the
        # two ends have met); each comes back through a file as soon as it is built (handoff: through
        # the pool's pipe, a corpus took 0.16 s while this process was generating another)
        pending = [helper.submit(_build_from_front, names, order, want_pairs, folder) for _ in names]
        import pandas  # noqa: F401 - after the fork: the helper generates without it

        def corpora_now() -> list[tuple[Any, pd.DataFrame, Any]]:
            if built:
                return built
            while not failed and (at := queue.take_back()) is not None:
                k = order[at]
                try:
                    mine[k] = _build_corpora([names[k]], want_pairs)
                except Exception:  # noqa: BLE001 - raised in its turn below, unless an earlier corpus fails
                    failed.add(k)
            while pending:  # (once: a second call, after an error, finds them in `mine`)
                try:
                    taken = pending.pop(0).result()
                except Exception:  # noqa: BLE001 - redone here: a bad corpus's error is the serial path's
                    continue
                if taken is not None:
                    try:
                        mine[taken[0]] = _as_frames([take_over(taken[1])])
                    except Exception:  # noqa: BLE001 - unreadable: built here in its turn, as after a failure
                        pass
            # in the serial order: a corpus neither process handed over is built here (and raises first)
            ordered = [mine[k] if k in mine and k not in failed else _build_corpora([names[k]], want_pairs)
                       for k in range(len(names))]
            _record_corpora(result, {key: v for part in ordered for key, v in part[1].items()},
                            [line for part in ordered for line in part[2]], say)
            built.extend(c for part in ordered for c in part[0])
            return built

        try:
            scorers = _load_scorers(plan, lambda: _sentence_ids(corpora_now()), result)
            for scorer in scorers:
                warm = getattr(scorer, "warm", None)
                if callable(warm):
                    warm()
            return corpora_now(), scorers
        except Exception:
            if not built:
                corpora_now()  # a corpus's error is raised first, as the serial path does
            raise


def _largest_first(sizes: Callable[[], list[tuple[int, int]]], n: int) -> list[int]:
    """The corpora's indices, the most expected work first (sentences, and pairs at about four
    sentences' time each); ties, and every corpus when a definition does not load (it raises in its
    turn when generated), in the plan's order."""
    try:
        expected = [bound + 4 * pairs for bound, pairs in sizes()]
    except Exception:  # noqa: BLE001 - see above
        expected = [0] * n
    return sorted(range(n), key=lambda k: -expected[k])


_CORPUS_QUEUE = "engine.audit.pipeline.corpora"  # the key the corpora's TwoEnded is handed to the helper under


def _build_from_front(names: list[str], order: list[int], want_pairs: bool, folder: Path) -> tuple[int, Path] | None:
    """In the forked helper: (index, the file in ``folder`` holding ``_corpus_columns`` of that
    corpus) for the corpus at the next position from the front of ``order``, or None when none is
    left (a corpus that fails raises: the audit process generates it again in its turn)."""
    from engine.common.executor import inherited
    from engine.common.executor.handoff import hand_over

    queue = inherited(_CORPUS_QUEUE)
    if queue is None:
        raise RuntimeError("the corpus helper was not forked: the audit process generates the corpora")
    at = queue.take_front()
    if at is None:
        return None
    k = order[at]
    return k, hand_over(_corpus_columns(names[k], want_pairs), folder)


def _import_statistics(plan: AuditPlan) -> None:
    """The modules the plan's statistics import when they first run (the registry's `modules`), so
    that the workers forked to compute them inherit them. One that cannot be imported is left to the
    statistic that needs it, which reports it where the serial path does. Ctrl+C waits until the
    imports are done (at most 0.8 s): one that landed inside a compiled module's import was lost
    (engine.common.interrupts)."""
    import importlib

    from engine.common.interrupts import deferred
    from engine.stats import registry

    with deferred():
        for sid in plan.stats or []:
            for module in registry.get(sid).modules:
                try:
                    importlib.import_module(module)
                except ImportError:
                    pass


def plan_texts(plan: AuditPlan) -> tuple[dict[str, list[str]], dict[str, str]]:
    """What ``run_audit(plan)`` will score, for drivers that score elsewhere first (engine.sweep):
    each corpus's unique texts (sentences, then counterfactual pair sides), and the sentence → ID
    map that prediction files keyed by ID are loaded with (a scorer's fingerprint depends on it)."""
    plan.validate()
    corpora = _load_corpora(plan, AuditResult(None, manifest={"corpora": {}}), lambda _msg: None)
    return {corpus.id: _texts_to_score(df, pairs) for corpus, df, pairs in corpora}, _sentence_ids(corpora)


def _texts_to_score(df: pd.DataFrame, pairs: pd.DataFrame | None) -> list[str]:
    texts = list(dict.fromkeys(df.Sentence))
    if pairs is not None:
        texts = list(dict.fromkeys(texts + list(pairs.privileged) + list(pairs.minoritised)))
    return texts


def _sentence_ids(corpora: list) -> dict[str, str]:
    ids: dict[str, str] = {}  # sentence -> corpus ID, for prediction files keyed by ID
    for _corpus, df, _pairs in corpora:
        for sid, sentence in zip(df.ID, df.Sentence):
            ids.setdefault(sentence, sid)
    return ids


def _load_scorers(plan: AuditPlan, ids_of: Callable[[], dict[str, str]], result: AuditResult) -> list[Any]:
    """The plan's scorers; `ids_of()` (sentence -> corpus ID) is asked for only by a prediction file
    (so the other scorers can load while the corpora are still being generated)."""
    from engine.models.specs import load_scorer, parse_spec

    scorers = []
    for spec in plan.scorers:
        # a spec string (engine.models.specs) or a ready scorer object (notebooks, tests, the GUI)
        if isinstance(spec, str):
            ids = ids_of() if parse_spec(spec)[0] == "predictions" else None
            scorer = load_scorer(spec, allow_pickle=plan.allow_pickle, ids=ids)
        else:
            scorer = spec
        if scorer.name in result.manifest["scorers"]:
            raise UsageError(f"two models are both named {scorer.name!r}; their score columns would clash",
                             field="--model", fix="give one another name (append ?name=OTHER to its --model spec)")
        scorers.append(scorer)
        result.manifest["scorers"][scorer.name] = scorer_record(spec, scorer)
    return scorers


def _score_and_analyse(plan: AuditPlan, cache: Any, result: AuditResult, progress: ProgressFn | None, cancel: Any,
                       say: LogFn, phase: PhaseFn, on_step: StepFn | None, spill: _SpillFolder) -> int:
    """Score every corpus with every scorer (one scheduler, engine.audit.schedule) and compute the
    corpora's statistics (`_Scoring`): side by side at the end where processes can be forked, else
    each as soon as its scores are in, while worker processes score the next ones."""
    from engine.common.executor import resolve_jobs

    from .schedule import score_jobs

    processes = resolve_jobs(plan.jobs)
    sizes = functools.cache(lambda: _corpus_sizes(list(plan.corpora), _wants_pairs(plan)))
    bounds = _one_at_a_time(plan, sizes)
    if bounds is not None:
        return _CorpusByCorpus(plan, bounds, cache, result, progress, cancel, say, phase, on_step, spill,
                               processes).run()
    corpora, scorers = _corpora_and_scorers(plan, result, say, processes=processes, sizes=sizes)
    run = _Scoring(plan, result, corpora, scorers, processes, progress, cancel, say, phase, on_step, spill)
    phase("scoring", run.total)
    result.manifest["scoring"] = []
    rates = _probe_speeds(corpora, scorers, cache, result, cancel, say)
    score_jobs(run.jobs, cache=cache, progress=run.relay, cancel=cancel, processes=processes, rates=rates,
               on_group_done=run.corpus_done, on_job_done=run.job_done, on_plan=run.planned,
               on_workers_busy=run.prepare_statistics, commit_at_end=not run.side_by_side)
    # side by side, the cache's last rows are committed once the statistics' workers are at work
    _after_scoring(run, scorers, result, say, meanwhile=cache.flush if run.side_by_side else None)
    return run.total


def _after_scoring(run: _Scoring, scorers: list, result: AuditResult, say: LogFn,
                   meanwhile: Callable[[], None] | None = None) -> None:
    """Once every corpus is scored: the scorers' closing warnings, the statistics held to the end, what
    the scorers learnt while scoring, and a last look at cancel. ``meanwhile()`` runs once, while
    the statistics' workers compute (``analyse_together``), or before the statistics if none are held."""
    for scorer in scorers:  # what a scorer can tell only once every text was asked for (a prediction
        closing = getattr(scorer, "closing_warnings", None)  # file's rows for sentences of no corpus)
        if callable(closing):
            closing()
            for warning in _new_warnings(scorer, result):
                say(f"  warning: {warning}")
    run.begin_statistics()
    run.deferred_statistics(meanwhile)
    for scorer in scorers:  # what a scorer learnt while scoring (e.g. an LLM's label mass) goes on record
        describe = getattr(scorer, "describe", None)
        if callable(describe) and scorer.name in result.manifest["scorers"]:
            try:
                result.manifest["scorers"][scorer.name]["describe"] = describe()
            except Exception:  # noqa: BLE001 - the description taken at load time stands
                pass
    run.stop_here()


def _one_at_a_time(plan: AuditPlan, sizes: Callable[[], list[tuple[int, int]]]) -> list[int] | None:
    """Each corpus's most sentences (``sentence_bound``) where the plan's corpora are to be generated,
    scored, analysed and written one at a time (``_CorpusByCorpus``), else None.

    Why: held together, every corpus's sentences, texts and scores stayed in memory until the last
    was scored (3 corpora of 138,240 sentences peaked at 610 MB against 372 MB for one, issue 42).
    One at a time, a run's memory is that of its largest corpus. It applies where a corpus streams
    (``STREAM_ROWS``, which needs a results folder); smaller plans keep the corpora together, so that
    with several processes the statistics of all corpora run side by side. A prediction file maps
    the sentences of every corpus to its IDs before anything is scored, so a plan with one keeps them
    together too."""
    if plan.out_dir is None or len(plan.corpora) < 2:
        return None
    from engine.models.specs import parse_spec

    if any(isinstance(spec, str) and parse_spec(spec)[0] == "predictions" for spec in plan.scorers):
        return None
    bounds = [bound for bound, _pairs in sizes()]
    return bounds if max(bounds) >= STREAM_ROWS else None


class _CorpusByCorpus:
    """Each corpus in its turn: generated, scored (one scheduler per corpus, with worker processes
    where they pay), its statistics computed, its files written (a large corpus streams) and its
    frames let go before the next is generated. Texts two corpora share are scored once, the second
    time read from the score cache. With several processes a streamed corpus's statistics run in a
    child while the next corpus is generated and scored (``_Background``).

    The progress bar counts texts over the whole plan from the start: each corpus's count is
    ``sentence_bound`` times the scorers until the corpus is generated, then its own count. Errors
    come in the serial path's order for the first corpus (the corpus, then a scorer); every definition
    was loaded before (``_one_at_a_time``), so a later corpus can fail only in generating."""

    def __init__(self, plan: AuditPlan, bounds: list[int], cache: Any, result: AuditResult,
                 progress: ProgressFn | None, cancel: Any, say: LogFn, phase: PhaseFn, on_step: StepFn | None,
                 spill: _SpillFolder, processes: int) -> None:
        from engine.common.executor import can_fork

        from .statistics_step import planned

        self.plan, self.cache, self.result, self.progress, self.cancel = plan, cache, result, progress, cancel
        self.say, self.phase, self.on_step, self.spill, self.processes = say, phase, on_step, spill, processes
        self.want_pairs = _wants_pairs(plan)
        self.steps = StepTracker(len(plan.corpora) * len(planned(list(plan.stats or []))), progress, on_step)
        self.scorers: list[Any] = []
        self.counts = [bound * max(1, len(plan.scorers)) for bound in bounds]  # texts per corpus, as known
        self.offset = 0  # texts of the corpora before this one
        self.rates: dict[str, float] | None = None
        self.background = _Background(result, say, self.steps, cancel) if processes > 1 and can_fork() else None

    def run(self) -> int:
        run = None
        self.result.manifest["scoring"] = []
        try:
            for k, name in enumerate(self.plan.corpora):
                run = self.one(k, name)
                self.offset += run.total
            if self.background is not None:
                self.background.wait()
        except BaseException:
            if self.background is not None:
                self.background.kill()
            raise
        _after_scoring(run, self.scorers, self.result, self.say)
        return self.offset

    def relay(self, done: int, _total: int, eta: float | None) -> None:
        self.progress(self.offset + done, sum(self.counts), eta)

    def one(self, k: int, name: str) -> _Scoring:
        """Corpus ``k``: generated, scored, and its statistics computed here or handed to the child
        once its scoring workers are gone (forking while their threads run is unsafe)."""
        from engine.common.executor import can_fork

        from .schedule import score_jobs

        plan, result = self.plan, self.result
        corpora, records, lines = _build_corpora([name], self.want_pairs)
        _record_corpora(result, records, lines, self.say)
        if not self.scorers:
            self.scorers = _load_scorers(plan, lambda: _sentence_ids(corpora), result)
        run = _Scoring(plan, result, corpora, self.scorers, self.processes,
                       self.relay if self.progress is not None else None, self.cancel, self.say, self.phase,
                       self.on_step, self.spill, steps=self.steps, last=k == len(plan.corpora) - 1,
                       background=self.background)
        self.counts[k] = run.total
        if k == 0:
            self.phase("scoring", sum(self.counts))
            self.rates = _probe_speeds(corpora, self.scorers, self.cache, result, self.cancel, self.say)
        del corpora
        score_jobs(run.jobs, cache=self.cache, progress=run.relay, cancel=self.cancel, processes=self.processes,
                   rates=self.rates, on_group_done=run.corpus_done, on_job_done=run.job_done, on_plan=run.planned)
        if run.handoff is not None:
            task, run.handoff = run.handoff, None
            if can_fork():
                self.background.start(task, self.spill.folder())
            else:  # (analyse_here merges the corpus before first)
                run.analyse_here(task)
            del task
        if k < len(plan.corpora) - 1:
            run.corpora.clear()
            run.stop_here()
        return run


class _Scoring:
    """One audit's scoring jobs and what happens as they complete: log lines and manifest records
    per job, each corpus's scored frames and statistics, progress and cancel.

    With a second process, and forking possible once the scoring workers are gone, the statistics of
    all corpora run at the end side by side, each beside the rendering of its files
    (engine.audit.analysis); while the workers score, this process imports the statistics' modules
    and scores too. Run one by one as corpora came in, the statistics kept this process from scoring,
    so several corpora completed at the end and their statistics ran one after another while the
    workers sat idle (one corpus's statistics cannot be split more finely)."""

    def __init__(self, plan: AuditPlan, result: AuditResult, corpora: list, scorers: list, processes: int,
                 progress: ProgressFn | None, cancel: Any, say: LogFn, phase: PhaseFn,
                 on_step: StepFn | None = None, spill: _SpillFolder | None = None, *,
                 steps: Any = None, last: bool = True, background: _Background | None = None) -> None:
        from engine.common.executor import can_fork

        from .statistics_step import planned

        from .schedule import ScoringJob

        self.plan, self.result, self.corpora, self.scorers = plan, result, corpora, scorers
        self.processes, self.progress, self.cancel, self.say, self.phase = processes, progress, cancel, say, phase
        self.spill = spill or _SpillFolder(plan.out_dir)
        self.language_warnings = _language_warnings(corpora, scorers, result, say)
        self.indistinct = _identity_checks(corpora, scorers, result, say)
        self.texts_of = [_texts_to_score(df, pairs) for _corpus, df, pairs in corpora]
        # a lookup (prediction file) bypasses the cache: it must see every text at once to count what is missing
        self.jobs = [ScoringJob(scorer, self.texts_of[k], group=k, cached=not getattr(scorer, "instant", False))
                     for k in range(len(corpora)) for scorer in scorers]
        self.total = sum(len(job.texts) for job in self.jobs)
        self.done, self.announced = 0, False
        # one of several runs, a corpus each (_CorpusByCorpus): its statistics now, not held to the end
        self.last = last
        # there, with several processes: a large corpus's statistics in a child while the next corpus is
        # generated and scored (_Background); `handoff` is the corpus waiting for its scoring workers to end
        self.background: _Background | None = background
        self.handoff: Any = None
        self.side_by_side = processes > 1 and can_fork() and steps is None  # all corpora in this one run
        self.deferred: list[Any] = []  # CorpusStatistics run side by side at the end
        self.imported = False  # the statistics' modules (prepare_statistics)
        # the statistics phase: a step per statistic and corpus, reported once the scoring is done
        self.steps = steps if steps is not None else StepTracker(
            len(corpora) * len(planned(list(plan.stats or []))), progress, on_step)

    def relay(self, done: int, _total: int, eta: float | None) -> None:
        self.done = done
        if self.progress is not None:
            self.progress(done, self.total, eta)

    def stop_here(self) -> None:
        """Cancel still works in the statistics (bootstraps and Beta fits take a while): checked before
        every statistic and before anything is written, so a cancelled run leaves no half-written
        results folder and its scores are all in the cache."""
        if is_cancelled(self.cancel):
            raise Cancelled(self.done, self.total, stage="statistics" if self.done >= self.total else "scoring")

    def job_done(self, j: int, stats: Any) -> None:
        job = self.jobs[j]
        cid, name = self.corpora[job.group][0].id, job.scorer.name
        self.say(f"{cid} × {name}: {stats.scored:,} scored, {stats.cache_hits:,} from cache"
                 + (f", {stats.seconds:.1f} s" if stats.scored else "")
                 + (f", {stats.jobs} processes" if stats.jobs > 1 else ""))
        self.result.manifest["scoring"].append({"corpus": cid, "scorer": name, "texts": stats.unique,
                                                "scored": stats.scored, "cache_hits": stats.cache_hits,
                                                "seconds": round(stats.seconds, 3), "jobs": stats.jobs})
        for warning in _new_warnings(job.scorer, self.result):  # a prediction file's drop/keep policy, duplicates
            self.say(f"  warning: {warning}")

    def planned(self, texts: int, to_score: int, workers: int) -> None:
        """The plan as it will run: the cache is read by now, so the line says what is scored where."""
        what = (f"{texts:,} texts ({_count(len(self.corpora), 'corpus', 'corpora')} × "
                f"{_count(len(self.scorers), 'scorer', 'scorers')})")
        if not to_score:
            self.say(f"{what}: all from the score cache, nothing to score")
        else:
            cached = f"{texts - to_score:,} from the score cache, " if to_score < texts else ""
            where = f" in up to {workers} processes" if workers > 1 else ""
            self.say(f"{what}: {cached}scoring {to_score:,}{where}")

    def corpus_done(self, k: int, frames: list[Any]) -> None:
        """A corpus is scored: its frames, and its statistics now or (side by side) at the end."""
        from .analysis import CorpusStatistics
        from .score_range import check_declared_ranges

        plan, result = self.plan, self.result
        if self.done >= self.total:
            self.begin_statistics()
        corpus, df, pairs = self.corpora[k]
        self.corpora[k] = (corpus, None, None)  # the scored frames below take the columns over (memory)
        scored = {scorer.name: {dim: frame[dim].to_numpy() for dim in scorer.dimensions}
                  for scorer, frame in zip(self.scorers, frames)}
        df, pairs, score_cols = _scored_frames(corpus, df, pairs, self.scorers, scored, self.texts_of[k])
        # a declared range holds for every statistic, or the run stops at the first score outside it
        check_declared_ranges(df, pairs, score_cols, self.scorers, plan.settings.get("score_range"))
        result.scores[corpus.id] = df
        if pairs is not None:
            result.pairs[corpus.id] = pairs
        # its files: rendered beside its statistics at the end (side by side), or now while workers score
        # a large corpus streams: its statistics now, then its files written and its frames let go
        streamed = plan.out_dir is not None and len(df) >= STREAM_ROWS
        task = CorpusStatistics(corpus, df, pairs, score_cols, list(plan.stats or []),
                                _corpus_settings(plan, self.scorers, score_cols,
                                                 self.language_warnings.get(corpus.id, {}),
                                                 self.indistinct.get(corpus.id, {})),
                                render=self.side_by_side and plan.out_dir is not None)
        del df, pairs, scored, frames
        if self.side_by_side and not streamed:
            self.prepare_statistics()
            self.deferred.append(task)
            return
        if streamed and self.background is not None and not self.last:
            self.handoff = task  # to a child once this corpus's scoring workers are gone (_CorpusByCorpus)
            return
        self.analyse_here(task, streamed)

    def prepare_statistics(self) -> None:
        """Side by side: import the statistics' modules once, in this process, so that the workers
        forked to compute them inherit them. Called as soon as the scoring workers have their
        chunks queued (0.8 s of imports for the Beta regression, while they score), and
        at the latest when the first corpus is scored."""
        if self.side_by_side and not self.imported:
            self.imported = True
            _import_statistics(self.plan)

    def analyse_here(self, task: Any, streamed: bool = True) -> None:
        """A scored corpus's statistics in this process, after those of the corpus before it; a
        streamed corpus's files are then written and its frames let go."""
        plan, result, cid = self.plan, self.result, task.corpus.id
        if self.background is not None:
            self.background.wait()  # the corpus before comes first (corpus order)
        if not streamed and plan.out_dir is not None and self.processes > 1 and self.done < self.total:
            from engine.results.writer import corpus_files

            result.rendered[cid] = corpus_files(result, cid)
        task.run(result, self.say, self.stop_here, self.steps)
        if streamed:
            from engine.results.writer import spill_corpus

            self.say(_streamed_line(cid, len(task.scores)))
            spill_corpus(result, cid, self.spill.folder())

    def begin_statistics(self) -> None:
        """Every text is scored: the progress is the statistics' from now on (once; in a run of one
        corpus of several, only in the last corpus's)."""
        if self.announced or not self.last:
            return
        self.announced = True
        if self.progress is not None and self.done < self.total:  # the scoring's last count, if not yet told
            self.progress(self.total, self.total, 0.0)
        self.phase("statistics", self.steps.total)
        self.steps.begin()

    def deferred_statistics(self, meanwhile: Callable[[], None] | None = None) -> None:
        """The statistics held to the end, side by side (the scoring workers are gone: a fresh pool
        is forked with the statistics' modules imported); ``meanwhile()`` once its workers are at work."""
        if self.deferred:
            from .analysis import analyse_together

            analyse_together(self.deferred, self.result, self.say, self.stop_here, processes=self.processes,
                             steps=self.steps, meanwhile=meanwhile)
        elif meanwhile is not None:
            meanwhile()


def _streamed_line(cid: str, sentences: int) -> str:
    return f"{cid}: its {sentences:,} scored sentences written as the audit goes, not held in memory"


class _Background:
    """A streamed corpus's statistics and files computed in a forked child (the executor's
    ``ForkedCall``) while this process generates and scores the next corpus; merged into the result
    in corpus order, as if computed here.

    Why: one at a time (``_CorpusByCorpus``), a large corpus's statistics — a Beta regression
    of seconds to minutes — kept the cores from scoring the next corpus. The child is handed the
    corpus's frames at the fork and this process lets them go, so at most two corpora are in memory
    (this one's and the child's), however many the plan has. The statistics' steps are counted when
    their corpus is merged; their log lines come then too, in order."""

    def __init__(self, result: AuditResult, say: LogFn, steps: Any, cancel: Any) -> None:
        self.result, self.say, self.steps, self.cancel = result, say, steps, cancel
        self.pending: tuple[Any, int, Any] | None = None  # (corpus id, statistics, ForkedCall)

    def start(self, task: Any, folder: Path) -> None:
        """The statistics of ``task`` in a child, after the corpus before is merged."""
        from engine.common.executor.forked_call import ForkedCall
        from engine.results.layout import PAIRS, SCORES
        from engine.results.result import Spilled

        self.wait()
        cid = task.corpus.id
        # the child has the frames; the files it writes take their places (in corpus order, from now)
        self.result.scores[cid] = Spilled(folder, f"{SCORES}/{cid}.csv")
        if cid in self.result.pairs:
            self.result.pairs[cid] = Spilled(folder, f"{PAIRS}/{cid}.csv")
        self.say(f"{cid}: its statistics in a second process, while the next corpus is generated and scored")
        self.pending = (cid, len(task.statistics()), ForkedCall(_statistics_and_files, task, self.result.out_dir, folder))

    def wait(self) -> None:
        """Merge the corpus whose statistics the child computes (waiting for it), if any."""
        if self.pending is None:
            return
        cid, n, call = self.pending
        self.pending = None
        from engine.common.executor.forked_call import ForkedCallFailed

        try:  # (the statistics' own error is raised as it is)
            part = call.result(cancel=self.cancel)
        except Cancelled:  # while waiting for the child (it is killed): the statistics' count
            raise Cancelled(self.steps.done, self.steps.total, stage="statistics") from None
        except ForkedCallFailed as exc:
            raise RuntimeError(f"{cid}: the process computing its statistics failed: {exc}") from None
        from .analysis import _merge

        _merge(self.result, part, self.say)
        self.result.scores[cid] = part.result.scores.raw(cid)
        if cid in part.result.pairs:
            self.result.pairs[cid] = part.result.pairs.raw(cid)
        self.steps.finish(n)

    def kill(self) -> None:
        if self.pending is not None:
            self.pending[2].kill()
            self.pending = None


def _statistics_and_files(task: Any, out_dir: Path | None, folder: Path) -> Any:
    """In the child (``_Background``): the corpus's statistics into a result of their own, then its
    files written into ``folder`` (``spill_corpus``); returns the small part that goes back."""
    from engine.results.writer import spill_corpus

    from .analysis import _Block

    part = _Block(AuditResult(out_dir))
    task.run(part.result, part.lines.append, lambda: None, None)
    cid = task.corpus.id
    part.result.scores[cid] = task.scores
    if task.pairs is not None:
        part.result.pairs[cid] = task.pairs
    part.lines.append(_streamed_line(cid, len(task.scores)))
    spill_corpus(part.result, cid, folder)
    return part


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _scored_frames(corpus: Any, df: pd.DataFrame, pairs: pd.DataFrame | None, scorers: list,
                   scored: dict[str, dict[str, Any]], texts: list[str]
                   ) -> tuple[pd.DataFrame, pd.DataFrame | None, dict[str, tuple[str, str]]]:
    """One corpus's sentences and pairs with a column per scorer dimension, and those columns (added to
    ``df`` and ``pairs`` themselves: the caller hands them over, a copy of a million rows costs memory).
    ``scored``: {scorer: {dimension: its scores of ``texts``, the corpus's texts to score, in order}}."""
    rows, priv, mino = _text_positions(df, pairs, texts)
    score_cols: dict[str, tuple[str, str]] = {}
    for scorer in scorers:
        for dim, values in scored[scorer.name].items():
            col = f"{scorer.name}:{dim}"
            df[col] = _take(values, rows)
            score_cols[col] = (scorer.name, dim)
    if pairs is not None:
        if "corpus" not in pairs.columns:
            pairs["corpus"] = corpus.id
        for col, (sname, dim) in score_cols.items():
            values = scored[sname][dim]
            pairs[f"{col}:privileged"] = _take(values, priv)
            pairs[f"{col}:minoritised"] = _take(values, mino)
    return df, pairs, score_cols


def _take(values: Any, positions: Any) -> Any:
    """``values`` at ``positions`` (float), NaN where a position is −1 (a text not among those scored)."""
    import numpy as np

    out = np.asarray(values, dtype=float)[positions]
    missing = positions < 0
    if missing.any():
        out[missing] = np.nan
    return out


def _text_positions(df: pd.DataFrame, pairs: pd.DataFrame | None, texts: list[str]) -> list[Any]:
    """Where each sentence, and each pair's privileged and minoritised side, stands in ``texts``
    (``_texts_to_score``: the first appearances of the sentences, then of the pair sides, which is the
    order ``pd.factorize`` numbers the same sequence in).

    Why not ``df.Sentence.map(pd.Series(scores, index=texts))``: for a million sentences that index and
    its hash table cost about 250 MB beside the corpus (issue 42); factorizing the column itself works
    on its own storage. Should the numbering not match ``texts`` (it always does), the texts are looked
    up one by one."""
    import numpy as np
    import pandas as pd

    parts = [df.Sentence] + ([pairs.privileged, pairs.minoritised] if pairs is not None else [pd.Series([], dtype=object)] * 2)
    codes, uniques = pd.factorize(pd.concat(parts, ignore_index=True), use_na_sentinel=False)
    if len(uniques) != len(texts) or (len(texts) and (uniques[0] != texts[0] or uniques[-1] != texts[-1])):
        index = pd.Index(texts)
        return [index.get_indexer(part) for part in parts]
    bounds = np.cumsum([0] + [len(part) for part in parts])
    return [codes[bounds[i]:bounds[i + 1]] for i in range(len(parts))]


def _corpus_settings(plan: AuditPlan, scorers: list, score_cols: dict[str, tuple[str, str]],
                     language_warnings: dict[str, str], indistinct_pairs: dict[str, list[str]] | None = None
                     ) -> dict[str, Any]:
    """The settings the statistics of one scored corpus run with (plain data: a worker may run them).
    ``indistinct_pairs``: {scorer: pair ids whose two sides reach it as the same token ids}."""
    return dict(_stat_settings(plan, scorers), declared_scales=_declared_scales(scorers, score_cols),
                language_warnings=language_warnings, indistinct_pairs=dict(indistinct_pairs or {}))


def _identity_checks(corpora: list, scorers: list, result: AuditResult, say: LogFn) -> dict[str, dict[str, list[str]]]:
    """Identity words each tokenizer-based scorer cannot see (engine.audit.identity_tokens): to the log,
    the problems (summary, report, GUI) and the manifest; returns {corpus: {scorer: collided pair ids}}."""
    from .identity_tokens import check_corpora
    from .problems import told

    out: dict[str, dict[str, list[str]]] = {}
    for v in check_corpora(corpora, scorers):
        result.manifest.setdefault("identity_tokens", []).append(v.to_dict() | {"collided_pairs": len(v.collided_pairs)})
        if v.clean:
            continue
        line = told("warning", said=v.said())
        result.problems.append(line)
        say(line)
        if v.collided_pairs:
            out.setdefault(v.corpus, {})[v.scorer] = list(v.collided_pairs)
    return out


def _language_warnings(corpora: list, scorers: list, result: AuditResult, say: LogFn) -> dict[str, dict[str, str]]:
    """{corpus id: {scorer name: warning}} where a scorer declares languages other than the corpus's.

    Why: an English lexicon on a Spanish corpus gives every difference as 0 — read as "no bias".
    The warning goes to the log, the problems (summary, report) and the manifest; the statistics
    mark that scorer's rows (statistics_step)."""
    from engine.models.base import language_mismatch_message

    from .problems import told

    out: dict[str, dict[str, str]] = {}
    for corpus, _df, _pairs in corpora:
        for scorer in scorers:
            said = language_mismatch_message(scorer, getattr(corpus, "language", None))
            if said is not None:
                msg = str(said)
                out.setdefault(corpus.id, {})[scorer.name] = msg
                result.problems.append(told("in_corpus", corpus=corpus.id, said=said))
                result.manifest.setdefault("language_warnings", []).append(
                    {"corpus": corpus.id, "scorer": scorer.name, "message": msg})
                say(f"warning: {corpus.id}: {msg}")
    return out


def _declared_scales(scorers: list, score_cols: dict[str, tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """{score column: (low, high)} for the columns whose scorer declares its scale."""
    from engine.models.base import declared_scale

    by_name = {s.name: s for s in scorers}
    out = {}
    for col, (sname, dim) in score_cols.items():
        sc = declared_scale(by_name[sname], dim) if sname in by_name else None
        if sc is not None:
            out[col] = sc
    return out


def _new_warnings(scorer: Any, result: AuditResult) -> list[str]:
    """A scorer's warnings not yet recorded; they go to the log and to the manifest's problems."""
    new = [w for w in getattr(scorer, "warnings", None) or [] if f"warning: {w}" not in result.problems]
    result.problems.extend(f"warning: {w}" for w in new)
    return new


def _stat_settings(plan: AuditPlan, scorers: list[Any]) -> dict[str, Any]:
    """The plan's settings, plus ``dropna`` when a scorer's policy lets missing scores through.

    Why: a prediction file read with ``on_missing``/``on_bad`` = keep or drop returns NaN for those
    sentences on purpose; the statistics must then leave them out with a note, not refuse."""
    keeps = any(getattr(s, "keeps_missing", False) for s in scorers)
    return {**plan.settings, "dropna": True} if keeps else dict(plan.settings)


PROBE_TEXTS = 32


def _probe_speeds(corpora: list, scorers: list, cache: Any, result: AuditResult, cancel: Any,
                  say: LogFn) -> dict[str, float]:
    """Seconds per text of every scorer, timed on a few of its texts before the run, so the ETA
    knows a slow second scorer from the start (a lexicon at 19 % must not promise "about 1 s left"
    while a model is still to come). It also warms each scorer (lexicons load their tables on first
    use) before worker processes are forked from this one and handed them. The probe's scores go
    into the cache, so the run reuses them."""
    from .scoring import score_texts

    rates: dict[str, float] = {}
    if not corpora or len(corpora) * len(scorers) < 2:
        return rates
    corpus, df, pairs = corpora[0]
    sample = _texts_to_score(df, pairs)[:PROBE_TEXTS]
    probed = False
    for scorer in scorers:
        if getattr(scorer, "instant", False):
            continue  # a lookup (a prediction file) has no speed to learn, and must see all its texts at once
        probed = True
        # the first text pays for whatever a scorer loads lazily (a model's weights, a lexicon's
        # tables), so it is not timed: a rate that included it made the ETA promise minutes for a
        # job of seconds
        warm = score_texts(scorer, sample[:1], cache=cache, cancel=cancel).attrs.get("scoring")
        stats = score_texts(scorer, sample[1:], cache=cache, cancel=cancel).attrs.get("scoring")
        if stats is None or warm is None:
            continue
        if stats.scored:
            rates[scorer.name] = stats.seconds / stats.scored
        result.manifest["scoring"].append({"corpus": corpus.id, "scorer": scorer.name,
                                           "texts": warm.unique + stats.unique,
                                           "scored": warm.scored + stats.scored,
                                           "cache_hits": warm.cache_hits + stats.cache_hits,
                                           "seconds": round(stats.seconds, 3), "probe": True})
    if probed:
        say(f"speed probe: {', '.join(f'{n} {1 / r:,.0f}/s' for n, r in rates.items() if r > 0)}"
            if rates else "speed probe: every probe text was cached")
    return rates


def _association_tests(plan: AuditPlan, result: AuditResult, progress: ProgressFn | None, cancel: Any,
                       say: LogFn) -> None:
    from .assoc_step import assoc_overview, assoc_record, run_assoc_step

    from engine.common.errors import UserError

    try:
        tables, problems, _objects = run_assoc_step(plan.assoc, progress=progress, cancel=cancel, log=say)
    except Cancelled as exc:
        raise Cancelled(exc.done, exc.total, stage="assoc") from None
    except (UserError, OSError) as exc:  # the representation cannot be opened: no test can run
        if plan.assoc_only:
            raise
        tables, problems = {}, [f"association tests: {exc}"]
        say(f"  skipped: {problems[0]}")
    result.tables.update(tables)
    result.problems.extend(problems)
    result.manifest["assoc"] = assoc_record(plan.assoc, problems)
    result.assoc_overview = assoc_overview(tables, plan.assoc, problems)
