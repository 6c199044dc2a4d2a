"""Prompt templates for LLM scorers: data files, validated with file:line errors.

Why data, not code: a prompt is part of the measuring instrument. Researchers must be able to
read it, translate it, change it and cite the exact wording; the id and version of every prompt
(and a hash of its text) go into the scorer's fingerprint and the run manifest, so scores from
different wordings are never mixed in the cache or in a report.

A prompt file is TOML (`resources/prompts/<language>.toml` ships with the product; a user's file
has the same shape)::

    language = "en"            # default for every [[prompt]] below
    answer = "Answer:"         # plain-prompt cue after which the label is read (no chat template)

    [[prompt]]
    id = "anger-en"            # unique; what `llm:PATH?prompt=anger-en` names
    version = 1                # bump when the wording changes
    task = "anger"             # the output column (dimension)
    kind = "intensity"         # intensity: labels "0".."10" by default; sentiment: give labels
    system = "..."             # optional system message
    user = '''... {text} ...'''  # the sentence goes where {text} stands (exactly once)
    labels = ["0", "1", ...]   # answers whose next-token probability is read
    values = [0, 1, ...]       # their numeric values (score = expected value, rescaled to 0..1)
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.common.toml_file import parse_toml
from engine.models.errors import ModelError

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "resources" / "prompts"
PLACEHOLDER = "{text}"
KINDS = ("intensity", "sentiment")
#: Tasks whose default prompts ship for every language (docs/models.md lists them).
INTENSITY_TASKS = ("anger", "fear", "joy", "sadness", "valence")
DEFAULT_TASKS = ("anger", "fear", "joy", "sadness")

_FILE_KEYS = {"language", "answer", "prompt"}
_PROMPT_KEYS = {"id", "version", "task", "kind", "language", "answer", "system", "user", "labels", "values", "note"}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_TASK = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_LANG = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]+)*$")


@dataclass(frozen=True)
class Prompt:
    """One prompt: the wording, the answer labels and their values."""

    id: str
    version: int
    task: str
    kind: str
    language: str
    user: str
    labels: tuple[str, ...]
    values: tuple[float, ...]
    system: str = ""
    answer: str = "Answer:"
    source: str = ""  # the file it came from
    line: int | None = None
    note: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        """Labels built in Python are checked as a prompt file's are: an empty or invisible label
        (a zero-width space) is an answer no one can read, and two equal labels are one answer."""
        from engine.models.errors import ModelError

        bad = next((lab for lab in self.labels if not isinstance(lab, str) or not visible(lab)), None)
        if bad is not None or len(self.labels) < 2 or len(set(self.labels)) != len(self.labels):
            what = (f"label {bad!r} has no visible character" if bad is not None
                    else "labels must be two or more different answers")
            raise ModelError(self.source or self.id, what, field="labels", line=self.line,
                             fix='e.g. labels = ["negative", "positive"]')
        if len(self.values) != len(self.labels):
            raise ModelError(self.source or self.id, f"{len(self.values)} values for {len(self.labels)} labels",
                             field="values", line=self.line, fix="give one value per label")

    def digest(self) -> str:
        """sha256 of everything that changes what the model is asked (for fingerprints)."""
        parts = [self.system, self.user, self.answer, "\x1f".join(self.labels), repr(self.values)]
        return hashlib.sha256("\x1e".join(parts).encode("utf-8")).hexdigest()[:16]

    def as_dict(self) -> dict[str, Any]:
        """What the run manifest records: identity and full wording."""
        return {"id": self.id, "version": self.version, "task": self.task, "kind": self.kind,
                "language": self.language, "system": self.system, "user": self.user, "answer": self.answer,
                "labels": list(self.labels), "values": list(self.values), "digest": self.digest(),
                "source": self.source}


def visible(text: str) -> bool:
    """Whether ``text`` has a character one can see: not only spaces, controls or format characters
    (zero-width space U+200B, joiners, marks of direction)."""
    import unicodedata

    return any(unicodedata.category(c)[0] not in "ZC" for c in text)


def _key_lines(text: str) -> tuple[list[int], dict[tuple[int, str], int]]:
    """Line numbers of each `[[prompt]]` header and of `key =` lines inside each block (block -1 = file top)."""
    starts: list[int] = []
    keys: dict[tuple[int, str], int] = {}
    block = -1
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if re.match(r"^\[\[\s*prompt\s*\]\]", line):
            starts.append(no)
            block += 1
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*=", line)
        if m:
            keys.setdefault((block, m.group(1)), no)
    return starts, keys


def load_prompt_file(path: str | Path) -> list[Prompt]:
    """Every prompt in a TOML prompt file, checked; ModelError(file, line) on the first problem."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ModelError(str(path), "prompt file not found", fix="check the path") from None
    except OSError as exc:
        raise ModelError(str(path), f"cannot read prompt file ({exc.strerror or exc})", fix="check the path") from None

    def fail_toml(message: str, line: int | None, fix: str) -> ModelError:
        return ModelError(str(path), message, line=line, fix=fix)

    data, text = parse_toml(raw, fail_toml)
    starts, keys = _key_lines(text)

    def fail(block: int, key: str, message: str, fix: str = "") -> ModelError:
        line = keys.get((block, key)) or (starts[block] if 0 <= block < len(starts) else None)
        return ModelError(str(path), message, field=key, line=line, fix=fix)

    for key in data:
        if key not in _FILE_KEYS:
            raise fail(-1, key, f"unknown key '{key}'", f"use {', '.join(sorted(_FILE_KEYS))} or [[prompt]] tables")
    blocks = data.get("prompt")
    if not isinstance(blocks, list) or not blocks:
        raise ModelError(str(path), "no [[prompt]] table in the file", fix="add at least one [[prompt]] table")
    file_lang = data.get("language")
    file_answer = data.get("answer", "Answer:")
    out: list[Prompt] = []
    seen: dict[str, int] = {}
    for b, raw in enumerate(blocks):
        out.append(_one_prompt(raw, b, file_lang, file_answer, str(path), starts, fail))
        pid = out[-1].id
        if pid in seen:
            raise fail(b, "id", f"prompt id '{pid}' is used twice in this file (also in prompt {seen[pid] + 1})",
                       "give every prompt its own id")
        seen[pid] = b
    return out


