"""Câmara et al. (2022) Tables 3–5, SVM-tfidf and fastText rows, side by side with EEC Studio's numbers.

    python main.py train --system svm-tfidf --language en --out models/svm-en     # also es, ar
    python main.py audit --corpus en-kiritchenko2018 en-camara2022-latino en-camara2022-arab \
        --model models/svm-en --stats beta --out repro/en       # es-camara2022-published with svm-es,
    python tools/repro_camara2022.py repro/en repro/es repro/ar # ar-camara2022-published with svm-ar

Reads the paper's values (docs/reproduction/camara2022_paper_values.csv, transcribed from the PDF) and the
audits' stats/beta.csv, and writes docs/reproduction/camara2022_svm_fasttext.csv and .md: per cell the
paper's value and stars, our average marginal effect (score scale), our stars with the default
person-robust p-value and with the paper's (sentence-level) p-value.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.stats._common import stars  # noqa: E402

OUT = ROOT / "docs" / "reproduction"


def main(folders: list[str]) -> int:
    paper = pd.read_csv(OUT / "camara2022_paper_values.csv", keep_default_na=False, na_values=[""])
    ours = pd.concat([pd.read_csv(Path(f) / "stats" / "beta.csv", keep_default_na=False, na_values=[""])
                      for f in folders], ignore_index=True)
    ours = ours[(ours["subset"] == "names") & ours["term"].isin(["race", "gender", "intersection"])]
    # the paper's row names: a model folder from `train --system svm-tfidf` is "SVM-tfidf", fasttext-mlp "fastText"
    ours["model"] = [("SVM-tfidf" if "svm" in str(x).lower() else "fastText" if "fasttext" in str(x).lower() else x)
                     for x in ours["model"]]
    # the corpora as published (`<id>-published`, docs/corpus-review.md) reproduce the paper's sentences
    ours["corpus"] = ours["corpus"].str.replace(r"-published$", "", regex=True)
    ours = ours[["corpus", "model", "emotion", "term", "ame", "p_value", "paper_p_value", "perm_p_value", "estimate"]]
    m = paper.merge(ours, on=["corpus", "model", "emotion", "term"], how="left")
    m["ours_ame"] = m["ame"].round(3)
    m["stars_person"] = [stars(p) if p == p else "" for p in m["p_value"]]
    m["stars_paper_test"] = [stars(p) if p == p else "" for p in m["paper_p_value"]]
    m["paper_stars"] = m["paper_stars"].fillna("")
    m["difference"] = (m["ours_ame"] - m["paper_value"]).round(3)
    cols = ["table", "corpus", "model", "emotion", "term", "paper_value", "paper_stars", "ours_ame", "stars_person",
            "stars_paper_test", "difference", "p_value", "paper_p_value", "perm_p_value", "paper_note"]
    m = m[cols].rename(columns={"p_value": "p_person", "paper_p_value": "p_paper_test", "perm_p_value": "p_permutation"})
    m.to_csv(OUT / "camara2022_svm_fasttext.csv", index=False)

    def cell(v, s):
        return "–" if v != v else f"{v:.3f}{s}".replace("*", "\\*")

    def person_cell(r):
        # no person-level test (no variation between the persons the term compares): say so, with
        # the permutation p-value, never blank stars that read as "not significant"
        if r.ours_ame == r.ours_ame and r.p_person != r.p_person:
            perm = f"; permutation p {r.p_permutation:.4f}" if r.p_permutation == r.p_permutation else ""
            return f"{r.ours_ame:.3f} (no person-level test{perm})"
        return cell(r.ours_ame, r.stars_person)

    lines = []
    for (table, corpus), g in m.groupby(["table", "corpus"], sort=False):
        lines.append(f"\n**Table {table}, {corpus}**\n")
        lines.append("| model | emotion | term | paper | ours (person-robust stars) | ours (paper's test stars) |")
        lines.append("|---|---|---|---:|---:|---:|")
        for r in g.itertuples(index=False):
            ours_v = r.ours_ame
            lines.append(f"| {r.model} | {r.emotion} | {r.term} | {cell(r.paper_value, r.paper_stars)} | "
                         f"{person_cell(r)} | {cell(ours_v, r.stars_paper_test)} |")
    (OUT / "camara2022_svm_fasttext.md").write_text("\n".join(lines).lstrip() + "\n", encoding="utf-8")
    print(f"wrote {OUT / 'camara2022_svm_fasttext.csv'} and .md ({m['ours_ame'].notna().sum()} cells with ours)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
