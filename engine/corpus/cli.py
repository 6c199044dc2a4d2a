"""`python main.py corpus …`: list, check, export, preview (a thin shell over the engine)."""
from __future__ import annotations

import argparse
from pathlib import Path

from engine.common import exits, validate
from engine.common.errors import UsageError, UserError

from engine.corpus.check.checker import check_corpus
from engine.corpus.generate.compiled import CompiledCorpus
from engine.corpus.generate.export import FORMATS, export_table
from engine.corpus.generate.generator import generate
from engine.corpus.definition.registry import list_corpora, load_corpus
from engine.corpus.translate.review_record import (ERROR_CLASSES, RUBRIC, draw_sample, read_review, save_record,
                                                   write_sheet)


def corpus_commands(subparsers: argparse._SubParsersAction) -> argparse._SubParsersAction | None:
    """The sub-commands of ``corpus`` in a parser where ``add_parser`` ran (None: it did not).

    Why: a package above corpus adds its own ``corpus`` command (``pairs``, ``hf-export``,
    ``tm-export``) from its own cli module, listed after this one in main.COMMANDS, so the corpus
    package never imports the packages above it (the import table, docs/ARCHITECTURE.md)."""
    corpus = subparsers.choices.get("corpus")
    if corpus is None:
        return None
    return next(a for a in corpus._actions if isinstance(a, argparse._SubParsersAction))


def add_corpus_command(subparsers: argparse._SubParsersAction, name: str, **kw) -> argparse.ArgumentParser | None:
    """A ``corpus NAME`` sub-command added from a package above corpus (None: no ``corpus`` command)."""
    sub = corpus_commands(subparsers)
    return None if sub is None else sub.add_parser(name, **kw)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("corpus", help="list, check and export corpora")
    sub = p.add_subparsers(dest="corpus_cmd", required=True, metavar="COMMAND")
    # in this order: `corpus --help` lists the subcommands as they are added
    _add_inspect_parsers(sub)
    _add_create_parsers(sub)
    _add_export_parsers(sub)
    _add_review_sheet_parsers(sub)
    _add_preview_parser(sub)
    _add_edit_parsers(sub)


def _add_inspect_parsers(sub: argparse._SubParsersAction) -> None:
    """`corpus list` and `corpus check`."""
    ls = sub.add_parser("list", help="built-in and user corpora with language, size and checker status")
    ls.add_argument("--refresh", action="store_true",
                    help="check every corpus again instead of using the answers kept in the cache folder "
                         "(kept per file content; a changed file is always checked again)")
    ls.set_defaults(func=cmd_list)

    ck = sub.add_parser("check", help="run the agreement checker; exit 1 when there are errors")
    ck.add_argument("corpus", metavar="PATH_OR_NAME")
    ck.add_argument("--all", action="store_true", help="list every finding instead of grouping identical ones")
    ck.add_argument("--untranslated", action="store_true",
                    help="also list the items not translated yet (by default they count as progress)")
    ck.set_defaults(func=cmd_check)