def _one_prompt(raw: Any, b: int, file_lang: Any, file_answer: Any, source: str, starts: list[int],
                fail: Any) -> Prompt:
    if not isinstance(raw, dict):
        raise fail(b, "prompt", "[[prompt]] must be a table")
    for key in raw:
        if key not in _PROMPT_KEYS:
            raise fail(b, key, f"unknown key '{key}' in a prompt", f"use {', '.join(sorted(_PROMPT_KEYS))}")

    def text_field(key: str, required: bool, default: Any = "") -> str:
        value = raw.get(key, default)
        if value is None or (required and key not in raw and default in ("", None)):
            raise fail(b, key if key in raw else "prompt", f"prompt needs '{key}'", f"add {key} = \"...\"")
        if not isinstance(value, str):
            raise fail(b, key, f"'{key}' must be text, not {type(value).__name__}", "put it in quotes")
        return value

    pid = text_field("id", True)
    if not _ID.match(pid):
        raise fail(b, "id", f"prompt id '{pid}' has characters other than letters, digits, '-', '_', '.'",
                   "use an id such as anger-en")
    version = raw.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise fail(b, "version" if "version" in raw else "prompt", f"prompt '{pid}' needs version = N (a whole number >= 1)",
                   "add version = 1, and raise it whenever the wording changes")
    task = text_field("task", True)
    if not _TASK.match(task):
        raise fail(b, "task", f"task '{task}' is not a column name (letters, digits, '_')", "use e.g. anger")
    kind = text_field("kind", False, "intensity")
    if kind not in KINDS:
        raise fail(b, "kind", f"unknown kind '{kind}'", f"use one of {', '.join(KINDS)}")
    language = raw.get("language", file_lang)
    if not isinstance(language, str) or not _LANG.match(language):
        raise fail(b, "language" if "language" in raw else "prompt",
                   f"prompt '{pid}' needs a language code (got {language!r})",
                   "set language = \"en\" at the top of the file or in the prompt")
    answer = raw.get("answer", file_answer)
    if not isinstance(answer, str):
        raise fail(b, "answer", "'answer' must be text", "e.g. answer = \"Answer:\"")
    system = text_field("system", False)
    user = text_field("user", True)
    if user.count(PLACEHOLDER) != 1:
        raise fail(b, "user", f"the user text must contain {PLACEHOLDER} exactly once (found {user.count(PLACEHOLDER)})",
                   f"put {PLACEHOLDER} where the sentence goes")
    if PLACEHOLDER in system:
        raise fail(b, "system", f"{PLACEHOLDER} belongs in the user text, not the system text")
    if "labels" in raw:
        labels = raw["labels"]
        if not isinstance(labels, list) or not all(isinstance(x, str) and visible(x) for x in labels):
            raise fail(b, "labels", "labels must be a list of texts with visible characters (not empty, not only "
                       "spaces or zero-width characters)", "e.g. labels = [\"negative\", \"positive\"]")
    elif kind == "intensity":
        labels = [str(i) for i in range(11)]
    else:
        raise fail(b, "prompt", f"sentiment prompt '{pid}' needs labels", "add labels = [\"negative\", \"neutral\", \"positive\"]")
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise fail(b, "labels", "labels must be two or more different answers")
    if "values" in raw:
        values = raw["values"]
        if not isinstance(values, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            raise fail(b, "values", "values must be a list of numbers")
    elif kind == "intensity" and labels == [str(i) for i in range(len(labels))]:
        values = list(range(len(labels)))
    elif kind == "sentiment" and len(labels) == 3:
        values = [0.0, 0.5, 1.0]
    else:
        raise fail(b, "labels", f"prompt '{pid}' needs values for its labels", "add values = [...], one per label")
    if len(values) != len(labels):
        raise fail(b, "values", f"{len(values)} values for {len(labels)} labels", "give one value per label")
    if max(values) == min(values):
        raise fail(b, "values", "all values are equal, so every score would be the same")
    note = raw.get("note", "")
    return Prompt(id=pid, version=int(version), task=task, kind=kind, language=language, user=user,
                  labels=tuple(labels), values=tuple(float(v) for v in values), system=system, answer=answer,
                  source=source, line=starts[b] if b < len(starts) else None, note=str(note))


def shipped_prompts(folder: Path = PROMPTS_DIR) -> dict[str, Prompt]:
    """All prompts under resources/prompts, by id (ids are unique across files)."""
    found: dict[str, Prompt] = {}
    for path in sorted(folder.glob("*.toml")):
        for p in load_prompt_file(path):
            if p.id in found:
                raise ModelError(str(path), f"prompt id '{p.id}' is also in {Path(found[p.id].source).name}",
                                 field="id", line=p.line, fix="give every prompt its own id")
            found[p.id] = p
    return found


def select_prompts(*, ids: list[str] | None = None, tasks: list[str] | None = None, language: str | None = None,
                   files: list[str | Path] | None = None) -> list[Prompt]:
    """The prompts a scorer asks: by id, or by task × language (defaults: the four emotions, English).

    `files` adds user prompt files; their ids are looked up first, so an edited copy of a shipped
    prompt (same id, new version) replaces it.
    """
    pool = dict(shipped_prompts())
    extra: dict[str, Prompt] = {}
    for f in files or []:
        for p in load_prompt_file(f):
            extra[p.id] = p
    pool.update(extra)
    if ids:
        missing = [i for i in ids if i not in pool]
        if missing:
            raise ModelError(missing[0], "no such prompt", field="prompt",
                             fix=f"use a shipped id such as anger-en (resources/prompts/*.toml), or add "
                                 f"prompt_file=FILE.toml")
        chosen = [pool[i] for i in ids]
    elif extra and not tasks and not language:
        chosen = list(extra.values())
    else:
        lang = language or "en"
        chosen = []
        for task in tasks or list(DEFAULT_TASKS):
            hits = [p for p in pool.values() if p.task == task and p.language == lang]
            hits = [p for p in hits if p.id in extra] or hits  # a user's file wins over a shipped one
            if not hits:
                langs = sorted({p.language for p in pool.values() if p.task == task})
                raise ModelError(f"{task}/{lang}", "no prompt for this task and language", field="task",
                                 fix=f"languages with a '{task}' prompt: {', '.join(langs) or 'none'}; "
                                     f"or write one (docs/models.md) and pass prompt_file=FILE.toml")
            chosen.append(sorted(hits, key=lambda p: p.id)[0])
    tasks_seen: dict[str, str] = {}
    for p in chosen:
        if p.task in tasks_seen:
            raise ModelError(p.id, f"two prompts for the task '{p.task}' ({tasks_seen[p.task]} and {p.id})",
                             field="prompt", fix="run them as two models with different names to compare prompts")
        tasks_seen[p.task] = p.id
    return chosen


def prompts_to_toml(prompts: list[Prompt]) -> str:
    """An editable prompt file holding `prompts` (a user's copy of shipped prompts; see load_prompt_file)."""
    import tomli_w

    body = []
    for p in prompts:
        entry: dict[str, Any] = {"id": p.id, "version": p.version, "task": p.task, "kind": p.kind,
                                 "language": p.language, "answer": p.answer}
        if p.system:
            entry["system"] = p.system
        entry["user"] = p.user
        default_scale = tuple(str(i) for i in range(11)), tuple(float(i) for i in range(11))
        if p.kind != "intensity" or (p.labels, p.values) != default_scale:  # else the defaults say it
            entry["labels"] = list(p.labels)
            entry["values"] = [int(v) if float(v).is_integer() else v for v in p.values]
        body.append(entry)
    head = ("# Prompts for EEC Studio's LLM scorer (format: docs/models.md, \"Auditing a local LLM\").\n"
            "# Edit the wording, raise `version`, and pass this file with prompt_file=PATH.\n")
    return head + tomli_w.dumps({"prompt": body}, multiline_strings=True)

