"""The papers' table layouts as an entry's ``tables`` (a module of its own: engine.stats.present
imports ``_shared``, and this one reaches the renderers only when a table is built)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd


def paper_layouts(main: tuple[str, ...], extra: tuple[str, ...] = ()) -> Callable[[pd.DataFrame, str], tuple[list, list]]:
    """An entry's ``tables`` from the papers' layouts of engine.stats.present.render (``"camara"``,
    ``"km"``, ``"km_models"``, ``"counterfactual"``; "" infers the layout from the table's ``test``)."""

    def tables(frame: pd.DataFrame, width: str) -> tuple[list[Any], list[Any]]:
        from engine.stats.present.render import build_tables

        return ([t for lay in main for t in build_tables(frame, lay or None, width=width)],
                [t for lay in extra for t in build_tables(frame, lay or None, width=width)])

    return tables
