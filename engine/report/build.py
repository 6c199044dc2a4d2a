"""Build the audit report folder: one self-contained HTML file plus the tables as files.

    build_report("runs/audit1", "runs/audit1/report")   # -> runs/audit1/report/index.html

Output folder:
    index.html               tables with significance stars, charts as inline SVG, the run
                             manifest and the datasheet of every corpus — no network needed
    tables/<stat>.tex|.md|.csv   the statistics in the papers' layouts (LaTeX booktabs,
                             Markdown, CSV with stars as text)
    data/<name>.csv          the tidy statistics tables of the audit (stats/*.csv, assoc/*.csv as assoc_*.csv)
    datasheets/<corpus>.md   the corpus datasheets (the README.md of a corpus package)
    manifest.json            the audit's run manifest, unchanged
    .eec-report              marks the folder as ours, so building again may replace it

Why a staging folder: the report is written next to its destination and renamed into
place, so a failure leaves the previous report or none, never half of one. A destination
that exists and is not an earlier report is replaced only with ``overwrite=True`` or a yes
from ``confirm`` (the CLI's prompt, the GUI's dialog).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np
import pandas as pd

from engine.common.fmt import number, p_value

from .audit_folder import AuditFolder, read_audit, read_table
from .errors import ReportError
from .html import document, esc, kv_table, page, simple_table, stars_html, stat_table
from engine.common.svg import Row, forest, legend_html, level_of

Confirm = Optional[Callable[[str], bool]]
MARKER = ".eec-report"
REPORT = "index.html"
MAX_CHART_ROWS = 36
MAX_SCORE_CHARTS = 8
STAT_TITLES = {"beta": "Beta regression (Câmara et al. 2022)",
               "paired": "Paired analysis (Kiritchenko & Mohammad 2018)",
               "counterfactual": "Counterfactual pairs (Goldfarb-Tarrant et al. 2023)"}


# ----------------------------------------------------------------------------- results
@dataclass
class KeyResult:
    statistic: str
    corpus: str
    model: str
    emotion: str
    effect: str
    value: float
    low: float
    high: float
    p: float
    verdict: str = ""

    @property
    def stars(self) -> str:
        from engine.stats import stars

        return stars(self.p) if _finite(self.p) else ""


def _finite(x: Any) -> bool:
    try:
        return x is not None and math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def _f(x: Any) -> float:
    return float(x) if _finite(x) else float("nan")


def _p_column(frame: pd.DataFrame, base: str) -> str:
    """The adjusted p-values when the audit applied a correction, else ``base``."""
    for suffix in ("holm", "bh", "bonferroni"):
        for name in (f"p_{suffix}", f"{base}_{suffix}", f"{base[:-len('value')]}{suffix}" if base.endswith("value") else ""):
            if name and name in frame.columns and frame[name].notna().any():
                return name
    return base


def key_results(folder: AuditFolder) -> list[KeyResult]:
    out: list[KeyResult] = []
    beta = folder.stats.get("beta")
    if beta is not None:
        pc = _p_column(beta, "p_value")
        for r in beta[beta["term"].isin(["race", "gender", "intersection"])].to_dict("records"):
            use_ame = _finite(r.get("ame"))
            label = r.get("term_label") if isinstance(r.get("term_label"), str) else r["term"]
            subset = "" if r.get("subset") == "names" else f" ({r.get('subset')})"
            out.append(KeyResult("beta", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                                 f"{label}{subset}" + ("" if use_ame else " [logit]"),
                                 _f(r["ame"] if use_ame else r.get("estimate")),
                                 _f(r.get("ame_ci_low") if use_ame else r.get("ci_low")),
                                 _f(r.get("ame_ci_high") if use_ame else r.get("ci_high")), _f(r.get(pc)),
                                 str(r.get("status", "")) if r.get("status") not in ("ok", None) else ""))
    paired = folder.stats.get("paired")
    if paired is not None:
        pc = _p_column(paired, "p_value")
        sub = paired[paired["subset"] == "all"] if (paired["subset"] == "all").any() else paired
        for r in sub.to_dict("records"):
            a, b = r.get("label_a", r.get("a", "a")), r.get("label_b", r.get("b", "b"))
            subset = "" if r.get("subset") == "all" else f", {r.get('subset')}"
            out.append(KeyResult("paired", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                                 f"{r['axis']}: {a} − {b}{subset}", _f(r["mean_delta"]), _f(r.get("ci_low")),
                                 _f(r.get("ci_high")), _f(r.get(pc)),
                                 str(r.get("verdict", "")) if isinstance(r.get("verdict"), str) else ""))
    cf = folder.stats.get("counterfactual")
    if cf is not None:
        pc = _p_column(cf, "t_p_value")
        std = {"corpus", "model", "emotion", "test", "note", "settings", "status", "band", "exceeds_band"}
        by = [c for c in cf.columns if c not in std and cf[c].dtype == object and not c.startswith(("t_p_", "wilcoxon_p_"))]
        for r in cf.to_dict("records"):
            group = ", ".join(str(r[c]) for c in by if isinstance(r.get(c), str))
            beyond = r.get("exceeds_band")
            verdict = ("beyond band" if beyond in (True, "True") else "within band") if _finite(r.get("band")) else ""
            out.append(KeyResult("counterfactual", str(r["corpus"]), str(r["model"]), str(r["emotion"]),
                                 "privileged − minoritised" + (f" ({group})" if group else ""),
                                 _f(r["mean_diff"]), _f(r.get("ci_low")), _f(r.get("ci_high")), _f(r.get(pc)), verdict))
    return out


_num = number
_p = p_value


def key_results_html(results: list[KeyResult]) -> str:
    rows = []
    for r in results:
        ci = f"[{_num(r.low)}, {_num(r.high)}]" if _finite(r.low) and _finite(r.high) else ""
        rows.append([STAT_TITLES.get(r.statistic, r.statistic).split(" (")[0], r.corpus, r.model, r.emotion, r.effect,
                     esc(_num(r.value)) + stars_html(r.stars), esc(ci), esc(_p(r.p)), r.verdict])
    return simple_table(["statistic", "corpus", "model", "emotion", "effect", "estimate", "95% CI", "p", "verdict"],
                        rows, numeric=[5, 6, 7], raw=[5, 6, 7])


def key_charts(results: list[KeyResult], statistic: str) -> list[str]:
    charts = []
    mine = [r for r in results if r.statistic == statistic]
    axis = {"beta": "average marginal effect on the score scale",
            "paired": "mean score difference (first group − second)",
            "counterfactual": "mean R(privileged) − R(minoritised)"}[statistic]
    for corpus in dict.fromkeys(r.corpus for r in mine):
        rows = [Row(f"{r.model} · {r.emotion} · {r.effect}", r.value, r.low, r.high, f"{_num(r.value)}{r.stars}",
                    level_of(r.p)) for r in mine if r.corpus == corpus]
        for i in range(0, len(rows), MAX_CHART_ROWS):
            part = rows[i:i + MAX_CHART_ROWS]
            suffix = f" ({i // MAX_CHART_ROWS + 1})" if len(rows) > MAX_CHART_ROWS else ""
            svg = forest(part, title=f"{STAT_TITLES[statistic].split(' (')[0]} — {corpus}{suffix}", x_label=axis,
                         label_width=340)
            if svg:
                charts.append(svg)
    return charts


# ----------------------------------------------------------------------------- tables
def layout_tables(name: str, frame: pd.DataFrame) -> tuple[list, list, str]:
    """(main tables, extra tables, problem) in the papers' layouts; problem is '' when fine."""
    from engine.stats.render import build_tables

    try:
        if name == "paired":
            return build_tables(frame, "km_models"), build_tables(frame, "km"), ""
        return build_tables(frame), [], ""
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return [], [], f"the {name} table could not be laid out ({exc})"


