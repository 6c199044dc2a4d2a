"""The Audit page's plan, held as plain data (no Qt): what to score, with what, which statistics.

Why a model apart from the widgets: the page used to keep the plan's state in its widgets, so
every question ("which corpora are ticked?", "what spec does this model get?") meant walking
list widgets. ``AuditSetup`` is the one source of truth — like the workbench's
``CorpusDocument`` — that the setup view edits and observes, that tests drive without a window,
and that turns itself into the engine's ``AuditPlan`` (``to_plan``).
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.audit import AssocStep, AuditPlan, association_tests, statistic_ids
from engine.common.i18n import N_

#: scorer kinds that take device and batch-size options
TORCH_KINDS = ("hf-classifier", "model", "heads", "llm")


def ready_systems() -> dict[str, str]:
    """{spec: name} of the scorer kinds that need no file or folder (the lexicons VADER and TextBlob,
    and any such kind registered later): the Audit page lists them from the start."""
    from engine.models.specs import scorer_kinds

    return {k.kind: k.label or k.kind for k in scorer_kinds() if not k.needs_target}

#: association-test families in the order the Audit page lists them
FAMILY_ORDER = ("weat", "seat", "lpbs", "fise")


class SetupIncomplete(ValueError):
    """The setup cannot run yet; the message is an untranslated (N_-marked) sentence, with
    ``{name}`` fields filled from ``fields`` (themselves N_-marked) after translation."""

    def __init__(self, message: str, **fields: str) -> None:
        super().__init__(message)
        self.message, self.fields = message, fields

    def translated(self, tr: Callable[[str], str]) -> str:
        text = tr(self.message)
        # a field is a form label ("Score range:"): without its colon inside a sentence
        return text.format(**{k: tr(v).rstrip(":： ") for k, v in self.fields.items()}) if self.fields else text


def statistic_settings() -> list[Any]:
    """The settings the statistics declare (engine.stats.settings), in the order the form shows them."""
    from engine.stats.registry import settings

    return settings()


def default_settings() -> dict[str, Any]:
    """Every declared setting at its default; a LOW,HIGH range as the text its line edit holds."""
    return {s.key: ("" if s.kind == "range" else s.default) for s in statistic_settings()}


@dataclass
class Choice:
    """One tickable entry: a corpus, a scoring system or an association test."""

    key: str  # corpus id or path, scorer spec, test id or file
    checked: bool = False
    kind: str = ""  # scorer kind (lexicon, hf-classifier, …) or test family (weat, …)
    language: str = ""  # tests: the stimuli's language
    title: str = ""  # tests: the library title; corpora: the file path
    builtin: bool = False

    @property
    def name(self) -> str:
        """What a list shows: a file's stem, a spec's name option or folder, a test's id."""
        if self.kind == "lexicon":
            return ready_systems().get(self.key, self.key)
        if self.kind in ("", "corpus") and self.key.endswith(".toml"):
            return Path(self.key).stem
        if self.kind in TORCH_KINDS + ("predictions", "spec"):
            from engine.models.specs import parse_spec

            try:
                _kind, target, opts = parse_spec(self.key)
            except Exception:  # shown as typed; the engine explains the problem when it runs
                return self.key
            return opts.get("name") or Path(target).name or self.key
        return Path(self.key).name if "/" in self.key else self.key


