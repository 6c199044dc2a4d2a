"""What else must change when an entry's id is renamed.

Why: ids are how a definition refers to its own entries — a person's `pair`, the sides of a
`[[pairs]]` declaration, a template slot whose source is a `[[words]]` entry. Renaming only the
entry leaves those references dangling (the checker would then report them, but the translator
meant a rename, not a break). This module lists the edits as (path, new value) so a caller can
apply them in one undoable step (the workbench) or directly (`apply_edits`, notebooks).

Template slots keep their slot name and get the new source (`{self gender=…}` becomes
`{self:reflexive gender=…}`), so references such as `gender=self.gender` elsewhere in the
template stay valid without being rewritten.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.corpus.definition.model import CorpusDefinition
from engine.corpus.definition.paths import Path, assign
from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template


@dataclass(frozen=True)
class ReferenceEdit:
    path: Path
    value: Any
    where: str  # human-readable: "persons[np_she].pair", "templates[T05] text"


def reference_edits(corpus: CorpusDefinition, list_name: str, old: str, new: str) -> list[ReferenceEdit]:
    """The edits that keep every reference to entry `old` of `list_name` pointing at it as `new`."""
    if old == new or not old or not new:
        return []
    edits: list[ReferenceEdit] = []
    if list_name == "persons":
        for i, p in enumerate(corpus.persons):
            if p.pair == old:
                edits.append(ReferenceEdit(("persons", i, "pair"), new, f"persons[{p.id}].pair"))
        for k, pair in enumerate(corpus.pairs):
            for side in ("privileged", "minoritised"):
                ids = getattr(pair, side)
                if old in ids:
                    edits.append(ReferenceEdit(("pairs", k, side), [new if x == old else x for x in ids],
                                               f"pairs[{pair.id}].{side}"))
    elif list_name == "words":
        for t_i, t in enumerate(corpus.templates):
            for v_i, variant in enumerate(t.variants):
                text = rename_slot_source(variant.text, old, new)
                if text != variant.text:
                    edits.append(ReferenceEdit(("templates", t_i, "variants", v_i, "text"), text,
                                               f"templates[{t.id}] text"))
    return edits


def apply_edits(corpus: CorpusDefinition, edits: list[ReferenceEdit]) -> None:
    """Apply `edits` in place (the workbench applies them through its undo stack instead)."""
    for e in edits:
        assign(corpus, e.path, e.value)


def rename_slot_source(text: str, old: str, new: str) -> str:
    """`text` with every slot whose source is `old` taking its words from `new` instead.

    Literal braces (`{{`, `}}`) and everything else are left as typed; a template that does not
    parse is returned unchanged (the checker already reports it)."""
    try:
        parse_template(text)
    except TemplateSyntaxError:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("{{", i) or text.startswith("}}", i):
            out.append(text[i:i + 2])
            i += 2
            continue
        if text[i] != "{":
            out.append(text[i])
            i += 1
            continue
        end = text.index("}", i)
        body = text[i + 1:end]
        lead, head, rest = re.match(r"(\s*)(\S+)(.*)", body, re.S).groups()
        name, _, source = head.partition(":")
        if (source or name) == old:
            head = name if name == new else f"{name}:{new}"
        out.append("{" + lead + head + rest + "}")
        i = end + 1
    return "".join(out)
