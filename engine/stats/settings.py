"""A statistic's settings, declared once: name, type, default, range, choices, help, CLI flag, GUI label.

Why one declaration: the command line (engine/audit/cli.py), the sweep plan file
(engine/sweep/plan_file.py), the GUI's settings form (gui/audit/setup_view.py), the plan's validation
(engine/audit/plan.py) and the defaults a statistic reads (``StatContext.setting``) used to spell
each setting out on their own, under different names (``--bootstrap``, ``bootstrap``,
``n_resamples``) and with their own checks, so they could drift apart. Now each registry entry lists
the ``Setting`` objects it reads (``Statistic.settings``) and every one of those places is generated
from them; a setting shared by several statistics (``alpha``, ``inference``) is one object here.

Names: ``key`` is the name in ``AuditPlan.settings`` and ``ctx.setting(key)``. The command line
takes ``flag`` and also ``--key-with-dashes``; a plan file takes ``plan_key`` and also ``key``
(``--bootstrap`` / ``--n-resamples``, ``bootstrap = …`` / ``n_resamples = …``).

``None`` as the value of a setting that is not ``optional`` means "not set": the statistic uses the
default. For an optional setting (``correction``, ``score_range``) None is a value of its own (no
correction; the scorer's declared scale).
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

from engine.common.errors import UsageError
from engine.common.i18n import N_


KINDS = ("int", "float", "choice", "range")


@dataclass(frozen=True)
class Setting:
    """One setting of one or more statistics (see the module docstring for the names)."""

    key: str
    kind: str  # "int" | "float" | "choice" | "range" (two numbers LOW,HIGH)
    default: Any
    help: str  # the command line's --help (English, like every CLI text)
    label: str  # the GUI form's label, N_-marked (e.g. "Significance level α:")
    #: the GUI tooltip, N_-marked lines (translated one by one, joined by new lines); none: no tooltip
    tooltip: tuple[str, ...] = ()
    flag: str = ""  # the command-line flag (default --key-with-dashes)
    plan_key: str = ""  # the key in a sweep plan file (default: key)
    choices: tuple[Any, ...] = ()
    #: GUI names of the choices, N_-marked, in the order of ``choices`` (None's label first when optional)
    choice_labels: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    low_open: bool = False  # low itself is refused (alpha > 0)
    high_open: bool = False  # high itself is refused (alpha < 1)
    optional: bool = False  # None is a value (no correction, no declared range)
    none_label: str = ""  # GUI name of None for an optional choice (N_-marked)
    fix: str = ""  # the example an error gives ("e.g. 0.05")
    metavar: str = ""
    step: float = 1.0  # GUI spin-box step
    decimals: int = 3  # GUI decimals of a float
    gui_low: float | None = None  # GUI spin-box range where it is narrower than the valid one
    gui_high: float | None = None
    #: older names for a choice (``gender`` for ``gender_only``): accepted, kept as typed
    choice_aliases: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"setting {self.key!r}: kind must be one of {KINDS}")  # a declaration bug
        if not self.flag:
            object.__setattr__(self, "flag", "--" + self.key.replace("_", "-"))
        if not self.plan_key:
            object.__setattr__(self, "plan_key", self.key)

    # -- names --------------------------------------------------------------------------------
    @property
    def flags(self) -> tuple[str, ...]:
        """The flag, then ``--key-with-dashes`` when that is another name."""
        return tuple(dict.fromkeys((self.flag, "--" + self.key.replace("_", "-"))))

    @property
    def plan_keys(self) -> tuple[str, ...]:
        """The plan-file key, then ``key`` when that is another name."""
        return tuple(dict.fromkeys((self.plan_key, self.key)))

    @property
    def accepted_choices(self) -> tuple[Any, ...]:
        return tuple(self.choices) + tuple(a for a in self.choice_aliases if a not in self.choices)

    # -- values ----------------------------------------------------------------------------------
    def check(self, value: Any, field_name: str | None = None) -> Any:
        """The value converted to the declared type when it is valid — a float for "float" (also
        from ``"0.05"`` or ``1``), an int for "int" (also from ``"1000"``), a (low, high) tuple of
        floats for "range", a string for "choice" — else UsageError naming ``field_name`` (default:
        the flag). Why convert: a plan's ``alpha = "0.05"`` passed the check as a string and failed
        deep inside the statistics after the cluster had scored everything."""
        name = field_name or self.flag
        if value is None:
            return None  # not set (the default), or "none" for an optional setting
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.accepted_choices:
                shown = ", ".join(str(c) for c in self.choices)
                raise UsageError(f"must be one of {shown}, not {value!r}", field=name,
                                 fix=self.fix or f"e.g. {self.choices[0]}")
            return value
        if self.kind == "range":
            pair = list(value) if hasattr(value, "__len__") and not isinstance(value, (str, bytes, dict)) else []
            if len(pair) != 2 or any(isinstance(v, bool) for v in pair):
                raise UsageError(f"must be LOW,HIGH, got {value!r}", field=name, fix=self.fix)
            low, high = (self._number(v, name) for v in pair)
            if not high > low:
                raise UsageError(f"must be LOW,HIGH with HIGH > LOW, got {value!r}", field=name, fix=self.fix)
            return (low, high)
        if isinstance(value, bool):
            raise UsageError(f"must be a number, got {value!r}", field=name, fix=self.fix)
        if self.kind == "int":
            number = self._whole(value, name)
            self._in_range(float(number), value, name)
            return number
        number = self._number(value, name)
        self._in_range(number, value, name)
        return number

    def _whole(self, value: Any, name: str) -> int:
        if isinstance(value, str):
            try:
                return int(value.strip().replace("_", ""))
            except ValueError:
                pass
        elif isinstance(value, numbers.Integral):  # also numpy's integers
            return int(value)
        raise UsageError(f"must be a whole number, got {value!r}", field=name, fix=self.fix)

    def _number(self, value: Any, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
            raise UsageError(f"must be a number, got {value!r}", field=name, fix=self.fix)
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            raise UsageError(f"must be a number, got {value!r}", field=name, fix=self.fix) from None
        if math.isnan(number):
            raise UsageError("must be a number, got NaN", field=name, fix=self.fix)
        if math.isinf(number):
            raise UsageError(f"must be a finite number, got {value!r}", field=name, fix=self.fix)
        return number

    def _in_range(self, number: float, value: Any, name: str) -> None:
        low_ok = self.low is None or (number > self.low if self.low_open else number >= self.low)
        high_ok = self.high is None or (number < self.high if self.high_open else number <= self.high)
        if low_ok and high_ok:
            return
        if self.low is not None and self.high is not None:
            ends = " (exclusive)" if self.low_open and self.high_open else \
                f" ({self.high:g} excluded)" if self.high_open else f" ({self.low:g} excluded)" if self.low_open else ""
            text = f"must be between {self.low:g} and {self.high:g}{ends}, got {value!r}"
        elif self.low is not None:
            text = f"must be {'above' if self.low_open else 'at least'} {self.low:g}, got {value!r}"
        else:
            text = f"must be {'below' if self.high_open else 'at most'} {self.high:g}, got {value!r}"
        raise UsageError(text, field=name, fix=self.fix)

    def parse_text(self, text: str, field_name: str | None = None) -> Any:
        """A value from what a user typed (the command line, a GUI line edit); '' is None for an
        optional setting. UsageError when it does not read as this setting's type."""
        name = field_name or self.flag
        raw = str(text).strip()
        if not raw and (self.optional or self.kind == "range"):
            return None
        if self.kind == "choice":
            return self.check(raw, name)
        if self.kind == "range":
            parts = [x.strip() for x in raw.replace(";", ",").split(",")]
            try:
                pair = (float(parts[0]), float(parts[1])) if len(parts) == 2 else None
            except ValueError:
                pair = None
            if pair is None:
                raise UsageError(f"{raw!r} is not LOW,HIGH", field=name, fix=self.fix)
            if not pair[1] > pair[0]:
                raise UsageError(f"{raw!r}: HIGH must be greater than LOW", field=name, fix=self.fix)
            return self.check(pair, name)
        try:
            value: Any = int(raw) if self.kind == "int" else float(raw)
        except ValueError:
            what = "a whole number" if self.kind == "int" else "a number"
            raise UsageError(f"must be {what}, got {raw!r}", field=name, fix=self.fix) from None
        return self.check(value, name)

    def value_or_default(self, settings: dict[str, Any]) -> Any:
        """What a statistic uses: the plan's value, or the default when it is missing (or None and
        the setting is not optional)."""
        if self.key not in settings:
            return self.default
        value = settings[self.key]
        if value is None:
            return None if self.optional else self.default
        return self.check(value)  # the declared type, also for a plan built by hand ("0.05" → 0.05)


