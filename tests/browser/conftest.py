"""One headless Chromium for the session; each page is loaded once and shared by its tests."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import checks

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SHOTS = Path(os.environ.get("REPORT_SHOTS", ROOT / "target" / "report-screenshots"))

# lines for the end of the run: pytest hides what passing tests print
TIMINGS: list[str] = []


def manifest_pages() -> list[dict]:
    """The fixture page always (it tests the harness), plus REPORT_MANIFEST's pages."""
    paths = [HERE / "fixture.json"]
    if os.environ.get("REPORT_MANIFEST"):
        paths.append(Path(os.environ["REPORT_MANIFEST"]))
    pages = []
    for p in paths:
        for page in json.loads(p.read_text())["pages"]:
            page["html"] = str((p.parent / page["html"]).resolve())
            pages.append(page)
    return pages


@pytest.fixture(scope="session")
def context():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        ctx, profile = checks.launch(pw)
        try:
            yield ctx
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


_RUNS: dict[str, checks.PageRun] = {}


@pytest.fixture
def loaded(context, page_spec):
    """The page of `page_spec`, loaded (and screenshot) on first use."""
    name = page_spec["name"]
    if name not in _RUNS:
        run = checks.load(context, name, Path(page_spec["html"]), SHOTS)
        ms = checks.paint_ms(run)
        paint = "no paint entry" if ms is None else f"first paint {ms:7.0f} ms"
        big = " (largest page)" if page_spec.get("largest") else ""
        TIMINGS.append(
            f"{name:14} {paint}, load event {run.timing.get('load') or 0:7.0f} ms, "
            f"{run.load_seconds:6.2f} s until painted{big}"
        )
        _RUNS[name] = run
    return _RUNS[name]


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.section("report pages: paint timing")
        for line in TIMINGS:
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"screenshots in {SHOTS}")
