"""SVG plots of an audit's tidy tables: one forest plot per statistic (the registry entry's plot
adapter) and one for the association tests, drawn by the one renderer (engine.common.svg)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pandas as pd

from engine.common.io import atomic_write_bytes
from engine.common.svg import forest
from engine.stats import registry
from engine.stats.registry import PlotSpec


def assoc_plot(df: pd.DataFrame) -> PlotSpec:
    """Forest plot of the association tests' effect sizes (no interval; p-value as the note)."""
    from engine.common.fmt import as_float, p_label
    from engine.common.svg import Row, level_of

    ok = df[df.status == "ok"] if "status" in df else df
    rows = [Row(f"{r.test} {r.title}" if isinstance(getattr(r, "title", ""), str) and getattr(r, "title", "") else str(r.test),
                as_float(r.effect_size) if as_float(r.effect_size) is not None else float("nan"), None, None,
                p_label(r.p_value), level_of(r.p_value)) for r in ok.itertuples()]
    reps = sorted({str(v) for v in df["representation"].dropna()}) if "representation" in df else []
    title = "Association tests: effect sizes" + (f" ({', '.join(reps)})" if reps else "")
    return PlotSpec(title, "effect size d", rows)


def plot_adapters() -> dict[str, Callable[[pd.DataFrame], PlotSpec]]:
    """{table id: plot adapter}: every statistic with one (registry), then the association tests."""
    adapters = {s.id: s.plot for s in registry.statistics() if s.plot is not None}
    adapters["assoc"] = assoc_plot
    return adapters


def plot_spec(name: str, frame: pd.DataFrame | None) -> PlotSpec | None:
    """The plot of one table (None: no adapter, no rows, or a table the adapter cannot read)."""
    fn = plot_adapters().get(name)
    if fn is None or frame is None or not len(frame):
        return None
    try:
        spec = fn(frame)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None  # a table from another version of the statistics: no plot rather than no audit
    return spec if spec.rows else None


def plot_specs(tables: dict[str, pd.DataFrame]) -> dict[str, PlotSpec]:
    """{file stem: plot} for every table that has a plot and rows."""
    out = {}
    for name in plot_adapters():
        spec = plot_spec(name, tables.get(name))
        if spec is not None:
            out[name] = spec
    return out


def write_plots(tables: dict[str, pd.DataFrame], out_dir: str | Path) -> list[Path]:
    """One SVG per table with a plot adapter; returns the files written."""
    written = []
    for name, spec in plot_specs(tables).items():
        svg = forest(spec.rows, title=spec.title, x_label=spec.x_label, label_width=None, standalone=True)
        if not svg:
            continue
        path = Path(out_dir) / f"{name}.svg"
        atomic_write_bytes(path, (svg + "\n").encode("utf-8"))
        written.append(path)
    return written
