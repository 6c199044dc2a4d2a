"""The bad-input matrix: every malformed input of issue 15 and the earlier ones, run as a user would.

Each case runs `main.py` in this process on a file built here and records the one line the
user sees and the exit code. The test asserts the promises (one `error:` line, no traceback,
no errno text, no temp-file names, the expected exit code) and writes the table to
docs/bad-input.md, so the document cannot drift: `EEC_UPDATE_DOCS=1` rewrites it, otherwise
the committed file must match.
"""
from __future__ import annotations

import io
import json
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from testkit.audit_fixtures import write_mini_corpus, write_predictions
from testkit.vector_files import fasttext_bin_bytes, vec_text, write as _w

pytestmark = pytest.mark.slow  # ~15 s: 86 real commands, a few of them whole (small) audits

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "bad-input.md"
WEAT_WORDS = ["aster", "clover", "ant", "flea", "caress", "freedom", "abuse", "crash"]


@dataclass
class Case:
    area: str
    what: str
    argv: Callable[[Path], list[str]]
    exit: int
    pick: str = "error"  # 'error': the error: line; else a regex picking the line to show
    env: Callable[[dict], dict] | None = None  # environment variables set for this case only


def _rand(n: int, seed: int = 0) -> bytes:
    return np.random.default_rng(seed).bytes(n)


