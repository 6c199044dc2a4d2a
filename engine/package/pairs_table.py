"""Counterfactual pairs for a package, when this build and the corpus have them.

Why a try-import: pairs come from engine.corpus.pairs, which a build may lack; a corpus
that declares no pairs yields an empty table, and the package then has no pairs file.
"""
from __future__ import annotations

import pandas as pd

from engine.corpus import CompiledCorpus, CorpusDefinition


def pairs_table(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None) -> pd.DataFrame | None:
    try:
        from engine.corpus.pairs import generate_pairs
    except ImportError:
        return None
    df = generate_pairs(corpus, compiled or CompiledCorpus(corpus))
    return df if df is not None and len(df) else None
