"""A corpus's glossary: agreed translations of recurring terms, with their forms.

Why in the definition (``[meta] glossary``): a glossary is part of the translation's
decisions — *furious → furieux / furieuse*, *situation → situation (f)* — and must travel with
the corpus into packages, PO files and the next translator's hands. The definition file keeps
``meta`` as it is, so no other part of the engine needs to know about it. The translation memory
(``memory.py``) offers every glossary of a language as suggestions.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from engine.corpus.definition.model import CorpusDefinition, Form


@dataclass
class GlossaryTerm:
    source: str  # the term in the source language (or the concept, for an original corpus)
    forms: list[Form] = field(default_factory=list)  # its translation(s), keyed by features
    note: str = ""

    def text(self) -> str:
        return " / ".join(f.text for f in self.forms)


def _form(d: object) -> Form | None:
    if isinstance(d, str):
        return Form(d)
    if isinstance(d, dict) and isinstance(d.get("text"), str):
        return Form(d["text"], {str(k): str(v) for k, v in d.items() if k != "text"})
    return None


def read_glossary(corpus: CorpusDefinition) -> list[GlossaryTerm]:
    """The glossary stored in the definition (entries that are not tables are skipped)."""
    meta = corpus.extra.get("meta") if isinstance(corpus.extra, dict) else None
    raw = meta.get("glossary") if isinstance(meta, dict) else None
    terms = []
    for d in raw if isinstance(raw, list) else []:
        if not isinstance(d, dict) or not str(d.get("source", "")).strip():
            continue
        forms = [f for f in (_form(x) for x in d.get("forms", []) if isinstance(d.get("forms"), list)) if f]
        terms.append(GlossaryTerm(str(d["source"]).strip(), forms, str(d.get("note", ""))))
    return terms


def glossary_value(terms: list[GlossaryTerm]) -> list[dict]:
    """The TOML value for ``meta.glossary``."""
    out = []
    for t in terms:
        d: dict = {"source": t.source, "forms": [{"text": f.text, **f.features} for f in t.forms if f.text.strip()]}
        if t.note:
            d["note"] = t.note
        out.append(d)
    return out


def with_glossary(extra: dict, terms: list[GlossaryTerm]) -> dict:
    """A copy of a definition's ``extra`` with the glossary replaced (removed when empty)."""
    new = copy.deepcopy(extra) if isinstance(extra, dict) else {}
    meta = dict(new.get("meta") or {})
    if terms:
        meta["glossary"] = glossary_value(terms)
    else:
        meta.pop("glossary", None)
    if meta:
        new["meta"] = meta
    else:
        new.pop("meta", None)
    return new


def parse_forms(text: str) -> list[Form]:
    """'furieux (gender=m) / furieuse (gender=f)' -> two forms; plain 'situation' -> one."""
    forms = []
    for part in text.split("/"):
        part = part.strip()
        if not part:
            continue
        feats: dict[str, str] = {}
        if part.endswith(")") and "(" in part:
            part, _sep, inside = part[:-1].rpartition("(")
            for kv in inside.split(","):
                if "=" in kv:
                    k, v = kv.split("=", 1)
                    feats[k.strip()] = v.strip()
            part = part.strip()
        forms.append(Form(part, feats))
    return forms


def forms_label(forms: list[Form]) -> str:
    """The inverse of parse_forms: 'furieux (gender=m) / furieuse (gender=f)'."""
    return " / ".join(f.text + (f" ({', '.join(f'{k}={v}' for k, v in f.features.items())})" if f.features else "")
                      for f in forms)
