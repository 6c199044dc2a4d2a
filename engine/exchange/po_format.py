"""gettext PO: one entry per form, written and read here (no third-party parser).

Mapping (docs/packages.md has the full table):
  msgctxt            the unit key ``SECTION/ENTRY#INDEX FEATURES`` (entry id + grammatical features)
  msgid              source-language text (read-only in CAT tools)
  msgstr             the form's text in the corpus language
  ``#.`` comments    read-only context: what the item is, slots to keep, status at export
  ``#`` comments     the item's review note (editable; on the item's first form), one line each
  ``#, fuzzy``       the item is ``new`` or ``machine-translated`` (needs a human)
  Project-Id-Version ``<corpus id> eec-exchange-1``; Language the corpus language;
  X-Source-Language  the language of the msgids (Poedit shows it; gettext has no standard key)
  Last-Translator    the translator recorded most often on the items (empty when none is);
                     X-EEC-Exported-Translator repeats it, so an import only credits a tool's
                     *new* Last-Translator with the changes
  Language-Team      the corpus's ``[meta] translators``/``reviewers``, else the language name

Why our own writer and reader: babel's writer re-wraps and strips translator comments and
drops repeated lines, and its reader silently merges two entries with the same msgctxt. A
note must come back exactly as it went out, and a duplicated entry must be reported, so
both directions are done here: the PO grammar we need (comments, flags, msgctxt/msgid/
msgstr with continuation lines, C escapes, obsolete ``#~`` entries) is small. No format
flags (``python-brace-format``) are written: template slots are not Python format strings,
and Poedit/msgfmt would reject the translation if they were checked as such.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from engine.corpus import CorpusDefinition

from .errors import ExchangeError
from .keys import parse_key
from .returned import PO, Returned, ReturnedFile
from .status_rules import exported_fuzzy
from .units import Unit

VERSION_TAG = "eec-exchange-1"
DEFAULT_TRANSLATOR = "FULL NAME <EMAIL@ADDRESS>"
MAX_ENTRIES = 200_000

_ESC_OUT = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_ESC_IN = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s*(".*)$')


EXPORTED_TRANSLATOR = "X-EEC-Exported-Translator"


# ----------------------------------------------------------------------------- writing
def last_translator(units: list[Unit]) -> str:
    """The translator recorded on most items (first seen wins a tie); '' when none is recorded."""
    counts: dict[str, int] = {}
    for u in units:
        if u.first and u.translator:
            counts[u.translator] = counts.get(u.translator, 0) + 1
    return max(counts, key=lambda t: counts[t]) if counts else ""


def language_team(corpus: CorpusDefinition) -> str:
    """The corpus's translators and reviewers from ``[meta]``, else the language's name."""
    from engine.common.languages import language_name
    from engine.package.datasheet import meta_list

    people = list(dict.fromkeys(meta_list(corpus, "translators") + meta_list(corpus, "reviewers")))
    return ", ".join(people) if people else f"{language_name(corpus.language)} ({corpus.language})"


def quote(text: str) -> str:
    return '"' + "".join(_ESC_OUT.get(c, c) for c in text) + '"'


def _field(keyword: str, text: str) -> list[str]:
    """``keyword "..."``; a text with newlines is split after each one, as gettext tools do."""
    if "\n" not in text.rstrip("\n") or not text:
        return [f"{keyword} {quote(text)}"]
    parts = text.splitlines(keepends=True)
    return [f'{keyword} ""'] + [quote(p) for p in parts]


def _comment_lines(prefix: str, text: str) -> list[str]:
    return [f"{prefix} {line}".rstrip() if line else prefix for line in text.split("\n")]


def write_po_bytes(corpus: CorpusDefinition, units: list[Unit], *, source_id: str = "",
                   source_lang: str = "") -> bytes:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M+0000")
    intro = (f"EEC Studio translation file for corpus {corpus.id} ({corpus.name}).\n"
             "Translate msgstr; keep msgctxt as it is. Each entry is one grammatical form: the features\n"
             "after '#N' in the context say which (gender=f, role=object, ...). Templates must keep\n"
             "every {slot} in braces; msgid shows the slots as this corpus writes them. Comments\n"
             "starting with '#.' explain the item; write your own notes as translator comments.\n"
             "Clear 'fuzzy' when a translation is done.\n"
             + (f"Source-language text from corpus {source_id}.\n" if source_id else
                "Source text = the corpus's own text (a review file).\n")
             + f"Check slots with: pofilter --language={corpus.language} THIS.po findings.po\n")
    translator = last_translator(units)
    headers = [("Project-Id-Version", f"{corpus.id} {VERSION_TAG}"), ("POT-Creation-Date", now),
               ("PO-Revision-Date", now), ("Last-Translator", translator),
               ("Language-Team", language_team(corpus)), ("Language", corpus.language), ("MIME-Version", "1.0"),
               ("Content-Type", "text/plain; charset=UTF-8"), ("Content-Transfer-Encoding", "8bit"),
               ("X-Generator", "EEC Studio"), ("X-Source-Language", source_lang or corpus.language),
               (EXPORTED_TRANSLATOR, translator)]
    out = _comment_lines("#", intro.rstrip("\n"))
    out += ['msgid ""', 'msgstr ""'] + [quote(f"{k}: {v}\n") for k, v in headers] + [""]
    for u in units:
        if u.note:
            out += _comment_lines("#", u.note)
        out += _comment_lines("#.", u.context)
        if exported_fuzzy(u.status, u.target):
            out.append("#, fuzzy")
        out += _field("msgctxt", str(u.key))
        out += _field("msgid", u.source or u.key.entry)
        out += _field("msgstr", u.target)
        out.append("")
    return ("\n".join(out)).encode("utf-8")


# ----------------------------------------------------------------------------- reading
@dataclass
class PoEntry:
    line: int = 0
    context: str | None = None
    msgid: str | None = None
    plural: bool = False
    msgstr: str | None = None
    flags: set[str] = field(default_factory=set)
    user_comments: list[str] = field(default_factory=list)


def unquote(s: str, file: str, lineno: int) -> str:
    s = s.strip()
    if len(s) < 2 or not s.startswith('"') or not s.endswith('"'):
        raise ExchangeError(file, "a string is not enclosed in double quotes", entry=f"line {lineno}",
                            fix="open the file in Poedit and save it again, or export a fresh file")
    body, out, i = s[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == '"':
            raise ExchangeError(file, "unescaped double quote inside a string", entry=f"line {lineno}",
                                fix='write \\" for a quote inside a translation')
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(body):
            raise ExchangeError(file, "a string ends with a lone backslash", entry=f"line {lineno}",
                                fix="write \\\\ for a backslash")
        n = body[i + 1]
        if n in _ESC_IN:
            out.append(_ESC_IN[n])
            i += 2
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + len(m.group(0))
        elif n == "x" and re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:]):
            m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        else:
            raise ExchangeError(file, f"unknown escape \\{n} in a string", entry=f"line {lineno}",
                                fix="write \\\\ for a backslash")
    return "".join(out)


def _parse(text: str, file: str) -> tuple[list[PoEntry], dict[str, str]]:
    """(entries, header fields): the header entry (empty msgid, no msgctxt) is read as ``Key: value``
    lines with lower-cased keys, and is not among the entries."""
    headers: dict[str, str] = {}
    body = []
    for e in _PoReader(file).read(text):
        if e.msgid == "" and e.context is None:
            for hline in (e.msgstr or "").split("\n"):
                k, sep, v = hline.partition(":")
                if sep:
                    headers[k.strip().lower()] = v.strip()
        else:
            body.append(e)
    return body, headers


_RESAVE = "open the file in Poedit and save it again, or export a fresh file"


class _PoReader:
    """Reads a PO file line by line. ``cur`` is the entry being read, ``target`` the field its
    continuation lines extend; an entry ends at a blank line, or at a comment or keyword that can only
    start the next one once ``cur`` has had a keyword (``seen_keyword``)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.entries: list[PoEntry] = []
        self.cur = PoEntry()
        self.target: str | None = None
        self.seen_keyword = False

    def read(self, text: str) -> list[PoEntry]:
        for lineno, raw in enumerate(text.split("\n"), 1):
            self.line(raw.rstrip("\r"), lineno)
        self.finish()
        return self.entries

    def finish(self) -> None:
        cur = self.cur
        if self.seen_keyword:
            if cur.msgid is None:
                raise ExchangeError(self.file, "an entry has no msgid", entry=f"line {cur.line}", fix=_RESAVE)
            if cur.msgstr is None:
                raise ExchangeError(self.file, "an entry has no msgstr", entry=f"line {cur.line}", fix=_RESAVE)
            self.entries.append(cur)
            if len(self.entries) > MAX_ENTRIES:
                raise ExchangeError(self.file, f"more than {MAX_ENTRIES:,} entries",
                                    fix="check you chose the right file")
        self.cur, self.target, self.seen_keyword = PoEntry(), None, False

    def line(self, line: str, lineno: int) -> None:
        stripped = line.strip()
        if not stripped:
            self.finish()
        elif stripped.startswith("#~") or stripped.startswith("#|"):
            pass  # obsolete entries and previous msgids (Weblate, msgmerge) carry nothing for us
        elif stripped.startswith("#"):
            self.comment(line, stripped)
        elif m := _KEYWORD.match(stripped):
            self.keyword(m.group(1), m.group(2), unquote(m.group(3), self.file, lineno), lineno)
        elif stripped.startswith('"'):
            self.continuation(stripped, lineno)
        else:
            raise ExchangeError(self.file, f"unexpected text {stripped[:40]!r}", entry=f"line {lineno}",
                                fix=_RESAVE)

    def comment(self, line: str, stripped: str) -> None:
        if self.seen_keyword:
            self.finish()
        if stripped.startswith("#,"):
            self.cur.flags |= {f.strip() for f in stripped[2:].split(",") if f.strip()}
        elif stripped.startswith(("#.", "#:")):
            pass  # extracted comments and references are ours (read-only)
        else:
            body = line.lstrip()[1:]
            self.cur.user_comments.append(body[1:] if body.startswith(" ") else body)

    def keyword(self, keyword: str, index: str | None, value: str, lineno: int) -> None:
        if keyword == "msgctxt":
            if self.seen_keyword:
                self.finish()
            self.cur.line, self.cur.context, self.target = lineno, value, "context"
        elif keyword == "msgid":
            if self.seen_keyword and self.cur.context is None or self.cur.msgid is not None:
                self.finish()
            self.cur.line = self.cur.line or lineno
            self.cur.msgid, self.target = value, "msgid"
        elif keyword == "msgid_plural":
            self.cur.plural, self.target = True, None
        else:
            if self.cur.msgid is None:
                raise ExchangeError(self.file, "msgstr without msgid", entry=f"line {lineno}", fix=_RESAVE)
            if index not in (None, "0"):
                self.cur.plural, self.target = True, None
            else:
                self.cur.msgstr, self.target = value, "msgstr"
        self.seen_keyword = True

    def continuation(self, stripped: str, lineno: int) -> None:
        cur = self.cur
        if self.target is None and not cur.plural:
            raise ExchangeError(self.file, "a continuation string follows no msgid/msgstr", entry=f"line {lineno}",
                                fix=_RESAVE)
        value = unquote(stripped, self.file, lineno)
        if self.target == "context":
            cur.context = (cur.context or "") + value
        elif self.target == "msgid":
            cur.msgid = (cur.msgid or "") + value
        elif self.target == "msgstr":
            cur.msgstr = (cur.msgstr or "") + value


