"""Does the Spanish/Arabic SVM "gender bias" come from the names or from the gendered word forms?

    python tools/repro_camara2022_forms.py /tmp/repro/es /tmp/repro/models/svm-es   # audit folder, model folder
    python tools/repro_camara2022_forms.py /tmp/repro/ar /tmp/repro/models/svm-ar

Why (issue 26, part 5): in Câmara et al.'s Spanish and Arabic EECs a woman's sentence differs from a
man's in two ways — the name and the agreement of the emotion word or template ("Jessica se siente
*enojada*" / "Michael se siente *enojado*"; Arabic m/f templates). The SVM-tfidf systems give every
name they never saw the same (empty) features, so the gender term can only measure the word forms.
This tool tests that explanation instead of asserting it: it rebuilds every female-name sentence
with the *masculine* forms (the male name of the same race, template and emotion word replaced by
the female name), scores both versions with the same model and fits the same OLS gender contrast
(the Beta term's score-scale twin). If the forms carry the effect, the swap moves every woman's
score onto the men's: the gender difference goes to 0 (and no name can carry it).

Reads the audit's scores (scores/*.csv of `main.py audit`), writes
docs/reproduction/camara2022_forms_<lang>.csv and prints a Markdown table.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.models.specs import load_scorer  # noqa: E402

OUT = ROOT / "docs" / "reproduction"


def _scores(audit: Path) -> pd.DataFrame:
    files = sorted((audit / "scores").glob("*.csv"))
    if not files:
        raise SystemExit(f"{audit}: no scores/*.csv — run the audit of the README first")
    return pd.concat([pd.read_csv(f, keep_default_na=False, na_values=[""]) for f in files], ignore_index=True)


def swapped_sentences(names: pd.DataFrame, female: str = "female", male: str = "male") -> pd.DataFrame:
    """Each female-name sentence rebuilt from the male sentence of the same race, template and emotion
    word (the i-th male name of the race replaced by the i-th female name): her name, his word forms."""
    key = ["Race", "template_id", "emotion_word_id"]
    out = []
    for (race, _t, _w), g in names.groupby(key, sort=False, dropna=False):
        f = g[g["Gender"] == female].sort_values("person_id")
        m = g[g["Gender"] == male].sort_values("person_id")
        for (_, fr), (_, mr) in zip(f.iterrows(), m.iterrows()):
            if mr["Person"] not in mr["Sentence"]:
                continue
            out.append({"ID": fr["ID"], "swapped": mr["Sentence"].replace(mr["Person"], fr["Person"], 1)})
    return pd.DataFrame(out)


def _gender_diff(frame: pd.DataFrame, col: str, majority: str) -> float:
    """The OLS gender term of the race × gender design: majority women − majority men (score scale)."""
    maj = frame[frame["Race"] == majority]
    return float(maj.loc[maj["Gender"] == "female", col].mean() - maj.loc[maj["Gender"] == "male", col].mean())


def main(audit: str, model: str) -> int:
    audit_p = Path(audit)
    scores = _scores(audit_p)
    names = scores[scores["person_kind"] == "name"].copy()
    lang = str(names["language"].iloc[0]) if "language" in names else "xx"
    emotions = [c for c in ("anger", "fear", "joy", "sadness") if any(str(x).endswith(c) for x in names.columns)]
    scorer = load_scorer(model, allow_pickle=False)
    races = names["Race"].value_counts()
    majority = next((r for r in ("Anglo", "European") if r in races.index), races.index[0])
    swap = swapped_sentences(names)
    names = names.merge(swap, on="ID", how="left")
    fem = names["Gender"] == "female"
    texts = names["Sentence"].where(~fem | names["swapped"].isna(), names["swapped"]).tolist()
    orig = scorer.score(names["Sentence"].tolist())
    new = scorer.score(texts)
    rows = []
    for e in orig.columns:
        names["_o"], names["_s"] = orig[e].to_numpy(float), new[e].to_numpy(float)
        rows.append({"language": lang, "emotion": e, "gender_difference": round(_gender_diff(names, "_o", majority), 4),
                     "with_masculine_forms": round(_gender_diff(names, "_s", majority), 4),
                     "women_changed_by_swap": round(float((names.loc[fem, "_s"] - names.loc[fem, "_o"]).abs().mean()), 4),
                     "female_sentences_swapped": int(names.loc[fem, "swapped"].notna().sum()),
                     "female_sentences": int(fem.sum())})
    table = pd.DataFrame(rows)
    table.to_csv(OUT / f"camara2022_forms_{lang}.csv", index=False)
    print("| " + " | ".join(table.columns) + " |")
    print("|" + "---|" * len(table.columns))
    for r in table.itertuples(index=False):
        print("| " + " | ".join(str(v) for v in r) + " |")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split("\n\n")[1])
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
