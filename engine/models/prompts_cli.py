"""`python main.py prompts …` — list, show and copy the LLM scorer's prompts (the GUI's prompt view).

    main.py prompts list [--language es] [--task anger]
    main.py prompts show anger-es [--prompt-file mine.toml] [--model "llm:./qwen" --sentence "Ella está furiosa."]
    main.py prompts copy anger-es sentiment-es --out mine.toml     # edit it, then llm:PATH?prompt_file=mine.toml
"""
from __future__ import annotations

from engine.common.command import command

import argparse
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("prompts", help="list, show or copy the prompts LLM scorers ask (llm:PATH)")
    sub = p.add_subparsers(dest="prompts_command", metavar="ACTION", required=True)
    ls = sub.add_parser("list", help="the shipped prompts (and those of --prompt-file)")
    ls.add_argument("--language")
    ls.add_argument("--task")
    ls.add_argument("--prompt-file", action="append", default=[])
    ls.set_defaults(func=run_list)
    show = sub.add_parser("show", help="one prompt's wording; with --model, the exact text that model reads")
    show.add_argument("id")
    show.add_argument("--prompt-file", action="append", default=[])
    show.add_argument("--model", help="an llm: spec; shows the prompt rendered with its chat template")
    show.add_argument("--sentence", default="The situation makes my sister feel angry.")
    show.set_defaults(func=run_show)
    copy = sub.add_parser("copy", help="write prompts to an editable TOML file")
    copy.add_argument("ids", nargs="+")
    copy.add_argument("--out", required=True)
    copy.add_argument("--force", action="store_true", help="overwrite an existing file")
    copy.set_defaults(func=run_copy)


def _pool(files: list[str]) -> dict[str, Any]:
    from engine.models.prompts import load_prompt_file, shipped_prompts

    pool = dict(shipped_prompts())
    for f in files:
        pool.update({p.id: p for p in load_prompt_file(f)})
    return pool


def run_list(args: argparse.Namespace) -> int:
    rows = [p for p in _pool(args.prompt_file).values()
            if (not args.language or p.language == args.language) and (not args.task or p.task == args.task)]
    print(f"{'id':<16} {'ver':>3}  {'task':<10} {'kind':<10} {'lang':<5} labels")
    for p in sorted(rows, key=lambda p: (p.language, p.task, p.id)):
        labels = ", ".join(p.labels) if p.kind == "sentiment" else f"{p.labels[0]}..{p.labels[-1]}"
        print(f"{p.id:<16} {p.version:>3}  {p.task:<10} {p.kind:<10} {p.language:<5} {labels}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from engine.models.errors import ModelError

    pool = _pool(args.prompt_file)
    if args.id not in pool:
        raise ModelError(args.id, "no such prompt", field="id", fix=f"`{command('prompts list')}` shows the ids")
    p = pool[args.id]
    print(f"# {p.id} version {p.version} · task {p.task} · {p.kind} · {p.language} · {p.source}:{p.line}")
    if args.model:
        from engine.models.specs import load_scorer

        spec = args.model + ("&" if "?" in args.model else "?") + f"prompt={p.id}"
        if args.prompt_file:
            spec += "".join(f"&prompt_file={f}" for f in args.prompt_file[-1:])
        scorer = load_scorer(spec)
        pp = scorer.prepared()[0]
        print(f"# as the model reads it ({pp.mode} prompt), up to the answer position:")
        print(scorer.rendered(args.sentence))
        print(f"# label tokens read: {', '.join(f'{lab}={tok}' for lab, tok in zip(p.labels, pp.label_tokens))}")
        return 0
    if p.system:
        print(f"[system]\n{p.system}\n")
    print(f"[user]\n{p.user}\n")
    print("[labels] " + ", ".join(f"{lab}={val:g}" for lab, val in zip(p.labels, p.values)))
    return 0


def run_copy(args: argparse.Namespace) -> int:
    from engine.common.io import atomic_write_bytes
    from engine.models.errors import ModelError
    from engine.models.prompts import prompts_to_toml

    pool = _pool([])
    missing = [i for i in args.ids if i not in pool]
    if missing:
        raise ModelError(missing[0], "no such prompt", field="id", fix=f"`{command('prompts list')}` shows the ids")
    out = Path(args.out)
    if out.exists() and not args.force:
        raise ModelError(str(out), "file exists", fix="choose another --out or add --force")
    atomic_write_bytes(out, prompts_to_toml([pool[i] for i in args.ids]).encode("utf-8"))
    print(f"wrote {len(args.ids)} prompt(s) to {out}; edit them and use llm:PATH?prompt_file={out}")
    return 0
