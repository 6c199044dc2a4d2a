"""Social axes of a corpus (gender, race/ethnicity, religion, nationality…): declaring them,
renaming their groups, and checking that the persons cover them evenly.

Why a module of its own: an axis is the *design* of an audit — which groups are compared and
which is the reference. A translator used to type the race groups into the TOML by hand; the
workbench and ``corpus new --axis`` now declare them here, and the checker says when a group
has no names (W115: every comparison with it would be empty) or when the cells of the design
hold different numbers of names (W116: one group's mean then rests on fewer sentences).
"""
from __future__ import annotations

import copy
import re
from collections import Counter

from engine.common.errors import UserError

from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.definition.model import Axis, CorpusDefinition

NAME_RX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class AxisError(UserError, ValueError):
    """An axis declaration that cannot be used; the message says what to type instead."""


def parse_axis_option(text: str) -> Axis:
    """``race=branco*,negro`` -> Axis("race", ["branco", "negro"], reference "branco").

    The reference group is the one marked with ``*`` (default: the first listed); an optional
    label follows a colon: ``race:Raça=branco,negro``."""
    if "=" not in text:
        raise AxisError(f"--axis {text!r}: write NAME=GROUP,GROUP (e.g. race=white*,black; * marks the reference group)")
    head, groups_text = text.split("=", 1)
    name, _, label = head.partition(":")
    name = name.strip()
    groups = [g.strip() for g in groups_text.split(",") if g.strip()]
    marked = [g.rstrip("*").strip() for g in groups if g.endswith("*")]
    groups = [g.rstrip("*").strip() for g in groups]
    if len(marked) > 1:
        raise AxisError(f"--axis {text!r}: mark one reference group with *, not {len(marked)}")
    return make_axis(name, groups, marked[0] if marked else (groups[0] if groups else ""), label.strip())


def make_axis(name: str, groups: list[str], reference: str = "", label: str = "") -> Axis:
    """A checked Axis: a name usable as a TOML key, two or more distinct groups, a reference among them."""
    if not NAME_RX.fullmatch(name or ""):
        raise AxisError(f"axis name {name!r}: use letters, digits and _ (e.g. race, religion)")
    groups = [g.strip() for g in groups if g.strip()]
    if len(groups) < 2:
        raise AxisError(f"axis {name!r}: give at least two groups (e.g. {name}=white,black)")
    dup = [g for g, n in Counter(groups).items() if n > 1]
    if dup:
        raise AxisError(f"axis {name!r}: group {dup[0]!r} is listed twice")
    reference = reference.strip() or groups[0]
    if reference not in groups:
        raise AxisError(f"axis {name!r}: the reference group {reference!r} is not one of {', '.join(groups)}")
    return Axis(name, groups, reference, label=label)


def with_axis(corpus: CorpusDefinition, axis: Axis) -> dict[str, Axis]:
    """The corpus's axes with ``axis`` added (or replacing the one of its name); gender stays first."""
    axes = copy.deepcopy(corpus.axes)
    axes[axis.name] = axis
    return axes


def renamed_group(corpus: CorpusDefinition, axis_name: str, old: str, new: str) -> tuple[Axis, dict[int, dict[str, str]]]:
    """Rename group ``old`` of an axis: the new Axis and, per person index, its new groups.

    Persons tagged ``old`` follow the rename, so no name loses its group."""
    axis = corpus.axes.get(axis_name)
    if axis is None or old not in axis.groups:
        raise AxisError(f"axis {axis_name!r} has no group {old!r}")
    new = new.strip()
    if not new:
        raise AxisError("a group needs a name")
    if new != old and new in axis.groups:
        raise AxisError(f"axis {axis_name!r} already has a group {new!r}")
    out = copy.deepcopy(axis)
    out.groups = [new if g == old else g for g in axis.groups]
    if out.reference == old:
        out.reference = new
    if old in out.feature_values:
        out.feature_values = {(new if g == old else g): v for g, v in out.feature_values.items()}
    persons = {i: {**p.groups, axis_name: new} for i, p in enumerate(corpus.persons) if p.groups.get(axis_name) == old}
    return out, persons


def _tagged(corpus: CorpusDefinition, axis_name: str) -> list:
    """Persons the axis applies to: every person for gender, names (and identity terms that carry
    the axis) for any other axis — noun phrases carry gender only."""
    if axis_name == "gender":
        return [p for p in corpus.persons if p.kind != "identity_term" or "gender" in p.groups]
    return [p for p in corpus.persons if p.kind == "name" or axis_name in p.groups]


def axis_findings(corpus: CorpusDefinition) -> list[Finding]:
    """W115 for a group no person carries; W116 for cells (gender × group) of unequal size.

    Silent on a corpus without persons for the axis yet: that is progress, not a problem."""
    out: list[Finding] = []
    for name, axis in corpus.axes.items():
        tagged = _tagged(corpus, name)
        if not tagged:
            continue
        counts = Counter(p.groups.get(name, "") for p in tagged)
        # a [[pairs]] design on this axis (Goldfarb-Tarrant et al.) leaves its reference side
        # unmarked: "dieser Mann" stands for it without carrying the group
        paired = any(pr.variable == name for pr in corpus.pairs)
        for g in axis.groups:
            if not counts.get(g) and not (paired and g == axis.reference):
                who = "person" if name == "gender" else "name"
                out.append(Finding("W115", said("W115.empty_group", group=g, axis=name, who=who), item=f"axes.{name}"))
    out += _balance(corpus)
    return out


def design_cells(corpus: CorpusDefinition) -> dict[str, Counter]:
    """Names per cell of gender × each other axis, noun phrases per gender: {"race": {"female · black": 3, …}}."""
    cells: dict[str, Counter] = {}
    genders = corpus.axes["gender"].groups if "gender" in corpus.axes else []
    nps = Counter(p.gender for p in corpus.persons if p.kind == "noun_phrase")
    if nps:
        cells["noun_phrase"] = Counter({g: nps.get(g, 0) for g in genders})
    for name, axis in corpus.axes.items():
        if name == "gender":
            continue
        names = [p for p in corpus.persons if p.kind == "name"]
        if not names:
            continue
        c = Counter(f"{p.gender} · {p.groups.get(name, '')}" for p in names)
        cells[name] = Counter({f"{gd} · {g}": c.get(f"{gd} · {g}", 0) for gd in genders for g in axis.groups})
    return cells


def _balance(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    for axis, cells in design_cells(corpus).items():
        # one name per cell at most is a sketch still being built (and the checker's test corpora)
        if len(set(cells.values())) <= 1 or max(cells.values()) < 2:
            continue
        shown = ", ".join(f"{k} {n}" for k, n in cells.items())
        most = max(cells.values())
        if axis == "noun_phrase":
            out.append(Finding("W116", said("W116.noun_phrases", cells=shown, n=most), item="axes.gender"))
        else:
            out.append(Finding("W116", said("W116.names", axis=axis, cells=shown, n=most), item=f"axes.{axis}"))
    return out
