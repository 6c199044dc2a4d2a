"""Regular expressions that come from users' files, run with a deadline.

Why: a corpus (or a package someone shares) carries patterns — ``[[restrictions]]``, ``[expect]``
rules, ``[derive]`` — and Python's ``re`` backtracks without limit and without looking at Ctrl+C.
One pattern like ``'^(\\w|\\w)*$'`` froze ``corpus check``, ``package verify`` and ``package import``
for minutes. Every such pattern goes through :func:`user_pattern`: it is compiled with the ``regex``
module (the same syntax as ``re``; its matcher stops at a timeout, and it also answers many of the
classic backtracking shapes such as ``'^(\\w+\\s?)*$'`` in linear time), tried at once against a
few adversarial strings, and every later match runs with a deadline. A pattern that exceeds it is
refused with one line naming the file, the field and the pattern — and since no match runs longer
than the deadline, Ctrl+C is answered within it.
"""
from __future__ import annotations

import time
from typing import Callable

import regex

from engine.common.errors import UserError

#: the longest one match of a user's pattern may run (a sane pattern takes microseconds on a sentence)
MATCH_DEADLINE_S = 1.0
#: the deadline of each probe run when the pattern is read
PROBE_DEADLINE_S = 0.25
#: all matches of one pattern together may take this long, or the average below times its runs if that
#: is more (a pattern just under the deadline on each of thousands of sentences would still take hours;
#: a budget fixed per process, by contrast, was spent by a sane pattern in a long session — a test
#: suite or a day in the workbench — after ~575,000 matches)
TOTAL_BUDGET_S = 30.0
#: the average time one match may take over many runs (a sane pattern takes microseconds on a sentence)
AVERAGE_PER_TEXT_S = 1e-3
#: a pattern of a corpus is a line or two; a longer one is refused before it is compiled
MAX_PATTERN_CHARS = 10_000
_PROBE_LENGTH = 64
_FIX = ("rewrite it without a repeated group that can match the same text in several ways "
        "(e.g. '(\\w+\\s?)*' → '(?:\\w+\\s)*\\w*'), or remove it")


class PatternError(UserError):
    """A user's pattern that is not a regular expression or that runs past its deadline."""


class UserPattern:
    """A compiled user pattern that knows where it was written (file, field, line) and never runs
    longer than :data:`MATCH_DEADLINE_S` on one text. ``search``/``match``/``fullmatch`` as ``re``'s."""

    __slots__ = ("pattern", "file", "field", "line", "_rx", "_line_of", "spent", "runs", "_timeout")

    def __init__(self, pattern: str, rx, file: str, field: str, line: int | None,
                 line_of: Callable[[], int | None] | None) -> None:
        self.pattern, self._rx, self.file, self.field, self.line = pattern, rx, file, field, line
        self._line_of = line_of
        self.spent, self.runs = 0.0, 0
        # the matcher's timeout costs ~4 µs a call (a check of 8,460 sentences makes 42,000): a pattern
        # that cannot backtrack much (no repeat inside a repeat, no alternative inside a repeat, no
        # back-reference, at most two unbounded repeats in a row) runs without it, still on the budget
        self._timeout = needs_deadline(pattern)

    def __repr__(self) -> str:
        return f"UserPattern({self.pattern!r})"

    def search(self, text: str):
        return self._run(self._rx.search, text)

    def match(self, text: str):
        return self._run(self._rx.match, text)

    def fullmatch(self, text: str):
        return self._run(self._rx.fullmatch, text)

    def _run(self, fn, text: str):
        start = time.perf_counter()
        try:
            if not self._timeout and len(text) <= _SAFE_TEXT_CHARS:
                result = fn(text)
            else:
                result = fn(text, timeout=min(MATCH_DEADLINE_S, max(0.01, self._budget() - self.spent)))
        except TimeoutError:
            if self.spent + MATCH_DEADLINE_S > self._budget():
                raise self._over_budget() from None
            raise self.too_slow(text, MATCH_DEADLINE_S) from None
        finally:
            self.spent += time.perf_counter() - start
            self.runs += 1
        if self.spent > self._budget():
            raise self._over_budget()
        return result

    def _budget(self) -> float:
        return max(TOTAL_BUDGET_S, self.runs * AVERAGE_PER_TEXT_S)

    def _over_budget(self) -> PatternError:
        line = self.line if self.line is not None or self._line_of is None else self._line_of()
        return PatternError(f"pattern {self.pattern!r} refused: its matches took over {self._budget():g} s in all "
                            f"({self.runs:,} texts; a pattern takes microseconds on a sentence)",
                            file=self.file, line=line, field=self.field,
                            fix="simplify it (anchor it, avoid repeats inside repeats), or remove it")

    def too_slow(self, text: str, deadline: float) -> PatternError:
        line = self.line if self.line is not None or self._line_of is None else self._line_of()
        shown = text if len(text) <= 24 else text[:20] + "…"
        return PatternError(f"pattern {self.pattern!r} refused: it ran past its {deadline:g} s deadline on "
                            f"{shown!r} (catastrophic backtracking)", file=self.file, line=line,
                            field=self.field, fix=_FIX)


