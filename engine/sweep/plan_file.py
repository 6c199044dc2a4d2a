"""Sweep plan files (TOML): corpora × models × statistics and how to spread the scoring.

    [sweep]
    corpora = ["en-kiritchenko2018", "en-camara2022-latino"]
    models = ["vader", "textblob"]
    stats = ["beta", "paired"]

Why a file and not just flags: a sweep over ten languages and twenty models is something a lab
keeps, reviews and re-runs; the file is validated before any worker starts, and every problem
names its line (tomllib gives lines only for syntax errors, so semantic errors find the key's
line with the corpus loader's locator). Relative paths are taken from the plan file's folder.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.audit.assoc_step import AssocStep
from engine.audit.plan import AuditPlan, statistic_ids
from engine.common import validate
from engine.common.errors import UsageError, UserError
from engine.common.toml_file import locate, parse_toml

from .errors import SweepError
from .paths import with_base, with_options

DEFAULT_CHUNK = 1000
DEFAULT_RETRIES = 3
MAX_CHUNK = 1_000_000  # texts per task: a task's scores travel back in one message
MAX_RETRIES = 100  # a task that fails on 100 workers fails for itself, not for a lost worker

MODEL_OPTIONS = ("device", "precision", "batch_size", "max_length")
#: the plan's own keys; every statistic setting adds its plan key and its key (engine.stats.settings:
#: ``bootstrap`` or ``n_resamples``, ``band`` or ``band_share``, …), see ``keys()``
PLAN_KEYS = ("corpora", "models", "stats", "allow_pickle", "report", "cache_dir", "chunk_size", "retries", "assoc",
             "vectors", "permutations", "model_options")
# AuditPlan.validate names command-line flags; a plan file names its keys (the settings' are added in _flag_to_key)
_FLAG_TO_KEY = {"--corpus": "corpora", "--model": "models", "--stats": "stats", "--permutations": "permutations",
                "--out": "out"}


def keys() -> tuple[str, ...]:
    """Every key a [sweep] table may hold: the plan's own, then each statistic setting's names."""
    from engine.stats.registry import settings

    return PLAN_KEYS + tuple(k for s in settings() for k in s.plan_keys)


def _flag_to_key(flag: str) -> str:
    from engine.stats.registry import settings

    known = {**_FLAG_TO_KEY, **{f: s.plan_key for s in settings() for f in s.flags}}
    return known.get(flag, flag.lstrip("-"))


@dataclass
class SweepPlan:
    """An audit plan plus how a sweep spreads its scoring (texts per task, retries of lost tasks)."""

    audit: AuditPlan
    chunk_size: int = DEFAULT_CHUNK
    retries: int = DEFAULT_RETRIES


def load_sweep_plan(path: str | Path, *, out_dir: str | Path | None = None,
                    cache_dir: str | Path | None = None) -> SweepPlan:
    """Read and validate a plan file; raises SweepError (``FILE:LINE [sweep.KEY]: … — fix``)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SweepError("plan file not found", file=str(path), fix="check the path") from None
    except IsADirectoryError:
        raise SweepError("is a folder, not a plan file", file=str(path), fix="name the .toml file") from None
    except OSError as exc:
        raise SweepError(f"cannot read the plan file ({exc.strerror})", file=str(path)) from None
    return parse_sweep_plan(raw, str(path), base=path.resolve().parent, out_dir=out_dir, cache_dir=cache_dir)


def parse_sweep_plan(raw: bytes | str, name: str = "<plan>", *, base: Path | None = None,
                     out_dir: str | Path | None = None, cache_dir: str | Path | None = None) -> SweepPlan:
    def fail(message: str, line: int | None, fix: str) -> SweepError:
        return SweepError(message, file=name, line=line, fix=fix)

    data, text = parse_toml(raw, fail)
    return _Reader(name, text, base or Path.cwd()).read(data, out_dir, cache_dir)


