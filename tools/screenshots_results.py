"""Regenerate docs/screenshots/audit-setup{,-ar}.png, audit.png and results_*.png (offscreen, by the app itself).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots_results.py [--out docs/screenshots]

What they show: the Audit page half-way through scoring the English EEC with a tiny local BERT
(progress, ETA, log), then the Results page for a real audit of two built-in corpora scored by
VADER, TextBlob and a prediction file with a planted bias (+0.04 for women, +0.03 for African-
American names), with WEAT/SEAT tests and an English FISE test on the packaged GloVe vectors.
Each results view has one mark clicked, so its drill-down table is filled.
Everything runs in a temporary folder; nothing in the user's EEC Studio home is touched.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1400, 900)


def wait(app, cond, timeout: float = 300.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("timed out")
        app.processEvents()
        time.sleep(0.02)


def audit_screenshot(app, win, tmp: Path, out: Path) -> None:
    from testkit.audit_fixtures import make_tiny_classifier, write_predictions

    page = win.audit_page()
    win.show_page("audit")
    page.cache_dir = tmp / "cache-shot"
    page.out_dir.setText(str(tmp / "audit-shot"))
    page.add_corpus("en-kiritchenko2018")
    page.add_model_folder(make_tiny_classifier(tmp / "tiny-bert"))
    page.add_prediction_file(write_predictions("en-kiritchenko2018", tmp / "my-system.tsv"))
    page.add_scorer("vader", kind="lexicon")
    page.batch_size.setValue(8)
    page.add_assoc_test("weat/T1")
    page.add_assoc_test("weat/T6")
    page.assoc_filter.setText("weat/")
    page.start()
    wait(app, lambda: page.progress.maximum() > 1 and page.progress.value() >= 0.45 * page.progress.maximum()
         and page._eta is not None)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    win.grab().save(str(out / "audit.png"))
    page.cancel()
    wait(app, lambda: not page.running)


def setup_screenshots(app, tmp: Path, out: Path) -> None:
    """docs/screenshots/audit-setup.png and audit-setup-ar.png: the Audit page alone at 1280 × 800,
    set up (a corpus, VADER, WEAT T1), in English and in Arabic."""
    from gui import i18n
    from gui.audit.page import AuditPage

    for lang, name in (("en", "audit-setup.png"), ("ar", "audit-setup-ar.png")):
        i18n.set_language(lang, app)
        page = AuditPage()
        page.cache_dir = tmp / "cache-setup"
        page.out_dir.setText("")
        page.add_corpus("en-kiritchenko2018")
        page.add_scorer("vader", kind="lexicon")
        page.add_assoc_test("weat/T1")
        page.resize(1280, 800)
        page.show()
        for _ in range(20):
            app.processEvents()
            time.sleep(0.02)
        page.grab().save(str(out / name))
        page.close()
    i18n.set_language("en", app)


def real_audit(tmp: Path) -> Path:
    from engine.audit import AuditPlan, run_audit
    from engine.audit import AssocStep
    from testkit.audit_fixtures import write_fise_test, write_predictions

    import pandas as pd

    corpora = ["en-kiritchenko2018", "en-camara2022-latino"]
    parts = [pd.read_csv(write_predictions(c, tmp / f"pred-{c}.tsv", gender=0.04, race=0.03, seed=k), sep="\t")
             for k, c in enumerate(corpora)]
    pred = tmp / "my-system.tsv"
    pd.concat(parts).drop_duplicates("Sentence").to_csv(pred, sep="\t", index=False)
    folder = tmp / "audit-results"
    step = AssocStep(["weat/T1", "weat/T2", "weat/T6", "weat/T7", "weat/T8", "seat:weat/T1", "seat:weat/T6",
                      str(write_fise_test(tmp))], permutations=10_000)
    run_audit(AuditPlan(corpora, [f"predictions:{pred}?key=sentence", "vader", "textblob"], out_dir=folder,
                        cache_dir=tmp / "cache", settings={"n_resamples": 1000}, assoc=step))
    return folder


def results_screenshots(app, win, folder: Path, out: Path) -> None:
    page = win.results_page()
    win.show_page("results")
    page.show_result(folder)
    wait(app, lambda: page.data is not None and not page.busy)

    def shot(name: str) -> None:
        view = page.views[name]
        wait(app, lambda: view.drill_idle)
        for _ in range(10):
            app.processEvents()
        win.grab().save(str(out / f"results_{name}.png"))

    beta = page.show_tab("beta")
    mark = next(m for m in beta.marks if m["row"]["term"] == "gender" and m["row"]["model"] == "my-system")
    beta.click_data(mark["plot"], mark["x"], mark["y"])
    shot("beta")
    km = page.show_tab("paired")
    km.click_data(0, km.boxes[0]["row"]["median"], km.boxes[0]["y"])
    shot("paired")
    conf = page.show_tab("confusion")
    conf.system.setCurrentIndex(max(conf.system.findData("my-system:anger"), 0))
    cm = conf.cm.matrix.to_numpy()
    i, j = divmod(int((cm * (1 - __import__("numpy").eye(len(cm)))).argmax()), cm.shape[1])
    conf.click_data(0, j + 0.5, i + 0.5)
    shot("confusion")
    assoc = page.show_tab("assoc")
    assoc.click_data(0, 0.5, assoc.bars[2]["y"])
    shot("assoc")
    fise = page.show_tab("fise")
    words = list(fise.words.word)
    k = words.index("nurse") if "nurse" in words else 0
    fise.click_data(0, *fise.points[k])
    shot("fise")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="eec-shots-") as d:
        tmp = Path(d)
        os.environ["EEC_STUDIO_HOME"] = str(tmp / "home")
        os.environ["EEC_STUDIO_CACHE"] = str(tmp / "cache-default")
        from PySide6.QtWidgets import QApplication

        from gui import i18n
        from gui.main_window import MainWindow

        app = QApplication.instance() or QApplication([])
        i18n.set_language("en", app)
        win = MainWindow()
        win.resize(*SIZE)
        win.show()
        setup_screenshots(app, tmp, out)
        folder = real_audit(tmp)
        audit_screenshot(app, win, tmp, out)
        results_screenshots(app, win, folder, out)
        win.close()
    print("written:", ", ".join(sorted(p.name for p in out.glob("*.png") if p.name.startswith(("audit", "results_")))))


if __name__ == "__main__":
    main()
