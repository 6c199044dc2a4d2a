"""What an audit returns: the scored corpora, tidy tables, result objects and the manifest."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported by whoever fills a result (an audit, the reader)
    import pandas as pd


@dataclass
class Spilled:
    """A frame an audit wrote to disk as it went instead of holding it (a large corpus's scores or
    pairs, engine.results.writer.spill_corpus): ``folder/rel`` while the run goes on, the results
    folder's ``rel`` once it is written."""

    folder: Path
    rel: str


class Frames(dict):
    """{corpus id: frame}, where a large corpus's frame may wait on disk (``Spilled``): it is read back,
    with the results reader, each time it is asked for — the memory goes to the next corpus."""

    home: Path | None = None  # the results folder, where spilled frames are once it is written

    def __getitem__(self, key: str) -> Any:
        return self._load(super().__getitem__(key))

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def values(self) -> Any:
        return [self[k] for k in self]

    def items(self) -> Any:
        return [(k, self[k]) for k in self]

    def __reduce__(self) -> Any:  # pickled as held (a spilled frame stays a place; the audit process's pipe)
        return (self.__class__, (dict(super().items()),), dict(self.__dict__))

    def raw(self, key: str) -> Any:
        """The frame, or its ``Spilled`` place, without reading it."""
        return super().__getitem__(key)

    def _load(self, value: Any) -> Any:
        if not isinstance(value, Spilled):
            return value
        from engine.results.table_file import read_table

        path = value.folder / value.rel
        if not path.is_file() and self.home is not None:
            path = Path(self.home) / value.rel
        return read_table(path)


@dataclass
class AuditResult:
    """Like a statsmodels results object: ``tables`` are the tidy frames (also written as files),
    ``results`` the statistics' own result objects (``summary()``), ``problems`` what was skipped
    and why."""

    out_dir: Path | None
    #: corpus id -> its scored sentences and its pair table (a large corpus's wait on disk: ``Frames``)
    scores: dict[str, pd.DataFrame] = field(default_factory=Frames)
    pairs: dict[str, pd.DataFrame] = field(default_factory=Frames)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    results: dict[str, list[Any]] = field(default_factory=dict)
    manifest: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    report: Path | None = None
    #: association tests: one row per requested test, refused/failed ones with the reason
    assoc_overview: pd.DataFrame | None = None
    #: corpus id -> its files rendered ahead of writing, by an audit in several processes
    #: (engine.results.writer.corpus_files), or written to disk as it went (a large corpus: a path
    #: instead of the bytes, engine.results.writer.spill_corpus); emptied when the folder is written
    rendered: dict[str, dict[str, bytes | Path]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for name in ("scores", "pairs"):  # a plain dict given by a caller still reads spilled frames
            frames = getattr(self, name)
            if not isinstance(frames, Frames):
                setattr(self, name, Frames(frames))
            getattr(self, name).home = self.out_dir

    def result_summaries(self) -> list[str]:
        """Each result's own summary, in order (the long part of ``summary``)."""
        return [r.summary() for items in self.results.values() for r in items]

    def summary(self, summaries: list[str] | None = None) -> str:
        """The results' summaries (``result_summaries``, or ``summaries`` made beforehand: the writer
        has a child make them while it writes) and the problems."""
        parts = list(self.result_summaries() if summaries is None else summaries)
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
