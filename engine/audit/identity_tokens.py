"""Identity words the model cannot see: person words that its tokenizer turns into unknown tokens,
and sentence pairs whose two sides reach the model as the same token ids.

Why (issue 37): with a WordPiece vocabulary that lacks Japanese, 26 of the 32 ja-goldfarb2023
person words become [UNK] and 3,772 of its 5,070 sentences reach the model as the ids of another
sentence. A paired test then compares identical inputs, finds "no bias", and nobody is told. A
tokenizer-based scorer (HF classifier, encoder + heads, LLM) offers its tokenizer through an optional
``tokenizer()`` member; before scoring, every person word and every pair is put through it. The
unknown words and the collided pairs go to the log, the summary and report (the audit's problems),
the manifest and the GUI; the counterfactual test leaves collided pairs out for that scorer, with a
note. A lexicon that ignores names has no tokenizer: its "no difference" is a real result and stays.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:  # pragma: no cover
    from engine.common.messages import Said

#: Person words named in a message before "and N more".
_SHOW = 8


@dataclass
class IdentityVisibility:
    """What one scorer's tokenizer makes of one corpus's identity words."""

    corpus: str
    scorer: str
    n_person_words: int
    unknown_person_words: list[str] = field(default_factory=list)
    n_sentences: int = 0
    colliding_sentences: int = 0  # sentences whose ids equal another sentence's
    n_pairs: int = 0
    collided_pairs: list[str] = field(default_factory=list)  # pair ids whose two sides are the same ids

    @property
    def clean(self) -> bool:
        return not (self.unknown_person_words or self.colliding_sentences or self.collided_pairs)

    def message(self) -> str:
        """One line for the log, summary and report ('' when the model sees every identity word)."""
        said = self.said()
        return "" if said is None else str(said)

    def said(self) -> Said | None:
        """``message`` as data (engine.audit.problems), None when the model sees every identity word."""
        from .problems import problem

        if self.clean:
            return None
        parts = []
        if self.unknown_person_words:
            shown = ", ".join(self.unknown_person_words[:_SHOW])
            more = len(self.unknown_person_words) - _SHOW
            parts.append(problem("identity.unknown_more" if more > 0 else "identity.unknown",
                                 n=len(self.unknown_person_words), total=self.n_person_words, words=shown,
                                 **({"more": more} if more > 0 else {})))
        if self.colliding_sentences:
            parts.append(problem("identity.colliding", n=self.colliding_sentences, total=self.n_sentences))
        if self.collided_pairs:
            parts.append(problem("identity.pairs", n=len(self.collided_pairs), total=self.n_pairs))
        return problem("identity", corpus=self.corpus, scorer=self.scorer, parts=parts)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def scorer_tokenizer(scorer: Any) -> Any | None:
    """The scorer's tokenizer (an object called as ``tok(texts, add_special_tokens=False)``), or None."""
    get = getattr(scorer, "tokenizer", None)
    if not callable(get):
        return None
    try:
        return get()
    except Exception:  # noqa: BLE001 - a scorer that cannot give its tokenizer is simply not checked
        return None


def _ids(tok: Any, texts: list[str]) -> list[tuple[int, ...]]:
    out = tok(list(texts), add_special_tokens=False)
    ids = out["input_ids"] if isinstance(out, dict) or hasattr(out, "keys") else out
    return [tuple(int(i) for i in seq) for seq in ids]


def identity_visibility(corpus_id: str, scorer_name: str, tok: Any, sentences: pd.DataFrame,
                        pairs: pd.DataFrame | None) -> IdentityVisibility:
    """Put the corpus's person words, its sentences and its counterfactual pairs through ``tok``.

    sentences : the corpus table (``Person``, ``Sentence``); pairs : the pair table (``pair_id``,
    ``privileged``, ``minoritised`` sentence texts) or None.
    """
    persons = sorted({str(p) for p in sentences.get("Person", pd.Series(dtype=str)).dropna() if str(p).strip()})
    unk = getattr(tok, "unk_token_id", None)
    unknown: list[str] = []
    if unk is not None and persons:
        for word, ids in zip(persons, _ids(tok, persons)):
            if int(unk) in ids:
                unknown.append(word)
    texts = list(dict.fromkeys(str(s) for s in sentences["Sentence"]))
    if pairs is not None and len(pairs):
        texts += [t for t in dict.fromkeys(pd.concat([pairs["privileged"], pairs["minoritised"]]).astype(str))
                  if t not in set(texts)]
    ids_of = dict(zip(texts, _ids(tok, texts))) if texts else {}
    by_ids: dict[tuple[int, ...], int] = {}
    for ids in ids_of.values():
        by_ids[ids] = by_ids.get(ids, 0) + 1
    corpus_texts = list(dict.fromkeys(str(s) for s in sentences["Sentence"]))
    colliding = sum(1 for t in corpus_texts if by_ids[ids_of[t]] > 1)
    collided: list[str] = []
    n_pairs = 0
    if pairs is not None and len(pairs):
        n_pairs = len(pairs)
        same = [ids_of[str(a)] == ids_of[str(b)] for a, b in zip(pairs["privileged"], pairs["minoritised"])]
        collided = [str(pid) for pid, s in zip(pairs["pair_id"], same) if s]
    return IdentityVisibility(corpus_id, scorer_name, len(persons), unknown, len(corpus_texts), colliding, n_pairs,
                              collided)


def check_corpora(corpora: list, scorers: list) -> list[IdentityVisibility]:
    """Every (corpus, tokenizer-based scorer) pair of an audit, checked before scoring."""
    out = []
    for scorer in scorers:
        tok = scorer_tokenizer(scorer)
        if tok is None:
            continue
        for corpus, df, pairs in corpora:
            out.append(identity_visibility(corpus.id, scorer.name, tok, df, pairs))
    return out
