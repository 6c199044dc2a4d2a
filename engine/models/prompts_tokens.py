"""How a rendered prompt becomes the token ids an LLM reads, and how its labels are read.

Why a module of its own: the scorer must read exactly what the tokenizer writes for the whole
text, for every tokenizer family (byte-level BPE with GPT-2, Llama-3 or Qwen split rules,
SentencePiece/Metaspace BPE, Unigram, WordPiece). Tokenising the prompt in pieces and joining the
ids is *not* that: Qwen's split rule makes one piece of ``.`` + ``\\n\\nAnswer:``, and a Metaspace
tokenizer starts a piece with a stray ``▁``. So:

* every sentence's prompt is tokenised as one text (`PromptTokens.context_ids`), and the answer is
  read where that text ends (tokens a post-processor appends, e.g. WordPiece's ``[SEP]``, are
  dropped: they come after the answer position);
* the prefix whose key/value cache is shared is the longest run of leading tokens that several
  probe sentences agree on *and* that ends inside the text before the sentence (offsets); each
  sentence uses the cache only when its own ids start with exactly that run, else it is run whole
  (the manifest counts both), so sharing never changes a single id;
* a label's tokens are what the tokenizer writes for prompt + label after the prompt's own ids
  (`label_seqs`). When the text after the sentence holds an added token (a chat template's
  ``<|im_start|>assistant``), the tokenizer splits there before anything else, so the label's
  tokens cannot depend on the sentence and are computed once; otherwise they are checked for
  every sentence (`PromptTokens.per_sentence_labels`).

`LabelPlan` turns the labels' token sequences into the reads the forward pass needs: the
probability of each complete label (teacher-forced, any length), where a label that is the
beginning of another ("1" and "10" on a digit-by-digit tokenizer) keeps only the continuations that
are not another label, so the labels are disjoint events.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.models.errors import ModelError

#: Option values of `label_reading` (spec `llm:…?label_reading=`, manifest `label_reading`).
LABEL_READINGS = ("sequence", "first_token")
#: Sentences that differ in their first characters: the shared prefix must suit them all.
_PROBES = ("The situation makes me feel angry.", "x", "1", " a", "¿Qué?", "\n", "Ä", "\"", "今日")


@dataclass(frozen=True)
class LabelPlan:
    """The reads that give every label's probability for one list of label token sequences.

    `lead`: tokens every label starts with (each label keeps at least one token of its own): they
    are appended to the context, and their probability only scales the label mass.
    `rests`: each label's tokens after `lead`. The first token of every rest is read at the last
    position of the context pass; the others at `reads[j]` = [(branch, position, token)] of a
    second pass that feeds each `branches[b]` (label beginnings) after the context.
    `children[j]`: the labels whose tokens continue label j's with no label in between; their
    probabilities are taken out of label j's (disjoint events).
    """

    labels: tuple[str, ...]
    seqs: tuple[tuple[int, ...], ...]
    lead: tuple[int, ...]
    rests: tuple[tuple[int, ...], ...]
    branches: tuple[tuple[int, ...], ...]
    reads: tuple[tuple[tuple[int, int, int], ...], ...]
    children: tuple[tuple[int, ...], ...]
    reading: str = "sequence"

    @property
    def firsts(self) -> list[int]:
        return [r[0] for r in self.rests]


def _starts(seq: tuple[int, ...], head: tuple[int, ...]) -> bool:
    return len(seq) >= len(head) and seq[:len(head)] == head


def plan_labels(labels: tuple[str, ...] | list[str], seqs: list[tuple[int, ...]], *, reading: str = "sequence",
                where: str = "", line: int | None = None, spell: Any = None) -> LabelPlan:
    """A LabelPlan, or one ModelError naming the labels this reading cannot tell apart.

    `spell(ids)` writes token ids as the tokenizer's pieces (for the message)."""
    labels = tuple(labels)
    seqs = [tuple(s) for s in seqs]
    spell = spell or (lambda ids: list(ids))
    for j, s in enumerate(seqs):
        if not s:
            raise ModelError(where, f"label {labels[j]!r} gives no tokens", field="labels", line=line,
                             fix="give labels that are written with at least one character")
    for a in range(len(seqs)):
        for b in range(a + 1, len(seqs)):
            if seqs[a] == seqs[b]:
                raise ModelError(where, f"labels {labels[a]!r} and {labels[b]!r} are the same tokens "
                                 f"({' '.join(map(str, spell(seqs[a])))}) for this model's tokenizer, so no reading "
                                 "can tell them apart", field="labels", line=line,
                                 fix="use labels the tokenizer writes differently (it may ignore case or spaces)")
    shortest = min(len(s) for s in seqs)
    lead: tuple[int, ...] = ()
    for k in range(shortest - 1):
        if len({s[k] for s in seqs}) != 1:
            break
        lead = seqs[0][: k + 1]
    rests = [s[len(lead):] for s in seqs]
    if reading == "first_token":
        for a in range(len(rests)):
            for b in range(a + 1, len(rests)):
                if rests[a][0] == rests[b][0]:
                    raise ModelError(where, f"labels {labels[a]!r} and {labels[b]!r} both start with the token "
                                     f"{spell(rests[a][:1])[0]!r} in this model's vocabulary, so label_reading="
                                     "first_token cannot tell them apart", field="labels", line=line,
                                     fix="use label_reading=sequence (the default: whole labels are read), or "
                                         "labels whose first tokens differ")
        return LabelPlan(labels, tuple(seqs), lead, tuple(rests), (), tuple(() for _ in rests),
                         tuple(() for _ in rests), reading)
    if reading != "sequence":
        raise ModelError(where, f"unknown label_reading '{reading}'", field="label_reading",
                         fix=f"use one of {', '.join(LABEL_READINGS)}")
    heads = {r[:-1] for r in rests if len(r) > 1}
    branches = sorted(h for h in heads if not any(o != h and _starts(o, h) for o in heads))
    reads = []
    for r in rests:
        steps = []
        for t in range(1, len(r)):
            b = next(i for i, br in enumerate(branches) if _starts(br, r[:t]))
            steps.append((b, t - 1, r[t]))
        reads.append(tuple(steps))
    children = []
    for j, r in enumerate(rests):
        longer = [k for k, o in enumerate(rests) if k != j and len(o) > len(r) and _starts(o, r)]
        nearest = [k for k in longer if not any(m != k and len(rests[m]) < len(rests[k]) and _starts(rests[k], rests[m])
                                                for m in longer)]
        children.append(tuple(nearest))
    return LabelPlan(labels, tuple(seqs), lead, tuple(rests), tuple(branches), tuple(reads), tuple(children), reading)


