"""The report page: the papers' table layouts, association tests, scores by group, the run
manifest and the datasheets, rendered into one self-contained HTML document."""
from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from engine.common.fmt import as_float, number, p_value, to_float
from engine.common.svg import Row, forest, legend_html, level_of
from engine.stats import registry

from engine.results.reader import ResultsFolder, read_table

from .errors import reading_audit
from .html import breakable, document, esc, kv_table, page, simple_table, stars_html, stat_tables
from engine.stats.hypothesis_tests.group_summary import group_means

from .key_results import KeyRow, key_charts, key_results_html

MAX_SCORE_CHARTS = 8
# ----------------------------------------------------------------------------- tables
def layout_tables(name: str, frame: pd.DataFrame) -> tuple[list, list, str]:
    """(main tables, extra tables, problem) in the papers' layouts; problem is '' when fine."""
    from engine.stats.present.render import layouts_of

    try:
        return (*layouts_of(name, frame, "page"), "")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return [], [], f"the {name} table could not be laid out ({exc})"


# ----------------------------------------------------------------------------- association tests
def assoc_html(frame: pd.DataFrame) -> list[str]:
    """WEAT/SEAT/LPBS rows: effect size with stars from the permutation p-value, and a chart."""
    from engine.common.fmt import stars

    def cell(r: dict, key: str) -> str:
        v = r.get(key)
        return "" if v is None or (isinstance(v, float) and not math.isfinite(v)) else str(v)

    rows, chart = [], []
    for r in frame.to_dict("records"):
        p, es = to_float(r.get("p_value")), to_float(r.get("effect_size"))
        st = stars(p)  # "" when p is missing
        sizes = "/".join(str(int(r[k])) for k in ("n_x", "n_y", "n_a", "n_b") if as_float(r.get(k)) is not None)
        rows.append([cell(r, "test"), cell(r, "kind"), cell(r, "representation"), cell(r, "language"),
                     esc(number(es, 2)) + stars_html(st), esc(p_value(p)), sizes])
        chart.append(Row(f"{cell(r, 'test')} ({cell(r, 'representation')})" if cell(r, "representation") else
                         cell(r, "test"), es, None, None, f"{number(es, 2)}{st}", level_of(p)))
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


def scores_html(folder: ResultsFolder) -> list[str]:
    """Mean score per person group of each corpus: one caption for all of them, a table and charts each."""
    out = ['<p class="caption">Mean score per person group (race/ethnicity · gender; noun phrases have no '
           "race/ethnicity), one table per corpus. Columns are <code>scorer:dimension</code>.</p>"]
    for cid, path in folder.score_files.items():
        with reading_audit():
            frame = read_table(path, ["Gender"])
        means, cols = group_means(frame)
        if means.empty:
            continue
        out.append(f"<h3>{esc(cid)}</h3>")
        pivot = means.pivot(index="group", columns="score", values="mean")
        ns = means.groupby("group")["n"].max()
        rows = [[g, f"{int(ns[g]):,}"] + [number(pivot.loc[g, c]) for c in cols] for g in pivot.index]
        out.append(simple_table(["group", "sentences"] + cols, rows, numeric=list(range(1, len(cols) + 2))))
        for c in cols[:MAX_SCORE_CHARTS]:
            part = means[means.score == c]
            rows_ = [Row(r.group, r.mean, r.low, r.high, number(r.mean), "ns") for r in part.itertuples()]
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
             ("inference", _inference_text((plan.get("settings") or {}).get("inference"))),
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
                 f"<code>{breakable(c.get('definition', ''))}</code>",
                 _short_hash(c.get("definition_sha256", "")), _short_hash(c.get("corpus_sha256", ""))]
                for cid, c in corpora.items() if isinstance(c, dict)]
        out.append(simple_table(["corpus", "sentences", "pairs", "definition file", "definition sha256",
                                 "sentences sha256"], rows, numeric=[1, 2], raw=[3, 4, 5]))
    scorers = m.get("scorers") if isinstance(m.get("scorers"), dict) else {}
    if scorers:
        out.append("<h3>Models (scorers)</h3>")
        rows = [[name, f"<code>{breakable(s.get('spec', ''))}</code>", _short_hash(s.get("fingerprint", "")),
                 ", ".join(map(str, s.get("dimensions", [])))] for name, s in scorers.items() if isinstance(s, dict)]
        out.append(simple_table(["name", "spec", "fingerprint", "dimensions"], rows, raw=[1, 2]))
    versions = m.get("versions") if isinstance(m.get("versions"), dict) else {}
    if versions:  # one row, not a table of its own: the appendix stays short in print
        out.append(kv_table([("software versions", ", ".join(f"{k} {v}" for k, v in sorted(versions.items())))]))
    # on screen the whole JSON can be opened; in print (six pages of it) the file is named instead
    out.append('<details class="screen-only"><summary>The complete run manifest (manifest.json)</summary><pre>'
               + esc(json.dumps(m, indent=2, ensure_ascii=False)) + "</pre></details>")
    return out


def _short_hash(value: object) -> str:
    """The first 12 hex digits of a sha256 or fingerprint (the whole in the title and manifest.json)."""
    text = str(value or "")
    short = text if len(text) <= 16 else text[:12] + "…"
    return f'<code class="hash" title="{esc(text)}">{esc(short)}</code>'



def _inference_text(inference: Any) -> str:
    """Which p-values the statistics report (audits before the setting existed used the papers' tests)."""
    if inference == "person":
        return ("person-robust: each name / noun phrase is one unit (CR2 cluster-robust errors with "
                "Welch–Satterthwaite df, Welch t on person means, person-level permutation tests)")
    if inference == "crossed":
        return ("crossed: persons, templates and emotion words are random factors (person CR2 plus the template "
                "and word parts, Satterthwaite df), so the verdicts generalise to templates and words like these")
    if inference == "paper":
        return "the papers' tests (sentences treated as independent)"
    return "the papers' tests (audit made before person-robust inference existed)"


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