@dataclass
class AuditSetup:
    """Everything the Audit page lets a researcher choose. Views call the mutators and listen."""

    corpora: list[Choice] = field(default_factory=list)
    scorers: list[Choice] = field(default_factory=list)
    tests: list[Choice] = field(default_factory=list)
    stats: dict[str, bool] = field(default_factory=lambda: {k: True for k in statistic_ids()})
    #: the statistics' settings by key (alpha, inference, n_resamples, …), as the registry declares them
    #: (engine.stats.settings); a LOW,HIGH range is held as typed ("" : none) and read by ``to_plan``
    settings: dict[str, Any] = field(default_factory=default_settings)
    device: str = "auto"
    batch_size: int = 0  # 0: automatic
    allow_pickle: bool = False
    #: processes that score CPU-bound systems (lexicons, SVM, fastText); 0: one per core
    jobs: int = 0
    #: what a prediction file's missing or bad scores do (engine.models.scorers.predictions):
    #: "error" (stop with file:line), "drop" (leave the sentence out, with a warning), "keep" (a
    #: missing cell; each statistic leaves it out and says so)
    prediction_policy: str = "error"
    assoc_enabled: bool = False
    vectors: str = "glove-6b-50d"
    permutations: int = 10_000
    out_dir: str = ""
    cache_dir: Path | None = None
    #: where the scoring runs: "local" (this computer, one audit process) or "dask" (the
    #: scheduler at ``scheduler``, engine.sweep.run_sweep)
    run_on: str = "local"
    scheduler: str = ""
    #: called with the name of what changed ("corpora", "scorers", "tests", "options")
    listeners: list[Callable[[str], None]] = field(default_factory=list, repr=False)

    # -- filling ---------------------------------------------------------------------------
    @classmethod
    def with_defaults(cls) -> "AuditSetup":
        """Built-in and user corpora, the lexicon systems, the association-test library."""
        from engine.corpus import list_corpora

        setup = cls()
        for entry in list_corpora():
            setup.corpora.append(Choice(entry.id if entry.builtin else str(entry.path), title=str(entry.path),
                                        kind="corpus", builtin=entry.builtin))
        for spec in ready_systems():
            setup.scorers.append(Choice(spec, kind="lexicon"))
        for e in association_tests():
            setup.tests.append(Choice(e.id, kind=e.kind, language=e.language, title=e.title))
        setup.tests.sort(key=assoc_sort_key)
        return setup

    def _changed(self, what: str) -> None:
        for fn in list(self.listeners):
            fn(what)

    @staticmethod
    def _find(items: list[Choice], key: str) -> Choice | None:
        return next((c for c in items if c.key == key), None)

    def add_corpus(self, name_or_path: str | Path, checked: bool = True) -> Choice:
        """Tick a corpus, adding it (a definition file) when it is not listed yet."""
        key = str(name_or_path)
        hit = self._find(self.corpora, key) or next((c for c in self.corpora if c.name == key), None)
        if hit is None:
            hit = Choice(key, kind="corpus", title=key)
            self.corpora.append(hit)
        hit.checked = checked
        self._changed("corpora")
        return hit

    def add_scorer(self, spec: str, *, kind: str = "spec", checked: bool = True) -> Choice:
        """Tick a scoring system by its spec (engine/models/specs.py), adding it when new."""
        hit = self._find(self.scorers, spec)
        if hit is None:
            hit = Choice(spec, kind=kind)
            self.scorers.append(hit)
        hit.checked = checked
        self._changed("scorers")
        return hit

    def add_llm(self, path: str | Path, prompt_ids: list[str], *, edited_prompts: str | None = None,
                name: str = "", prompts_dir: Path | None = None) -> Choice:
        """Add a local LLM (a causal-LM folder or .gguf file) asked with the chosen prompts.

        ``edited_prompts``: the prompt file's text after the user edited it (TOML, as
        ``engine.models.prompts.prompts_to_toml`` writes it); it is validated and saved under
        ``prompts_dir`` and passed to the scorer as ``prompt_file=`` (its ids then win over the
        shipped ones). Raises ModelError (file:line) when the edited text is not a valid prompt file.
        """
        import hashlib

        from engine.common.io import atomic_write_text
        from engine.models.prompts import load_prompt_file

        opts = [f"prompt={','.join(prompt_ids)}"] if prompt_ids else []
        if edited_prompts is not None:
            folder = Path(prompts_dir) if prompts_dir else _user_prompts_dir()
            digest = hashlib.sha256(edited_prompts.encode("utf-8")).hexdigest()[:10]
            target = folder / f"prompts-{digest}.toml"
            atomic_write_text(target, edited_prompts)
            try:
                load_prompt_file(target)
            except Exception:
                target.unlink(missing_ok=True)
                raise
            opts.append(f"prompt_file={target}")
        if name.strip():
            opts.append(f"name={name.strip()}")
        spec = f"llm:{path}" + ("?" + "&".join(opts) if opts else "")
        return self.add_scorer(spec, kind="llm")

    def replace_scorer_spec(self, choice: Choice, spec: str) -> None:
        choice.key = spec
        self._changed("scorers")

    def remove_scorers(self, keys: list[str]) -> None:
        """Remove systems the user added (the lexicon systems stay)."""
        self.scorers = [c for c in self.scorers if c.key not in keys or c.kind == "lexicon"]
        self._changed("scorers")

    def add_assoc_test(self, name: str, checked: bool = True) -> Choice:
        """Tick a library test, or add a test file; turns the association tests on."""
        self.assoc_enabled = True
        hit = self._find(self.tests, name)
        if hit is None:
            hit = Choice(name, kind="file", title=name)
            self.tests.append(hit)
        hit.checked = checked
        self._changed("tests")
        return hit

    def language_mismatches(self) -> list["LanguageMismatch"]:
        """Every ticked system that does not read the language of a ticked corpus, with the listed
        systems that do (engine.models.base.language_mismatch decides, as the audit itself does)."""
        from types import SimpleNamespace

        from engine.models.base import language_mismatch

        out = []
        for corpus in (c for c in self.corpora if c.checked):
            lang = corpus_language(corpus.key)
            if not lang:
                continue
            readers = [c.name for c in self.scorers if language_mismatch(
                SimpleNamespace(languages=scorer_languages(c.key)), lang) is None and scorer_languages(c.key)]
            for scorer in (c for c in self.scorers if c.checked):
                langs = scorer_languages(scorer.key)
                if language_mismatch(SimpleNamespace(languages=langs), lang) is not None:
                    out.append(LanguageMismatch(corpus.name, lang, scorer.name, langs, readers))
        return out

    def set_checked(self, group: str, key: str, checked: bool) -> None:
        """A tick changed in a view (no notification back to the views: they already show it)."""
        hit = self._find(getattr(self, group), key)
        if hit is not None:
            hit.checked = checked

    def set_statistics(self, keys: list[str]) -> None:
        self.stats = {k: k in keys for k in self.stats}
        self._changed("options")

    def set_option(self, name: str, value: Any) -> None:
        """Set a statistic setting (by its key) or one of the setup's own options."""
        if name in self.settings:
            self.settings[name] = value
            return
        if not hasattr(self, name) or name in ("corpora", "scorers", "tests", "stats", "listeners", "settings"):
            raise AttributeError(name)
        setattr(self, name, value)

    def option(self, name: str) -> Any:
        """A statistic setting's value (by its key) or one of the setup's own options."""
        return self.settings[name] if name in self.settings else getattr(self, name)

    # -- reading ---------------------------------------------------------------------------
    def checked_corpora(self) -> list[str]:
        return [c.key for c in self.corpora if c.checked]

    def checked_scorers(self) -> list[str]:
        return [self.with_options(c.key, c.kind) for c in self.scorers if c.checked]

    def checked_tests(self) -> list[str]:
        return [c.key for c in self.tests if c.checked] if self.assoc_enabled else []

    def checked_stats(self) -> list[str]:
        return [k for k, on in self.stats.items() if on]

    def with_options(self, spec: str, kind: str | None) -> str:
        """The device and batch size added to the specs of models that take them; the missing /
        bad score policy to prediction files."""
        if kind == "predictions":
            if self.prediction_policy == "error" or "on_missing=" in spec or "on_bad=" in spec:
                return spec
            extra = f"on_missing={self.prediction_policy}&on_bad={self.prediction_policy}"
            return spec + ("&" if "?" in spec else "?") + extra
        if kind not in TORCH_KINDS:
            return spec
        opts = []
        if self.device != "auto" and "device=" not in spec:
            opts.append(f"device={self.device}")
        if self.batch_size and "batch_size=" not in spec:
            opts.append(f"batch_size={self.batch_size}")
        if not opts:
            return spec
        return spec + ("&" if "?" in spec else "?") + "&".join(opts)

    def resolve_out_dir(self, default_root: Path) -> Path:
        """The chosen results folder, or a new dated one under ``default_root``."""
        if self.out_dir.strip():
            return Path(self.out_dir.strip()).expanduser()
        return default_root / f"audit-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"

    def scheduler_address(self) -> str | None:
        """The Dask scheduler to run on, or None for this computer; SetupIncomplete when the
        address is missing or not tcp://HOST:PORT."""
        if self.run_on != "dask":
            return None
        address = self.scheduler.strip()
        if not re.fullmatch(r"(tcp|tls)://[^\s:/]+:\d{1,5}", address):
            raise SetupIncomplete(N_("Give the Dask scheduler's address as tcp://HOST:PORT "
                                     "(the address `dask scheduler` prints)."))
        return address

    def plan_settings(self) -> dict[str, Any]:
        """The settings as the plan takes them: a LOW,HIGH text read as (low, high) or None;
        SetupIncomplete (naming the setting) when it does not read as one."""
        from engine.common.errors import UsageError

        out = {}
        for s in statistic_settings():
            value = self.settings.get(s.key, s.default)
            if s.kind == "range":
                try:
                    value = s.parse_text(value or "")
                except UsageError:
                    raise SetupIncomplete(N_("Give {setting} as LOW,HIGH with HIGH above LOW (e.g. 0,1 or 1,5), "
                                             "or leave it empty."), setting=s.label) from None
            out[s.key] = value
        return out

    def to_plan(self, out_dir: Path) -> AuditPlan:
        """The engine's plan; SetupIncomplete (an N_-marked sentence) when something is missing."""
        corpora, scorers, tests, stats = (self.checked_corpora(), self.checked_scorers(), self.checked_tests(),
                                          self.checked_stats())
        if not tests:
            if not corpora:
                raise SetupIncomplete(N_("Tick at least one corpus (or add a corpus file)."))
            if not scorers:
                raise SetupIncomplete(N_("Tick at least one system to audit, or add a model folder or a prediction file."))
            if not stats:
                raise SetupIncomplete(N_("Tick at least one statistic."))
        elif (corpora or scorers) and not (corpora and scorers):
            raise SetupIncomplete(N_("To score corpora, tick at least one corpus and one system "
                                     "(or untick them to run the association tests only)."))
        scoring = bool(corpora and scorers)
        settings = self.plan_settings()
        assoc = AssocStep(tests, vectors=self.vectors.strip() or "glove-6b-50d", permutations=self.permutations,
                          seed=settings.get("seed") or 0) if tests else None
        return AuditPlan(corpora=corpora if scoring else [], scorers=scorers if scoring else [],
                         stats=(stats or ["paired"]) if scoring else [], out_dir=out_dir, cache_dir=self.cache_dir,
                         allow_pickle=self.allow_pickle,
                         settings=settings, jobs=self.jobs or None,
                         assoc=assoc)


