"""Which person terms form counterfactual pairs, and the realised sentences they pair up.

Why separate from the table builders (``pairs``) and the checks (``pair_checks``): both
need the same expansion of ``[[pairs]]`` and the same realisations, and neither should
import the other.

Pairs come from two places (deduplicated, declared first):
  * ``[[pairs]]`` entries, each possibly declaring many pairs through lists
    (``match = "zip"`` or ``"cross"``, see ``model.PAIR_MATCHES``);
  * the ``pair`` field of persons (Kiritchenko & Mohammad's female/male noun-phrase
    counterparts): a gender pair whose privileged side is the gender axis' reference group.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.corpus.generate.compiled import CEntry, CompiledCorpus, CTemplate, Realisation
from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.definition.model import CorpusDefinition, Pair, PersonTerm

Key = tuple[str, str, str]  # (template id, person id, emotion word id or "")


@dataclass(frozen=True)
class PersonPair:
    """One privileged/minoritised pair of person terms, expanded from its declaration."""

    id: str
    variable: str
    privileged: str  # person id
    minoritised: str
    shared: tuple[str, ...] = ()
    item: str = ""  # where it was declared: "pairs[gender]" or "persons[np_she]"


def expand_pairs(corpus: CorpusDefinition) -> tuple[list[PersonPair], list[Finding]]:
    """Every declared pair, plus E013/E005 findings for declarations that cannot be used."""
    by_id = {p.id: p for p in corpus.persons}
    out: list[PersonPair] = []
    problems: list[Finding] = []
    seen: set[tuple[str, str, str]] = set()

    def add(pp: PersonPair) -> None:
        key = (pp.variable, pp.privileged, pp.minoritised)
        if key in seen:
            problems.append(Finding("E013", said("E013.twice", a=pp.privileged, b=pp.minoritised, variable=pp.variable),
                                    item=pp.item))
            return
        seen.add(key)
        out.append(pp)

    for decl in corpus.pairs:
        pps, found = _expand_declared(corpus, decl, by_id)
        problems += found
        for pp in pps:
            add(pp)
    for pp in _derived_gender_pairs(corpus, by_id):
        if (pp.variable, pp.privileged, pp.minoritised) not in seen:
            seen.add((pp.variable, pp.privileged, pp.minoritised))
            out.append(pp)
    return out, problems


def _expand_declared(corpus: CorpusDefinition, decl: Pair, by_id: dict[str, PersonTerm]
                     ) -> tuple[list[PersonPair], list[Finding]]:
    item = f"pairs[{decl.id}]"
    problems: list[Finding] = []
    if decl.variable not in corpus.axes:
        problems.append(Finding("E013", said("E013.not_axis", variable=decl.variable, axes=", ".join(corpus.axes)),
                                item=item))
        return [], problems
    for feat in decl.shared:
        if feat not in corpus.features:
            problems.append(Finding("E005", said("E005.shared", feature=feat), item=item))
    unknown = [x for x in decl.privileged + decl.minoritised if x not in by_id]
    for x in dict.fromkeys(unknown):
        problems.append(Finding("E013", said("E013.no_person", id=x), item=item, person=x))
    priv = [x for x in decl.privileged if x in by_id]
    mino = [x for x in decl.minoritised if x in by_id]
    if unknown and decl.match == "zip":
        return [], problems  # positions no longer line up: use none rather than wrong ones
    if decl.match == "zip":
        if len(priv) == 1:
            priv = priv * len(mino)
        if len(mino) == 1:
            mino = mino * len(priv)
        if len(priv) != len(mino):
            problems.append(Finding("E013", said("E013.zip", a=len(decl.privileged), b=len(decl.minoritised)), item=item))
            return [], problems
        combos = list(zip(priv, mino))
    else:
        combos = [(a, b) for a in priv for b in mino
                  if all(by_id[a].groups.get(ax) == by_id[b].groups.get(ax)
                         for ax in corpus.axes if ax != decl.variable)]
        if not combos and priv and mino:
            problems.append(Finding("E013", said("E013.cross"), item=item))
    single = len(decl.privileged) == 1 and len(decl.minoritised) == 1
    pps = []
    for a, b in combos:
        if a == b:
            problems.append(Finding("E013", said("E013.both_sides", id=a), item=item, person=a))
            continue
        pid = decl.id if single else f"{decl.id}/{a}~{b}"
        pps.append(PersonPair(pid, decl.variable, a, b, tuple(decl.shared), item))
    return pps, problems


def _derived_gender_pairs(corpus: CorpusDefinition, by_id: dict[str, PersonTerm]) -> list[PersonPair]:
    """Gender pairs from persons' ``pair`` field; invalid ones are left to W106."""
    axis = corpus.axes.get("gender")
    if axis is None:
        return []
    out = []
    done: set[frozenset[str]] = set()
    for p in corpus.persons:
        other = by_id.get(p.pair) if p.pair else None
        if other is None or other.gender == p.gender or frozenset((p.id, other.id)) in done:
            continue
        done.add(frozenset((p.id, other.id)))
        if p.gender == axis.reference:
            priv, mino = p, other
        elif other.gender == axis.reference:
            priv, mino = other, p
        else:
            continue
        out.append(PersonPair(f"{priv.id}~{mino.id}", "gender", priv.id, mino.id, (), f"persons[{p.id}]"))
    return out