def merged(groups: list[tuple[Setting, ...]]) -> list[Setting]:
    """The settings of several statistics, each once, in the order they first appear. Two different
    declarations under one key are refused: the CLI, GUI and plan file could not all follow both."""
    out: dict[str, Setting] = {}
    for group in groups:
        for s in group:
            seen = out.get(s.key)
            if seen is None:
                out[s.key] = s
            elif seen != s:
                raise ValueError(f"two statistics declare setting {s.key!r} differently; declare it once "
                                 f"(engine/stats/settings.py) and list that object in both entries")
    return list(out.values())


# -- the settings several statistics share ------------------------------------------------------------
#: the inferences a statistic can report (engine.stats.inference) and their one name each: the GUI's
#: choices (translated), plot titles and table headings (English) all say these words
INFERENCE_NAMES = {"person": N_("person-robust"),
                   # TRANSLATORS: inference that treats persons, templates and emotion words as random factors
                   "crossed": N_("persons, templates and words"),
                   "paper": N_("the papers' tests")}
INFERENCE_CHOICES = tuple(INFERENCE_NAMES)
INFERENCE = Setting(
    "inference", "choice", "person", choices=INFERENCE_CHOICES,
    choice_labels=tuple(INFERENCE_NAMES.values()),
    label=N_("Inference:"),
    help=("p-values and intervals: person-robust (default; each name/noun phrase is one unit, see docs/stats.md), "
          "crossed (persons, templates and emotion words as random factors: the verdict generalises to templates "
          "and words like these) or the papers' own tests over sentences (to reproduce published numbers)"),
    tooltip=(N_("Each person appears in many sentences, so sentence-level tests are too "
                "optimistic; person-robust tests treat persons as the units (docs/stats.md)"),
             N_("Persons, templates and words: the verdict also generalises to other "
                "templates and emotion words like these (wider intervals)."),
             N_("The papers' tests reproduce their published numbers.")))