def table_csv(tables: list) -> bytes:
    from engine.stats.markdown import _flat_header

    frames = []
    for t in tables:
        head = _flat_header(t)
        frames.append(pd.DataFrame([[c.text + c.sup for c in row] for row in t.rows], columns=head))
    return "\n".join(f.to_csv(index=False, lineterminator="\n") for f in frames).encode("utf-8")


# ----------------------------------------------------------------------------- association tests
def assoc_html(frame: pd.DataFrame) -> list[str]:
    """WEAT/SEAT/LPBS rows: effect size with stars from the permutation p-value, and a chart."""
    from engine.stats import stars

    def cell(r: dict, key: str) -> str:
        v = r.get(key)
        return "" if v is None or (isinstance(v, float) and not math.isfinite(v)) else str(v)

    rows, chart = [], []
    for r in frame.to_dict("records"):
        p, es = _f(r.get("p_value")), _f(r.get("effect_size"))
        st = stars(p) if _finite(p) else ""
        sizes = "/".join(str(int(r[k])) for k in ("n_x", "n_y", "n_a", "n_b") if _finite(r.get(k)))
        rows.append([cell(r, "test"), cell(r, "kind"), cell(r, "representation"), cell(r, "language"),
                     esc(_num(es, 2)) + stars_html(st), esc(_p(p)), sizes])
        chart.append(Row(f"{cell(r, 'test')} ({cell(r, 'representation')})" if cell(r, "representation") else
                         cell(r, "test"), es, None, None, f"{_num(es, 2)}{st}", level_of(p)))
    out = []
    svg = forest(chart, title="Association tests — effect sizes", x_label="effect size (Cohen's d style)",
                 label_width=340)
    if svg:
        out += [svg, legend_html().replace("; lines are 95% confidence intervals.", ".")]
    out.append(simple_table(["test", "kind", "representation", "language", "effect size", "p", "|X|/|Y|/|A|/|B|"],
                            rows, numeric=[4, 5, 6], raw=[4, 5]))
    out.append('<p class="caption">Stars from the permutation p-value: *** p ≤ 0.01, ** p ≤ 0.05, * p ≤ 0.10. '
               "Per-word associations and FISE tables are in <code>data/assoc_*.csv</code>.</p>")
    return out


