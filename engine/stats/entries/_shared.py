"""Small pieces the entries share: the adjusted-p column and the inference wording."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: `main.py` lists the statistics without loading pandas (0.3 s)
    import pandas as pd


def inference_suffix(frame: pd.DataFrame) -> str:
    """' (p: person-robust)' / ' (p: the papers' tests)' from the table's ``inference`` column ('' if
    absent), in the inference's one name (engine.stats.settings.INFERENCE_NAMES)."""
    from engine.stats.settings import INFERENCE_NAMES

    if "inference" not in frame.columns:
        return ""
    vals = {str(v) for v in frame["inference"].dropna() if str(v) in INFERENCE_NAMES}
    if len(vals) == 1:
        return f" (p: {INFERENCE_NAMES[vals.pop()]})"
    return " (p: mixed inference)" if vals else ""


def p_column(frame: pd.DataFrame, base: str) -> str:
    """The adjusted p-values when the audit applied a correction, else ``base``."""
    from engine.stats.hypothesis_tests.multitest import adjusted_column

    name = adjusted_column(base)
    if name in frame.columns and frame[name].notna().any():
        return name
    # audit folders written before the one convention named the column after the method (p_holm, t_p_bh)
    for suffix in ("holm", "bh", "bonferroni"):
        for name in (f"p_{suffix}", f"{base}_{suffix}", f"{base[:-len('value')]}{suffix}" if base.endswith("value") else ""):
            if name and name in frame.columns and frame[name].notna().any():
                return name
    return base
