"""What a statistic gets from an audit: one corpus's scored sentences, its pairs and settings.

Why a context object: the registry's statistics differ in what they need (race axis, noun-phrase
pairs, [0, 1] score columns, the pair table); each entry reads what it needs from here instead
of the pipeline passing a different argument list to each.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd

_DECLARED: Any = object()  # ctx.setting(key) without a default: the declared one

@dataclass
class StatContext:
    """One corpus of an audit, scored.

    ``score_cols``: {"vader:valence": ("vader", "valence")}; ``pairs``: the counterfactual pair
    table with ":privileged"/":minoritised" score columns, or None; ``settings``: the plan's
    settings (alpha, correction, n_resamples, seed, band_share, noun_phrases, ...).
    """

    corpus: Any  # engine.corpus.CorpusDefinition
    scores: pd.DataFrame
    score_cols: dict[str, tuple[str, str]]
    pairs: pd.DataFrame | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    note: Callable[[str], None] = lambda _msg: None  # a problem worth reporting (kept in the results)
    #: every statistic's settings by key (``registry.context`` fills it): the defaults of ``setting``
    declared: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def corpus_id(self) -> str:
        return self.corpus.id

    def setting(self, key: str, default: Any = _DECLARED) -> Any:
        """The plan's value of a setting, else its declared default (``Statistic.settings``,
        engine.stats.settings); ``default`` serves a key no statistic declares (``declared_scales``)."""
        if default is _DECLARED:
            decl = self.declared.get(key)
            if decl is None:
                raise LookupError(f"setting {key!r} is not declared by any statistic; add it to the entry's "
                                  f"settings (engine/stats/settings.py) or pass a default (a context made "
                                  f"by engine.stats.registry.context knows every declaration)")  # a programming error
            return decl.value_or_default(self.settings)
        return self.settings.get(key, default)

    @property
    def race_axis(self) -> Any:
        return getattr(self.corpus, "race_axis", None)

    @property
    def minority(self) -> str | None:
        """The one minority group of the race axis, or None (several: the model compares each)."""
        axis = self.race_axis
        if axis is None:
            return None
        groups = axis.minority_groups
        return groups[0] if len(groups) == 1 else None

    @property
    def majority(self) -> str | None:
        axis = self.race_axis
        return None if axis is None else axis.reference


def unit_interval_columns(df: pd.DataFrame, score_cols: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """The score columns a Beta regression can take: every non-missing value within [0, 1].

    Why: a classifier also reports its expected star rating (1–5) and argmax label; one such column
    must not sink the regression of the [0, 1] columns beside it (its ``expected_01`` twin).
    """
    import pandas as pd

    keep: dict[str, tuple[str, str]] = {}
    for col, label in score_cols.items():
        values = pd.to_numeric(df[col], errors="coerce").dropna()
        if len(values) and values.between(0.0, 1.0).all():
            keep[col] = label
    return keep


def noun_phrase_pairs(corpus: Any, pairs: pd.DataFrame | None = None) -> dict[str, str] | None:
    """{female person id: male person id} for noun phrases (my mother ↔ my father).

    From the persons' own `pair` field, else from the corpus's gender [[pairs]] (as in the
    counterfactual pair corpora), oriented by each person's gender.
    """
    gender = {p.id: p.gender for p in corpus.persons}
    out = {p.id: p.pair for p in corpus.persons if p.pair and p.gender == "female"}
    for p in corpus.persons:  # a male entry that names its female counterpart
        if p.pair and p.gender == "male" and gender.get(p.pair) == "female":
            out.setdefault(p.pair, p.id)
    for pair in getattr(corpus, "pairs", []) or []:
        if getattr(pair, "variable", "") != "gender" or getattr(pair, "match", "zip") != "zip":
            continue
        for a, b in zip(pair.privileged, pair.minoritised):
            if gender.get(a) == "male" and gender.get(b) == "female":
                out.setdefault(b, a)
            elif gender.get(a) == "female" and gender.get(b) == "male":
                out.setdefault(a, b)
    return out or None
