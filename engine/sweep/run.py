"""``run_sweep``: an audit whose scoring runs as Dask tasks over (model, corpus chunk).

Steps: the corpora's texts (``engine.audit.pipeline.plan_texts``, what ``run_audit`` will score)
→ check every worker can import the engine and see the model files → one task per model on a
worker to learn its fingerprint → the texts not yet in the client's score cache, in chunks, as
tasks of the executor's Dask backend (engine.common.executor.DaskBackend; retried by Dask when a
worker is lost) → each chunk's scores written to the cache as it comes back → ``run_audit`` with
the same plan, its models standing in by name and fingerprint, so the statistics, tables, plots
and manifest are the local audit's; the manifest gets a ``sweep`` section (scheduler, workers,
tasks).

The GUI can call ``run_sweep`` in its audit process like ``run_audit``: same progress, cancel
and log callbacks, same result object.
"""
from __future__ import annotations

import hashlib
import json
import pickle
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any, Callable

from engine.audit.plan import AuditPlan
from engine.common.progress import LogFn, PhaseFn, ProgressFn, StepFn
from engine.audit import AuditResult

from .errors import SweepError
from .paths import spec_paths
from .plan_file import DEFAULT_CHUNK, DEFAULT_RETRIES
from .stand_in import ScoredOnWorkers



@dataclass
class SweepResult:
    """The audit's result (``audit``) and what the sweep did (``record``, also manifest["sweep"])."""

    audit: AuditResult
    record: dict[str, Any]


@dataclass
class _Job:
    spec: Any  # spec string or a scorer object
    label: str  # the spec string, or the object's class name
    info: dict[str, Any] | None = None