def _add_create_parsers(sub: argparse._SubParsersAction) -> None:
    """`corpus new` (an empty corpus) and `corpus translate` (a new language from a corpus)."""
    nw = sub.add_parser("new", help="start an empty corpus in a language, with its grammatical features preset")
    nw.add_argument("--language", required=True, metavar="LANG", help="a tag (fr, es-MX) or a name (French)")
    nw.add_argument("--out", default="", metavar="FILE.toml",
                    help="default: ID.toml in your corpora folder (created on first use), where the app lists it")
    nw.add_argument("--id", default="", help="corpus id (default: LANG-my-eec)")
    nw.add_argument("--name", default="", help="corpus name (default: EEC (language name))")
    nw.add_argument("--feature", action="append", default=[], metavar="NAME=V1,V2",
                    help="set a grammatical feature's values (repeatable); NAME= drops a preset feature")
    nw.add_argument("--axis", action="append", default=[], metavar="NAME=G1*,G2",
                    help="a social axis besides gender with its groups (repeatable), e.g. race=white*,black; "
                         "* marks the reference group (default: the first); NAME:Label=… titles it")
    nw.add_argument("--overwrite", "--force", dest="overwrite", action="store_true", help="replace FILE if it exists")
    nw.set_defaults(func=cmd_new)

    tr = sub.add_parser("translate", help="start a new language from a corpus: same ids, empty forms, source kept")
    tr.add_argument("source", metavar="SOURCE", help="built-in id, user corpus id or .toml path")
    tr.add_argument("--language", required=True, metavar="LANG", help="a tag (fr, es-MX) or a name (French)")
    tr.add_argument("--out", default="", metavar="FILE.toml",
                    help="default: ID.toml in your corpora folder (created on first use)")
    tr.add_argument("--id", default="", help="corpus id (default: LANG-SOURCE)")
    tr.add_argument("--name", default="")
    for opt, what in (("templates", "template"), ("persons", "person"), ("emotion-words", "emotion word"),
                      ("words", "small word")):
        tr.add_argument(f"--{opt}", default="", metavar="ID,ID",
                        help=f"take only these {what} ids (comma-separated; default: all)")
    tr.add_argument("--overwrite", "--force", dest="overwrite", action="store_true", help="replace FILE if it exists")
    tr.set_defaults(func=cmd_translate)


def _add_export_parsers(sub: argparse._SubParsersAction) -> None:
    """`corpus export` (one table of sentences; `corpus hf-export` is engine.package.corpus_cli's)."""
    ex = sub.add_parser("export", help="generate sentences and write them to a file")
    ex.add_argument("corpus", metavar="NAME_OR_PATH", nargs="?")
    ex.add_argument("--all", action="store_true", help="export every built-in and user corpus into the --out folder")
    ex.add_argument("--format", choices=FORMATS, default=None, help="default: from the --out suffix, else csv")
    ex.add_argument("--out", required=True, metavar="FILE", help="output file (a folder with --all)")
    ex.set_defaults(func=cmd_export)


def _add_review_sheet_parsers(sub: argparse._SubParsersAction) -> None:
    """`corpus review-sample` and `corpus review-import`: the blind native-speaker review."""
    rs = sub.add_parser("review-sample", help="draw a random sample for a native-speaker review (a CSV sheet)")
    rs.add_argument("corpus", metavar="NAME_OR_PATH")
    rs.add_argument("--n", type=int, default=100, help="how many pairs (sentences where the corpus has none); default 100")
    rs.add_argument("--sentences", type=int, default=None, metavar="K",
                    help="draw --n pairs and K of the sentences no pair covers, apart (the issue-38 procedure: "
                         "--n 50 --sentences 25); default: --n units from both together")
    rs.add_argument("--seed", type=int, default=None,
                    help="seed of the draw (default: the current UTC time as digits, a seed nobody used)")
    rs.add_argument("--out", required=True, metavar="SHEET.csv")
    rs.add_argument("--overwrite", "--force", dest="overwrite", action="store_true", help="replace SHEET if it exists")
    rs.set_defaults(func=cmd_review_sample)

    ri = sub.add_parser("review-import", help="store a filled-in review sheet beside the corpus (its error rate)")
    ri.add_argument("corpus", metavar="NAME_OR_PATH")
    ri.add_argument("sheet", metavar="SHEET.csv")
    ri.add_argument("--reviewer", required=True, help="who gave the verdicts (the review is signed with it)")
    ri.add_argument("--date", default=None, help="when (YYYY-MM-DD; default today)")
    ri.set_defaults(func=cmd_review_import)


def _add_preview_parser(sub: argparse._SubParsersAction) -> None:
    """`corpus preview`."""
    pv = sub.add_parser("preview", help="print generated sentences (filter by template, person, emotion)")
    pv.add_argument("corpus", metavar="NAME_OR_PATH")
    pv.add_argument("--template", default=None)
    pv.add_argument("--person", default=None)
    pv.add_argument("--emotion", default=None)
    pv.add_argument("-n", type=int, default=20, help="how many sentences (default 20)")
    pv.set_defaults(func=cmd_preview)


