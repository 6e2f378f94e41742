"""`pte report` pages in headless Chromium against the page contract (README.md here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import checks
from conftest import HERE, SHOTS, manifest_pages

PAGES = manifest_pages()


@pytest.fixture(params=PAGES, ids=[p["name"] for p in PAGES])
def page_spec(request):
    return request.param


def test_contract(loaded, page_spec):
    assert checks.contract_problems(loaded.snapshot, page_spec) == []


def test_no_network_no_errors(loaded):
    assert checks.hygiene_problems(loaded) == []


def test_search_highlights(loaded, page_spec):
    problems = []
    for k in range(len(page_spec["files"])):
        problems += checks.search_problems(loaded, k, shots=SHOTS)
    assert problems == []


def test_labels_stay_clear(loaded):
    assert checks.label_problems(loaded) == []


def test_first_paint(loaded, page_spec):
    ms = checks.paint_ms(loaded)
    if page_spec.get("largest") and ms is not None and ms > checks.PAINT_TARGET_MS:
        print(f"largest page {page_spec['name']}: first paint {ms:.0f} ms, over the {checks.PAINT_TARGET_MS} ms aim")
    assert checks.paint_problems(loaded) == []


# The harness itself: each broken copy of the fixture must be caught by the
# check named beside it, or a green run would prove nothing.
FIXTURE = (HERE / "fixture.html").read_text()
NODE = re.compile(r'<g class="node" id="n0-forward-2">.*?</g>', re.S)
MUTANTS = {
    "node_missing": ("contract", lambda s: NODE.sub("", s, count=1)),
    "violation_row_missing": ("contract", lambda s: re.sub(r'<tr class="violation">.*?</tr>', "", s, count=1)),
    "tensor_row_extra": ("contract", lambda s: s.replace('<tr class="tensor">', '<tr class="tensor"><td>x</td></tr><tr class="tensor">', 1)),
    "memory_section_missing": ("contract", lambda s: s.replace('id="memory-0"', 'id="memo-0"')),
    "methods_wrong": ("contract", lambda s: s.replace('data-methods="2"', 'data-methods="3"')),
    "comparison_missing": ("contract", lambda s: s.replace('id="comparison"', 'id="compare"')),
    "lang_missing": ("contract", lambda s: s.replace('<html lang="en">', "<html>")),
    "remote_image": ("hygiene", lambda s: s.replace("</body>", '<img src="https://example.invalid/x.png" alt=""></body>')),
    "remote_font": ("hygiene", lambda s: s.replace("</style>", "@font-face{font-family:F;src:url(https://example.invalid/f.woff2)} body{font-family:F}</style>")),
    "console_error": ("hygiene", lambda s: s.replace("</body>", "<script>console.error('broken')</script></body>")),
    "script_throws": ("hygiene", lambda s: s.replace("</body>", "<script>null.x</script></body>")),
    "search_dead": ("search", lambda s: s.replace("box.addEventListener('input'", "box.addEventListener('nothing'")),
    "search_sticky": ("search", lambda s: s.replace("q !== '' && ", "true || ")),
    "edge_label_on_its_edge": ("labels", lambda s: s.replace('<text class="edge-label" x="135" y="36"', '<text class="edge-label" x="135" y="48"')),
    "treemap_label_overflows": ("labels", lambda s: s.replace(">program.fb</text>", ">program.fb, and much more than its rectangle holds</text>")),
    "treemap_label_unclipped": ("labels", lambda s: s.replace('<g clip-path="url(#t0-c0)">', "<g>")),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_harness_catches(context, tmp_path, mutant):
    check, change = MUTANTS[mutant]
    broken = change(FIXTURE)
    assert broken != FIXTURE, "the mutation no longer applies to fixture.html"
    html = tmp_path / "broken.html"
    html.write_text(broken)
    spec = next(p for p in PAGES if p["name"] == "fixture")
    run = checks.load(context, mutant, html, None)
    try:
        if check == "contract":
            problems = checks.contract_problems(run.snapshot, spec)
        elif check == "hygiene":
            problems = checks.hygiene_problems(run)
        elif check == "labels":
            problems = checks.label_problems(run)
        else:
            problems = [p for k in range(2) for p in checks.search_problems(run, k, timeout_ms=1_000)]
        print(problems)
        assert problems, f"the {check} check passed a broken page ({mutant})"
    finally:
        run.page.close()