# ----------------------------------------------------------------------------- scores
def group_means(path: Path) -> tuple[pd.DataFrame, list[str]]:
    """Mean, 95% CI and n of every score column per person group (race × gender; noun phrases apart)."""
    frame = read_table(path, ["Gender"])
    cols = [c for c in frame.columns if ":" in c and pd.api.types.is_numeric_dtype(frame[c])]
    if not cols:
        return pd.DataFrame(), []
    race = frame["Race"].fillna("").astype(str) if "Race" in frame.columns else pd.Series("", index=frame.index)
    kind = frame["person_kind"].fillna("").astype(str) if "person_kind" in frame.columns else pd.Series("", index=frame.index)
    group = np.where(race != "", race, np.where(kind == "name", "", "noun phrase"))
    frame = frame.assign(_group=[(f"{g} · {s}" if g else str(s)) for g, s in zip(group, frame["Gender"].fillna(""))])
    rows = []
    for g, part in frame.groupby("_group", sort=True):
        for c in cols:
            v = part[c].astype(float)
            v = v[np.isfinite(v)]
            n = len(v)
            mean = float(v.mean()) if n else float("nan")
            half = 1.96 * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
            rows.append({"group": g, "score": c, "n": n, "mean": mean, "low": mean - half, "high": mean + half})
    return pd.DataFrame(rows), cols


def scores_html(folder: AuditFolder) -> list[str]:
    out = []
    for cid, path in folder.scores.items():
        means, cols = group_means(path)
        if means.empty:
            continue
        out.append(f"<h3>{esc(cid)}</h3>")
        pivot = means.pivot(index="group", columns="score", values="mean")
        ns = means.groupby("group")["n"].max()
        rows = [[g, f"{int(ns[g]):,}"] + [_num(pivot.loc[g, c]) for c in cols] for g in pivot.index]
        out.append(simple_table(["group", "sentences"] + cols, rows, numeric=list(range(1, len(cols) + 2))))
        out.append('<p class="caption">Mean score per person group (race/ethnicity · gender; noun phrases have no '
                   "race/ethnicity). Columns are <code>scorer:dimension</code>.</p>")
        for c in cols[:MAX_SCORE_CHARTS]:
            part = means[means.score == c]
            rows_ = [Row(r.group, r.mean, r.low, r.high, _num(r.mean), "ns") for r in part.itertuples()]
            svg = forest(rows_, title=f"{c} — mean score by group ({cid})", x_label="mean score (95% CI)", zero=None)
            if svg:
                out.append(svg)
        if len(cols) > MAX_SCORE_CHARTS:
            out.append(f'<p class="muted">{len(cols) - MAX_SCORE_CHARTS} more score column(s) are in the table '
                       "above but not charted.</p>")
    return out