def _add_edit_parsers(sub: argparse._SubParsersAction) -> None:
    """`corpus mark-reviewed`, `corpus fix` and `corpus spelling-add`: edits of the user's own corpus file."""
    mr = sub.add_parser("mark-reviewed", help="mark items reviewed by a second native speaker (the workbench's "
                                              "Mark reviewed); --to-review takes every translated, unreviewed item")
    mr.add_argument("corpus", metavar="PATH_OR_NAME", help="your corpus (a built-in one is read-only)")
    mr.add_argument("items", nargs="*", metavar="ITEM", help="an id (T01, ana) or LIST:ID where ids repeat across lists")
    mr.add_argument("--by", required=True, metavar="NAME", help="the reviewer (initials or name), recorded with each item")
    mr.add_argument("--to-review", action="store_true",
                    help="every item translated and not reviewed yet (the workbench's filter 'translated, not reviewed')")
    mr.add_argument("--dry-run", action="store_true", help="list the items and change nothing")
    mr.set_defaults(func=cmd_mark_reviewed)

    fx = sub.add_parser("fix", help="apply every mechanical fix the checker offers for its errors (the workbench's "
                                    "Fix button): the forms the language's data predicts (E026-E028), case=acc on an "
                                    "object slot (E030), gender=person.gender on a slot (E002)")
    fx.add_argument("corpus", metavar="PATH_OR_NAME", help="your corpus (a built-in one is read-only)")
    fx.add_argument("--code", action="append", metavar="CODE", help="only this checker code (repeatable), e.g. E026")
    fx.add_argument("--dry-run", action="store_true", help="list the fixes and change nothing")
    fx.set_defaults(func=cmd_fix)

    sa = sub.add_parser("spelling-add", help="add words to a corpus's own word list ([spelling] accept): "
                                             "the spelling check (W113) stops reporting them")
    sa.add_argument("corpus", metavar="PATH_OR_NAME", help="your corpus (a built-in one is read-only)")
    sa.add_argument("words", nargs="+", metavar="WORD")
    sa.set_defaults(func=cmd_spelling_add)

    tb = sub.add_parser("translate-batch", help="translate many items at once from a file with one line per item: "
                                                "the id or source text, then its forms (tab-, '|'- or ':'-separated); "
                                                "the workbench's Translate many items…")
    tb.add_argument("corpus", metavar="PATH_OR_NAME", help="your corpus (a built-in one is read-only)")
    tb.add_argument("file", metavar="FILE", help="the lines, e.g. 'angry<TAB>arrabbiata<TAB>arrabbiato' or "
                                                 "'my mother: mia madre' ('-' reads standard input)")
    tb.add_argument("--out", default=None, metavar="FILE.toml", help="write here instead of the corpus's own file")
    tb.add_argument("--translator", default="", metavar="NAME", help="recorded on every item changed")
    tb.add_argument("--dry-run", action="store_true", help="show what each line does and the checker's verdict; "
                                                          "write nothing")
    tb.set_defaults(func=cmd_translate_batch)


def cmd_list(args: argparse.Namespace) -> int:
    from engine.corpus.check.status_cache import corpus_statuses

    rows = []
    entries = list_corpora()
    for entry, st in zip(entries, corpus_statuses([e.path for e in entries], refresh=args.refresh)):
        if isinstance(st, Exception):  # one broken user file must not hide the others
            rows.append((entry.id, "?", "-", f"unreadable: {st}", "-", "-", str(entry.path)))
        else:
            rows.append((st.id, st.language, f"{st.sentences:,}", st.checker_text(), st.review, st.labels,
                         "built-in" if entry.builtin else str(entry.path)))
    header = ("corpus", "lang", "sentences", "checker", "review (95% Clopper-Pearson interval)", "label errors", "where")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header) - 1)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths + [0])))
    for r in rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths + [0])))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    c = load_corpus(args.corpus)
    rep = check_corpus(c)
    if args.all:
        print(f"{c.id}: {len(rep.errors)} error(s), {len(rep.warnings)} warning(s), {rep.sentences} sentence(s)")
        for f in rep.findings:
            print(f"  {f}")
    else:
        from engine.corpus.check.finding_groups import check_text

        print(check_text(rep, c, include_untranslated=args.untranslated))
    return exits.OK if rep.ok else exits.FINDINGS


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _write_new(corpus, out: str, overwrite: bool) -> Path:
    from engine.common.overwrite import may_replace

    from engine.corpus.definition.shared_file import corpus_file_lock
    from engine.corpus.definition.writer import save_definition

    from engine.common.user_dirs import user_corpus_dir

    path = Path(out) if out else user_corpus_dir() / f"{corpus.id}.toml"
    may_replace(path, overwrite=overwrite, confirm=None)
    path.parent.mkdir(parents=True, exist_ok=True)  # the corpora folder, on first use
    with corpus_file_lock(path):  # not while another writer is half-way through the file
        return save_definition(corpus, path, comments_from=None)


