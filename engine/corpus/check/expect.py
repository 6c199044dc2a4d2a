"""[expect] rules: the shape a realised form must have when a slot asks for a feature value.

Why: agreement picks *which* form fills a slot but cannot see that the form itself is
wrong. Goldfarb-Tarrant et al.'s German rows put the bare adjective in attributive slots
("in eine irritierend Situation") and their Japanese rows glued causative endings onto
the wrong stems ("幸せにさた", "嬉しがらせるせた"). A corpus states the shape once, e.g.

    [expect.position]
    attr = '^\\w+(?:e|en|em|er|es)\\b'        # an attributive adjective carries an ending

and every slot asking for ``position=attr`` is checked: the text realised from the start of
the slot to the end of the sentence must match (``re.match``), so a rule may look at what
follows the slot (a Japanese causative stem plus the template's た/る). Violations are
warnings (W112): the rule is the corpus author's heuristic, not a grammar.
"""
from __future__ import annotations

from functools import lru_cache

from engine.common.patterns import UserPattern, toml_line_of, user_pattern

from engine.corpus.generate.compiled import CEntry, CompiledCorpus, Realisation
from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.generate.realised import slot_spans, slot_wants


@lru_cache(maxsize=256)
def _rx(pattern: str, file: str, field: str) -> UserPattern:
    """Read when the definition was loaded (valid, probed); every match runs with a deadline."""
    return user_pattern(pattern, file=file, field=field, line_of=toml_line_of(file, field), probe=False)


def expect_findings(cc: CompiledCorpus, template_id: str, r: Realisation, person: CEntry,
                    emotion: CEntry | None) -> list[Finding]:
    """W112 for every slot of ``r`` whose realised text breaks an [expect] rule it asked for."""
    rules = cc.corpus.expect
    wants = slot_wants(cc, r, person)
    raw: str | None = None
    spans: dict[str, tuple[int, int]] = {}
    out: list[Finding] = []
    for slot_name, wanted in wants.items():
        for feat, value in wanted.items():
            pattern = rules.get(feat, {}).get(value)
            if pattern is None:
                continue
            if raw is None:
                raw, spans = slot_spans(r)
            start = spans[slot_name][0]
            if not _rx(pattern, cc.corpus.path, f"expect.{feat}.{value}").match(raw[start:]):
                out.append(Finding("W112", said("W112.shape", slot=slot_name, feature=feat, value=value,
                                                text=raw[start:], pattern=pattern),
                                   template=template_id, slot=slot_name,
                                   person=person.id, emotion_word=emotion.id if emotion else ""))
    return out

