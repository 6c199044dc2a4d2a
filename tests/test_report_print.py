"""The printed report (issue 41, part 7): no word broken inside, the manifest as a short appendix,
each caption once. Chromium's print engine is not run here; what decides those is the page's HTML and
print CSS, checked on a real report of a small audit."""
from __future__ import annotations

import collections
import re

import pytest


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    from engine.audit import AuditPlan, run_audit
    from engine.report import build_report
    from testkit.audit_fixtures import write_mini_corpus, write_predictions

    tmp = tmp_path_factory.mktemp("print")
    corpus = write_mini_corpus(tmp)
    pred = write_predictions(corpus, tmp / "system.tsv")
    run_audit(AuditPlan([str(corpus)], [f"predictions:{pred}?name=org/some_long_model", "textblob"],
                        stats=["paired", "counterfactual"], out_dir=tmp / "audit",
                        settings={"n_resamples": 0, "n_permutations": 0}))
    return build_report(tmp / "audit", tmp / "report").read_text(encoding="utf-8")


def _print_css(html: str) -> str:
    return html[html.index("@media print"):html.index("</style>")]


def test_print_breaks_lines_between_words_only(html):
    css = _print_css(html)
    assert "overflow-wrap: normal" in css and "word-break: normal" in css
    assert "anywhere" not in css and "break-all" not in html  # "textblo|b" came from these
    assert "org/<wbr>some_<wbr>long_<wbr>model" in html  # a long id breaks after / and _ only


def test_each_caption_prints_once(html):
    captions = collections.Counter(re.findall(r'<p class="caption">(.*?)</p>', html, re.S))
    assert captions and [c[:60] for c, n in captions.items() if n > 1] == []
    assert '<p class="block-title">' in html  # the blocks of one table sit under their titles instead


def test_the_manifest_is_a_short_appendix(html):
    appendix = html[html.index('id="manifest"'):html.index('id="files"')]
    assert "Appendix: run manifest" in appendix and html.index('id="datasheets"') < html.index('id="manifest"')
    assert '<details class="screen-only">' in appendix and ".screen-only { display: none" in _print_css(html)
    hashes = re.findall(r'<code class="hash" title="([0-9a-f]{64})">([0-9a-f]{12})…</code>', appendix)
    assert hashes and all(full.startswith(short) for full, short in hashes)
    visible = re.sub(r'<details class="screen-only">.*?</details>', "", appendix, flags=re.S)
    assert visible.count("<tr>") < 20  # created, settings, corpora, models, versions: not six pages of JSON