def cmd_new(args: argparse.Namespace) -> int:
    from engine.corpus.definition.axes import parse_axis_option
    from engine.corpus.definition.new_corpus import new_corpus, parse_feature_option

    try:
        feats = dict(parse_feature_option(f) for f in args.feature)
        axes = [parse_axis_option(a) for a in args.axis]
        corpus = new_corpus(args.language, args.id, args.name, feats, axes)
    except UserError:
        raise
    except ValueError as exc:
        raise UsageError(str(exc), field="corpus new") from None
    path = _write_new(corpus, args.out, args.overwrite)
    feats = "; ".join(f"{k} = {', '.join(v)}" for k, v in corpus.features.items()) or "none"
    axes_text = "; ".join(f"{a.name} = {', '.join(a.groups)} (reference {a.reference})" for a in corpus.axes.values())
    print(f"{corpus.id} ({corpus.language}, {corpus.direction}) -> {path}\n  features: {feats}\n  axes: {axes_text}")
    return exits.OK


def cmd_translate(args: argparse.Namespace) -> int:
    from engine.common.languages import language_tag
    from engine.corpus.translate.new_language import Subset, translate_from

    try:
        lang = language_tag(args.language)
    except UsageError as exc:
        raise UsageError(exc.message, field="--language", fix=exc.fix) from None
    source = load_corpus(args.source)
    subset = Subset(_ids(args.templates), _ids(args.persons), _ids(args.emotion_words), _ids(args.words))
    corpus = translate_from(source, lang, args.id, args.name, subset)
    path = _write_new(corpus, args.out, args.overwrite)
    n = {k: len(getattr(corpus, k)) for k in ("templates", "persons", "emotion_words", "words")}
    print(f"{corpus.id} from {source.id}: {n['templates']} template(s), {n['persons']} person(s), "
          f"{n['emotion_words']} emotion word(s), {n['words']} word(s), all to translate -> {path}")
    return exits.OK


def _export_one(name_or_path, out: Path, fmt: str | None) -> None:
    c = load_corpus(name_or_path)
    cc = CompiledCorpus(c)
    df = generate(c, cc)
    export_table(df, out, fmt)
    print(f"{c.id}: {len(df):,} sentences -> {out}")


def cmd_export(args: argparse.Namespace) -> int:
    if args.all:
        out = validate.output_folder(args.out)
        fmt = args.format or "csv"
        for entry in list_corpora():
            _export_one(entry.path, out / f"{entry.id}.{fmt}", fmt)
        return exits.OK
    if not args.corpus:
        raise UsageError("give a corpus name or path, or --all", field="corpus export")
    out = validate.output_file(args.out)
    suffix = out.suffix.lstrip(".").lower()
    if args.format is None and suffix and suffix not in FORMATS:
        raise UsageError(f"unknown output type .{suffix}", file=str(out), field="--out",
                         fix=f"end the name in one of .{', .'.join(FORMATS)} or pass --format")
    _export_one(args.corpus, out, args.format)
    return exits.OK


