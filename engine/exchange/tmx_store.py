"""The store of translation-memory pairs imported from TMX files: SQLite, indexed by language.

Why not a TMX file any more: the store was one ``imported.tmx`` read whole and written whole on
every import and read whole for every suggestion — a 50 MB TMX (300,000 units) took 158 s and
1.9 GB to import, then 162 s to import one more pair and 36 s for the workbench's suggestions.
Here each unit is one row (``$EEC_STUDIO_HOME/memory/imported.sqlite``), unique by its content,
indexed by target language: an import streams the TMX (engine.exchange.tmx_format.iter_tmx_units)
into one transaction (all or nothing), and suggestions read only the sources of one language,
fetching full rows only for the best matches. A store from an earlier version (``imported.tmx``)
is read into the database once, and left where it is.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from engine.common.languages import base_language
from engine.corpus.definition.model import Form
from engine.corpus.translate.memory import GLOSSARY, IMPORTED, MemoryUnit, Suggestion, _norm

_SCHEMA = """
CREATE TABLE IF NOT EXISTS units (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    source_lang TEXT NOT NULL,
    target_lang TEXT NOT NULL,
    target_base TEXT NOT NULL,
    list_name TEXT NOT NULL,
    source TEXT NOT NULL,
    source_norm TEXT NOT NULL,
    forms TEXT NOT NULL,
    corpus_id TEXT NOT NULL,
    item_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS units_by_language ON units (target_base, source_norm);
"""


def store_path() -> Path:
    from engine.common.user_dirs import user_home

    return user_home() / "memory" / "imported.sqlite"


def legacy_path() -> Path:
    return store_path().with_name("imported.tmx")


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), isolation_level=None, timeout=30)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(_SCHEMA)
    return con


_INSERT = ("INSERT OR IGNORE INTO units (key, source_lang, target_lang, target_base, list_name, source, source_norm, "
           "forms, corpus_id, item_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_BATCH = 5000


def _row(pair) -> tuple:
    """The unit's row; its key (unique) is its content: languages, list, source and forms."""
    u = pair.unit
    forms = json.dumps([[f.text, f.features] for f in u.forms], ensure_ascii=False, sort_keys=True)
    key = "\x1f".join((pair.source_lang.casefold(), pair.target_lang.casefold(), u.list_name, u.source, forms))
    return (key, pair.source_lang, pair.target_lang, base_language(pair.target_lang), u.list_name, u.source,
            _norm(u.source), forms, u.corpus_id, u.item_id)


@dataclass
class Imported:
    added: int
    skipped: int
    languages: list[str]


def import_file(tmx: Path) -> Imported:
    """Stream ``tmx`` into the store in one transaction: every unit or none (a bad line anywhere
    leaves the store as it was, and no store file when there was none)."""
    from engine.exchange.tmx_reader import iter_tmx_units

    path = store_path()
    existed = path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    con = _connect(path)
    if not existed:
        _migrate(con)
    batch: list[tuple] = []
    langs: dict[str, int] = {}  # target language -> units of it added
    read = [0]

    def flush() -> None:
        for row in batch:  # one statement per row: whether each was new decides its language's count
            if con.execute(_INSERT, row).rowcount:
                langs[row[2]] = langs.get(row[2], 0) + 1
        batch.clear()

    def put(pair) -> None:
        read[0] += 1
        batch.append(_row(pair))
        if len(batch) >= _BATCH:
            flush()

    try:
        con.execute("BEGIN IMMEDIATE")
        iter_tmx_units(tmx, put)
        flush()
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        con.close()
        if not existed:
            for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                p.unlink(missing_ok=True)
        raise
    con.close()
    added = sum(langs.values())
    return Imported(added, read[0] - added, [lang for lang, n in langs.items() if n])


def _migrate(con: sqlite3.Connection) -> None:
    """Units of the TMX store of earlier versions, read once into a new database."""
    legacy = legacy_path()
    if not legacy.is_file():
        return
    from engine.exchange.errors import ExchangeError
    from engine.exchange.tmx_reader import iter_tmx_units

    rows = []
    try:
        iter_tmx_units(legacy, rows.append)
    except ExchangeError:
        return  # an unreadable old store: suggestions never failed on it, and do not now
    con.execute("BEGIN")
    con.executemany(_INSERT, (_row(p) for p in rows))
    con.execute("COMMIT")


def _open_for_reading() -> sqlite3.Connection | None:
    path = store_path()
    if not path.exists():
        if not legacy_path().is_file():
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        con = _connect(path)
        _migrate(con)
        return con
    try:
        return _connect(path)
    except sqlite3.Error:
        return None


def _unit(row) -> MemoryUnit:
    list_name, source, forms, corpus_id, item_id = row
    return MemoryUnit(list_name, source, [Form(t, dict(f)) for t, f in json.loads(forms)], corpus_id, item_id)


def iter_units(language: str) -> Iterator[tuple[str, str, MemoryUnit]]:
    """(source language, target language, unit) of every stored unit whose target is ``language``
    (its base language: pt-BR uses pt too); an unreadable store yields nothing."""
    con = _open_for_reading()
    if con is None:
        return
    with closing(con):
        try:
            rows = con.execute("SELECT source_lang, target_lang, list_name, source, forms, corpus_id, item_id "
                               "FROM units WHERE target_base = ? ORDER BY id", (base_language(language),))
            for row in rows:
                yield row[0], row[1], _unit(row[2:])
        except sqlite3.Error:
            return


class ImportedIndex:
    """The imported units of one language for suggestions: their normalised sources in memory
    (one row id each), full units fetched only for the best matches."""

    def __init__(self, language: str) -> None:
        self.language = base_language(language)
        self.ids: list[int] = []
        self.lists: list[str] = []
        self.sources: list[str] = []
        con = _open_for_reading()
        if con is None:
            return
        with closing(con):
            try:
                for rid, list_name, norm in con.execute(
                        "SELECT id, list_name, source_norm FROM units WHERE target_base = ? ORDER BY id", (self.language,)):
                    self.ids.append(rid)
                    self.lists.append(list_name)
                    self.sources.append(norm)
            except sqlite3.Error:
                self.ids, self.lists, self.sources = [], [], []

    def __len__(self) -> int:
        return len(self.ids)

    def units(self) -> list[MemoryUnit]:
        """Every imported unit of the language, read from the store (tm-export writes them all)."""
        return [u for _src, _tgt, u in iter_units(self.language)]

    def suggest(self, list_name: str, query: str, *, limit: int, cutoff: float) -> list[Suggestion]:
        """The best matches of ``query`` (already normalised) among units for ``list_name``, imported
        pairs and glossary terms, best first (at most a few times ``limit``: the caller dedupes)."""
        from rapidfuzz import fuzz, process

        if not self.ids or not query:
            return []
        wanted = {list_name, GLOSSARY, IMPORTED}
        choices = {i: s for i, s in enumerate(self.sources) if self.lists[i] in wanted}
        found = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=max(limit * 4, 20))
        if not found:
            return []
        con = _open_for_reading()
        if con is None:
            return []
        with closing(con):
            rows = {}
            for _choice, _score, i in found:
                row = con.execute("SELECT list_name, source, forms, corpus_id, item_id FROM units WHERE id = ?",
                                  (self.ids[i],)).fetchone()
                if row is not None:
                    rows[i] = _unit(row)
        return [Suggestion(rows[i], float(score), self.sources[i] == query) for _c, score, i in found if i in rows]
