"""SVG plots of an audit's tidy tables: one forest plot per statistic (the registry entry's plot
adapter) and one for the association tests, drawn by the one renderer (engine.common.svg)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from engine.common.io import atomic_write_bytes
from engine.common.svg import forest
from engine.stats import registry
from engine.stats.registry import PlotSpec


def plot_specs(tables: dict[str, pd.DataFrame]) -> dict[str, PlotSpec]:
    """{file stem: plot} for every table that has a plot and rows."""
    from .assoc_step import assoc_plot

    adapters = {s.id: s.plot for s in registry.statistics() if s.plot is not None}
    adapters["assoc"] = assoc_plot
    out = {}
    for name, fn in adapters.items():
        df = tables.get(name)
        if df is None or not len(df):
            continue
        try:
            spec = fn(df)
        except (AttributeError, KeyError, TypeError, ValueError):
            continue  # a table from another version of the statistics: no plot rather than no audit
        if spec.rows:
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