def cmd_review_sample(args: argparse.Namespace) -> int:
    from engine.common.overwrite import may_replace

    validate.at_least("--n", args.n, 1)
    if args.sentences is not None:
        validate.at_least("--sentences", args.sentences, 0)
    c = load_corpus(args.corpus)
    out = validate.output_file(args.out)
    may_replace(out, overwrite=args.overwrite, confirm=None)
    sample = draw_sample(c, args.n, args.seed, sentences=args.sentences)
    write_sheet(sample, out)
    paired = sum(1 for i in sample.items if i.side_b)
    print(f"{c.id}: {len(sample.items)} of {sample.population:,} {sample.unit} ({paired} pairs, "
          f"{len(sample.items) - paired} sentences), seed {sample.seed} -> {out}\n"
          f"  fill in verdict (ok | awkward | error), error_class (one of {', '.join(ERROR_CLASSES)}; label: the "
          f"sentence does not express its emotion) and correction, by the rubric {RUBRIC}, then: "
          f"corpus review-import {c.id} {out} --reviewer NAME")
    return exits.OK


def cmd_review_import(args: argparse.Namespace) -> int:
    c = load_corpus(args.corpus)
    record = read_review(c, args.sheet, args.reviewer, args.date)
    path = save_record(c, record)
    classes = ", ".join(f"{k} {v}" for k, v in sorted(record.error_classes().items()))
    print(f"{c.id}: {record.summary()}" + (f" ({classes})" if classes else "")
          + f"; {record.label_text()}, {record.awkward} awkward; reviewer {record.reviewer}, {record.date}, seed {record.seed} -> {path}")
    return exits.OK


def cmd_preview(args: argparse.Namespace) -> int:
    validate.at_least("-n", args.n, 0)
    c = load_corpus(args.corpus)
    if args.template:
        validate.one_of("--template", args.template, [t.id for t in c.templates], "template")
    if args.emotion:
        validate.one_of("--emotion", args.emotion, sorted({e.emotion for e in c.emotion_words}), "emotion")
    df = generate(c)
    if args.person and args.person not in set(df.Person):  # a person id, or a term as written
        validate.one_of("--person", args.person, [p.id for p in c.persons], "person id")
    if args.template:
        df = df[df.template_id == args.template]
    if args.person:
        df = df[(df.person_id == args.person) | (df.Person == args.person)]
    if args.emotion:
        df = df[df.Emotion == args.emotion]
    print(f"{len(df):,} sentence(s)")
    for s in df.Sentence.head(args.n):
        print(f"  {s}")
    return 0


def cmd_spelling_add(args: argparse.Namespace) -> int:
    """The same list the workbench's "Add to the corpus word list" edits; the file keeps its comments."""
    from engine.corpus.check.spelling import accept_words
    from engine.corpus.definition.shared_file import update_definition

    path = _own_file(args.corpus)

    def add(corpus):
        corpus.spelling_accept, added = accept_words(corpus.spelling_accept, args.words, str(path))
        return added, bool(added)

    added = update_definition(path, add)  # under the file's lock: concurrent runs all keep their words
    new = set(added)  # a set: 100,000 words are checked in linear time
    there = [w for w in args.words if w.strip() not in new]
    print(f"{path}: added {len(added):,} word(s) to [spelling] accept" + (f": {_some(added)}" if added else "")
          + (f"; already there: {_some(there)}" if there else ""))
    return exits.OK


def _some(words: list[str], shown: int = 10) -> str:
    """The first few words of a list, and how many more (one short line, whatever the list)."""
    head = ", ".join(words[:shown])
    return head + (f" … and {len(words) - shown:,} more" if len(words) > shown else "")


def cmd_fix(args: argparse.Namespace) -> int:
    """The workbench's Fix button for every finding that has one; the file keeps its comments."""
    from engine.corpus.check.fixes import apply_fixes
    from engine.corpus.definition.shared_file import update_definition

    path = _own_file(args.corpus)

    def fix_all(corpus):
        found = apply_fixes(corpus, {c.upper() for c in args.code} if args.code else None)
        return found, bool(found) and not args.dry_run

    fixes = update_definition(path, fix_all)  # under the file's lock, as every writer (issue 40)
    for fix in fixes:
        print(f"  {fix.label}")
    print(f"{path}: {len(fixes)} fix(es) " + ("found (nothing changed)" if args.dry_run else "applied"))
    return exits.OK