def read_po_bytes(raw: bytes, file: str) -> ReturnedFile:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        raise ExchangeError(file, "contains NUL bytes (UTF-16 or a binary .mo file?)",
                            fix="give the .po file, saved as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExchangeError(file, f"not valid UTF-8 (byte {exc.start})", fix="save the PO file as UTF-8") from None
    entries, headers = _parse(text, file)
    charset = re.search(r"charset\s*=\s*([A-Za-z0-9._-]+)", headers.get("content-type", ""))
    if charset and charset.group(1).lower().replace("_", "-") not in ("utf-8", "utf8", "charset"):
        raise ExchangeError(file, f"declares charset {charset.group(1)}", fix="save the PO file as UTF-8")
    units = []
    for e in entries:
        where = f"line {e.line}"
        if e.plural:
            raise ExchangeError(file, "plural entries are not used by EEC Studio", entry=where,
                                fix="remove msgid_plural entries")
        key = parse_key(e.context or "")
        if key is None:
            raise ExchangeError(file, f"entry {e.context or e.msgid!r} has no EEC Studio context (msgctxt)",
                                entry=where, fix="keep msgctxt as exported; do not add entries")
        units.append(Returned(key=key, text=e.msgstr or "", notes=list(e.user_comments), fuzzy="fuzzy" in e.flags,
                              where=where))
    project = headers.get("project-id-version", "")
    corpus_id = project[:-len(VERSION_TAG)].strip() if project.endswith(VERSION_TAG) else ""
    translator = headers.get("last-translator", "")
    if translator.strip() in (DEFAULT_TRANSLATOR, headers.get(EXPORTED_TRANSLATOR.lower(), "").strip()):
        translator = ""  # the tool did not name who edited the file: credit nobody new
    return ReturnedFile(PO, corpus_id, headers.get("language", "").replace("_", "-"), units, translator.strip())