class _Reader:
    def __init__(self, name: str, text: str, base: Path) -> None:
        self.name, self.text, self.base = name, text, base

    def fail(self, key: str, message: str, fix: str = "") -> SweepError:
        field = f"sweep.{key}" if key else "sweep"
        return SweepError(message, file=self.name, line=locate(self.text, field), field=field, fix=fix)

    # -- typed reads -----------------------------------------------------------------------------
    def strings(self, d: dict, key: str, *, required: bool = False) -> list[str]:
        value = d.get(key)
        if value is None:
            if required:
                raise self.fail(key, f"'{key}' is missing", fix=f'add e.g. {key} = ["…"] under [sweep]')
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(key, f"'{key}' must be a list of names", fix=f'e.g. {key} = ["a", "b"]')
        if required and not value:
            raise self.fail(key, f"'{key}' is empty", fix="name at least one")
        return [v.strip() for v in value]

    def number(self, d: dict, key: str, default: Any, kind: type) -> Any:
        value = d.get(key, default)
        ok = isinstance(value, (int, float)) if kind is float else isinstance(value, int)
        if isinstance(value, bool) or not ok:
            what = "a number" if kind is float else "a whole number"
            raise self.fail(key, f"'{key}' must be {what}, not {value!r}")
        return kind(value)

    def flag(self, d: dict, key: str) -> bool:
        value = d.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(key, f"'{key}' must be true or false, not {value!r}")
        return value

    # -- the plan ----------------------------------------------------------------------------------
    def read(self, data: dict, out_dir: Any, cache_dir: Any) -> SweepPlan:
        d = data.get("sweep")
        if not isinstance(d, dict):
            raise SweepError("no [sweep] table", file=self.name, line=1,
                             fix='start with [sweep] and corpora = [...], models = [...] under it')
        extra = [k for k in data if k != "sweep"]
        if extra:
            raise SweepError(f"unknown table or key '{extra[0]}'", file=self.name, line=locate(self.text, extra[0]),
                             field=extra[0], fix="put everything under [sweep]")
        known_keys = keys()
        unknown = [k for k in d if k not in known_keys]
        if unknown:  # the same line as AuditPlan's unknown setting (engine.common.validate.known_key)
            try:
                validate.known_key(unknown[0], unknown[0], known_keys)
            except UsageError as exc:
                raise self.fail(unknown[0], exc.message, fix=exc.fix) from None
        names = self.strings(d, "corpora", required=True)
        corpora = [self.corpus(c) for c in names]
        self.no_duplicates("corpora", names, [self.corpus_identity(c) for c in corpora])
        options = self.model_options(d)
        specs = self.strings(d, "models", required=True)
        models = [self.model(m, options) for m in specs]
        self.no_duplicates("models", specs, models)
        stats = self.strings(d, "stats") or None
        known = statistic_ids()
        bad = [s for s in stats or [] if s not in known]
        if bad:
            raise self.fail("stats", f"unknown statistic {bad[0]!r}", fix=f"choose from {', '.join(known)}")
        settings = self.settings(d)
        tests = self.strings(d, "assoc")
        assoc = None
        if tests:
            vectors = d.get("vectors", "glove-6b-50d")
            if not isinstance(vectors, str) or not vectors.strip():
                raise self.fail("vectors", "'vectors' must name a representation", fix='e.g. vectors = "glove-6b-50d"')
            assoc = AssocStep(tests=tests, vectors=vectors, permutations=self.number(d, "permutations", 10_000, int),
                              seed=settings["seed"])
        if cache_dir is None and d.get("cache_dir") is not None:
            if not isinstance(d["cache_dir"], str):
                raise self.fail("cache_dir", "'cache_dir' must be a folder path")
            cache_dir = self.base / Path(d["cache_dir"]).expanduser()
        plan = AuditPlan(corpora=corpora, scorers=models, stats=stats, out_dir=Path(out_dir) if out_dir else None,
                         cache_dir=Path(cache_dir) if cache_dir else None, allow_pickle=self.flag(d, "allow_pickle"),
                         settings=settings, assoc=assoc, report=self.flag(d, "report"))
        try:
            plan.validate()
        except UsageError as exc:
            key = _flag_to_key(exc.field)
            if key == "out" or exc.file:
                raise
            raise self.fail(key, exc.message, exc.fix.replace(f"{exc.field} ", f"{key} = ")) from None
        chunk = self.number(d, "chunk_size", DEFAULT_CHUNK, int)
        if chunk < 1:
            raise self.fail("chunk_size", f"'chunk_size' must be at least 1, not {chunk}", fix="e.g. chunk_size = 1000")
        if chunk > MAX_CHUNK:
            raise self.fail("chunk_size", f"'chunk_size' must be at most {MAX_CHUNK:,}, not {chunk:,}",
                            fix="e.g. chunk_size = 1000")
        retries = self.number(d, "retries", DEFAULT_RETRIES, int)
        if retries < 0:
            raise self.fail("retries", f"'retries' cannot be negative ({retries})", fix="e.g. retries = 3")
        if retries > MAX_RETRIES:
            raise self.fail("retries", f"'retries' must be at most {MAX_RETRIES}, not {retries:,}", fix="e.g. retries = 3")
        return SweepPlan(plan, chunk_size=chunk, retries=retries)

    def settings(self, d: dict) -> dict[str, Any]:
        """Every statistic setting (engine.stats.settings) under its plan key or its key, checked as
        declared; a setting the file does not name takes its default, as on the command line."""
        from engine.stats.registry import settings

        out: dict[str, Any] = {}
        for s in settings():
            given = [k for k in s.plan_keys if k in d]
            if len(given) > 1:
                raise self.fail(given[1], f"'{given[0]}' and '{given[1]}' are the same setting",
                                fix=f"keep one of them ({s.plan_key})")
            if not given:
                out[s.key] = s.default
                continue
            key, value = given[0], d[given[0]]
            if s.kind == "float" and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)  # TOML's 1 for 1.0
            try:
                out[s.key] = s.check(value, key)
            except UsageError as exc:
                fix = exc.fix.replace(f"{s.flag} ", f"{key} = ") if exc.fix else exc.fix
                raise self.fail(key, exc.message, fix) from None
        return out

    def no_duplicates(self, key: str, names: list[str], identities: list[str]) -> None:
        """The second mention of one corpus (or model) is refused at its line: it would be scored and
        every statistic computed once per mention."""
        first: dict[str, int] = {}
        for i, ident in enumerate(identities):
            if ident in first:
                j = first[ident]
                same = f"{names[i]!r}" + (f" (the same as {names[j]!r})" if names[i] != names[j] else "")
                raise SweepError(f"{same} is listed twice in '{key}'", file=self.name,
                                 line=self.item_line(key, names[i], names[i] == names[j]), field=f"sweep.{key}",
                                 fix="list each once: a duplicate would compute every statistic again")
            first[ident] = i

    def item_line(self, key: str, value: str, second: bool) -> int | None:
        """The line of ``value`` (its second mention when ``second``) in the array ``key``."""
        start = locate(self.text, f"sweep.{key}")
        if start is None:
            return None
        lines = self.text.splitlines()
        seen = 0
        for n in range(start - 1, len(lines)):
            seen += lines[n].count(f'"{value}"') + lines[n].count(f"'{value}'")
            if seen >= (2 if second else 1):
                return n + 1
            if n > start - 1 and "=" in lines[n].split("#")[0] and "[" not in lines[n].split("=")[0]:
                break  # the next key: the array ended
        return start

    @staticmethod
    def corpus_identity(name: str) -> str:
        from engine.corpus.definition.registry import resolve_path

        try:
            return str(Path(resolve_path(name)).resolve())
        except (UserError, OSError):
            return name

    def corpus(self, name: str) -> str:
        from engine.corpus.definition.registry import resolve_path

        candidate = self.base / Path(name).expanduser()
        if name.lower().endswith(".toml") and not Path(name).is_absolute() and candidate.exists():
            return str(candidate.resolve())
        try:
            path = resolve_path(name)
        except UserError as exc:  # no corpus of that name
            raise self.fail("corpora", f"no corpus named {name!r}", fix=exc.fix) from None
        if not path.exists():
            raise self.fail("corpora", f"corpus file {name!r} not found",
                            fix="paths are relative to the plan file's folder")
        return name

    def model_options(self, d: dict) -> dict[str, str]:
        opts = d.get("model_options", {})
        if not isinstance(opts, dict):
            raise self.fail("model_options", "'model_options' must be a table",
                            fix='e.g. model_options = { device = "cuda", batch_size = 64 }')
        bad = [k for k in opts if k not in MODEL_OPTIONS]
        if bad:
            raise self.fail("model_options", f"unknown model option '{bad[0]}'",
                            fix=f"choose from {', '.join(MODEL_OPTIONS)} (or set it in one model's spec after '?')")
        for k, v in opts.items():
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise self.fail("model_options", f"model option '{k}' must be a word or a whole number, not {v!r}")
        return {k: str(v) for k, v in opts.items()}

    def model(self, spec: str, options: dict[str, str]) -> str:
        from engine.models.errors import ModelError
        from engine.models.specs import parse_spec

        try:
            parse_spec(spec)
            return with_options(with_base(spec, self.base), options)
        except ModelError as exc:
            raise self.fail("models", f"model {spec!r}: {exc.message}", fix=exc.fix) from None