def user_pattern(pattern: object, *, file: str = "", field: str = "", line: int | None = None,
                 line_of: Callable[[], int | None] | None = None, probe: bool = True) -> UserPattern:
    """Compile ``pattern`` from a user's file, or raise a :class:`PatternError` naming ``file``,
    ``field`` (and the line: given, or found by ``line_of`` only when an error is raised).

    With ``probe`` the pattern is tried on a few strings that make backtracking patterns explode
    (runs of one letter, of letters and spaces, of the pattern's own letters, each followed by a
    character that breaks the match): a pattern that needs more than :data:`PROBE_DEADLINE_S` on
    a 64-character text is refused when it is read, before any sentence is checked."""
    def fail(message: str, fix: str = "") -> PatternError:
        return PatternError(message, file=file, field=field,
                            line=line if line is not None or line_of is None else line_of(), fix=fix)

    if not isinstance(pattern, str):
        raise fail(f"expected a regular expression string, got {type(pattern).__name__}",
                   fix="write the pattern in single quotes, e.g. '^\\w+e$'")
    if "\x00" in pattern:
        raise fail("the pattern holds a NUL character", fix="remove it")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise fail(f"a pattern of {len(pattern):,} characters (at most {MAX_PATTERN_CHARS:,})",
                   fix="a corpus pattern is a line or two: list words in `words = [...]` instead")
    try:
        rx = regex.compile(pattern)
    except (regex.error, OverflowError, RecursionError, ValueError) as exc:
        raise fail(f"not a valid regular expression ({exc})",
                   fix="see https://docs.python.org/3/library/re.html for the syntax") from None
    up = UserPattern(pattern, rx, file, field, line, line_of)
    if probe:
        for text in _probes(pattern):
            try:
                rx.search(text, timeout=PROBE_DEADLINE_S)
            except TimeoutError:
                raise up.too_slow(text, PROBE_DEADLINE_S) from None
    return up


_SAFE_TEXT_CHARS = 2000  # longer texts always run with the timeout


def needs_deadline(pattern: str) -> bool:
    """Whether ``pattern`` may backtrack beyond a polynomial of low degree: a repeat inside a repeat,
    alternatives or a class-overlapping branch inside a repeat, a back-reference, or three or more
    unbounded repeats in one sequence. Read with Python's own parser; a pattern it cannot read
    (regex-only syntax) needs the deadline."""
    try:
        from re import _constants as C, _parser as P
    except ImportError:  # pragma: no cover - Python before 3.11
        return True
    try:
        tree = P.parse(pattern)
    except Exception:  # noqa: BLE001 - anything re cannot read: keep the deadline
        return True
    repeats = {C.MAX_REPEAT, C.MIN_REPEAT} | ({C.POSSESSIVE_REPEAT} if hasattr(C, "POSSESSIVE_REPEAT") else set())

    def risky(items, inside: bool) -> bool:
        unbounded = 0
        for op, av in items:
            if op in repeats:
                lo, hi, sub = av
                many = hi == C.MAXREPEAT or hi > 1
                if inside and many:
                    return True
                unbounded += hi == C.MAXREPEAT
                if risky(sub, inside or many):
                    return True
            elif op is C.BRANCH:
                if inside or any(risky(b, inside) for b in av[1]):
                    return True
            elif op is C.SUBPATTERN:
                if risky(av[-1], inside):
                    return True
            elif op in (C.ASSERT, C.ASSERT_NOT):
                if risky(av[1], inside):
                    return True
            elif op in (C.GROUPREF, C.GROUPREF_EXISTS) or (hasattr(C, "ATOMIC_GROUP") and op is C.ATOMIC_GROUP
                                                             and risky(av, inside)):
                return True
        return unbounded >= 3

    return risky(tree, False)


def toml_line_of(file: str, field: str) -> Callable[[], int | None] | None:
    """For an error message: the line of ``field`` in the TOML file ``file`` (read only then)."""
    if not file.endswith(".toml"):
        return None

    def line() -> int | None:
        from engine.common.toml_file import locate

        try:
            with open(file, encoding="utf-8", errors="replace") as fh:
                return locate(fh.read(), field)
        except OSError:
            return None
    return line


def _probes(pattern: str) -> list[str]:
    letters = regex.sub(r"\\.", "", pattern)  # without escapes such as \w
    own = "".join(dict.fromkeys(c for c in letters if c.isalnum())) or "a"
    n = _PROBE_LENGTH
    bodies = ["a" * n, "a " * (n // 2), "1" * n, " " * n, "ab1 " * (n // 4), (own * n)[:n], (own + " ") * (n // (len(own) + 1))]
    return [b + end for b in bodies for end in ("!", "\n")]