def datasheets(folder: ResultsFolder) -> list[tuple[str, Any, str]]:
    """(corpus id, datasheet Document or None, warning) for every corpus of the audit."""
    from engine.corpus import DefinitionError, load_definition
    from engine.package.datasheet import IN_REPORT, build_datasheet

    out = []
    ids = list(folder.corpora) or list(folder.score_files)
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
        out.append((cid, build_datasheet(corpus, shipped=IN_REPORT), warning))
    return out


# ----------------------------------------------------------------------------- the page
def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def render_html(folder: ResultsFolder, sheets: list[tuple[str, Any, str]], layouts: dict[str, tuple[list, list, str]],
                results: list[KeyRow]) -> str:
    """The whole report page, section by section in the order of its table of contents."""
    from engine.package.version import app_version

    m = folder.manifest
    corpora = list(folder.corpora) or list(folder.score_files)
    body = _top_html(folder, corpora, layouts)
    body += _key_results_section(results)
    for stat in registry.statistics():
        if stat.id in folder.stats:
            body += _statistic_section(stat, layouts[stat.id], results)

    if folder.assoc is not None and len(folder.assoc):
        body.append('<h2 id="assoc">Association tests</h2>')
        body += assoc_html(folder.assoc)

    if folder.score_files:
        body.append('<h2 id="scores">Scores by group</h2>')
        body += scores_html(folder)

    body.append('<h2 id="datasheets">Corpus datasheets</h2>')
    for cid, doc, warning in sheets:
        if warning:
            body.append(f'<div class="warn">{esc(cid)}: {esc(warning)}</div>')
        if doc is not None:
            body.append(document(doc, level=3, anchor=f"datasheet-{cid}"))

    body.append('<h2 id="manifest">Appendix: run manifest</h2>')
    body.append("<p>What produced these results: corpora with the sha256 of their definition and sentences "
                "(the first 12 hex digits; the whole in <code>manifest.json</code>), each model's specification "
                "and fingerprint, the settings and the software versions.</p>")
    body += manifest_html(m)

    body.append('<h2 id="files">Files of this report</h2>')
    body.append("<ul><li><code>tables/</code> — LaTeX (booktabs: <code>NAME.tex</code> fits one column of a "
                "two-column paper, <code>NAME-wide.tex</code> spans the page), Markdown and CSV tables in the papers' "
                "layouts</li><li><code>data/</code> — the audit's tidy statistics tables (CSV)</li>"
                "<li><code>datasheets/</code> — corpus datasheets (Markdown)</li>"
                "<li><code>manifest.json</code> — the run manifest</li></ul>")
    body.append(f"<footer>Built by EEC Studio {esc(app_version())} on "
                f"{esc(datetime.now(timezone.utc).isoformat(timespec='seconds'))} from <code>{esc(folder.path)}</code>. "
                "This page is self-contained: it loads no scripts, fonts or images from anywhere.</footer>")
    return page("EEC Studio audit report — " + ", ".join(corpora), body)


def _top_html(folder: ResultsFolder, corpora: list[str], layouts: dict[str, tuple[list, list, str]]) -> list[str]:
    """The title, what was audited, the table of contents and the run's and layouts' problems."""
    m = folder.manifest
    scorers = list(folder.scorers)
    toc = [("results", "Key results")]
    toc += [(f"stat-{s.id}", s.title) for s in registry.statistics() if s.id in folder.stats]
    toc += [("assoc", "Association tests")] if folder.assoc is not None and len(folder.assoc) else []
    toc += [("scores", "Scores by group")] if folder.score_files else []
    toc += [("datasheets", "Corpus datasheets"), ("manifest", "Appendix: run manifest"), ("files", "Files of this report")]
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
    return body


def _key_results_section(results: list[KeyRow]) -> list[str]:
    body = ['<h2 id="results">Key results</h2>']
    if results:
        n_sig = sum(1 for r in results if as_float(r.p) is not None and r.p <= 0.05)
        body.append(f"<p>{len(results)} test(s); {n_sig} significant at p ≤ 0.05. Stars: *** p ≤ 0.01, ** p ≤ 0.05, "
                    "* p ≤ 0.10 (adjusted p-values when the audit used a correction). Estimates are on the score "
                    "scale; for the paired analysis the first group minus the second, for counterfactual pairs the "
                    "privileged minus the minoritised sentence.</p>")
        body.append(key_results_html(results))
    else:
        body.append("<p>No statistics in this audit folder (no stats/*.csv).</p>")
    return body


def _statistic_section(stat, layout: tuple[list, list, str], results: list[KeyRow]) -> list[str]:
    """One statistic: its key charts, its tables (the papers' summary layouts folded away) and its files."""
    name = stat.id
    main, extra, _problem = layout
    body = [f'<h2 id="stat-{name}">{esc(stat.title)}</h2>']
    charts = key_charts(results, name)
    if charts:
        body += charts
        body.append(legend_html())
    body += stat_tables(main)
    if extra:
        body.append(f"<details><summary>Summary tables in the paper's layout ({len(extra)})</summary>")
        body += stat_tables(extra)
        body.append("</details>")
    files = [f"tables/{name}.tex", f"tables/{name}-wide.tex", f"tables/{name}.md", f"tables/{name}.csv",
             f"data/{name}.csv"]
    body.append('<p class="muted">Files: ' + ", ".join(f"<code>{esc(f)}</code>" for f in files) + "</p>")
    return body


