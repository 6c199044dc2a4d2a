"""What an audit returns: the scored corpora, tidy tables, result objects and the manifest."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported by whoever fills a result (an audit, the reader)
    import pandas as pd


@dataclass
class AuditResult:
    """Like a statsmodels results object: ``tables`` are the tidy frames (also written as files),
    ``results`` the statistics' own result objects (``summary()``), ``problems`` what was skipped
    and why."""

    out_dir: Path | None
    scores: dict[str, pd.DataFrame] = field(default_factory=dict)
    pairs: dict[str, pd.DataFrame] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    results: dict[str, list[Any]] = field(default_factory=dict)
    manifest: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    report: Path | None = None
    #: association tests: one row per requested test, refused/failed ones with the reason
    assoc_overview: pd.DataFrame | None = None
    #: corpus id -> its files rendered ahead of writing, by an audit in several processes
    #: (engine.results.writer.corpus_files); emptied when the folder is written
    rendered: dict[str, dict[str, bytes]] = field(default_factory=dict, repr=False)

    def summary(self) -> str:
        parts = []
        for _name, items in self.results.items():
            for r in items:
                parts.append(r.summary())
        if self.problems:
            parts.append("problems:\n" + "\n".join(f"  - {p}" for p in self.problems))
        return "\n\n".join(parts)

    def add_table(self, name: str, frame: pd.DataFrame) -> None:
        """Append rows to a tidy table (one table per statistic across corpora)."""
        old = self.tables.get(name)
        if old is None or not len(old):
            self.tables[name] = frame
        else:
            import pandas as pd

            self.tables[name] = pd.concat([old, frame], ignore_index=True)
