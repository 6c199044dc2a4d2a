"""Calibration (false-positive rate) and power of every bias test under realistic scorers.

Each simulation scores the EEC-shaped synthetic corpus (8,640 sentences: 40 names, 10
noun-phrase pairs, 144 template × emotion-word instances) with a simulated scorer whose
logit-scale mean has template and emotion-word effects (SD 0.08 each), a fixed quirk per
person (SD 0, 0.03, 0.1 or 0.3) and, for power, a planted race, gender or intersection effect
(0.05–0.3 logit), and runs every test: the Beta regression (coefficients and AME intervals),
its OLS cross-check, Kiritchenko & Mohammad's paired tests and the counterfactual t and
Wilcoxon tests — person-robust by default (``beta_*``, ``ame_*``, ``ols_*``, ``km_*``,
``cf_*``), the person-level permutation tests (``perm_*``), the CR1 alternative
(``cr1_*``: statsmodels' cluster correction with t(G − 1)) and the papers' own tests
(``paper_*``).

    .venv/bin/python bench/bench_calibration.py                       # full table (~1 h of CPU)
    .venv/bin/python bench/bench_calibration.py --null-sims 200 --beta-sims 50 --power-sims 50
    .venv/bin/python bench/bench_calibration.py --only-interactions --interaction-sims 400

Interaction scenarios (issue 26): each emotion word (template) gets its own female or minority
effect (SD 0.1 logit, mean 0: no bias over words in general), alone and combined, with person SD
0.03 and 0.3. The default (person-robust) tests claim only the scenarios without interactions —
their p-values are about these templates and words; the crossed tests (``crossed_*``:
``inference="crossed"``, persons × templates × words) claim all of them.

The Beta fit is the slow part (~0.15 s), so it runs in the first ``--beta-sims`` simulations
of each null scenario only (its rates are over those); everything else over ``--null-sims``.
Power runs everything. Rates at α = .05 and .01 with exact 95% intervals; the goal is every
default test within ±1.5 pp of α in every null scenario and its power within 10 pp of the
permutation test.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# One BLAS thread per worker process: the work is many small fits, not one big matrix.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from engine.stats.simulate.calibration import (CROSSED_TESTS, DEFAULT_TESTS, PAPER_TESTS, PERM_TESTS, CR1_TESTS,  # noqa: E402
                                      Scenario, rejection_rates, scenario_pvalues)
from engine.stats.simulate.synthetic import synthetic_eec  # noqa: E402

PERSON_SDS = (0.0, 0.03, 0.1, 0.3)
EFFECTS = (0.05, 0.1, 0.2, 0.3)
POWER_PERSON_SD = 0.1
#: Which tests answer which planted effect (the default test, then its references).
POWER_TESTS = {
    "race": ["beta_race", "ame_race", "ols_race", "perm_race", "km_race_all", "perm_km_race_all",
             "crossed_beta_race", "crossed_km_race_all"],
    "gender": ["beta_gender", "ame_gender", "ols_gender", "perm_gender", "km_gender_all", "perm_km_gender_all",
               "cf_gender_t", "cf_gender_wilcoxon", "perm_cf_gender", "crossed_beta_gender", "crossed_km_gender_all",
               "crossed_cf_gender_t"],
    "intersection": ["beta_intersection", "ame_intersection", "ols_intersection", "perm_intersection",
                     "crossed_beta_intersection"],
}
#: Realistic scenarios (issue 37): template main effects SD 0.3 logit and word main effects SD 0.08, 0.5
#: or 1.0 (VADER on the EEC: template SD 0.24, word SD 0.94), with template/word × race/gender
#: interactions of SD 0.1 (mean 0: no bias over words in general) alone and together.
INTERACTION_SD = 0.1
TEMPLATE_SD = 0.3
WORD_SDS = (0.08, 0.5, 1.0)
INTERACTION_SETS = [
    ("none", {}),
    ("template×race", {"template_race_sd": INTERACTION_SD}),
    ("template×gender", {"template_gender_sd": INTERACTION_SD}),
    ("word×gender", {"word_gender_sd": INTERACTION_SD}),
    ("word×race", {"word_race_sd": INTERACTION_SD}),
    ("all four", {"template_race_sd": INTERACTION_SD, "template_gender_sd": INTERACTION_SD,
                  "word_gender_sd": INTERACTION_SD, "word_race_sd": INTERACTION_SD}),
]
REALISTIC_PERSON_SD = 0.1
#: Further person SDs, at word SD 1.0, with no interaction and with all four.
EXTRA_PERSON_SDS = (0.03, 0.3)
#: Power under the hardest realistic null (word SD 1.0, all four interactions, person SD 0.1).
POWER_DELTAS = (0.1, 0.2)
REALISTIC_POWER_TESTS = {"race": ["beta_race", "ols_race", "km_race_all", "crossed_beta_race", "crossed_ols_race",
                                  "crossed_km_race_all"],
                         "gender": ["beta_gender", "ols_gender", "km_gender_all", "cf_gender_t", "crossed_beta_gender",
                                    "crossed_ols_gender", "crossed_km_gender_all", "crossed_cf_gender_t"]}


def realistic_cells(full: bool = False) -> list[tuple[str, float, float, dict]]:
    """(name, word SD, person SD, interactions) of the null cells of the realistic table, hardest first.

    Default grid (12 cells): every interaction alone and all four at word SD 1.0, none and all four at
    word SD 0.08 and 0.5, all four at person SD 0.03 and 0.3; ``full``: every interaction set at every
    word SD and none/all four at every person SD (22 cells)."""
    sets = dict(INTERACTION_SETS)
    pick = [(1.0, n) for n, _ in INTERACTION_SETS[::-1]] + [(w, n) for w in (0.5, 0.08) for n in ("all four", "none")]
    if full:
        pick = [(w, n) for w in WORD_SDS[::-1] for n, _ in INTERACTION_SETS[::-1]]
    cells = [(f"{n} · word {w} · person {REALISTIC_PERSON_SD}", w, REALISTIC_PERSON_SD, sets[n]) for w, n in pick]
    for psd in EXTRA_PERSON_SDS:
        for name in (("all four", "none") if full else ("all four",)):
            cells.append((f"{name} · word 1.0 · person {psd}", 1.0, psd, sets[name]))
    return cells


#: Tests shown in the realistic table: the default ones with a crossed twin, then the twins.
INTERACTION_TESTS = [t for t in DEFAULT_TESTS if f"crossed_{t}" in CROSSED_TESTS] + CROSSED_TESTS
_CORPUS = None


def _run(job: tuple[int, Scenario, bool, int]) -> dict[str, float]:
    global _CORPUS
    seed, scen, beta, n_perm = job
    if _CORPUS is None:
        _CORPUS = synthetic_eec()
    return scenario_pvalues(_CORPUS, seed, scen, n_permutations=n_perm, beta=beta, variants=scen.null)


def _simulate(jobs, workers: int, label: str, t0: float) -> pd.DataFrame:
    from engine.common.executor import local_executor

    step = max(1, len(jobs) // 5)

    def report(done: int, total: int, _eta: float | None) -> None:
        if done % step == 0:
            print(f"  {label}: {done}/{total}, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)

    with local_executor(workers) as ex:  # `workers` processes, this one included
        rows = ex.map(_run, jobs, progress=report if workers > 1 else None)
    return pd.DataFrame(rows)


def _pct(x: float) -> str:
    return "–" if not np.isfinite(x) else f"{100 * x:.1f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--null-sims", type=int, default=1000, help="simulations per no-bias scenario (default 1000)")
    ap.add_argument("--beta-sims", type=int, default=300, help="of those, how many also fit the Beta model (300)")
    ap.add_argument("--power-sims", type=int, default=200, help="simulations per planted effect (default 200)")
    ap.add_argument("--permutations", type=int, default=1000, help="relabellings per permutation test (1000)")
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--workers", type=int, default=2, help="processes computing at once, this one included (2)")
    ap.add_argument("--tolerance", type=float, default=0.015, help="allowed |FPR − α| of default tests (0.015)")
    ap.add_argument("--csv", help="write every simulation's p-values (long format) to this CSV")
    ap.add_argument("--no-power", action="store_true")
    ap.add_argument("--interaction-sims", type=int, default=200,
                    help="systems per realistic cell (default 200; Beta in the first --beta-sims)")
    ap.add_argument("--only-interactions", action="store_true",
                    help="run the realistic scenarios only (main effects, interactions, power, pigeonhole check)")
    ap.add_argument("--pigeonhole-sims", type=int, default=200,
                    help="systems per scenario of the pigeonhole-bootstrap check (default 200; 0: skip)")
    ap.add_argument("--pigeonhole-boot", type=int, default=200, help="bootstrap replicates per system (200)")
    ap.add_argument("--full-grid", action="store_true", help="all 22 realistic cells (default: the 12 hardest)")
    ap.add_argument("--resume", action="store_true", help="keep the cells already in --csv's -realistic file")
    a = ap.parse_args(argv)
    t0 = time.time()
    if a.only_interactions:
        return _interactions(a, t0)
    frames = []
    for i, sd in enumerate(PERSON_SDS):
        scen = Scenario(person_sd=sd)
        jobs = [(a.seed + 100_000 * i + s, scen, s < a.beta_sims, a.permutations) for s in range(a.null_sims)]
        p = _simulate(jobs, a.workers, f"null person_sd={sd}", t0)
        frames.append(p.assign(kind="no_bias", person_sd=sd, effect="", delta=0.0))  # not "null": read as NaN
    if not a.no_power:
        for i, (eff, d) in enumerate((e, d) for e in POWER_TESTS for d in EFFECTS):
            scen = Scenario(person_sd=POWER_PERSON_SD, **{f"delta_{eff}": d})
            jobs = [(a.seed + 1_000_000 + 10_000 * i + s, scen, True, a.permutations) for s in range(a.power_sims)]
            p = _simulate(jobs, a.workers, f"power {eff} {d}", t0)
            frames.append(p.assign(kind="power", person_sd=POWER_PERSON_SD, effect=eff, delta=d))
    allp = pd.concat(frames, ignore_index=True)
    if a.csv:
        allp.to_csv(a.csv, index=False)

    print(f"\nCalibration under no bias (template and word SD 0.08 logit; {a.null_sims} simulations per scenario, "
          f"Beta rows {min(a.beta_sims, a.null_sims)}; {a.permutations} permutations; {time.time() - t0:.0f} s)\n")
    print("| test | " + " | ".join(f"SD {sd}: α=.05 | α=.01" for sd in PERSON_SDS) + " |")
    print("|---|" + "---:|" * (2 * len(PERSON_SDS)))
    bad = []
    for group in (DEFAULT_TESTS, PERM_TESTS, CR1_TESTS, PAPER_TESTS):
        for t in group:
            cells = []
            for sd in PERSON_SDS:
                p = allp[(allp["kind"] == "no_bias") & (allp["person_sd"] == sd)]
                for alpha in (0.05, 0.01):
                    r = rejection_rates(p[[t]], alpha) if t in p else pd.DataFrame()
                    rate = float(r["rate"].iloc[0]) if len(r) else float("nan")
                    if t in DEFAULT_TESTS and np.isfinite(rate) and abs(rate - alpha) > a.tolerance:
                        bad.append(f"{t} (SD {sd}, α {alpha}: {100 * rate:.1f}%)")
                    cells.append(_pct(rate))
            print(f"| `{t}` | " + " | ".join(cells) + " |")
    if not a.no_power:
        print(f"\nPower at α = .05 (person SD {POWER_PERSON_SD}, template/word SD 0.08; {a.power_sims} simulations "
              "per effect; δ in logit units)\n")
        print("| effect | test | " + " | ".join(f"δ = {d}" for d in EFFECTS) + " |")
        print("|---|---|" + "---:|" * len(EFFECTS))
        for eff, tests in POWER_TESTS.items():
            for t in tests:
                cells = []
                for d in EFFECTS:
                    p = allp[(allp["kind"] == "power") & (allp["effect"] == eff) & (allp["delta"] == d)]
                    r = rejection_rates(p[[t]], 0.05)
                    cells.append(_pct(float(r["rate"].iloc[0])) if len(r) else "–")
                print(f"| {eff} | `{t}` | " + " | ".join(cells) + " |")
    print("\nall default tests within ±{:.1f} pp of α".format(100 * a.tolerance) if not bad
          else "\noutside tolerance: " + "; ".join(bad))
    return max(0 if not bad else 1, _interactions(a, t0))


def _mc(rate: float, n: int) -> str:
    """A rate and its Monte Carlo standard error, in percent."""
    if not np.isfinite(rate) or n == 0:
        return "n.e."
    return f"{100 * rate:.1f} ± {100 * np.sqrt(rate * (1 - rate) / n):.1f}"


def _rate(p: pd.Series, alpha: float = 0.05) -> tuple[float, int, int]:
    """(rejection rate over the rows with a p-value, rows with one, rows without: not estimable)."""
    v = p.to_numpy(dtype=float)
    ok = np.isfinite(v)
    return (float((v[ok] < alpha).mean()) if ok.any() else float("nan")), int(ok.sum()), int((~ok).sum())


def _interactions(a, t0: float) -> int:
    """Rejection rates at α = .05 of the default and the crossed tests under realistic template and word
    main effects with interactions, power at +0.1 and +0.2 logit (raw and size-adjusted) and the
    pigeonhole-bootstrap check; returns 1 when a claimed cell is outside tolerance."""
    cells = realistic_cells(a.full_grid)
    path = (a.csv.replace(".csv", "") + "-realistic.csv") if a.csv else None
    done = pd.read_csv(path) if (path and a.resume and os.path.exists(path)) else pd.DataFrame()
    frames = [done] if len(done) else []
    for i, (name, wsd, psd, inter) in enumerate(cells):
        have = int((done["cell"] == name).sum()) if len(done) else 0
        if have >= a.interaction_sims:
            continue  # --resume: this cell is in the CSV already
        scen = Scenario(person_sd=psd, template_sd=TEMPLATE_SD, word_sd=wsd, **inter)
        key = [c[0] for c in realistic_cells(True)].index(name) if name in [c[0] for c in realistic_cells(True)] else i
        # --resume extends a cell with the next seeds, so 100 now + 100 later = the same 200 systems
        jobs = [(a.seed + 5_000_000 + 100_000 * key + s, scen, s < a.beta_sims, 0)
                for s in range(have, a.interaction_sims)]
        frames.append(_simulate(jobs, a.workers, f"null {name}", t0).assign(cell=name, interactions=bool(inter)))
        if path:  # written cell by cell, so a long run interrupted still has its finished cells
            pd.concat(frames, ignore_index=True).to_csv(path, index=False)
    allp = pd.concat(frames, ignore_index=True)
    cells = [c for c in cells if (allp["cell"] == c[0]).any()]
    n, nb = a.interaction_sims, min(a.beta_sims, a.interaction_sims)
    print(f"\nRejection rates at α = .05, % ± Monte Carlo SE, under no bias with realistic main effects (template "
          f"SD {TEMPLATE_SD}, word SD as named) and interactions of SD {INTERACTION_SD} logit (mean 0); "
          f"{n} systems per cell (Beta rows {nb}); n.e. = not estimable in every system; {time.time() - t0:.0f} s\n")
    bad = []
    groups = [(f"word SD {wsd}, person SD {REALISTIC_PERSON_SD}", [c for c in cells if c[1] == wsd and
                                                                 c[2] == REALISTIC_PERSON_SD]) for wsd in WORD_SDS[::-1]]
    groups.append(("other person SDs (word SD 1.0)", [c for c in cells if c[2] != REALISTIC_PERSON_SD]))
    for title, group in groups:
        if not group:
            continue
        print(f"**{title}**\n")
        heads = [c[0].split(" · ")[0] + ("" if c[2] == REALISTIC_PERSON_SD else f", person {c[2]}") for c in group]
        print("| test | " + " | ".join(heads) + " |")
        print("|---|" + "---:|" * len(group))
        for t in INTERACTION_TESTS:
            out = []
            for name, _wsd, _psd, inter in group:
                sub = allp[allp["cell"] == name]
                rate, sims, missing = _rate(sub[t]) if t in sub else (float("nan"), 0, 0)
                claimed = t.startswith("crossed_") or not inter
                allowed = a.tolerance + 2 * np.sqrt(0.05 * 0.95 / max(sims, 1))
                if claimed and np.isfinite(rate) and abs(rate - 0.05) > allowed:
                    bad.append(f"{t} ({name}: {100 * rate:.1f}%)")
                mark = "" if claimed else " ¹"
                out.append(_mc(rate, sims) + mark + (f" ({missing} n.e.)" if missing and sims else ""))
            print(f"| `{t}` | " + " | ".join(out) + " |")
        print()
    print("¹ not claimed: the default tests' p-values are about these templates and words.")
    print("claimed cells within ±{:.1f} pp of α plus 2 Monte Carlo SE".format(100 * a.tolerance) if not bad
          else "claimed cells outside ±{:.1f} pp + 2 SE: ".format(100 * a.tolerance) + "; ".join(bad))
    if not a.no_power:
        _realistic_power(a, t0, allp)
    if a.pigeonhole_sims:
        _pigeonhole(a, t0)
    return 0 if not bad else 1


def _realistic_power(a, t0: float, nulls: pd.DataFrame) -> None:
    """Power at +0.1 and +0.2 logit under the hardest null cell, raw and size-adjusted (rejecting at the
    null cell's own 5 % quantile of p-values)."""
    name, wsd, psd, inter = [c for c in realistic_cells() if c[0].startswith("all four · word 1.0 · person 0.1")][0]
    null = nulls[nulls["cell"] == name]
    rows = []
    for i, (eff, d) in enumerate((e, d) for e in REALISTIC_POWER_TESTS for d in POWER_DELTAS):
        scen = Scenario(person_sd=psd, template_sd=TEMPLATE_SD, word_sd=wsd, **inter, **{f"delta_{eff}": d})
        jobs = [(a.seed + 9_000_000 + 10_000 * i + s, scen, True, 0) for s in range(a.power_sims)]
        rows.append(_simulate(jobs, a.workers, f"power {eff} {d}", t0).assign(effect=eff, delta=d))
    p = pd.concat(rows, ignore_index=True)
    print(f"\nPower at α = .05, % (raw / size-adjusted at the null's own 5 % p-quantile), under {name} "
          f"(template SD {TEMPLATE_SD}); {a.power_sims} systems per effect; δ in logit units\n")
    print("| effect | test | " + " | ".join(f"δ = +{d}" for d in POWER_DELTAS) + " |")
    print("|---|---|" + "---:|" * len(POWER_DELTAS))
    for eff, tests in REALISTIC_POWER_TESTS.items():
        for t in tests:
            q = np.nanquantile(null[t].to_numpy(float), 0.05) if t in null and null[t].notna().any() else np.nan
            out = []
            for d in POWER_DELTAS:
                v = p[(p["effect"] == eff) & (p["delta"] == d)][t].to_numpy(float)
                v = v[np.isfinite(v)]
                raw = 100 * float((v < 0.05).mean()) if v.size else float("nan")
                adj = 100 * float((v < q).mean()) if v.size and np.isfinite(q) else float("nan")
                out.append(f"{raw:.0f} / {adj:.0f}")
            print(f"| {eff} | `{t}` | " + " | ".join(out) + " |")


def _pigeonhole_job(job: tuple[int, Scenario, int]) -> dict[str, float]:
    """One system: the OLS terms' estimates, person-robust, crossed and pigeonhole-bootstrap variances."""
    from engine.stats._common import crossed_factors
    from engine.stats.models.cluster_robust import crossed_cov, ols_cluster
    from engine.stats.simulate.pigeonhole import pigeonhole_ols_variance
    from engine.stats.simulate.synthetic import planted_scores

    global _CORPUS
    seed, scen, n_boot = job
    if _CORPUS is None:
        _CORPUS = synthetic_eec()
    names = _CORPUS[_CORPUS["person_kind"] == "name"].reset_index(drop=True)
    y = planted_scores(names, seed=seed, template_sd=scen.template_sd, word_sd=scen.word_sd, person_sd=scen.person_sd,
                       scale="logit", word_gender_sd=scen.word_gender_sd, word_race_sd=scen.word_race_sd,
                       template_gender_sd=scen.template_gender_sd, template_race_sd=scen.template_race_sd)
    x1 = (names["Race"] == "African-American").to_numpy(float)
    x2 = (names["Gender"] == "female").to_numpy(float)
    X = np.column_stack([np.ones(len(y)), x1, x2, x1 * x2])
    g = names["person_id"].to_numpy()
    beta, pc = ols_cluster(y, X, g)
    cx, _ = crossed_cov(X, y - X @ beta, pc, crossed_factors(names), persons=g, cells=X)
    boot = pigeonhole_ols_variance(y, X, g, names["template_id"], names["emotion_word_id"], n_boot=n_boot, seed=seed)
    out = {}
    for j, term in enumerate(("race", "gender", "intersection"), start=1):
        out.update({f"est_{term}": beta[j], f"person_{term}": pc.cov[j, j], f"crossed_{term}": cx.cov[j, j],
                    f"boot_{term}": boot[j]})
    return out


def _pigeonhole(a, t0: float) -> None:
    """The analytic crossed variance against Owen's pigeonhole bootstrap and the real spread over systems."""
    from engine.common.executor import local_executor

    print(f"\nOLS variance over {a.pigeonhole_sims} systems per scenario: mean estimate ÷ real variance of the "
          f"estimate (1.00 = right on average); pigeonhole bootstrap with {a.pigeonhole_boot} product-Poisson "
          "replicates over persons × templates × words (Owen 2007)\n")
    print("| scenario | term | person-robust | crossed (analytic) | pigeonhole bootstrap |")
    print("|---|---|---:|---:|---:|")
    for i, (name, inter) in enumerate((INTERACTION_SETS[0], INTERACTION_SETS[-1])):
        scen = Scenario(person_sd=REALISTIC_PERSON_SD, template_sd=TEMPLATE_SD, word_sd=1.0, **inter)
        jobs = [(a.seed + 7_000_000 + 100_000 * i + s, scen, a.pigeonhole_boot) for s in range(a.pigeonhole_sims)]
        with local_executor(a.workers) as ex:
            r = pd.DataFrame(ex.map(_pigeonhole_job, jobs))
        for term in ("race", "gender", "intersection"):
            real = r[f"est_{term}"].var(ddof=1)
            print(f"| {name} · word 1.0 · person {REALISTIC_PERSON_SD} | {term} | "
                  + " | ".join(f"{r[f'{k}_{term}'].mean() / real:.2f}" for k in ("person", "crossed", "boot")) + " |")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    raise SystemExit(main())
