"""``assoc`` subcommand: ``assoc run`` and ``assoc list``.

Why errors are caught here: a user mistake (unknown test, missing vectors, a set below
coverage, a model without MLM head) must print one line naming the file or option and
the fix, and exit non-zero — never a traceback. main.py wires this in with
``add_parser(subparsers)``; the handler returns the exit code.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from engine.common import exits, validate
from engine.common.errors import UserError

from .errors import AssocError, CoverageError

EXIT_USAGE = exits.USAGE
EXIT_COVERAGE = exits.REFUSED


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("assoc", help="association tests: WEAT, XWEAT, SEAT, LPBS, CrowS-Pairs, FISE",
                              description="Association tests over word vectors and language models.")
    sub = p.add_subparsers(dest="assoc_cmd", metavar="{run,list}")
    p.set_defaults(func=_no_subcommand, _assoc_parser=p)

    r = sub.add_parser("run", help="run one test and write tidy results",
                       description="Run one association test. TEST is a library name (see `assoc list`; "
                                   "T1..T10 with --lang for XWEAT) or a test file.")
    r.add_argument("--test", required=True, help="library name (weat/T1, T1, xweat/de/T1, it/weat/IT_1, ...) or file")
    r.add_argument("--vectors", default="glove-6b-50d",
                   help="glove-6b-50d (default), a .bin/.vec/.txt/.npy file, or hf:FOLDER (local HF model)")
    r.add_argument("--lang", help="language of the targets (XWEAT translation of T1..T10)")
    r.add_argument("--attr-lang", help="language of the attributes (cross-lingual XWEAT)")
    r.add_argument("--attr-vectors", help="vectors of the attribute language (cross-lingual, with --dictionary)")
    r.add_argument("--dictionary", help="word pairs 'L1<TAB>L2' for the Procrustes alignment")
    r.add_argument("--vocab", help="vocabulary file for a .npy matrix")
    r.add_argument("--permutations", type=int, default=10_000, help="Monte-Carlo draws (default 10,000)")
    r.add_argument("--exact-limit", type=int, default=1_000_000,
                   help="enumerate all partitions when there are at most this many (default 1e6)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--metric", choices=("cosine", "euclidean"), default="cosine")
    r.add_argument("--ddof", type=int, choices=(0, 1), default=1,
                   help="standard deviation of the effect size: 1 = sample (default), 0 = XWEAT's np.std")
    r.add_argument("--alternative", choices=("greater", "less", "two-sided"), default="greater")
    r.add_argument("--min-coverage", type=float, default=0.8,
                   help="each set needs at least this share of its words in the vocabulary (default 0.8)")
    case = r.add_mutually_exclusive_group()
    case.add_argument("--lowercase", dest="lowercase", action="store_true", default=None,
                      help="lower-case every word before lookup (default: on for glove-6b-50d only)")
    case.add_argument("--no-lowercase", dest="lowercase", action="store_false")
    r.add_argument("--no-subword", action="store_true", help="fastText: treat sub-word-only words as missing")
    r.add_argument("--as", dest="run_as", choices=("auto", "weat", "seat", "lpbs"), default="auto",
                   help="run a word-level test as SEAT (templates) or LPBS (masked LM)")
    r.add_argument("--level", choices=("sentence", "token"), default="sentence",
                   help="SEAT on a contextual model: [CLS]/last token, or mean of the word's sub-tokens")
    r.add_argument("--template", default="WORD", help="WEAT on a contextual model: carrier sentence with WORD")
    r.add_argument("--template-family", help="SEAT from a word test: template family (e.g. names, nouns)")
    r.add_argument("--templates", help="SEAT from a word test: template file, one template per line with WORD")
    r.add_argument("--affect-vectors", help="FISE: vectors for valence/ingressivity (default: --vectors)")
    r.add_argument("--top-k", type=int, default=10, help="FISE: words listed per quadrant")
    r.add_argument("--limit", type=int, help="CrowS-Pairs: score only the first N pairs")
    r.add_argument("--device", help="torch device (default: cuda when available, else cpu)")
    r.add_argument("--out", help="write results here (.csv tidy rows, or .json with coverage and word scores)")
    r.add_argument("--quiet", action="store_true", help="do not print the summary")
    r.set_defaults(func=cmd_run)

    ls = sub.add_parser("list", help="list the packaged tests")
    ls.add_argument("--kind", choices=("weat", "seat", "lpbs", "crows", "fise"))
    ls.add_argument("--lang")
    ls.add_argument("--out", help="write the list as .csv or .json")
    ls.set_defaults(func=cmd_list)


def _no_subcommand(args: argparse.Namespace) -> int:
    args._assoc_parser.print_help(sys.stderr)
    return EXIT_USAGE


def _fail(msg: str, code: int = exits.USAGE) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return code


def cmd_list(args: argparse.Namespace) -> int:
    from .library import list_tests

    if args.out:
        validate.output_file(args.out)
    rows = [e for e in list_tests() if (not args.kind or e.kind == args.kind) and (not args.lang or e.language == args.lang)]
    if args.out:
        import pandas as pd

        df = pd.DataFrame([{"id": e.id, "kind": e.kind, "language": e.language, "title": e.title} for e in rows])
        try:
            _write_frame(df, args.out, {"tests": df.to_dict(orient="records")})
        except OSError as exc:
            return _fail(f"{args.out}: cannot write ({exc.strerror})")
    for e in rows:
        print(f"{e.id:<40} {e.kind:<6} {e.language:<3} {e.title}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except CoverageError as exc:
        return _fail(str(exc), EXIT_COVERAGE)
    except UserError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:  # main() says "cancelled" and exits 130, as for every command
        raise
    except MemoryError:
        return _fail("out of memory; lower --permutations or --exact-limit, or use a smaller model")
    except Exception as exc:  # noqa: BLE001 - last resort: one line, never a traceback
        return _fail(f"unexpected {type(exc).__name__}: {exc} (please report this with the command line)",
                     exits.INTERNAL)


def _run(args: argparse.Namespace) -> int:
    from .library import resolve
    from .runner import RunConfig, run_test
    from .weat import WeatOptions

    validate.at_least("--permutations", args.permutations)
    validate.at_least("--exact-limit", args.exact_limit, 0)
    validate.fraction("--min-coverage", args.min_coverage)
    validate.at_least("--top-k", args.top_k)
    if args.limit is not None:
        validate.at_least("--limit", args.limit)
    if args.out:
        validate.output_file(args.out)
        if Path(args.out).suffix.lower() not in (".csv", ".tsv", ".json"):
            raise AssocError("unknown output type", file=args.out, field="--out", fix="end the name in .csv or .json")
    if args.attr_lang and not args.lang:
        args.lang = "en"
    spec = resolve(args.test, args.lang, args.attr_lang)
    opts = WeatOptions(metric=args.metric, ddof=args.ddof, alternative=args.alternative,
                       n_permutations=args.permutations, exact_limit=args.exact_limit, seed=args.seed,
                       min_coverage=args.min_coverage)
    cfg = RunConfig(vectors=args.vectors, attr_vectors=args.attr_vectors, dictionary=args.dictionary, weat=opts,
                    run_as=args.run_as, level=args.level, lowercase=args.lowercase, vocab=args.vocab,
                    subword=not args.no_subword, template=args.template, template_family=args.template_family,
                    templates_file=args.templates,
                    affect_vectors=args.affect_vectors, top_k=args.top_k, limit=args.limit, device=args.device)
    result = run_test(spec, cfg)
    if not args.quiet:
        print(result.summary())
    if args.out:
        try:
            _write_result(result, args.out)
        except OSError as exc:
            raise AssocError(f"cannot write ({exc.strerror})", file=args.out, field="--out") from None
        if not args.quiet:
            print(f"results written to {args.out}")
    return 0


def _clean(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        try:
            return _clean(obj.item())
        except (ValueError, AttributeError):
            return obj
    return obj


def _write_frame(df: Any, out: str, payload: dict[str, Any]) -> None:
    from engine.common.io import atomic_write_text

    path = Path(out)
    if path.suffix.lower() == ".json":
        atomic_write_text(path, json.dumps(_clean(payload), ensure_ascii=False, indent=1, default=str) + "\n")
    elif path.suffix.lower() in (".csv", ".tsv"):
        from engine.common.csv_cells import csv_text

        atomic_write_text(path, csv_text(df, sep="\t" if path.suffix.lower() == ".tsv" else ","))
    else:
        raise AssocError("unknown output type", file=out, field="--out", fix="end the name in .csv or .json")


def _write_result(result: Any, out: str) -> None:
    from .crows import CrowsResult
    from .fise import FiseResult

    frame = result.to_frame()
    if isinstance(result, CrowsResult):
        payload = {"summary": frame.to_dict(orient="records"), "pairs": result.pairs.to_dict(orient="records")}
    elif isinstance(result, FiseResult):
        payload = {"quadrants": frame.to_dict(orient="records"), "words": result.words.to_dict(orient="records"),
                   "coverage": result.coverage_frame().to_dict(orient="records")}
    else:
        payload = result.to_dict()
    _write_frame(frame, out, payload)


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python -m engine.assoc.cli run ...``) until main.py wires it in."""
    parser = argparse.ArgumentParser(prog="eec-studio")
    subs = parser.add_subparsers(dest="command")
    add_parser(subs)
    args = parser.parse_args(["assoc", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