def run_sweep(plan: AuditPlan, *, scheduler: str | None = None, jobs: int | None = None,
              chunk_size: int = DEFAULT_CHUNK, retries: int = DEFAULT_RETRIES, progress: ProgressFn | None = None,
              cancel: Any = None, log: LogFn | None = None, on_phase: PhaseFn | None = None,
              on_step: StepFn | None = None, scheduler_timeout: float | None = None) -> SweepResult:
    """Run ``plan`` with its scoring spread over a Dask cluster.

    ``scheduler``: ``tcp://HOST:PORT`` of a running ``dask scheduler``; None starts a local cluster
    of ``jobs`` worker processes (default: one per core). ``progress(done, total, eta)`` counts
    tasks while the cluster scores (phase "sweep"), then follows ``run_audit``'s phases (``on_step``:
    the statistic starting, as ``run_audit`` tells it).
    ``cancel`` (callable or Event) cancels the tasks in flight and raises ``Cancelled``; chunks
    already back are in the score cache, so the next run resumes. Ready scorer objects in
    ``plan.scorers`` are pickled to the workers (their class must be importable there).
    ``scheduler_timeout``: seconds a scheduler may take to connect and say its handshake
    (default: engine.sweep.cluster.HANDSHAKE_S); the address is checked before any corpus is read.
    """
    from engine.audit.cache import ScoreCache
    from engine.audit.pipeline import plan_texts, run_audit

    plan.validate()
    from engine.common.extras import require

    require("audit sweeps on a Dask cluster", "distributed")
    say = log or (lambda _msg: None)
    phase = on_phase or (lambda _name, _total: None)
    if not plan.corpora:  # association tests only: nothing to score
        return SweepResult(run_audit(plan, progress=progress, cancel=cancel, log=log, on_phase=on_phase,
                                     on_step=on_step), {})
    if chunk_size < 1 or retries < 0:
        raise SweepError("chunk size must be at least 1 and retries at least 0", field="chunk_size/retries")
    from .cluster import HANDSHAKE_S, check_address, check_jobs, open_cluster

    check_jobs(jobs)
    if scheduler is not None:
        check_address(scheduler)
    started = time.perf_counter()
    say("reading the corpora")
    texts, ids = plan_texts(plan)
    ids_token = hashlib.sha256(json.dumps(sorted(ids.items()), default=str).encode("utf-8")).hexdigest()
    jobs_ = [_Job(s, s if isinstance(s, str) else f"<object {type(s).__name__}>") for s in plan.scorers]
    with open_cluster(scheduler, jobs, say, scheduler_timeout or HANDSHAKE_S) as cluster:
        address = cluster.address
        workers = cluster.workers()
        say(f"scheduler {address}: {len(workers)} worker{'s' if len(workers) != 1 else ''}")
        _check_workers(cluster, jobs_)
        # a task, not scattered data: if every worker holding it dies, the scheduler recomputes it
        ids_future = cluster.submit(pickle.loads, pickle.dumps(ids), key=f"eec-ids-{ids_token}", pure=False)
        _describe(cluster, jobs_, plan.allow_pickle, ids_future, ids_token, retries)
        cache = ScoreCache(plan.cache_dir)
        try:
            tasks, cached = _tasks(jobs_, texts, cache, chunk_size)
            say(f"{len(tasks)} tasks over {len(jobs_)} model(s) × {len(texts)} corpus(es); "
                f"{cached:,} texts already in the score cache")
            phase("sweep", len(tasks))
            ready = time.perf_counter()
            hostnames = {job.info["worker"]: job.info["host"] for job in jobs_}
            busy: dict[str, float] = {}
            done_by = _score(cluster, tasks, plan.allow_pickle, ids_future, ids_token, retries, cache, progress,
                             cancel, say, hostnames, busy)
            finished = time.perf_counter()
        finally:
            cache.close()
        alive = cluster.workers()
    used = sorted(set(workers) | set(done_by))
    record = {
        "scheduler": address, "local_cluster": scheduler is None, "jobs": len(workers) if scheduler is None else None,
        "chunk_size": chunk_size, "retries": retries, "tasks": len(tasks), "texts_cached_before": cached,
        "seconds_to_first_task": round(ready - started, 3),  # corpora, cluster start, checks, model loading
        "seconds_tasks": round(finished - ready, 3),
        "worker_seconds": round(sum(busy.values()), 3),  # summed time inside the scoring tasks
        "workers": [{"address": a, **(workers.get(a) or alive.get(a) or {}), "hostname": hostnames.get(a),
                     "tasks": done_by.get(a, 0), "seconds_in_tasks": round(busy.get(a, 0.0), 3),
                     "lost": a not in alive} for a in used],
    }
    stand_ins = [ScoredOnWorkers(job.label, job.info) for job in jobs_]
    audit = run_audit(replace(plan, scorers=stand_ins), progress=progress, cancel=cancel, log=log,
                      on_phase=on_phase, on_step=on_step, manifest_extra={"sweep": record})
    return SweepResult(audit, record)


def _check_workers(cluster: Any, jobs: list[_Job]) -> None:
    """Every connected worker imports the engine and sees every model file (same absolute path)."""
    from .worker_tasks import make_worker_check

    paths = sorted({p for job in jobs if isinstance(job.spec, str) for p in spec_paths(job.spec)})
    reports = cluster.run_everywhere(make_worker_check(), paths)
    for addr, rep in sorted(reports.items()):
        if isinstance(rep, BaseException):
            raise SweepError(f"worker {addr} could not run the file check ({type(rep).__name__}: {rep})",
                             fix="check that worker's log") from None
        if not rep["engine"]:
            raise SweepError(f"worker {addr} on {rep['host']} cannot import EEC Studio's engine",
                             fix="install eec-studio there, or start `dask worker` with PYTHONPATH=<the checkout>")
        if rep["missing"]:
            raise SweepError(f"worker {addr} on {rep['host']} cannot see {rep['missing'][0]}",
                             fix="put the model files at the same absolute path on every worker "
                                 "(e.g. a shared folder), or run workers only where they are")


def _describe(cluster: Any, jobs: list[_Job], allow_pickle: bool, ids_future: Any, ids_token: str,
              retries: int) -> None:
    from .worker_tasks import describe_scorer

    futures = [cluster.submit(describe_scorer, job.spec, allow_pickle, ids_future, ids_token, retries=retries,
                             key=f"eec-describe-{i}-{uuid.uuid4().hex}") for i, job in enumerate(jobs)]
    names: dict[str, _Job] = {}
    for job, fut in zip(jobs, futures):
        job.info = _result(fut, f"loading {job.label}")
        other = names.setdefault(job.info["name"], job)
        if other is not job:  # found now, not after every chunk is scored (run_audit would refuse it)
            raise SweepError(f"models {other.label!r} and {job.label!r} are both named {job.info['name']!r}; their "
                             "score columns would clash", field="models", fix="append ?name=OTHER to one of the specs")