MAX_BATCH_BYTES = 4 * 1024 * 1024  # a batch for the largest corpus is a few KB


def _read_batch_file(name: str) -> str:
    import sys

    if name == "-":
        return sys.stdin.read(MAX_BATCH_BYTES)
    path = Path(name)
    try:
        if path.stat().st_size > MAX_BATCH_BYTES:
            raise UsageError(f"{name}: over {MAX_BATCH_BYTES:,} bytes", fix="give a file with one line per item")
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{name}: file not found", fix="check the path") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name}: not UTF-8 text (byte {exc.start})", fix="save the file as UTF-8") from None
    except OSError as exc:
        raise UsageError(f"{name}: cannot read it ({exc.strerror or exc})") from None


def cmd_translate_batch(args: argparse.Namespace) -> int:
    """The same reading as the workbench's batch dialog; nothing is written while a line is not understood."""
    from engine.corpus.definition.loader import load_definition
    from engine.corpus.definition.writer import save_definition
    from engine.corpus.translate.batch import plan_summary, read_batch
    from engine.corpus.translate.source_link import load_source

    path = _own_file(args.corpus) if not args.out else None
    corpus = load_definition(path) if path else load_corpus(args.corpus)
    text = _read_batch_file(args.file)
    plan = read_batch(corpus, text, source=load_source(corpus), translator=args.translator)
    for line in plan.lines:
        print(f"{args.file}:{line.number}: {line.problem.split(': ', 1)[1]}" if line.problem
              else f"  {line.reading()}")
    print(plan_summary(plan))
    if plan.problems:
        print(f"nothing written: {len(plan.problems)} line(s) not understood (fix them and run again)")
        return exits.USAGE
    if args.dry_run or not plan.changed:
        return exits.OK
    target = Path(args.out) if args.out else path
    if args.out:
        validate.output_file(args.out)
    save_definition(plan.after, target, comments_from=path or (corpus.path or None))
    print(f"-> {target}")
    return exits.OK


def _own_file(name_or_path: str) -> Path:
    """The definition file of one of the user's corpora; a built-in corpus is refused (read-only)."""
    from engine.corpus.definition.registry import BUILTIN_DIR, resolve_path

    path = resolve_path(name_or_path)
    if path.resolve().is_relative_to(BUILTIN_DIR.resolve()):
        raise UsageError(f"{path.stem} is a built-in corpus and is not changed",
                         fix="make it yours first (corpus translate, or Save As in the workbench) and change that file")
    return path


def cmd_mark_reviewed(args: argparse.Namespace) -> int:
    """The workbench's Mark reviewed over the same engine functions; the file keeps its comments."""
    from engine.corpus.definition.loader import load_definition
    from engine.corpus.definition.shared_file import update_definition
    from engine.corpus.translate.reviewing import find_items, mark_reviewed, review_queue

    if bool(args.items) == args.to_review:
        raise UsageError("name the items reviewed, or give --to-review (not both)", field="mark-reviewed",
                         fix="e.g. corpus mark-reviewed mine.toml T01 T02 --by MB")
    if not args.by.strip():
        raise UsageError("the reviewer's name is empty", field="--by", fix="give initials or a name, e.g. --by MB")
    path = _own_file(args.corpus)
    if args.dry_run:
        corpus = load_definition(path)
        items = review_queue(corpus) if args.to_review else find_items(corpus, args.items)
        for list_name, item_id in items:
            print(f"{list_name}:{item_id}")
        print(f"{len(items)} item(s) would be marked reviewed by {args.by.strip()} (nothing changed)")
        return exits.OK

    def mark(corpus):
        found = review_queue(corpus) if args.to_review else find_items(corpus, args.items)
        n = mark_reviewed(corpus, found, args.by.strip())
        return (found, n), n > 0

    items, changed = update_definition(path, mark)  # under the file's lock, merged with others' changes
    print(f"{path}: {changed} item(s) marked reviewed by {args.by.strip()}"
          + (f" ({len(items) - changed} already were)" if len(items) > changed else ""))
    return exits.OK
