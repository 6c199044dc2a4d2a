"""`python main.py train …` — train scorers on task data from the command line.

Registered by `add_parser(subparsers)`; the handler returns an exit code and turns every
expected failure into one line on stderr (file, field, what to do), never a traceback.

Examples::

    main.py train --system svm-tfidf --language en --out models/svm-en
    main.py train --system encoder-head --encoder bert-base-uncased --language en --out models/bert-en
    main.py train --system fasttext-mlp --vectors cc.en.300.bin --language en --out models/ft-en
    main.py train --system svm-tfidf --train-csv train.csv --test-csv test.csv --dimension valence --out models/mine
    main.py train --system classifier --base-model ./my-bert --train-csv reviews.csv --label-column stars \\
                  --seeds 1,2,3,4,5 --out models/stars
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.common import exits, validate
from engine.common.errors import UserError
from engine.models.errors import ModelError

DEFAULT_EMOTIONS = "anger,fear,joy,sadness"


def default_data_dir() -> Path | None:
    """$EEC_SEMEVAL_DIR, else ../shared/data/semeval2018_ait beside the checkout or the current folder."""
    import os

    env = os.environ.get("EEC_SEMEVAL_DIR")
    if env:
        return Path(env).expanduser()
    here = Path(__file__).resolve().parents[3]
    for cand in (here.parent / "shared" / "data" / "semeval2018_ait", Path.cwd().parent / "shared" / "data" / "semeval2018_ait"):
        if cand.is_dir():
            return cand
    return None


def add_parser(subparsers: Any) -> None:
    """Register the `train` sub-command."""
    p = subparsers.add_parser(
        "train", help="train a scorer on SemEval-2018 Task 1 or a CSV, report Pearson r, save it with a manifest",
        description="Train one model per emotion (or a fine-tuned classifier ensemble) and save it to --out; "
                    "score with `--model DIR` afterwards.")
    p.add_argument("--system", required=True, choices=["svm-tfidf", "fasttext-mlp", "encoder-head", "classifier"])
    p.add_argument("--out", required=True, help="output folder (created)")
    g = p.add_argument_group("SemEval-2018 Task 1 data")
    g.add_argument("--language", default="en", help="en, es or ar (default en)")
    g.add_argument("--emotions", default=DEFAULT_EMOTIONS, help=f"comma list, may include valence (default {DEFAULT_EMOTIONS})")
    g.add_argument("--data", help="folder with the 2018-EI-reg-*/2018-Valence-reg-* files (default ../shared/data/semeval2018_ait)")
    g = p.add_argument_group("generic CSV data (instead of SemEval)")
    g.add_argument("--train-csv", help="CSV/TSV with a text and a label column")
    g.add_argument("--dev-csv")
    g.add_argument("--test-csv")
    g.add_argument("--text-column", default="text")
    g.add_argument("--label-column", default="label")
    g.add_argument("--dimension", help="name of the score column (default: the label column)")
    g = p.add_argument_group("system options")
    g.add_argument("--encoder", help="encoder-head: local folder or HF id already in the cache")
    g.add_argument("--pooling", default="cls", choices=["cls", "mean"])
    g.add_argument("--max-length", type=int, default=128)
    g.add_argument("--vectors", help="fasttext-mlp: fastText .bin, .vec/GloVe text file, or glove-6b-50d (packaged)")
    g.add_argument("--base-model", help="classifier: local encoder/classifier folder to fine-tune")
    g.add_argument("--seeds", default="1,2,3,4,5", help="classifier: one fine-tuning run per seed (majority vote)")
    g.add_argument("--epochs", type=int, default=3, help="classifier: epochs per seed")
    g.add_argument("--seed", type=int, default=13, help="seed for regression systems (default 13)")
    g.add_argument("--fit-on", default="auto", choices=["auto", "train", "train+dev"])
    g.add_argument("--no-clean", action="store_true", help="do not apply the tweet cleaning (@mentions, &amp;)")
    g.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    g.add_argument("--batch-size", type=int, default=64)
    g.add_argument("--cache-dir", help="where frozen-encoder embeddings are cached (default: the user cache folder)")
    g.add_argument("--allow-pickle", action="store_true",
                   help="allow pickle-based weights (.bin/.pt/.joblib) — only for files you trust")
    p.set_defaults(func=handle_train)


def _ints(text: str, field: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ModelError("", f"'{text}' is not a comma list of whole numbers", field=field) from None


def _progress_printer(label: str) -> Any:
    def show(done: int, total: int, eta: float | None) -> None:
        eta_s = f", ~{eta:.0f}s left" if eta is not None else ""
        print(f"\r{label}: {done}/{total}{eta_s}   ", end="" if done < total else "\n", file=sys.stderr, flush=True)
    return show


def handle_train(args: argparse.Namespace) -> int:
    try:
        return _train(args)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exits.USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return exits.CANCELLED
    except MemoryError:
        print("error: out of memory — try a smaller --batch-size or --max-length", file=sys.stderr)
        return exits.USAGE
    except OSError as exc:
        print(f"error: {exc.filename or ''}: {(exc.strerror or str(exc)).lower()}", file=sys.stderr)
        return exits.USAGE


def _train(args: argparse.Namespace) -> int:
    from engine.common import interrupts
    from engine.common.progress import Cancelled
    from engine.models.training.datasets import TaskSplits, load_semeval_task, read_labeled_csv
    from engine.models.training.train import TrainSettings, train_classifier, train_regression

    out = _check_arguments(args)
    from engine.common.extras import require_extra

    require_extra(f"training '{args.system}' systems", "models")  # torch, scikit-learn, fastText
    if out.exists() and any(out.iterdir()) and not (out / "manifest.json").exists():
        raise ModelError(str(out), "output folder exists and is not a model folder", field="--out",
                         fix="choose a new or empty folder")
    device = None if args.device == "auto" else args.device
    try:
        if args.system == "classifier":
            if not args.base_model:
                raise ModelError("", "--system classifier needs --base-model", field="--base-model",
                                 fix="give a local model folder (save_pretrained) to fine-tune")
            if not args.train_csv:
                raise ModelError("", "--system classifier needs --train-csv with class labels", field="--train-csv")
            from engine.models.training.fine_tune import FineTuneConfig

            train = read_labeled_csv(args.train_csv, text_column=args.text_column, label_column=args.label_column)
            test = read_labeled_csv(args.test_csv, text_column=args.text_column,
                                    label_column=args.label_column) if args.test_csv else None
            report = train_classifier(train, test, base_model=args.base_model, out_dir=out, seeds=_ints(args.seeds, "--seeds"),
                                      config=FineTuneConfig(epochs=args.epochs, max_length=args.max_length),
                                      device=device, allow_pickle=args.allow_pickle,
                                      progress=_progress_printer("fine-tuning"), cancel=interrupts.pressed)
        else:
            if args.train_csv:
                dim = args.dimension or args.label_column
                kw = {"text_column": args.text_column, "label_column": args.label_column, "dimension": dim}
                tasks = [TaskSplits(dim, read_labeled_csv(args.train_csv, **kw),
                                    read_labeled_csv(args.dev_csv, **kw) if args.dev_csv else None,
                                    read_labeled_csv(args.test_csv, **kw) if args.test_csv else None)]
                language = args.language if args.language != "en" or args.data else ""
            else:
                data = Path(args.data) if args.data else default_data_dir()
                if data is None:
                    raise ModelError("", "no SemEval-2018 Task 1 data folder found", field="--data",
                                     fix="pass --data DIR or set EEC_SEMEVAL_DIR (docs/models.md, 'SemEval-2018 Task 1 "
                                         "data', says where to get it), or train on --train-csv FILE")
                emotions = [e.strip() for e in args.emotions.split(",") if e.strip()]
                tasks = [load_semeval_task(data, args.language, e) for e in emotions]
                language = args.language.lower()
            settings = TrainSettings(
                system=args.system, out_dir=out, language=language, seed=args.seed, fit_on=args.fit_on,
                preprocess="none" if args.no_clean else "tweet-clean", encoder=args.encoder, pooling=args.pooling,
                max_length=args.max_length, batch_size=args.batch_size, device=device, vectors=args.vectors,
                embedding_cache=args.cache_dir or _default_embedding_cache(), allow_pickle=args.allow_pickle)
            report = train_regression(tasks, settings, log=lambda s: print(s, file=sys.stderr),
                                      cancel=interrupts.pressed)
    except Cancelled:
        print("cancelled", file=sys.stderr)
        return exits.CANCELLED
    print(report.table())
    print(f"saved to {report.out_dir}  ({report.seconds:.1f}s) — score with: --model {report.out_dir}")
    return 0


def _check_arguments(args: argparse.Namespace) -> Path:
    """Ranges, ids and the output folder, before any data is read or a model loaded."""
    out = validate.output_folder(args.out)
    validate.at_least("--max-length", args.max_length, 8)
    validate.at_least("--batch-size", args.batch_size)
    validate.at_least("--epochs", args.epochs)
    if not _ints(args.seeds, "--seeds"):
        raise ModelError("", "no seed given", field="--seeds", fix="e.g. --seeds 1,2,3")
    if not args.train_csv:
        validate.one_of("--language", args.language.lower(), ("en", "es", "ar"), "SemEval-2018 language")
        for e in (e.strip() for e in args.emotions.split(",") if e.strip()):
            validate.one_of("--emotions", e, ("anger", "fear", "joy", "sadness", "valence"), "emotion")
    if args.system == "classifier" and not args.base_model:
        raise ModelError("", "--system classifier needs --base-model", field="--base-model",
                         fix="give a local model folder (save_pretrained) to fine-tune")
    for flag in ("train_csv", "dev_csv", "test_csv"):
        value = getattr(args, flag)
        if value and not Path(value).is_file():
            raise ModelError(value, "file not found", field="--" + flag.replace("_", "-"), fix="check the path")
    if args.data and not Path(args.data).is_dir():
        raise ModelError(args.data, "not a folder", field="--data",
                         fix="give the folder holding the 2018-EI-reg-* files (see docs/models.md, SemEval-2018 data)")
    return out


def _default_embedding_cache() -> str:
    from engine.audit.cache import default_cache_dir

    return str(default_cache_dir())