def _result(fut: Any, what: str) -> dict[str, Any]:
    if fut.status == "error":
        exc = fut.exception()
        raise SweepError(f"{what} failed on the cluster: {type(exc).__name__}: {exc}",
                         fix="see the worker's log; a worker lost more than `retries` times gives up") from None
    res = fut.result()
    if "error" in res:
        raise SweepError(f"{what} on worker {res['worker']} ({res['host']}): {res['error']}") from None
    return res


@dataclass
class _Task:
    job: _Job
    corpus: str
    texts: list[str]


def _tasks(jobs: list[_Job], texts: dict[str, list[str]], cache: Any, chunk_size: int) -> tuple[list[_Task], int]:
    """Chunks of the texts each model has not scored yet (a text shared by two corpora once)."""
    out, cached = [], 0
    for job in jobs:
        seen: set[str] = set()
        for corpus, corpus_texts in texts.items():
            fresh = [t for t in corpus_texts if t not in seen]
            seen.update(fresh)
            hits = cache.get_many(job.info["fingerprint"], fresh) if fresh else {}
            cached += len(hits)
            todo = [t for i, t in enumerate(fresh) if i not in hits]
            out.extend(_Task(job, corpus, todo[i:i + chunk_size]) for i in range(0, len(todo), chunk_size))
    return out, cached


def _score(cluster: Any, tasks: list[_Task], allow_pickle: bool, ids_future: Any, ids_token: str, retries: int,
           cache: Any, progress: ProgressFn | None, cancel: Any, say: LogFn,
           hostnames: dict[str, str], busy: dict[str, float]) -> dict[str, int]:
    """Every task through the cluster's ``map``, each chunk's scores written to the cache as it
    returns; {worker: tasks done} (``hostnames`` gets each worker's machine name, ``busy`` its
    seconds inside tasks)."""
    from .worker_tasks import score_task

    done_by: dict[str, int] = {}

    def arrived(i: int, res: dict[str, Any]) -> None:
        task = tasks[i]
        if "error" in res:
            raise SweepError(f"scoring {task.corpus} with {task.job.label} on worker {res['worker']} ({res['host']}): "
                             f"{res['error']}") from None
        expected = task.job.info["fingerprint"]
        if res["fingerprint"] != expected:
            raise SweepError(f"worker {res['worker']} ({res['host']}) computed another fingerprint for "
                             f"{task.job.label} than worker {task.job.info['worker']}",
                             fix="the workers have different model files or package versions; make them the same")
        cache.put_many(expected, task.texts, res["values"])
        done_by[res["worker"]] = done_by.get(res["worker"], 0) + 1
        hostnames[res["worker"]] = res["host"]
        busy[res["worker"]] = busy.get(res["worker"], 0.0) + res["seconds"]
        res["values"] = None  # in the cache now: the map need not keep it

    if progress is not None:
        progress(0, len(tasks), None)
    try:
        cluster.map(score_task, [(t.job.spec, allow_pickle, ids_future, ids_token, t.texts) for t in tasks],
                    progress=progress, cancel=cancel, on_result=arrived, retries=retries,
                    key=f"eec-score-{uuid.uuid4().hex[:12]}",
                    on_abandon=lambda n: say(f"cancelled {n} task(s) still queued or running"))
    except Exception as exc:  # noqa: BLE001 - a task that failed on the cluster (after its retries)
        i = getattr(exc, "failed_task", None)
        if i is None:
            raise
        task = tasks[i]
        raise SweepError(f"scoring {task.corpus} with {task.job.label} failed on the cluster: "
                         f"{type(exc).__name__}: {exc}",
                         fix="see the worker's log; a worker lost more than `retries` times gives up") from None
    return done_by
