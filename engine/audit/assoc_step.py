"""Association tests (WEAT, SEAT, LPBS, FISE) as a step of an audit, written into its folder.

Why: an audit in the GUI pairs the extrinsic statistics of the scored corpora with the
intrinsic tests of a representation; both must land in the same results folder so the results
screen, the HTML report and a notebook find them. The tests themselves are
``engine.assoc.runner.run_test``; this module only runs a list of them with cancel/progress,
keeps one failing test from sinking the others, and returns tidy tables (written by
engine.results.writer):

    assoc/tests.csv           one row per WEAT/SEAT/LPBS test (``WeatResult.to_frame()``)
    assoc/word_scores.csv     per-word association s(w, A, B) with the test id and kind (drill-down)
    assoc/fise_quadrants.csv  FISE quadrant rows (``FiseResult.to_frame()``)
    assoc/fise_words.csv      FISE per-word coordinates b_x, b_y with the test id and axis names

The manifest gets an ``assoc`` entry with the settings used.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from typing import TYPE_CHECKING

from engine.common.command import command
from engine.common.progress import Cancelled, LogFn, is_cancelled

if TYPE_CHECKING:  # pandas loads in about half a second: a lexicon audit's import must not wait for it
    import pandas as pd



@dataclass
class AssocStep:
    """Which tests to run (library names or files) and on which representation.

    A name prefixed ``seat:`` or ``lpbs:`` runs a word-level (WEAT) test as SEAT (bleached
    sentence templates) or LPBS (masked LM), like ``assoc run --as``."""

    tests: list[str]
    vectors: str = "glove-6b-50d"
    permutations: int = 10_000
    seed: int = 0
    top_k: int = 10
    settings: dict[str, Any] = field(default_factory=dict)


def run_assoc_step(step: AssocStep, *, progress: Callable[[int, int, float | None], None] | None = None,
                   cancel: Any = None, log: LogFn | None = None) -> tuple[dict[str, pd.DataFrame], list[str], list[Any]]:
    """Run every test; returns (tables, problems, result objects).

    The representation is opened once: if that fails (missing file, unknown format) the error
    propagates, since no test could run. A test that cannot run on it (coverage too low, an
    LPBS test on static vectors) becomes a problem line and the others go on."""
    from engine.assoc.crows import CrowsResult
    from engine.assoc.errors import AssocError
    from engine.assoc.fise import FiseResult
    from engine.assoc.library import resolve
    from engine.assoc.runner import RunConfig, run_test
    from engine.assoc.weat import WeatOptions

    from .problems import told

    say = log or (lambda _m: None)
    cfg = RunConfig(vectors=step.vectors, top_k=step.top_k,
                    weat=WeatOptions(n_permutations=int(step.permutations), seed=step.seed))
    needs_static = any(not _is_mlm_test(t) for t in step.tests)
    provider = None
    if needs_static:
        from engine.assoc.providers.spec import open_vectors

        say(f"association tests: opening {step.vectors}")
        provider = open_vectors(step.vectors, lowercase=cfg.lowercase, vocab=cfg.vocab, subword=cfg.subword,
                                level=cfg.level, template=cfg.template, device=cfg.device)
    rows: list[pd.DataFrame] = []
    words: list[pd.DataFrame] = []
    quads: list[pd.DataFrame] = []
    fwords: list[pd.DataFrame] = []
    problems: list[str] = []  # English lines; most keep their message (engine.audit.problems.told)
    results: list[Any] = []
    started = time.perf_counter()
    total = len(step.tests)
    for i, name in enumerate(step.tests):
        if is_cancelled(cancel):
            raise Cancelled(i, total)
        run_as, test = split_run_as(name)
        try:
            spec = resolve(test)
            mlm = spec.kind in ("lpbs", "crows") or run_as == "lpbs"
            res = run_test(spec, replace(cfg, run_as=run_as), provider=None if mlm else provider)
        except (AssocError, ValueError, KeyError, OSError) as exc:
            msg = told("assoc_skipped", test=name, reason=str(exc))
            problems.append(msg)
            say(f"  skipped: {msg}")
        else:
            results.append(res)
            if isinstance(res, FiseResult):
                quads.append(res.to_frame())
                fwords.append(res.words.assign(test=res.test_id, x_name=res.x_name, y_name=res.y_name,
                                               representation=res.representation))
                say(f"  {res.test_id}: FISE, {len(res.words)} words")
            elif isinstance(res, CrowsResult):
                problems.append(told("crows_not_in_audit", test=name, command=command("assoc run")))
            else:
                frame = res.to_frame()
                frame.insert(1, "title", res.title)
                rows.append(frame)
                if res.word_scores is not None and len(res.word_scores):
                    words.append(res.word_scores.assign(test=res.test_id, kind=res.kind))
                say(f"  {res.test_id}: {res.kind.upper()} d = {res.effect_size:+.3f}, p = {res.p_value:.3g}")
        if progress is not None:
            done = i + 1
            rate = (time.perf_counter() - started) / done
            progress(done, total, rate * (total - done))
    import pandas as pd

    tables: dict[str, pd.DataFrame] = {}
    for key, parts in (("assoc", rows), ("assoc_words", words), ("fise_quadrants", quads), ("fise_words", fwords)):
        if parts:
            tables[key] = pd.concat(parts, ignore_index=True)
    return tables, problems, results


def association_tests() -> list[Any]:
    """The library's tests an audit can run (WEAT, SEAT, LPBS, FISE), for pickers such as the GUI's."""
    from engine.assoc.library import list_tests

    return [e for e in list_tests() if e.kind in ("weat", "seat", "lpbs", "fise")]


def split_run_as(name: str) -> tuple[str, str]:
    """("seat", "weat/T1") for "seat:weat/T1"; ("auto", name) otherwise."""
    head, sep, rest = name.partition(":")
    if sep and head in ("seat", "lpbs", "weat"):
        return head, rest
    return "auto", name


def _is_mlm_test(name: str) -> bool:
    run_as, test = split_run_as(name)
    return run_as == "lpbs" or "/lpbs/" in test or "/crows/" in test


def assoc_record(step: AssocStep, problems: list[str] | None = None) -> dict[str, Any]:
    """The manifest's ``assoc`` entry: the settings used and what could not run."""
    return {"tests": step.tests, "vectors": step.vectors, "permutations": step.permutations,
            "seed": step.seed, "top_k": step.top_k, "problems": [str(p) for p in problems or []]}


def assoc_overview(tables: dict[str, pd.DataFrame], step: AssocStep, problems: list[str]) -> pd.DataFrame:
    """One row per requested test — the results, and the refused or failed ones with the reason."""
    import pandas as pd

    from engine.assoc.library import resolve

    done = tables.get("assoc", pd.DataFrame(columns=["test"]))
    rows = []
    for name in step.tests:
        hit = done[done.test == split_run_as(name)[1]] if len(done) else done
        if len(hit):
            rows.append({**hit.iloc[0].to_dict(), "status": "ok", "note": ""})
            continue
        why = next((p.split(": ", 1)[1] for p in problems if p.startswith(f"association test {name}:")), "not run")
        try:
            title = resolve(split_run_as(name)[1]).title
        except Exception:  # noqa: BLE001 - a title is decoration
            title = ""
        rows.append({"test": name, "title": title, "status": "refused" if "coverage" in why else "error", "note": why})
    frame = pd.DataFrame(rows)
    if "title" not in frame:
        frame["title"] = ""
    frame["title"] = frame["title"].fillna("")
    return frame