@dataclass
class PromptTokens:
    """One rendered prompt (`before` + sentence + `after`, labels after `sep`) for one tokenizer."""

    tok: Any
    before: str
    after: str
    sep: str
    labels: tuple[str, ...]
    add_special: bool  # plain prompts: the tokenizer's own specials (BOS); a chat template writes its own
    where: str = ""
    line: int | None = None
    reading: str = "sequence"
    prefix_ids: list[int] = field(default_factory=list)
    trail: int = 0  # tokens the post-processor appends after the text (dropped: the answer comes before them)
    fixed_labels: bool = False  # an added token after the sentence: label tokens do not depend on it
    plan: LabelPlan | None = None

    def __post_init__(self) -> None:
        self.trail = self._trailing_specials()
        probes = [self._encode([self.before + p + self.after], offsets=True) for p in _PROBES]
        ids0, offs0 = probes[0][0][0], probes[0][1][0]
        inside = 0
        while inside < len(ids0) and offs0[inside][1] <= len(self.before):
            inside += 1
        prefix = ids0[:inside]
        for ids, _ in probes[1:]:
            ids = ids[0]
            k = 0
            while k < len(prefix) and k < len(ids) and ids[k] == prefix[k]:
                k += 1
            prefix = prefix[:k]
        self.prefix_ids = list(prefix)
        added = set(getattr(self.tok, "added_tokens_decoder", {}) or {})
        tail_start = len(self.before) + len(_PROBES[0])
        self.fixed_labels = any(t in added and o[0] >= tail_start and o[1] > o[0] for t, o in zip(ids0, offs0))
        self.plan = self._plan(self.label_seqs(self.before + _PROBES[0] + self.after, ids0))

    # --- tokenisation -----------------------------------------------------------------------
    def _trailing_specials(self) -> int:
        """How many ids the post-processor appends after a text (WordPiece's [SEP], an EOS)."""
        if not self.add_special:
            return 0
        bare = list(self.tok("x y", add_special_tokens=False)["input_ids"])
        full = list(self.tok("x y", add_special_tokens=True)["input_ids"])
        for start in range(len(full) - len(bare) + 1):
            if full[start:start + len(bare)] == bare:
                return len(full) - start - len(bare)
        return 0

    def _encode(self, texts: list[str], offsets: bool = False) -> tuple[list[list[int]], list[Any]]:
        enc = self.tok(list(texts), add_special_tokens=self.add_special, return_offsets_mapping=offsets)
        ids = [list(x) for x in enc["input_ids"]]
        offs = list(enc["offset_mapping"]) if offsets else [None] * len(ids)
        if self.trail:
            ids = [x[: len(x) - self.trail] for x in ids]
            offs = [o[: len(o) - self.trail] if o is not None else None for o in offs]
        return ids, offs

    def context_ids(self, sentences: list[str]) -> list[list[int]]:
        """The ids of each whole prompt, up to the answer position (what `tokenizer(text)` gives)."""
        return self._encode([self.before + s + self.after for s in sentences])[0]

    def label_seqs(self, context_text: str, context: list[int],
                   whole: list[list[int]] | None = None) -> list[tuple[int, ...]]:
        """Each label's tokens after the prompt's own ids, as the tokenizer writes prompt + label."""
        if whole is None:
            whole = self._encode([context_text + self.sep + lab for lab in self.labels])[0]
        out = []
        for lab, ids in zip(self.labels, whole):
            if ids[: len(context)] != context:
                raise ModelError(self.where, f"label {lab!r} merges with the end of the prompt when tokenised, so "
                                 "its probability after the prompt is not defined for this tokenizer", field="labels",
                                 line=self.line, fix="end the prompt (answer cue) with a space, a newline or ':', "
                                                     "or use another label")
            out.append(tuple(ids[len(context):]))
        return out

    def _plan(self, seqs: list[tuple[int, ...]]) -> LabelPlan:
        return plan_labels(self.labels, seqs, reading=self.reading, where=self.where, line=self.line,
                           spell=self.tok.convert_ids_to_tokens)

    def per_sentence_labels(self, sentences: list[str], contexts: list[list[int]]) -> list[LabelPlan]:
        """Each sentence's LabelPlan: the shared one when the tokenizer cannot vary it, else checked."""
        if self.fixed_labels:
            return [self.plan] * len(sentences)
        texts = [self.before + s + self.after for s in sentences]
        n = len(self.labels)
        every = self._encode([t + self.sep + lab for t in texts for lab in self.labels])[0]
        plans: dict[tuple, LabelPlan] = {self.plan.seqs: self.plan}
        out = []
        for i, (text, ctx) in enumerate(zip(texts, contexts)):
            seqs = tuple(self.label_seqs(text, ctx, every[i * n:(i + 1) * n]))
            if seqs not in plans:
                plans[seqs] = self._plan(list(seqs))
            out.append(plans[seqs])
        return out

    def label_pieces(self) -> list[list[str]]:
        """Each label's tokens as the tokenizer's pieces (for the manifest and `prompts show`)."""
        return [list(self.tok.convert_ids_to_tokens(list(s))) for s in self.plan.seqs]