# --------------------------------------------------------------------------- inputs
def build(root: Path) -> dict[str, Path]:
    """Every input file of the matrix, deterministic (the table quotes byte counts)."""
    f: dict[str, Path] = {}
    corpus = write_mini_corpus(root / "corpus")
    f["corpus"] = corpus
    pred = write_predictions(corpus, root / "ok.tsv")
    lines = pred.read_text(encoding="utf-8").splitlines()
    header, rows = lines[0].split("\t"), [ln.split("\t") for ln in lines[1:]]
    joy = header.index("joy")

    def table(name: str, rws: list[list[str]], hdr: list[str] = header) -> Path:
        return _w(root / name, "\n".join("\t".join(r) for r in [hdr, *rws]) + "\n")

    blank = [list(r) for r in rows]
    blank[2][joy] = ""
    f["blank"] = table("blank_joy_row4.tsv", blank)
    single = [[r[0], r[2]] for r in rows]
    single[1][1] = "abc"
    f["single"] = table("single_column.tsv", single, ["ID", "anger"])
    late = [[r[0], r[2]] for r in rows]
    late[100][1] = "abc"
    f["late"] = table("abc_after_row_50.tsv", late, ["ID", "anger"])
    f["missing"] = table("missing_100_ids.tsv", rows[100:])
    inf = [list(r) for r in rows]
    inf[4][joy] = "inf"
    f["inf"] = table("inf_score.tsv", inf)
    nan = [list(r) for r in rows]
    nan[5][joy] = "NaN"
    f["nan"] = table("nan_score.tsv", nan)
    comma = [list(r) for r in rows]
    comma[6][joy] = "0,75"
    f["comma"] = table("decimal_comma.tsv", comma)
    f["conflict"] = table("conflicting_duplicates.tsv", rows + [rows[3][:2] + ["0.9"] * 4])
    f["same"] = table("identical_duplicates.tsv", rows + [rows[3], rows[7]])
    f["nul"] = _w(root / "nul.csv", b"ID,anger\nx,\x000.5\n")
    f["latin1"] = _w(root / "latin1.csv", "ID,anger\nJosé,0.5\n".encode("latin-1"))
    f["empty"] = _w(root / "empty.csv", b"")
    f["header_only"] = _w(root / "header_only.csv", "ID,anger\n")
    f["fields"] = _w(root / "fields.csv", "ID,anger\ngui-mini-00000,0.5,0.7\n")
    f["nokey"] = _w(root / "nokey.csv", "name,anger\nx,0.5\n")
    # issue 29: separators, decimal marks, declared ranges, keys of no corpus, quotes, FIFOs
    f["commas"] = _w(root / "decimal_commas.csv", "\n".join(
        ",".join(r if i == 0 else r[:2] + [c.replace(".", ",") for c in r[2:]]) for i, r in enumerate([header, *rows])) + "\n")
    outside = [list(r) for r in rows]
    outside[2][joy] = "1.5"
    outside[9][joy] = "-0.2"
    f["outside"] = table("outside_0_1.tsv", outside)
    f["percent"] = table("percentages.tsv", [r[:2] + [f"{100 * float(c):.4f}" for c in r[2:]] for r in rows])
    f["extra_keys"] = table("extra_keys.tsv", rows + [["other-00001"] + rows[0][1:], ["other-00002"] + rows[1][1:]])
    quote = [list(r) for r in rows]
    quote[2][1] = '"Unclosed ' + quote[2][1]
    f["quote"] = _w(root / "unterminated_quote_row4.csv", "\n".join(",".join(r) for r in [header, *quote]) + "\n")
    f["fifo"] = root / "fifo.csv"
    os.mkfifo(f["fifo"])

    # word vectors
    ft = fasttext_bin_bytes(WEAT_WORDS)
    f["ft_garbage"] = _w(root / "vec" / "garbage_after_header.bin", ft[:64] + _rand(4000))
    f["ft_half"] = _w(root / "vec" / "half.bin", ft[: len(ft) // 2])
    f["ft_tail"] = _w(root / "vec" / "tail.bin", ft + b"\n<html>404</html>\n")
    f["rand_bin"] = _w(root / "vec" / "random.bin", _rand(3000, 1))
    f["rand_vec"] = _w(root / "vec" / "random.vec", _rand(3000, 2))
    text, _ = vec_text(WEAT_WORDS, 4)
    f["vec_short"] = _w(root / "vec" / "short.vec", text.replace(f"{len(WEAT_WORDS)} 4", "80 4", 1))
    f["vec_nan"] = _w(root / "vec" / "nan.vec", text.replace(text.splitlines()[3].split(" ")[2], "nan", 1))
    f["vec_missing_number"] = _w(root / "vec" / "missing_number.vec",
                                 text.replace(" " + text.splitlines()[2].split(" ")[-1] + "\n", "\n", 1))
    f["vec_ok"] = _w(root / "vec" / "tiny.vec", text)
    glove, _ = vec_text(WEAT_WORDS, 4, header=False)
    first, rest = glove.split("\n", 1)
    f["glove_first_short"] = _w(root / "vec" / "first_short.txt", first.rsplit(" ", 1)[0] + "\n" + rest)
    lines = text.splitlines()
    f["vec_duplicate"] = _w(root / "vec" / "duplicate.vec",
                            "\n".join(lines[:5] + [lines[2].split(" ", 1)[0] + " " + lines[5].split(" ", 1)[1]]
                                      + lines[6:]) + "\n")
    import struct
    rows = [w.encode() + b" " + struct.pack("<4f", *np.ones(4, dtype=np.float32) * (i + 1)) + b"\n"
            for i, w in enumerate(WEAT_WORDS)]
    f["w2v_more_rows"] = _w(root / "vec" / "more_rows.bin", f"{len(WEAT_WORDS) - 5} 4\n".encode() + b"".join(rows))
    buf = io.BytesIO()
    np.save(buf, np.ones((8, 4), dtype=np.float32))
    f["npy_half"] = _w(root / "vec" / "half.npy", buf.getvalue()[:100])
    _w(root / "vec" / "half.vocab.txt", "\n".join(WEAT_WORDS) + "\n")

    # folders and files standing where the other is needed
    f["a_file"] = _w(root / "a_file.txt", "x\n")
    f["a_folder"] = root / "a_folder"
    f["a_folder"].mkdir()
    return f


def model_inputs(root: Path) -> dict[str, Path]:
    """Model folders: no manifest, a pickled scikit-learn model, pickle code that gives no model."""
    import joblib

    from engine.models.manifest import write_manifest

    f = {"no_manifest": root / "models" / "empty"}
    f["no_manifest"].mkdir(parents=True)
    for name, obj in (("pickled", None), ("not_a_model", 42)):
        folder = root / "models" / name
        if obj is None:
            from sklearn.linear_model import Ridge

            obj = Ridge().fit(np.eye(3), [0.0, 1.0, 2.0])
        folder.mkdir(parents=True, exist_ok=True)
        joblib.dump(obj, folder / "valence.joblib")
        write_manifest(folder, {"system": "svm-tfidf", "dimensions": ["valence"], "files": {"valence": "valence.joblib"}})
        f[name] = folder
    # a Hugging Face folder whose pytorch_model.bin holds a Python object besides tensors
    import datetime

    import torch

    from testkit.tiny_models import make_tiny_bert

    hf = make_tiny_bert(root / "models" / "hf-pickle", labels=["neg", "pos"], seed=1)
    (hf / "model.safetensors").unlink()
    torch.save({"w": torch.zeros(1), "when": datetime.date(2020, 1, 1)}, hf / "pytorch_model.bin")
    f["hf_pickle"] = hf
    # a .gguf and a model.safetensors cut in half (an interrupted download)
    from testkit.tiny_models import make_tiny_causal_lm, write_tiny_gguf

    lm = make_tiny_causal_lm(root / "models" / "lm")
    (root / "models" / "gguf").mkdir()
    gguf = write_tiny_gguf(lm, root / "models" / "gguf" / "whole.gguf")
    f["gguf_half"] = _w(root / "models" / "gguf" / "half.gguf", Path(gguf).read_bytes()[: Path(gguf).stat().st_size // 2])
    cut = make_tiny_bert(root / "models" / "hf-cut", labels=["neg", "pos"], seed=2)
    weights = cut / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    f["hf_cut"] = cut
    return f


def package_inputs(root: Path, corpus: Path, run) -> dict[str, Path]:
    """A real package, then one with a path-traversal member and one with a changed byte."""
    pkg = root / "pkg" / "mini.eecpkg"
    res = run("package", "export", str(corpus), "--out", str(pkg))
    assert res.returncode == 0, res.stderr
    with zipfile.ZipFile(pkg) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}

    def rezip(name: str, items: dict[str, bytes]) -> Path:
        out = root / "pkg" / name
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for k, v in items.items():
                z.writestr(k, v)
        return out

    tampered = dict(members)
    member = next(k for k in members if k.endswith(".toml"))
    tampered[member] = members[member].replace(b"GUI test corpus", b"GUI test corpu5")
    import hashlib

    edited = dict(members)  # a name changed in the definition, and its sha256 in the manifest updated to match
    edited[member] = members[member].replace(b'"Tia"', b'"Tiana"')
    manifest = json.loads(members["manifest.json"])
    manifest["files"][member] = {"sha256": hashlib.sha256(edited[member]).hexdigest(), "bytes": len(edited[member])}
    edited["manifest.json"] = json.dumps(manifest, indent=2).encode("utf-8")
    return {"members": members, "slip": rezip("slip.eecpkg", {**members, "../evil.txt": b"evil"}),
            "bomb": rezip("bomb.eecpkg", {**members, "corpus/zeros.csv": b"\0" * (4 << 20)}),
            "hash": rezip("hash.eecpkg", tampered), "rehashed": rezip("rehashed.eecpkg", edited)}


def exchange_inputs(root: Path, corpus: Path, run) -> dict[str, Path]:
    xlf = root / "x" / "mini.xlf"
    assert run("exchange", "export", str(corpus), "--out", str(xlf)).returncode == 0
    text = xlf.read_text(encoding="utf-8")
    decl = text.split("?>", 1)[0] + "?>"
    laughs = ('<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
              '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>')
    xxe = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    po = root / "x" / "mini.po"
    assert run("exchange", "export", str(corpus), "--out", str(po)).returncode == 0
    return {"laughs": _w(root / "x" / "laughs.xlf", text.replace(decl, decl + laughs, 1)),
            "xxe": _w(root / "x" / "xxe.xlf", text.replace(decl, decl + xxe, 1)),
            "po_nul": _w(root / "x" / "nul.po", po.read_text(encoding="utf-8").replace("msgstr", "msgstr\x00", 1)),
            "po_lost_slot": _w(root / "x" / "lost_slot.po", _drop_emotion_slot(po.read_text(encoding="utf-8"))),
            "ph_bare": _w(root / "x" / "ph_bare.xlf", text.replace("<target>Ebony</target>",
                                                                  '<target>Eb<ph id="1"/>ony</target>', 1)),
            "xinclude": _w(root / "x" / "xinclude.xlf", text.replace(
                "</file>", '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="more.xlf"/></file>', 1)),
            "unknown_inline": _w(root / "x" / "unknown_inline.xlf", text.replace(
                "<target>Ebony</target>", '<target xmlns:b="urn:x-bold"><b:bold>Ebony</b:bold></target>', 1))}


def _drop_emotion_slot(po_text: str) -> str:
    """The first translated template loses its {emotion ...} slot (a CAT tool's silent edit)."""
    import re

    m = re.search(r'msgstr "([^"]*)\{emotion[^}]*\}([^"]*)"', po_text)
    assert m, "the exported PO has a translated template with an emotion slot"
    return po_text[:m.start()] + f'msgstr "{m.group(1)}bad{m.group(2)}"' + po_text[m.end():]


# --------------------------------------------------------------------------- cases
def _audit(f, spec: str, *extra: str, out: str = "audit_out", overwrite: bool = True) -> list[str]:
    return ["audit", "--corpus", str(f["corpus"]), "--model", spec, "--stats", "paired", "--bootstrap", "0",
            "--out", str(f["root"] / out), *(["--overwrite"] if overwrite else []), *extra]


def _assoc(vectors: Path | str, *extra: str) -> list[str]:
    return ["assoc", "run", "--test", "weat/T1", "--vectors", str(vectors), "--permutations", "100", *extra]



CASES = [
    # prediction files
    Case("predictions", "blank `joy` cell in row 4 (`ID,anger,…,joy`)", lambda f: _audit(f, f"predictions:{f['blank']}?key=id"), 2),
    Case("predictions", "single score column, `abc` in row 3", lambda f: _audit(f, f"predictions:{f['single']}?key=id"), 2),
    Case("predictions", "`abc` after row 50", lambda f: _audit(f, f"predictions:{f['late']}?key=id"), 2),
    Case("predictions", "100 IDs missing", lambda f: _audit(f, f"predictions:{f['missing']}?key=id"), 2),
    Case("predictions", "`inf` score", lambda f: _audit(f, f"predictions:{f['inf']}?key=id"), 2),
    Case("predictions", "`NaN` score", lambda f: _audit(f, f"predictions:{f['nan']}?key=id"), 2),
    Case("predictions", "decimal comma `0,75`", lambda f: _audit(f, f"predictions:{f['comma']}?key=id"), 2),
    Case("predictions", "one ID twice with different scores", lambda f: _audit(f, f"predictions:{f['conflict']}?key=id"), 2),
    Case("predictions", "identical duplicate rows (a warning, also in manifest.json)",
         lambda f: _audit(f, f"predictions:{f['same']}?key=id"), 0, pick=r"^\s*warning:"),
    Case("predictions", "100 IDs missing with `?on_missing=keep` (statistics run without them)",
         lambda f: _audit(f, f"predictions:{f['missing']}?key=id&on_missing=keep"), 0, pick=r"^\s*warning:"),
    Case("predictions", "blank `joy` cell with `?on_bad=drop` (that sentence left out)",
         lambda f: _audit(f, f"predictions:{f['blank']}?key=id&on_bad=drop"), 0, pick=r"^\s*warning:"),
    Case("predictions", "misspelt option `?on_mising=keep`", lambda f: _audit(f, f"predictions:{f['missing']}?on_mising=keep"), 2),
    Case("predictions", "unknown policy `?on_missing=skip`", lambda f: _audit(f, f"predictions:{f['missing']}?on_missing=skip"), 2),
    Case("predictions", "NUL byte in the file", lambda f: _audit(f, f"predictions:{f['nul']}?key=id"), 2),
    Case("predictions", "Latin-1 instead of UTF-8", lambda f: _audit(f, f"predictions:{f['latin1']}?key=id"), 2),
    Case("predictions", "empty file", lambda f: _audit(f, f"predictions:{f['empty']}"), 2),
    Case("predictions", "header only", lambda f: _audit(f, f"predictions:{f['header_only']}?key=id"), 2),
    Case("predictions", "a row with an extra field", lambda f: _audit(f, f"predictions:{f['fields']}?key=id"), 2),
    Case("predictions", "no ID/Sentence column", lambda f: _audit(f, f"predictions:{f['nokey']}"), 2),
    Case("predictions", "file not found", lambda f: _audit(f, f"predictions:{f['root'] / 'nope.csv'}"), 2),
    Case("predictions", "decimal commas in a comma-separated `.csv`", lambda f: _audit(f, f"predictions:{f['commas']}?key=id"), 2),
    Case("predictions", "scores 1.5 and −0.2 with `--score-range 0,1` (every statistic)",
         lambda f: _audit(f, f"predictions:{f['outside']}?key=id", "--score-range", "0,1"), 2),
    Case("predictions", "percentages with `--score-range 0,1`",
         lambda f: _audit(f, f"predictions:{f['percent']}?key=id", "--score-range", "0,1"), 2),
    Case("predictions", "2 IDs that are not in the corpus (a warning, also in summary.txt and manifest.json)",
         lambda f: _audit(f, f"predictions:{f['extra_keys']}?key=id"), 0, pick=r"^\s*warning:.*not in the audited"),
    Case("predictions", "unterminated quote on line 4", lambda f: _audit(f, f"predictions:{f['quote']}?key=id"), 2),
    Case("predictions", "a named pipe (FIFO)", lambda f: _audit(f, f"predictions:{f['fifo']}?key=id"), 2),
    Case("predictions", "a device (`/dev/zero`)", lambda f: _audit(f, "predictions:/dev/zero?key=id"), 2),
    # word vectors
    Case("vectors", "fastText `.bin`: header, then garbage", lambda f: _assoc(f["ft_garbage"]), 2),
    Case("vectors", "fastText `.bin` cut to half (interrupted download)", lambda f: _assoc(f["ft_half"]), 2),
    Case("vectors", "fastText `.bin` with an HTML error page appended", lambda f: _assoc(f["ft_tail"]), 2),
    Case("vectors", "random bytes as `.bin`", lambda f: _assoc(f["rand_bin"]), 2),
    Case("vectors", "random bytes as `.vec` (no folder left beside it)", lambda f: _assoc(f["rand_vec"]), 2),
    Case("vectors", "`.vec` header promises 80 rows, file has 8", lambda f: _assoc(f["vec_short"]), 2),
    Case("vectors", "`.vec` with `nan` in a vector", lambda f: _assoc(f["vec_nan"]), 2),
    Case("vectors", "`.vec` row one number short", lambda f: _assoc(f["vec_missing_number"]), 2),
    Case("vectors", "GloVe `.txt` whose first row is one number short", lambda f: _assoc(f["glove_first_short"]), 2),
    Case("vectors", "a word twice in a `.vec`", lambda f: _assoc(f["vec_duplicate"]), 2),
    Case("vectors", "word2vec `.bin` with more rows than its header says", lambda f: _assoc(f["w2v_more_rows"]), 2),
    Case("vectors", "`.npy` cut short", lambda f: _assoc(f["npy_half"]), 2),
    Case("vectors", "vectors file not found", lambda f: _assoc(f["root"] / "nope.vec"), 2),
    Case("vectors", "valid `.vec` lacking most test words", lambda f: _assoc(f["vec_ok"]), 3),
    # options
    Case("options", "`corpus export --out /proc/x.csv`", lambda f: ["corpus", "export", str(f["corpus"]), "--out", "/proc/x.csv"], 2),
    Case("options", "`corpus export --out EXISTING_FOLDER`", lambda f: ["corpus", "export", str(f["corpus"]), "--out", str(f["a_folder"])], 2),
    Case("options", "`corpus export --out x.weird`", lambda f: ["corpus", "export", str(f["corpus"]), "--out", str(f["root"] / "x.weird")], 2),
    Case("options", "`corpus export --all --out EXISTING_FILE`", lambda f: ["corpus", "export", "--all", "--out", str(f["a_file"])], 2),
    Case("options", "`corpus preview --template T99`", lambda f: ["corpus", "preview", str(f["corpus"]), "--template", "T99"], 2),
    Case("options", "`corpus preview -n -1`", lambda f: ["corpus", "preview", str(f["corpus"]), "-n", "-1"], 2),
    Case("options", "`assoc run --min-coverage 3`", lambda f: _assoc("glove-6b-50d", "--min-coverage", "3"), 2),
    Case("options", "`assoc run --permutations 0`", lambda f: ["assoc", "run", "--test", "weat/T1", "--permutations", "0"], 2),
    Case("options", "`assoc run --out /proc/x.csv`", lambda f: _assoc("glove-6b-50d", "--out", "/proc/x.csv"), 2),
    Case("options", "`assoc list --out EXISTING_FOLDER`", lambda f: ["assoc", "list", "--out", str(f["a_folder"])], 2),
    Case("options", "`train --out EXISTING_FILE`", lambda f: ["train", "--system", "svm-tfidf", "--out", str(f["a_file"])], 2),
    Case("options", "`train --emotions love`", lambda f: ["train", "--system", "svm-tfidf", "--out", str(f["root"] / "m"), "--emotions", "love"], 2),
    Case("options", "`train --batch-size 0`", lambda f: ["train", "--system", "svm-tfidf", "--out", str(f["root"] / "m"), "--batch-size", "0"], 2),
    Case("options", "`train --data MISSING`", lambda f: ["train", "--system", "svm-tfidf", "--out", str(f["root"] / "m"), "--data", str(f["root"] / "nope")], 2),
    Case("options", "`package export --out EXISTING_FOLDER`", lambda f: ["package", "export", str(f["corpus"]), "--out", str(f["a_folder"])], 2),
    Case("options", "`package import --dest EXISTING_FILE`", lambda f: ["package", "import", str(f["slip"]), "--dest", str(f["a_file"])], 2),
    Case("options", "`exchange export --out /proc/x.po`", lambda f: ["exchange", "export", str(f["corpus"]), "--out", "/proc/x.po"], 2),
    Case("options", "`report --out EXISTING_FILE`", lambda f: ["report", str(f["a_folder"]), "--out", str(f["a_file"])], 2),
    Case("options", "`audit --alpha 5`", lambda f: _audit(f, f"predictions:{f['same']}?key=id", "--alpha", "5"), 2),
    Case("options", "`audit --out EXISTING_FILE` (before any scoring)",
         lambda f: [*_audit(f, f"predictions:{f['same']}?key=id", overwrite=False)[:-1], str(f["a_file"])], 2),
    Case("options", "`audit --out /proc/x` (before any scoring)",
         lambda f: [*_audit(f, f"predictions:{f['same']}?key=id", overwrite=False)[:-1], "/proc/x"], 2),
    Case("options", "unknown command", lambda f: ["frobnicate"], 2),
    Case("options", "`audit --out EARLIER_AUDIT` without `--overwrite` (before any scoring)",
         lambda f: _audit(f, f"predictions:{f['same']}?key=id", overwrite=False), 2),
    Case("options", "`audit --out FOLDER_OF_OTHER_FILES --overwrite` (before any scoring)",
         lambda f: _audit(f, f"predictions:{f['same']}?key=id", out="vec"), 2),
    # pickle and model folders
    Case("models", "model folder not found", lambda f: _audit(f, str(f["root"] / "nope-model")), 2),
    Case("models", "a file where a model folder is needed", lambda f: _audit(f, str(f["a_file"])), 2),
    Case("models", "folder without manifest.json", lambda f: _audit(f, str(f["no_manifest"])), 2),
    Case("models", "pickled scikit-learn model, no `--allow-pickle`", lambda f: _audit(f, str(f["pickled"])), 2),
    Case("models", "`--allow-pickle`, but the pickle is the number 42", lambda f: _audit(f, str(f["not_a_model"]), "--allow-pickle"), 2),
    Case("models", "HF `pytorch_model.bin` with a Python object, `--allow-pickle`",
         lambda f: _audit(f, f"hf-classifier:{f['hf_pickle']}", "--allow-pickle"), 2),
    Case("models", "`.gguf` cut in half", lambda f: _audit(f, f"llm:{f['gguf_half']}"), 2),
    Case("models", "`model.safetensors` cut in half", lambda f: _audit(f, f"hf-classifier:{f['hf_cut']}"), 2),
    # earlier issues: corpus files, packages, PO/XLIFF
    Case("corpus", "TOML syntax error", lambda f: ["corpus", "check", str(f["broken_toml"])], 2),
    Case("corpus", "corpus with checker errors", lambda f: ["corpus", "check", str(f["checker_errors"])], 1, pick=r"ERROR"),
    Case("packages", "zip-slip member `../evil.txt`", lambda f: ["package", "import", str(f["slip"]), "--dest", str(f["root"] / "imp")], 2),
    Case("packages", "zip bomb (4 MiB of zeros)", lambda f: ["package", "import", str(f["bomb"]), "--dest", str(f["root"] / "imp")], 2),
    Case("packages", "a member changed after export (hash)", lambda f: ["package", "verify", str(f["hash"])], 2),
    Case("packages", "definition edited and re-hashed in the manifest",
         lambda f: ["package", "import", str(f["rehashed"]), "--dest", str(f["root"] / "imp")], 2),
    Case("exchange", "XLIFF with billion-laughs entities", lambda f: ["exchange", "import", str(f["laughs"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    Case("exchange", "XLIFF with an external entity (XXE)", lambda f: ["exchange", "import", str(f["xxe"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    Case("exchange", "PO with a NUL byte", lambda f: ["exchange", "import", str(f["po_nul"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    Case("exchange", "PO whose translation drops a template's `{emotion}` slot", lambda f: ["exchange", "import", str(f["po_lost_slot"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    Case("exchange", "XLIFF inline `<ph>` that stands for no text", lambda f: ["exchange", "import", str(f["ph_bare"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    Case("exchange", "XLIFF with an XInclude element", lambda f: ["exchange", "import", str(f["xinclude"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    Case("exchange", "XLIFF target with an element of another vocabulary", lambda f: ["exchange", "import", str(f["unknown_inline"]), "--into", str(f["corpus"]), "--dry-run"], 2),
    # issue 31: a translation is shown beside the source template it translates (source_template)
    Case("exchange", "`exchange export --source` of another corpus: a template paired with one of other slots", lambda f: ["exchange", "export", "es-camara2022", "--out", str(f["root"] / "wrong-source.po"), "--source", "en-goldfarb2023"], 2),
    Case("corpus", "`source_template = \"T 01\"` (not a template id)", lambda f: ["corpus", "check", str(_bad_source_link(f))], 2),
    # issue 28: the corpus word list and the reviewer's step from the command line
    Case("corpus", "`corpus spelling-add` with a phrase, not a word", lambda f: ["corpus", "spelling-add", str(f["corpus"]), "two words"], 2),
    Case("corpus", "`corpus spelling-add` to a built-in corpus", lambda f: ["corpus", "spelling-add", "es-camara2022", "Kasachin"], 2),
    Case("corpus", "`corpus mark-reviewed` of an id the corpus lacks", lambda f: ["corpus", "mark-reviewed", str(f["corpus"]), "T99", "--by", "MB"], 2),
]


def _bad_source_link(f: dict) -> Path:
    text = f["corpus"].read_text(encoding="utf-8").replace("[[templates]]\n", '[[templates]]\nsource_template = "T 01"\n', 1)
    return _w(f["root"] / "bad-link.toml", text)


# issue 40: hostile input — patterns that backtrack, files shared by processes, formulas, typed fields
_REDOS = "\n[[restrictions]]\ncode = \"E022\"\nmessage = \"a rule\"\nsentence = '^(\\w|\\w)*$'\n"


def hostile_inputs(root: Path, corpus: Path, members: dict[str, bytes]) -> dict[str, Path]:
    import hashlib

    text = corpus.read_text(encoding="utf-8")
    f = {"redos": _w(root / "h" / "redos.toml", text + _REDOS),
         "issue_redos": _w(root / "h" / "issue_pattern.toml", text + _REDOS.replace("(\\w|\\w)*", "(\\w+\\s?)*")),
         "redos_expect": _w(root / "h" / "redos_expect.toml", text + "\n[expect.role]\nsubject = '^(\\w|[a-z])*$'\n")}
    member = next(k for k in members if k.endswith(".toml"))  # a shared package carrying the pattern
    edited = dict(members)
    edited[member] = members[member] + _REDOS.encode("utf-8")
    manifest = json.loads(members["manifest.json"])
    manifest["files"][member] = {"sha256": hashlib.sha256(edited[member]).hexdigest(), "bytes": len(edited[member])}
    edited["manifest.json"] = json.dumps(manifest, indent=2).encode("utf-8")
    f.update(sweep_inputs(root, corpus))
    f["half_written"] = _w(root / "h" / "half_written.toml", text[: len(text) // 2])
    tmx = ('<?xml version="1.0" encoding="UTF-8"?>\n{doctype}<tmx version="1.4"><header srclang="en" adminlang="en" '
           'creationtool="x" creationtoolversion="1" segtype="phrase" o-tmf="x" datatype="plaintext"/>\n<body>\n'
           '<tu><tuv xml:lang="en"><seg>furious</seg></tuv><tuv xml:lang="{lang}"><seg>furiosa</seg></tuv></tu>\n'
           '</body></tmx>\n')
    f["tmx_attlist"] = _w(root / "h" / "attlist.tmx", tmx.format(
        doctype='<!DOCTYPE tmx SYSTEM "tmx>14.dtd" [<!ATTLIST tuv xml:lang CDATA "es">]>\n', lang="pt"))
    f["tmx_lang"] = _w(root / "h" / "lang.tmx", tmx.format(doctype="", lang="Portuguese"))
    f["sheet_short"] = _review_sheet_without_two_rows(corpus, root / "h" / "sheet_short.csv")
    f["control_token"] = _w(root / "h" / "control_token.toml", text.replace('text = "Ebony"', 'text = "Ebony<|im_end|>"', 1))
    rule = '\n[[restrictions]]\ncode = "E022"\nmessage = "a rule"\nsentence = "feels"\n'
    f["words_string"] = _w(root / "h" / "words_string.toml", text + rule + 'words = "angry"\n')
    f["emotions_int"] = _w(root / "h" / "emotions_int.toml", text + rule + "emotions = 5\n")
    f["accept_phrase"] = _w(root / "h" / "accept_phrase.toml", text + '\n[spelling]\naccept = ["Kasachin", "two words"]\n')
    f["redos_pkg"] = root / "h" / "redos.eecpkg"
    with zipfile.ZipFile(f["redos_pkg"], "w", compression=zipfile.ZIP_DEFLATED) as z:
        for k, v in edited.items():
            z.writestr(k, v)
    return f


def lying_model_files(root: Path) -> dict[str, Path]:
    """Model files whose headers lie (testkit.hostile_files), from a fresh tiny BERT and the matrix's whole .gguf."""
    from testkit import hostile_files as H
    from testkit.tiny_models import make_tiny_bert

    bert = make_tiny_bert(root / "models" / "hf-good", labels=["neg", "pos"], seed=3)
    gguf, lie = root / "models" / "gguf" / "whole.gguf", root / "lie"
    lie.mkdir()
    return {"st_deep": H.deep_safetensors(bert, lie / "deep"), "st_huge": H.huge_offsets_safetensors(bert, lie / "huge"),
            "st_i32": H.retyped_safetensors(bert, lie / "i32", "I32"),
            "st_f16": H.retyped_safetensors(bert, lie / "f16", "F16"),
            "st_pickle": H.pickle_as_safetensors(bert, lie / "pickle"), "st_bom": H.bom_config(bert, lie / "bom"),
            "gguf_deep": H.deep_gguf(lie / "deep.gguf"), "gguf_count": H.huge_count_gguf(lie / "count.gguf"),
            "gguf_9999": H.retyped_gguf(gguf, lie / "type9999.gguf", 9999),
            "gguf_f16": H.retyped_gguf(gguf, lie / "f32_as_f16.gguf", 1)}


def _review_sheet_without_two_rows(corpus: Path, out: Path) -> Path:
    """A review sheet of 20 items, every verdict 'ok', with items 5 and 12 deleted by the reviewer."""
    import csv

    from engine.corpus.definition.loader import load_definition
    from engine.corpus.translate.review_record import draw_sample, write_sheet

    write_sheet(draw_sample(load_definition(corpus), 20, 11), out)
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"), newline="")))
    verdict = rows[0].index("verdict")
    for r in rows[1:]:
        r[verdict] = "ok"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([r for r in rows if r[0] not in ("5", "12")])
    return _w(out, buf.getvalue())


_SILENT: list = []  # listening sockets kept open for the matrix's run (the kernel accepts; nothing answers)


def sweep_inputs(root: Path, corpus: Path) -> dict[str, Path]:
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    _SILENT.append(silent)
    models = ", ".join(f'"vader?batch_size={i}"' for i in range(1, 1002))
    return {"silent_port": silent.getsockname()[1],
            "plan_dup": _w(root / "h" / "dup_plan.toml", f'[sweep]\ncorpora = [\n  "{corpus}",\n  "en-kiritchenko2018",\n'
                                                     f'  "{corpus}",\n]\nmodels = ["vader"]\n'),
            "plan_ok": _w(root / "h" / "plan.toml", f'[sweep]\ncorpora = ["{corpus}"]\nmodels = ["vader"]\nstats = ["paired"]\n'),
            "plan_big": _w(root / "h" / "big_plan.toml", f'[sweep]\ncorpora = ["{corpus}"]\nmodels = [{models}]\n'),
            "plan_alpha": _w(root / "h" / "alpha_plan.toml", f'[sweep]\ncorpora = ["{corpus}"]\nmodels = ["vader"]\n'
                                                          'alpha = "five percent"\n')}


def _sweep(f, plan: str = "plan_ok", *extra: str) -> list[str]:
    return ["sweep", str(f[plan]), "--out", str(f["root"] / "sweep_out"), *extra]


CASES += [
    Case("patterns", "`[[restrictions]] sentence = '^(\\w\\|\\w)*$'` (backtracks without end)",
         lambda f: ["corpus", "check", str(f["redos"])], 2),
    Case("patterns", "the issue's `sentence = '^(\\w+\\s?)*$'` (checked in linear time, no hang)",
         lambda f: ["corpus", "check", str(f["issue_redos"])], 0, pick=r"sentence\(s\) can be generated"),
    Case("patterns", "`[expect]` rule `'^(\\w\\|[a-z])*$'`", lambda f: ["corpus", "check", str(f["redos_expect"])], 2),
    Case("patterns", "`package verify` of a package whose definition carries such a pattern (re-hashed)",
         lambda f: ["package", "verify", str(f["redos_pkg"])], 2),
    Case("patterns", "`package import` of that package",
         lambda f: ["package", "import", str(f["redos_pkg"]), "--dest", str(f["root"] / "imp-redos")], 2),
    Case("corpus", "`corpus spelling-add` to a file another program is half-way through writing (left as it is)",
         lambda f: ["corpus", "spelling-add", str(f["half_written"]), "Kasachin"], 2),
    Case("sweeps", "`--scheduler` a listener that accepts and never answers (`--scheduler-timeout 2`)",
         lambda f: _sweep(f, "plan_ok", "--scheduler", f"tcp://127.0.0.1:{f['silent_port']}", "--scheduler-timeout", "2"), 2),
    Case("sweeps", "`--scheduler http://127.0.0.1:8786`", lambda f: _sweep(f, "plan_ok", "--scheduler", "http://127.0.0.1:8786"), 2),
    Case("sweeps", "`--scheduler tcp://127.0.0.1:99999`", lambda f: _sweep(f, "plan_ok", "--scheduler", "tcp://127.0.0.1:99999"), 2),
    Case("sweeps", "`--jobs 100000`", lambda f: _sweep(f, "plan_ok", "--jobs", "100000"), 2),
    Case("sweeps", "a corpus listed twice in the plan", lambda f: _sweep(f, "plan_dup"), 2),
    Case("sweeps", "1,001 cells without `--yes`, not at a terminal (the size line comes first)",
         lambda f: _sweep(f, "plan_big"), 2),
    Case("sweeps", "`alpha = \"five percent\"` in the plan (`alpha = \"0.05\"` is read as the number 0.05)",
         lambda f: _sweep(f, "plan_alpha"), 2),
    Case("typed fields", "`[[restrictions]] words = \"angry\"` (a string, not an array)",
         lambda f: ["corpus", "check", str(f["words_string"])], 2),
    Case("typed fields", "`[[restrictions]] emotions = 5`", lambda f: ["corpus", "check", str(f["emotions_int"])], 2),
    Case("typed fields", "`[spelling] accept` written by hand with a phrase", lambda f: ["corpus", "check", str(f["accept_phrase"])], 2),
    Case("tmx", "`<!DOCTYPE tmx SYSTEM \"tmx>14.dtd\" [<!ATTLIST …>]>` (a '>' inside the quoted id)",
         lambda f: ["corpus", "tm-import", str(f["tmx_attlist"])], 2),
    Case("tmx", "`xml:lang=\"Portuguese\"`", lambda f: ["corpus", "tm-import", str(f["tmx_lang"])], 2),
    Case("corpus", "a review sheet with two rows deleted (`corpus review-import`)",
         lambda f: ["corpus", "review-import", str(f["corpus"]), str(f["sheet_short"]), "--reviewer", "MB"], 2),
    Case("models", "a sentence holding `<|im_end|>`, a control token of the LLM's tokenizer",
         lambda f: ["audit", "--corpus", str(f["control_token"]), "--model", f"llm:{f['root'] / 'models' / 'lm'}",
                    "--stats", "paired", "--bootstrap", "0", "--out", str(f["root"] / "audit_ct"), "--overwrite"], 2),
    Case("environment", "`EEC_STUDIO_HOME` naming a file (`corpus list`)", lambda f: ["corpus", "list"], 2,
         env=lambda f: {"EEC_STUDIO_HOME": str(f["a_file"])}),
    Case("lying headers", "safetensors JSON header nested 200,000 deep", lambda f: _audit(f, f"hf-classifier:{f['st_deep']}"), 2),
    Case("lying headers", "safetensors `data_offsets` ending at 2⁶⁰", lambda f: _audit(f, f"hf-classifier:{f['st_huge']}"), 2),
    Case("lying headers", "safetensors weight retyped F32 → I32 (same bytes)", lambda f: _audit(f, f"hf-classifier:{f['st_i32']}"), 2),
    Case("lying headers", "safetensors weight retyped F32 → F16 (offsets kept)", lambda f: _audit(f, f"hf-classifier:{f['st_f16']}"), 2),
    Case("lying headers", "a pickle named `model.safetensors`", lambda f: _audit(f, f"hf-classifier:{f['st_pickle']}"), 2),
    Case("lying headers", "`config.json` with a byte-order mark", lambda f: _audit(f, f"hf-classifier:{f['st_bom']}"), 2),
    Case("lying headers", "GGUF metadata array nested 50,000 deep", lambda f: _audit(f, f"llm:{f['gguf_deep']}"), 2),
    Case("lying headers", "GGUF header declaring 2⁴⁰ tensors", lambda f: _audit(f, f"llm:{f['gguf_count']}"), 2),
    Case("lying headers", "GGUF tensor of type 9999", lambda f: _audit(f, f"llm:{f['gguf_9999']}"), 2),
    Case("lying headers", "GGUF tensor retyped F32 → F16", lambda f: _audit(f, f"llm:{f['gguf_f16']}"), 2),
]


def _shown(case: Case, res, f: dict) -> str:
    root = f["root"]
    text = res.stdout + res.stderr
    if case.pick == "error":
        errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:") or ": error:" in ln]
        assert len(errors) == 1, f"{case.what}: expected one error line, got:\n{res.stderr}"
        line = errors[0]
    else:
        line = next((ln for ln in text.splitlines() if re.search(case.pick, ln)), text.strip().splitlines()[-1])
        if case.argv(f)[0] == "audit":  # a warning also goes into the run's manifest
            man = json.loads((root / "audit_out" / "manifest.json").read_text(encoding="utf-8"))
            assert line.strip() in man["problems"], (line, man["problems"])
    return line.strip()


def _normalise(line: str, root: Path) -> str:
    """Temp paths, and argparse's list of commands (it grows with every new command)."""
    line = re.sub(r"\(choose from [^)]*\)", "(choose from …)", line.replace(str(root), "…"))
    # the machine's cores (sweep --jobs bound) and a listener's free port
    line = re.sub(r"\((\d+) core\(s\)\)(.*)--jobs \d+", r"(N core(s))\2--jobs 4×N", line)
    return re.sub(r"tcp://127\.0\.0\.1:(?!8786|99999)\d+", "tcp://127.0.0.1:PORT", line)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    import main

    root = tmp_path_factory.mktemp("bad")
    f = build(root)
    f["root"] = root
    f.update(model_inputs(root))
    f["broken_toml"] = _w(root / "broken.toml", f["corpus"].read_text(encoding="utf-8").replace("]", "", 1))
    f["checker_errors"] = _w(root / "errs.toml", f["corpus"].read_text(encoding="utf-8").replace(
        "I saw {person role=object} in the market.", "I saw the market.", 1))

    class Res:
        def __init__(self, code, out, err):
            self.returncode, self.stdout, self.stderr = code, out, err

    def run(*argv):
        import contextlib

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main.main(list(argv))
            except SystemExit as exc:  # argparse
                code = int(exc.code or 0)
        return Res(code, out.getvalue(), err.getvalue())

    f.update(package_inputs(root, f["corpus"], run))
    f.update(hostile_inputs(root, f["corpus"], f.pop("members")))
    f.update(lying_model_files(root))
    f.update(exchange_inputs(root, f["corpus"], run))
    rows = []
    for i, case in enumerate(CASES, 1):
        with pytest.MonkeyPatch.context() as mp:
            for k, v in (case.env(f) if case.env else {}).items():
                mp.setenv(k, v)
            res = run(*case.argv(f))
        rows.append((i, case, res, _shown(case, res, f)))
    return root, rows


def test_every_bad_input_gets_one_line_and_its_exit_code(matrix):
    root, rows = matrix
    wrong = []
    for i, case, res, line in rows:
        text = res.stdout + res.stderr
        assert "Traceback" not in text, f"{case.what}: traceback\n{text}"
        assert "[Errno" not in text and ".tmp" not in text, f"{case.what}: raw errno text or temp name: {line}"
        assert "error: unexpected" not in line, f"{case.what}: {line}"  # main.py's last resort
        assert "weights_only=False" not in text
        if "before any scoring" in case.what:
            assert "scoring" not in res.stderr.replace("before any scoring", ""), res.stderr
        if res.returncode != case.exit:
            wrong.append(f"#{i} {case.what}: exit {res.returncode}, expected {case.exit}: {line}")
    assert not wrong, "\n".join(wrong)
    assert not list(root.glob("**/*.eec-cache")), "a vector cache folder was left beside an input"


def test_prediction_and_vector_messages_say_where(matrix):
    _root, rows = matrix
    by_what = {case.what: line for _i, case, _res, line in rows}
    assert re.search(r"blank_joy_row4\.tsv:4 \[joy\]: empty score", by_what["blank `joy` cell in row 4 (`ID,anger,…,joy`)"])
    assert re.search(r"single_column\.tsv:3 \[anger\]: not a number: 'abc'", by_what["single score column, `abc` in row 3"])
    assert re.search(r":102 \[anger\]: not a number", by_what["`abc` after row 50"])
    assert "100 of 462 IDs have no prediction" in by_what["100 IDs missing"]
    assert "infinite score: 'inf'" in by_what["`inf` score"]
    assert re.search(r"half\.bin: truncated: .* bytes, the file has [\d,]+", by_what["fastText `.bin` cut to half (interrupted download)"])
    assert "is stored with pickle" in by_what["pickled scikit-learn model, no `--allow-pickle`"]
    assert "Python int object, not a scikit-learn model" in by_what["`--allow-pickle`, but the pickle is the number 42"]
    assert "unknown template 'T99'" in by_what["`corpus preview --template T99`"]
    keep = next(res for _i, case, res, _line in rows if "on_missing=keep" in case.what)
    assert "100 row(s) with missing 'missing_100_ids:anger' left out of this statistic" in keep.stdout + keep.stderr
    assert "skipped" not in keep.stdout + keep.stderr  # the statistics ran, without the missing sentences


def render(rows) -> str:
    out = ["# Bad input: what the user sees", "",
           "Every malformed or hostile input of issues 15, 29 and 40 and of the earlier hardening work, run through `main.py` as a",
           "user would. **Generated** by `tests/test_bad_input_matrix.py` — do not edit by hand; after a change",
           "to a message run `EEC_UPDATE_DOCS=1 pytest tests/test_bad_input_matrix.py` and commit the result.",
           "Paths under the test's temporary folder are shown as `…`.", "",
           "Exit codes (README, \"Exit codes\"): 0 ok · 1 findings · 2 usage or input error · 3 refused "
           "(coverage) · 4 internal error · 130 cancelled.", "",
           "| # | area | input | exit | what the user sees |", "|---|---|---|---|---|"]
    for i, case, res, line in rows:
        exit_text = str(res.returncode)
        msg = line.replace("|", "\\|")
        out.append(f"| {i} | {case.area} | {case.what} | {exit_text} | `{msg}` |" if "`" not in msg
                   else f"| {i} | {case.area} | {case.what} | {exit_text} | {msg} |")
    return "\n".join(out) + "\n"


def test_the_document_matches_the_matrix(matrix):
    root, rows = matrix
    text = render([(i, c, r, _normalise(line, root)) for i, c, r, line in rows])
    if os.environ.get("EEC_UPDATE_DOCS"):
        DOC.write_text(text, encoding="utf-8")
    assert DOC.exists() and DOC.read_text(encoding="utf-8") == text, (
        "docs/bad-input.md is out of date: run EEC_UPDATE_DOCS=1 pytest tests/test_bad_input_matrix.py")


# --- README and docs: the README stays an entry page, and no link of README or docs/ leads nowhere ---

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _doc_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _prose_lines(path: Path):
    """(line number, text) of a Markdown file outside fenced code blocks (a `[x](y)` in code is code)."""
    fenced = False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield n, line


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation but '-' and '_' dropped, spaces as '-';
    a repeated heading gets '-1', '-2', …"""
    anchors: set[str] = set()
    count: dict[str, int] = {}
    for _n, line in _prose_lines(path):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            anchors.add(slug if slug not in count else f"{slug}-{count[slug]}")
            count[slug] = count.get(slug, 0) + 1
    return anchors


def test_readme_is_an_entry_page_that_indexes_every_doc():
    readme = ROOT / "README.md"
    n_lines = len(readme.read_text(encoding="utf-8").splitlines())
    assert n_lines < 200, f"README.md has {n_lines} lines: move detail into docs/ and link it (keep it under 200)"
    linked = {(readme.parent / t.split("#")[0]).resolve()
              for _n, line in _prose_lines(readme) for t in _LINK.findall(line)}
    unindexed = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p.resolve() not in linked]
    assert not unindexed, f"docs not linked from README's Documentation table: {unindexed}"


def test_readme_exit_codes_are_the_codes_main_py_returns():
    """docs/bad-input.md and the commands' messages send the reader to README, "Exit codes"."""
    from engine.common import exits

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### Exit codes", 1)
    assert len(section) == 2, "README.md has no 'Exit codes' section"
    listed = {int(c) for c in re.findall(r"^\| (\d+) \|", section[1].split("\n## ", 1)[0], flags=re.M)}
    declared = {v for k, v in vars(exits).items() if k.isupper() and isinstance(v, int)}
    assert listed == declared, f"README lists exit codes {sorted(listed)}, engine/common/exits.py has {sorted(declared)}"


def test_every_relative_link_in_readme_and_docs_resolves():
    broken = []
    for page in _doc_pages():
        for n, line in _prose_lines(page):
            for target in _LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                    continue
                file_part, _, anchor = target.partition("#")
                dest = (page.parent / file_part).resolve() if file_part else page
                if not dest.exists():
                    broken.append(f"{page.relative_to(ROOT)}:{n}: {target} (no such file)")
                elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                    broken.append(f"{page.relative_to(ROOT)}:{n}: {target} (no heading '#{anchor}' in {dest.name})")
    assert not broken, "broken links:\n" + "\n".join(broken)