# ----------------------------------------------------------------------------- manifest & datasheets
def manifest_html(m: dict[str, Any]) -> list[str]:
    out = []
    device = m.get("device") if isinstance(m.get("device"), dict) else {}
    plan = m.get("plan") if isinstance(m.get("plan"), dict) else {}
    pairs = [("created", m.get("created", "–")), ("run time", f"{m['seconds']} s" if "seconds" in m else "–"),
             ("statistics", ", ".join(map(str, plan.get("stats", []))) or "–"),
             ("settings", json.dumps(plan.get("settings", {}), ensure_ascii=False, sort_keys=True)),
             ("python / platform", f"{device.get('python', '?')} / {device.get('platform', '?')}"),
             ("score cache", _cache_text(m.get("cache")))]
    if device.get("cuda_device"):
        pairs.append(("GPU", device["cuda_device"]))
    out.append(kv_table(pairs))
    corpora = m.get("corpora") if isinstance(m.get("corpora"), dict) else {}
    if corpora:
        out.append("<h3>Corpora</h3>")
        rows = [[cid, f"{c.get('sentences', '–'):,}" if isinstance(c.get("sentences"), int) else "–",
                 f"{c.get('pairs', 0):,}" if isinstance(c.get("pairs"), int) else "–",
                 f"<code>{esc(c.get('definition', ''))}</code>",
                 f"<code class=\"hash\">{esc(c.get('definition_sha256', ''))}</code>",
                 f"<code class=\"hash\">{esc(c.get('corpus_sha256', ''))}</code>"]
                for cid, c in corpora.items() if isinstance(c, dict)]
        out.append(simple_table(["corpus", "sentences", "pairs", "definition file", "definition sha256",
                                 "sentences sha256"], rows, numeric=[1, 2], raw=[3, 4, 5]))
    scorers = m.get("scorers") if isinstance(m.get("scorers"), dict) else {}
    if scorers:
        out.append("<h3>Models (scorers)</h3>")
        rows = [[name, f"<code>{esc(s.get('spec', ''))}</code>", f"<code>{esc(s.get('fingerprint', ''))}</code>",
                 ", ".join(map(str, s.get("dimensions", [])))] for name, s in scorers.items() if isinstance(s, dict)]
        out.append(simple_table(["name", "spec", "fingerprint", "dimensions"], rows, raw=[1, 2]))
    versions = m.get("versions") if isinstance(m.get("versions"), dict) else {}
    if versions:
        out.append("<h3>Software versions</h3>")
        out.append(simple_table(["package", "version"], sorted(versions.items())))
    out.append("<details><summary>The complete run manifest (manifest.json)</summary><pre>"
               + esc(json.dumps(m, indent=2, ensure_ascii=False)) + "</pre></details>")
    return out


def _cache_text(cache: Any) -> str:
    if isinstance(cache, dict):
        counts = ", ".join(f"{k} {cache[k]:,}" for k in ("hits", "misses", "writes") if isinstance(cache.get(k), int))
        return f"{cache.get('path', '?')}" + (f" ({counts})" if counts else "")
    return "–" if cache is None else str(cache)