@dataclass
class Realised:
    """A realised sentence with its ID in the generated corpus table ('' when not numbered)."""

    id: str
    realisation: Realisation
    template: CTemplate
    person: CEntry
    emotion: CEntry | None
    # filled on first use by the pair checks (a side takes part in many pairs)
    wants: dict[str, dict[str, str]] | None = field(default=None, repr=False, compare=False)
    rest: tuple[str, int] | None = field(default=None, repr=False, compare=False)


class Numbering:
    """Realised sentences numbered as ``generate`` numbers its rows, collected in its order and kept
    on the compiled corpus (``cc._realised_all``), where ``realise_all`` and ``realise_numbered`` find
    them. The one home of that numbering: ``realise_all`` fills one, and so can the checker, which
    realises every combination anyway (``check_corpus(..., keep_sentences=True)``)."""

    def __init__(self, cc: CompiledCorpus) -> None:
        self.cc = cc
        self.prefix = cc.corpus.id_prefix or cc.corpus.id
        self.out: dict[Key, Realised] = {}

    def add(self, ct: CTemplate, p: CEntry, e: CEntry | None, r: Realisation) -> None:
        self.out[(ct.id, p.id, e.id if e else "")] = Realised(f"{self.prefix}-{len(self.out):05d}", r, ct, p, e)

    def keep(self) -> dict[Key, Realised]:
        self.cc._realised_all = self.out  # type: ignore[attr-defined]
        return self.out


def realise_all(cc: CompiledCorpus, only: set[str] | None = None) -> dict[Key, Realised]:
    """Realise every combination in the generator's order (template, person, emotion word).

    With ``only`` (person ids), just those persons are realised and no IDs are given;
    without it, IDs are numbered exactly as ``generate`` numbers its rows, so pair rows
    can point at the scored sentences. The full result is cached on ``cc``.
    """
    if only is None:
        cached = getattr(cc, "_realised_all", None)
        if cached is not None:
            return cached
    numbering = Numbering(cc) if only is None else None
    out: dict[Key, Realised] = {}
    for ct in cc.templates:
        if not ct.generates:
            continue
        persons = cc.persons_for(ct)
        emotions = cc.emotions_for(ct)
        for p in persons:
            if only is not None and p.id not in only:
                continue
            for e in emotions:
                r = cc.realise(ct, p, e)
                if not isinstance(r, Realisation):
                    continue
                if numbering is not None:
                    numbering.add(ct, p, e, r)
                else:
                    out[(ct.id, p.id, e.id if e else "")] = Realised("", r, ct, p, e)
    return numbering.keep() if numbering is not None else out


def realise_numbered(cc: CompiledCorpus, persons: set[str]) -> dict[Key, Realised]:
    """The sentences of ``persons`` only, with the IDs ``generate`` gives them.

    Why: pair and group tables need the paired persons' sentences and their row IDs, but an
    ID counts every sentence before it. Other persons' rows are counted, not realised, and
    whether a combination realises depends only on the person's forms' features (never their
    text), so persons alike in that (the many names of one group) are counted once per
    template: the cost follows the persons in pairs, not the corpus rows.
    """
    full = getattr(cc, "_realised_all", None)
    if full is not None:
        return full
    prefix = cc.corpus.id_prefix or cc.corpus.id
    out: dict[Key, Realised] = {}
    counted: dict[tuple[str, tuple], int] = {}
    n = 0
    for ct in cc.templates:
        if not ct.generates:
            continue
        emotions = cc.emotions_for(ct)
        for p in cc.persons_for(ct):
            if p.id not in persons:
                key = (ct.id, _signature(p))
                k = counted.get(key)
                if k is None:
                    k = counted[key] = sum(isinstance(cc.realise(ct, p, e), Realisation) for e in emotions)
                n += k
                continue
            for e in emotions:
                r = cc.realise(ct, p, e)
                if not isinstance(r, Realisation):
                    continue
                out[(ct.id, p.id, e.id if e else "")] = Realised(f"{prefix}-{n:05d}", r, ct, p, e)
                n += 1
    return out


def _signature(p: CEntry) -> tuple:
    """What decides whether a person's combinations realise: forms' features and absences, not texts."""
    return (tuple((tuple(sorted(f.features.items())), bool(f.absent)) for f in p.forms),
            tuple(sorted(p.entry_features.items())), tuple(sorted(p.attrs.items())))
