"""What runs on a Dask worker: load a scorer from its spec and score one chunk of texts.

Why load on the worker: a spec string is a few bytes and names files the worker reads itself
(on a GPU node, onto its GPU); shipping a loaded model would copy gigabytes through the
scheduler. A worker keeps the last few models it loaded, so the chunks of one model that land
on it pay for the loading once.

Errors the user can fix (a missing prediction file, a model refused without allow_pickle) come
back as a record naming the worker instead of an exception: Dask would retry those for nothing,
and the one-line message would lose its fix on the way.
"""
from __future__ import annotations

import socket
import threading
import time
from collections import OrderedDict
from typing import Any

_KEEP = 2  # models kept loaded per worker process (a GPU holds few large ones)
_loaded: OrderedDict[tuple, Any] = OrderedDict()
_lock = threading.Lock()


def _where() -> dict[str, str]:
    try:
        from distributed import get_worker

        address = get_worker().address
    except (ImportError, ValueError):
        address = "local"
    return {"worker": address, "host": socket.gethostname()}


def _scorer(spec: Any, allow_pickle: bool, ids: dict[str, str] | None, ids_token: str) -> Any:
    if not isinstance(spec, str):  # a ready scorer object, pickled to this worker
        return spec
    from engine.models.specs import load_scorer

    key = (spec, allow_pickle, ids_token)
    with _lock:
        scorer = _loaded.get(key)
        if scorer is None:
            scorer = load_scorer(spec, allow_pickle=allow_pickle, ids=ids)
            _loaded[key] = scorer
            while len(_loaded) > _KEEP:
                _loaded.popitem(last=False)
        _loaded.move_to_end(key)
    return scorer


def _failure(exc: Exception) -> dict[str, Any]:
    return {"error": str(exc), "kind": type(exc).__name__, **_where()}


def describe_scorer(spec: Any, allow_pickle: bool, ids: dict[str, str] | None, ids_token: str) -> dict[str, Any]:
    """What the client needs to stand in for the scorer in the audit pipeline: name, dimensions,
    fingerprint (the score cache key), and what the run manifest says about it."""
    from engine.common.errors import UserError

    try:
        scorer = _scorer(spec, allow_pickle, ids, ids_token)
        out: dict[str, Any] = {"name": scorer.name, "dimensions": list(scorer.dimensions),
                               "fingerprint": scorer.fingerprint(), **_where()}
        describe = getattr(scorer, "describe", None)
        if callable(describe):
            try:
                out["describe"] = describe()
            except Exception as exc:  # noqa: BLE001 - as scorer_record: a description never sinks the run
                out["describe"] = {"error": f"{type(exc).__name__}: {exc}"}
        trained = getattr(scorer, "manifest", None)
        if isinstance(trained, dict):
            out["manifest"] = trained
        return out
    except UserError as exc:
        return _failure(exc)


def score_chunk(spec: Any, allow_pickle: bool, ids: dict[str, str] | None, ids_token: str,
                texts: list[str]) -> dict[str, Any]:
    """Scores of ``texts`` (an array, rows aligned) with the fingerprint they were computed under."""
    from engine.audit.scoring import score_texts
    from engine.common.errors import UserError

    started = time.perf_counter()
    try:
        scorer = _scorer(spec, allow_pickle, ids, ids_token)
        frame = score_texts(scorer, texts)
        return {"fingerprint": scorer.fingerprint(), "values": frame.to_numpy(), "texts": len(texts),
                "seconds": time.perf_counter() - started, **_where()}
    except UserError as exc:
        return _failure(exc)


def score_task(task: tuple[Any, bool, dict[str, str] | None, str, list[str]]) -> dict[str, Any]:
    """``score_chunk`` of one task of the sweep's map: (spec, allow_pickle, ids, ids_token, texts)."""
    return score_chunk(*task)


def make_worker_check():
    """A function for ``Client.run`` that reports, on each worker, whether EEC Studio's engine is
    importable there and which of the given paths it cannot see.

    Returned as a closure so cloudpickle ships its code by value: it must run on a worker that
    cannot import ``engine`` at all, to say so."""

    def check(paths: list[str]) -> dict[str, Any]:
        import importlib.util
        import os
        import socket as _socket
        import sys

        return {"host": _socket.gethostname(), "engine": importlib.util.find_spec("engine") is not None,
                "missing": [p for p in paths if not os.path.exists(p)], "python": sys.version.split()[0],
                "cwd": os.getcwd()}

    return check