def _sha256(path: Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def datasheets(folder: AuditFolder) -> list[tuple[str, Any, str]]:
    """(corpus id, datasheet Document or None, warning) for every corpus of the audit."""
    from engine.corpus import DefinitionError, load_definition
    from engine.package.datasheet import build_datasheet

    out = []
    ids = list(folder.corpora) or list(folder.scores)
    for cid in ids:
        entry = folder.corpora.get(cid, {}) if isinstance(folder.corpora.get(cid), dict) else {}
        path = Path(str(entry.get("definition", ""))) if entry.get("definition") else None
        warning = ""
        corpus = None
        try:
            if path is not None and path.is_file():
                want = entry.get("definition_sha256")
                if want and _sha256(path) != want:
                    warning = (f"the definition file {path} changed after the audit (its sha256 differs from the "
                               "manifest's); this datasheet describes the file as it is now")
                corpus = load_definition(path)
            else:
                from engine.corpus import load_corpus

                corpus = load_corpus(cid)
                warning = (f"the audit's definition file ({path}) is not here; this is the datasheet of corpus "
                           f"{cid!r} as this installation has it") if path is not None else ""
        except (DefinitionError, OSError, ValueError) as exc:
            out.append((cid, None, f"no datasheet: the definition could not be read ({exc})"))
            continue
        out.append((cid, build_datasheet(corpus), warning))
    return out


# ----------------------------------------------------------------------------- the page
def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def render_html(folder: AuditFolder, sheets: list[tuple[str, Any, str]], layouts: dict[str, tuple[list, list, str]],
                results: list[KeyResult]) -> str:
    from engine.package.version import app_version

    m = folder.manifest
    corpora = list(folder.corpora) or list(folder.scores)
    scorers = list(folder.scorers)
    toc = [("results", "Key results")]
    toc += [(f"stat-{n}", STAT_TITLES[n]) for n in ("beta", "paired", "counterfactual") if n in folder.stats]
    toc += [("assoc", "Association tests")] if folder.assoc is not None and len(folder.assoc) else []
    toc += [("scores", "Scores by group")] if folder.scores else []
    toc += [("manifest", "Run manifest"), ("datasheets", "Corpus datasheets"), ("files", "Files of this report")]
    body = ['<header class="top">', "<h1>EEC Studio audit report</h1>",
            f'<p class="sub">{_count(len(corpora), "corpus", "corpora")} ({esc(", ".join(corpora) or "–")}) × '
            f'{_count(len(scorers), "model", "models")} ({esc(", ".join(scorers) or "–")}) — '
            f'run {esc(m.get("created", "?"))}</p>',
            "</header>"]
    body.append('<nav class="toc"><strong>Contents</strong><ol>'
                + "".join(f'<li><a href="#{a}">{esc(t)}</a></li>' for a, t in toc) + "</ol></nav>")
    problems = m.get("problems") if isinstance(m.get("problems"), list) else []
    for p in problems:
        body.append(f'<div class="warn">Audit problem: {esc(p)}</div>')
    for name, (_main, _extra, problem) in layouts.items():
        if problem:
            body.append(f'<div class="warn">{esc(problem)}</div>')

    body.append('<h2 id="results">Key results</h2>')
    if results:
        n_sig = sum(1 for r in results if _finite(r.p) and r.p <= 0.05)
        body.append(f"<p>{len(results)} test(s); {n_sig} significant at p ≤ 0.05. Stars: *** p ≤ 0.01, ** p ≤ 0.05, "
                    "* p ≤ 0.10 (adjusted p-values when the audit used a correction). Estimates are on the score "
                    "scale; for the paired analysis the first group minus the second, for counterfactual pairs the "
                    "privileged minus the minoritised sentence.</p>")
        body.append(key_results_html(results))
    else:
        body.append("<p>No statistics in this audit folder (no stats/*.csv).</p>")

    for name in ("beta", "paired", "counterfactual"):
        if name not in folder.stats:
            continue
        main, extra, _problem = layouts[name]
        body.append(f'<h2 id="stat-{name}">{esc(STAT_TITLES[name])}</h2>')
        charts = key_charts(results, name)
        if charts:
            body += charts
            body.append(legend_html())
        for t in main:
            body.append(stat_table(t))
        if extra:
            body.append(f"<details><summary>Summary tables in the paper's layout ({len(extra)})</summary>")
            body += [stat_table(t) for t in extra]
            body.append("</details>")
        files = [f"tables/{name}.tex", f"tables/{name}.md", f"tables/{name}.csv", f"data/{name}.csv"]
        body.append('<p class="muted">Files: ' + ", ".join(f"<code>{esc(f)}</code>" for f in files) + "</p>")

    if folder.assoc is not None and len(folder.assoc):
        body.append('<h2 id="assoc">Association tests</h2>')
        body += assoc_html(folder.assoc)

    if folder.scores:
        body.append('<h2 id="scores">Scores by group</h2>')
        body += scores_html(folder)

    body.append('<h2 id="manifest">Run manifest</h2>')
    body.append("<p>What produced these results: corpora with the sha256 of their definition and sentences, "
                "each model's specification and fingerprint, the settings and the software versions.</p>")
    body += manifest_html(m)

    body.append('<h2 id="datasheets">Corpus datasheets</h2>')
    for cid, doc, warning in sheets:
        if warning:
            body.append(f'<div class="warn">{esc(cid)}: {esc(warning)}</div>')
        if doc is not None:
            body.append(document(doc, level=3, anchor=f"datasheet-{cid}"))

    body.append('<h2 id="files">Files of this report</h2>')
    body.append("<ul><li><code>tables/</code> — LaTeX (booktabs), Markdown and CSV tables in the papers' layouts"
                "</li><li><code>data/</code> — the audit's tidy statistics tables (CSV)</li>"
                "<li><code>datasheets/</code> — corpus datasheets (Markdown)</li>"
                "<li><code>manifest.json</code> — the run manifest</li></ul>")
    body.append(f"<footer>Built by EEC Studio {esc(app_version())} on "
                f"{esc(datetime.now(timezone.utc).isoformat(timespec='seconds'))} from <code>{esc(folder.path)}</code>. "
                "This page is self-contained: it loads no scripts, fonts or images from anywhere.</footer>")
    return page("EEC Studio audit report — " + ", ".join(corpora), body)


# ----------------------------------------------------------------------------- output folder
def _prepare_destination(out: Path, audit: Path, overwrite: bool, confirm: Confirm) -> bool:
    """True when ``out`` exists and will be replaced; raises when that is not allowed."""
    a, o = audit.resolve(), out.resolve()
    if o == a or o in a.parents:
        raise ReportError(str(out), "the report folder would replace the audit folder it is built from",
                          fix="choose a new folder, e.g. AUDIT_DIR/report")
    if not (out.exists() or out.is_symlink()):
        return False
    if out.is_symlink() or not out.is_dir():
        raise ReportError(str(out), "exists and is not a folder", fix="choose another --out folder")
    if (out / MARKER).is_file() or not any(out.iterdir()):
        return True
    if overwrite or (confirm is not None and confirm(f"{out} exists and is not an EEC Studio report. Replace it?")):
        return True
    raise ReportError(str(out), "folder exists and is not an earlier report; nothing was changed",
                      fix="pass --overwrite to replace it, or choose another --out folder")


def _write(root: Path, rel: str, data: bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def build_report(audit_dir: str | os.PathLike, out_dir: str | os.PathLike, *, overwrite: bool = False,
                 confirm: Confirm = None) -> Path:
    """Write the report of the audit in ``audit_dir`` into ``out_dir``; returns the path of index.html."""
    from engine.package.version import app_version
    from engine.stats import latex, markdown

    folder = read_audit(audit_dir)
    out = Path(out_dir)
    replace = _prepare_destination(out, Path(audit_dir), overwrite, confirm)
    layouts = {name: layout_tables(name, frame) for name, frame in folder.stats.items()}
    results = key_results(folder)
    sheets = datasheets(folder)
    html = render_html(folder, sheets, layouts, results)

    files: dict[str, bytes] = {REPORT: html.encode("utf-8")}
    for name, (main, extra, _problem) in layouts.items():
        tables = main + extra
        if tables:
            files[f"tables/{name}.tex"] = latex.render_all(tables).encode("utf-8")
        elif name in folder.latex:  # our layout failed: keep what the audit rendered
            files[f"tables/{name}.tex"] = folder.latex[name].encode("utf-8")
        if tables:
            files[f"tables/{name}.md"] = markdown.render_all(tables).encode("utf-8")
            files[f"tables/{name}.csv"] = table_csv(tables)
    for p in folder.data_files:
        files[f"data/{'assoc_' if p.parent.name == 'assoc' else ''}{p.name}"] = p.read_bytes()
    for cid, doc, _warning in sheets:
        if doc is not None:
            files[f"datasheets/{cid}.md"] = doc.to_markdown().encode("utf-8")
    files["manifest.json"] = (json.dumps(folder.manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    files[MARKER] = (json.dumps({"kind": "eec-studio audit report", "app_version": app_version(),
                                 "audit": str(Path(audit_dir).resolve())}) + "\n").encode("utf-8")

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    backup: Path | None = None
    try:
        for rel, data in files.items():
            _write(staging, rel, data)
        if replace:
            backup = out.parent / f".{out.name}.old-{uuid.uuid4().hex[:8]}"
            os.rename(out, backup)
        os.rename(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if backup is not None and not out.exists():
            os.rename(backup, out)
            backup = None
        raise
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)
    return out / REPORT
