"""A value inside a corpus definition, addressed by a path such as ``("persons", 3, "pair")``.

Why paths: an edit that names *where* it changes the definition can be replayed, undone
(the workbench's undo stack) or listed for the user (engine.corpus.definition.rename) without holding
references into objects that later edits may replace.
"""
from __future__ import annotations

from typing import Any, Sequence

Path = Sequence[Any]  # attribute names, dict keys and list indices from the CorpusDefinition down


def resolve(root: Any, path: Path) -> Any:
    obj = root
    for step in path:
        obj = obj[step] if isinstance(step, int) or isinstance(obj, dict) else getattr(obj, step)
    return obj


def assign(root: Any, path: Path, value: Any) -> None:
    parent = resolve(root, path[:-1])
    last = path[-1]
    if isinstance(last, int) or isinstance(parent, dict):
        parent[last] = value
    else:
        setattr(parent, last, value)