@dataclass(frozen=True)
class LanguageMismatch:
    """A ticked system that cannot read a ticked corpus: its scores would not vary and every
    statistic would read "not tested" or "no bias" (issue 28: VADER on a Portuguese corpus)."""

    corpus: str
    language: str  # the corpus's
    scorer: str
    reads: tuple[str, ...]  # the languages the system reads
    instead: list[str]  # listed systems that read the corpus's language


_CORPUS_LANGUAGES: dict[tuple[str, float], str] = {}


def corpus_language(key: str) -> str:
    """A corpus's language from its definition ("" when it cannot be read: the audit reports that)."""
    from engine.corpus import load_definition
    from engine.corpus.definition.registry import resolve_path

    try:
        path = resolve_path(key)
        stamp = (str(path), path.stat().st_mtime)
        if stamp not in _CORPUS_LANGUAGES:
            _CORPUS_LANGUAGES[stamp] = str(getattr(load_definition(path), "language", "") or "")
        return _CORPUS_LANGUAGES[stamp]
    except Exception:  # noqa: BLE001 - a broken corpus is reported when the audit runs, not here
        return ""


def scorer_languages(spec: str) -> tuple[str, ...]:
    """The languages a system reads, known without loading it (() when unknown): the English
    lexicons (VADER, TextBlob), an LLM's ``?language=`` option, and a model folder whose
    manifest.json names its language (``main.py train`` writes it)."""
    from engine.models.specs import parse_spec

    try:
        kind, target, opts = parse_spec(spec)
    except Exception:  # noqa: BLE001 - a spec typed wrongly is reported when the audit runs
        return ()
    if kind in ("vader", "textblob"):
        from engine.models.scorers.lexicon import VaderScorer

        return tuple(VaderScorer.languages)
    if opts.get("language"):
        return (opts["language"].strip().lower(),)
    folder = Path(target) if target else None
    if folder is not None and (folder / "manifest.json").is_file():
        from engine.models.manifest import read_manifest

        try:
            lang = read_manifest(folder).get("language")
        except Exception:  # noqa: BLE001 - an unreadable manifest: the language is unknown here
            return ()
        return (lang.strip().lower(),) if isinstance(lang, str) and lang.strip() else ()
    return ()


def _user_prompts_dir() -> Path:
    from engine.common.user_dirs import prompts_dir

    return prompts_dir()


def assoc_sort_key(c: Choice) -> tuple:
    """WEAT before SEAT, LPBS and FISE; then by language, then by id (so Italian FISE entries no
    longer come first); English first within a family, the original tests' language."""
    fam = FAMILY_ORDER.index(c.kind) if c.kind in FAMILY_ORDER else len(FAMILY_ORDER)
    lang = c.language or "~"
    natural = tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", c.key))
    return (fam, lang != "en", lang, natural)


def describe_model_folder(folder: str | Path) -> tuple[str, str]:
    """(kind, spec) for a chosen model folder or .gguf file (engine.models.specs.suggest_spec):
    a model trained by EEC Studio, a causal LM (audited through prompts), or a Hugging Face
    classifier. Raises ModelError (readable) when it is none of them."""
    from engine.models.specs import suggest_spec

    return suggest_spec(folder)
