"""The results of one audit as the results screen reads them (tables by name, scores, pairs).

Why a thin wrapper: a result arrives either fresh from the runner (``AuditResult`` in memory)
or from a folder on disk (``engine.results.read_audit``); both have the same tables, and
the views only ever ask "which table, which corpora, which systems".
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from engine.stats.registry import labels_for as table_labels
from gui.i18n import N_, _

TERM_LABELS = {"race": N_("Race/Ethnicity"), "gender": N_("Gender"), "intersection": N_("Intersection")}


def with_verdict(frame: pd.DataFrame) -> pd.DataFrame:
    """The counterfactual table with the engine's verdict (significance vs the negligible band),
    translated, next to ``exceeds_band`` — the same words as the report and the LaTeX tables
    (engine.stats.present.verdicts marks them for the catalogs)."""
    from engine.stats.present.verdicts import frame_verdicts

    if not {"mean_diff", "t_p_value", "band"} <= set(frame.columns):
        return frame
    verdicts = [_(v) for v in frame_verdicts(frame)]
    out = frame.drop(columns=["verdict"], errors="ignore")  # the engine's English verdict column (issue 37)
    at = out.columns.get_loc("exceeds_band") + 1 if "exceeds_band" in out.columns else len(out.columns)
    out.insert(at, "verdict", verdicts)
    return out


def label(key: str) -> str:
    """A data key (emotion, term, group) shown translated when the catalogs know it."""
    if key in TERM_LABELS:
        return _(TERM_LABELS[key])
    return _(str(key)) if key else ""


class ResultData:
    def __init__(self, result: Any) -> None:
        self.result = result
        self.tables: dict[str, pd.DataFrame] = dict(getattr(result, "tables", {}) or {})
        self.scores: dict[str, pd.DataFrame] = dict(getattr(result, "scores", {}) or {})
        self.pairs: dict[str, pd.DataFrame] = dict(getattr(result, "pairs", {}) or {})
        self.manifest: dict[str, Any] = dict(getattr(result, "manifest", {}) or {})
        self.problems: list[str] = list(getattr(result, "problems", []) or [])
        out = getattr(result, "out_dir", None)
        self.out_dir: Path | None = Path(out) if out else None
        self._values: dict[tuple[int, str], tuple[pd.DataFrame, list[str]]] = {}

    def table(self, name: str) -> pd.DataFrame | None:
        t = self.tables.get(name)
        return t if t is not None and len(t) else None

    def values(self, frame: pd.DataFrame | None, column: str) -> list[str]:
        """The distinct values of a column as text, in order of appearance (for the selectors).

        Why vectorised and remembered: the views fill their selectors from tables of tens of
        thousands of pair rows on the UI thread, once per view and again on every relabel."""
        if frame is None or column not in frame.columns:
            return []
        hit = self._values.get((id(frame), column))
        if hit is not None and hit[0] is frame:
            return list(hit[1])
        found = [str(v) for v in pd.unique(frame[column].dropna().to_numpy(dtype=object))]
        out = list(dict.fromkeys(found))  # 1 and "1" are one choice, as before
        self._values[(id(frame), column)] = (frame, out)
        return list(out)

    def all_tables(self) -> list[tuple[str, str, pd.DataFrame]]:
        """(key, label, frame) of every table, then each corpus's scores and pairs."""
        labels = table_labels(list(self.tables))
        out = [(k, _(labels[k]), with_verdict(v) if k == "counterfactual" else v)
               for k, v in self.tables.items() if v is not None]
        out += [(f"scores:{c}", _("Scores: {corpus}").format(corpus=c), v) for c, v in self.scores.items()]
        out += [(f"pairs:{c}", _("Pairs: {corpus}").format(corpus=c), v) for c, v in self.pairs.items()]
        return out

    def title(self) -> str:
        plan = self.manifest.get("plan", {}) or {}
        corpora = ", ".join(self.manifest.get("corpora", {}) or plan.get("corpora", []) or self.scores)
        scorers = ", ".join(self.manifest.get("scorers", {}) or plan.get("scorers", []))
        parts = []
        if corpora:
            parts.append(_("Corpora: {names}").format(names=corpora))
        if scorers:
            parts.append(_("Systems: {names}").format(names=scorers))
        if self.table("assoc") is not None or self.table("fise_words") is not None:
            assoc = self.manifest.get("assoc", {}) or {}
            parts.append(_("Association tests on {vectors}").format(vectors=assoc.get("vectors", "?")))
        return " · ".join(parts)
