"""The report's key results: every statistic's headline rows (from its registry entry) as a
table and forest charts.

Why from the registry: each statistic knows which rows of its tidy table are headlines and what
they mean (engine.stats.entries); the report only lays them out.
"""
from __future__ import annotations

from engine.common.fmt import as_float, number, p_value, stars
from engine.common.svg import Row, forest, level_of
from engine.stats import registry
from engine.results.reader import ResultsFolder
from engine.stats.registry import KeyRow

from .html import esc, simple_table, stars_html

MAX_CHART_ROWS = 36
HEADERS = ["statistic", "corpus", "model", "emotion", "effect", "estimate", "95% CI", "p", "verdict"]
KeyResult = KeyRow  # one headline row (statistic, corpus, model, emotion, effect, value, CI, p, verdict)


def key_results(folder: ResultsFolder) -> list[KeyRow]:
    out: list[KeyRow] = []
    for stat in registry.statistics():
        frame = folder.stats.get(stat.id)
        if frame is not None:
            out += stat.key_rows(frame)
    return out


def short_title(stat_id: str) -> str:
    return registry.get(stat_id).title.split(" (")[0]


def key_results_html(results: list[KeyRow]) -> str:
    from engine.stats.present.tables import NOT_TESTED, UNTESTED_WORDS

    rows = []
    for r in results:
        if as_float(r.p) is None:  # no test exists: never a bare 0.000 that reads as "no effect"
            why = UNTESTED_WORDS.get(r.verdict, r.verdict.replace("_", " "))
            verdict = why if why.startswith(("not tested", "no person-level test")) else (
                f"not tested: {why}" if why else "not tested")
            rows.append([short_title(r.statistic), r.corpus, r.model, r.emotion, r.effect, NOT_TESTED, "",
                         NOT_TESTED, verdict])
            continue
        ci = f"[{number(r.low)}, {number(r.high)}]" if as_float(r.low) is not None and as_float(r.high) is not None else ""
        rows.append([short_title(r.statistic), r.corpus, r.model, r.emotion, r.effect,
                     esc(number(r.value)) + stars_html(stars(r.p)), esc(ci), esc(p_value(r.p)), r.verdict])
    return simple_table(HEADERS, rows, numeric=[5, 6, 7], raw=[5, 6, 7])


def key_charts(results: list[KeyRow], statistic: str) -> list[str]:
    charts = []
    mine = [r for r in results if r.statistic == statistic]
    axis = registry.get(statistic).x_label
    for corpus in dict.fromkeys(r.corpus for r in mine):
        rows = [Row(f"{r.model} · {r.emotion} · {r.effect}", r.value, r.low, r.high, f"{number(r.value)}{stars(r.p)}",
                    level_of(r.p)) for r in mine if r.corpus == corpus]
        for i in range(0, len(rows), MAX_CHART_ROWS):
            part = rows[i:i + MAX_CHART_ROWS]
            suffix = f" ({i // MAX_CHART_ROWS + 1})" if len(rows) > MAX_CHART_ROWS else ""
            svg = forest(part, title=f"{short_title(statistic)} — {corpus}{suffix}", x_label=axis, label_width=340)
            if svg:
                charts.append(svg)
    return charts