ALPHA = Setting("alpha", "float", 0.05, low=0.0, high=1.0, low_open=True, high_open=True, fix="e.g. 0.05 for a 5% level",
                label=N_("Significance level α:"), help="significance level of the verdicts (default 0.05)",
                step=0.01, gui_low=0.001, gui_high=0.5)
CORRECTION = Setting("correction", "choice", None, choices=("holm", "bh"), optional=True,
                     choice_labels=(N_("Holm"), N_("Benjamini–Hochberg")), none_label=N_("none"),
                     label=N_("Multiple-comparison correction:"), help="multiple-comparison correction")
# upper bounds: a plan's `bootstrap = 1000000000` would run for days before saying anything
N_RESAMPLES = Setting("n_resamples", "int", 1000, flag="--bootstrap", plan_key="bootstrap", low=0, high=1_000_000,
                      metavar="N", fix="0 for none, or e.g. 1000", label=N_("Bootstrap resamples:"),
                      help="bootstrap resamples (0: none)", step=500, gui_high=100_000)
SEED = Setting("seed", "int", 0, low=0, high=2**63 - 1, metavar="N", fix="e.g. 0", label=N_("Random seed:"),
               help="random seed of the bootstrap and permutation draws", gui_high=2**31 - 1)
N_PERMUTATIONS = Setting("n_permutations", "int", 2000, flag="--person-permutations", plan_key="person_permutations",
                         low=0, high=10_000_000, metavar="N", fix="0 for none, or e.g. 2000",
                         label=N_("Person permutations:"),
                         help="relabellings of the person-level permutation tests (exact when fewer exist; 0: none)",
                         step=500, gui_high=1_000_000)

#: K&M's race pairs (the paired analysis); here because engine.stats.inference checks it as well
RACE_POOLING_CHOICES = ("paper", "within_gender")
RACE_POOLING = Setting("race_pooling", "choice", "paper", choices=RACE_POOLING_CHOICES,
                       choice_labels=(N_("pooled, as in the paper"), N_("within gender")),
                       label=N_("Race pairs (K&M):"),
                       help="K&M race pairs: both genders pooled as in the paper (default, 144 pairs on the EEC) "
                            "or one pair per gender (288)")

#: the shared settings in the order the GUI form and --help list them, before each statistic's own
SHARED = (INFERENCE, ALPHA, CORRECTION, N_RESAMPLES, N_PERMUTATIONS, SEED)
