"""What the browser harness checks on a `pte report` page (tests/browser/README.md).

Every check returns a list of problems (empty when the page is right), so the
same functions judge the real pages and, in the self-test, prove that they
catch a broken fixture.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
import time
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# Without these the browser reaches for the network (component updates, sync,
# QUIC probes) and waits on connections that the closed network refuses.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

VIEWPORT = {"width": 1280, "height": 900}

# Only the page itself and what it inlines may be loaded.
LOCAL_SCHEMES = ("file:", "data:", "about:")

# First paint of the largest page: printed always, a failure only far past
# the 2 s the report aims at, since CI machines are shared and slow.
PAINT_TARGET_MS = 2_000
PAINT_LIMIT_MS = 10_000

# Graph figures up to this many nodes get a screenshot of their own; larger
# ones would make an image of tens of thousands of pixels.
GRAPH_SHOT_MAX_NODES = 200


def required_sections(f: dict) -> list[str]:
    """The subsections a file's section must have, from the contract."""
    if not f.get("readable", True):
        # a file the reader refuses still gets its summary and findings
        return ["summary", "verification"]
    kind = f.get("kind")
    names = ["summary", "verification", "graphs", "sizes", "tensors"]
    if kind in ("pte", "bpte"):
        names.append("memory")
    if f.get("delegates"):
        names.append("delegates")
    if kind == "ptn":
        names.append("samples")
    if kind == "bpte":
        names.append("tests")
    if f.get("ptd"):
        names.append("external")
    return names


def launch(playwright):
    """A headless Chromium from the system, with a fresh profile folder."""
    profile = tempfile.mkdtemp(prefix="pte-report-chromium-")
    context = playwright.chromium.launch_persistent_context(
        profile,
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=VIEWPORT,
        # a report must work from a file on disk, nothing else
        offline=True,
    )
    return context, profile


@dataclasses.dataclass
class PageRun:
    """One page as loaded: the live page and what it did while loading."""

    name: str
    page: object
    requests: list[str]
    console_errors: list[str]
    page_errors: list[str]
    timing: dict
    snapshot: dict
    load_seconds: float


# Everything the count checks need, read in one pass inside the page: a
# locator call per row would take minutes on the deep program's page.
SNAPSHOT_JS = """
() => {
  const ints = (el, name) => {
    const v = el.getAttribute(name);
    return v === null || !/^[0-9]+$/.test(v) ? v : Number(v);
  };
  const files = [...document.querySelectorAll('section.file')].map(sec => {
    const figures = [...sec.querySelectorAll('figure.graph')].map(f => ({
      method: f.getAttribute('data-method'),
      nodes: ints(f, 'data-nodes'),
      edges: ints(f, 'data-edges'),
      svg: f.querySelector('svg') !== null,
      svgNodes: f.querySelectorAll('svg .node').length,
    }));
    const id = sec.id;
    const k = id.startsWith('file-') ? id.slice(5) : null;
    const sub = [...sec.querySelectorAll('[id]')].map(e => e.id);
    const search = k === null ? null : sec.ownerDocument.getElementById('search-' + k);
    return {
      id, k,
      kind: sec.getAttribute('data-kind'),
      methods: ints(sec, 'data-methods'),
      nodes: ints(sec, 'data-nodes'),
      tensors: ints(sec, 'data-tensors'),
      violations: ints(sec, 'data-violations'),
      warnings: ints(sec, 'data-warnings'),
      figures,
      ids: sub,
      violationTables: sec.querySelectorAll('table.violations').length,
      violationRows: sec.querySelectorAll('table.violations tr.violation').length,
      warningRows: sec.querySelectorAll('table.violations tr.warning').length,
      tensorTables: sec.querySelectorAll('table.tensors').length,
      tensorRows: sec.querySelectorAll('table.tensors tr.tensor').length,
      search: search === null ? null : {
        type: search.getAttribute('type'),
        inside: sec.contains(search),
      },
      nodeCount: sec.querySelectorAll('.node').length,
    };
  });
  return {
    lang: document.documentElement.getAttribute('lang'),
    title: document.title,
    files,
    comparison: document.querySelector('section#comparison') !== null,
  };
}
"""

TIMING_JS = """
() => {
  const paint = {};
  for (const e of performance.getEntriesByType('paint')) paint[e.name] = e.startTime;
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    paint,
    domContentLoaded: nav ? nav.domContentLoadedEventEnd : null,
    load: nav ? nav.loadEventEnd : null,
  };
}
"""


def load(context, name: str, html: Path, shots: Path | None) -> PageRun:
    """Open `html` from file://, record requests and errors, take screenshots."""
    page = context.new_page()
    requests: list[str] = []
    console_errors: list[str] = []
    page_errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page_errors.append(str(e)))
    # anything that would leave the machine is stopped inside the browser
    # (and still recorded above), so a faulty page sends no traffic
    page.route(re.compile(r"^(?!file:|data:|about:)"), lambda route: route.abort())
    start = time.monotonic()
    page.goto(Path(html).resolve().as_uri(), wait_until="load", timeout=120_000)
    try:
        page.wait_for_function("performance.getEntriesByType('paint').length > 0", timeout=PAINT_LIMIT_MS)
    except Exception:  # noqa: BLE001 - no paint entry is reported as a problem below
        pass
    load_seconds = time.monotonic() - start
    timing = page.evaluate(TIMING_JS)
    snapshot = page.evaluate(SNAPSHOT_JS)
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{name}.png"))
        small = page.locator("figure.graph").filter(has=page.locator("svg"))
        for i in range(min(small.count(), 20)):
            fig = small.nth(i)
            nodes = fig.get_attribute("data-nodes") or ""
            if nodes.isdigit() and 1 < int(nodes) <= GRAPH_SHOT_MAX_NODES:
                fig.scroll_into_view_if_needed()
                fig.screenshot(path=str(shots / f"{name}-graph.png"))
                break
    return PageRun(name, page, requests, console_errors, page_errors, timing, snapshot, load_seconds)


def contract_problems(snap: dict, spec: dict) -> list[str]:
    """Sections, counts and tables against the contract and the CLI's numbers."""
    problems: list[str] = []
    if snap["lang"] != "en":
        problems.append(f"<html lang> is {snap['lang']!r}, not 'en'")
    title = snap["title"] or ""
    if not title.startswith("pte report: "):
        problems.append(f"title {title!r} does not start with 'pte report: '")
    for name in spec.get("names", []):
        if name not in title:
            problems.append(f"title {title!r} does not name {name!r}")
    expected_files = spec["files"]
    files = snap["files"]
    if len(files) != len(expected_files):
        problems.append(f"{len(files)} section.file, expected {len(expected_files)}")
    if len(expected_files) >= 2 and not snap["comparison"]:
        problems.append("no section#comparison on a page of several files")
    for k, (got, want) in enumerate(zip(files, expected_files)):
        problems += [f"file-{k}: {p}" for p in _file_problems(k, got, want)]
    return problems


def _file_problems(k: int, got: dict, want: dict) -> list[str]:
    problems: list[str] = []
    if got["id"] != f"file-{k}":
        problems.append(f"section id {got['id']!r}, expected 'file-{k}'")
    if got["kind"] not in ("pte", "ptd", "ptn", "bpte", "unknown"):
        problems.append(f"data-kind {got['kind']!r} is not a contract kind")
    elif want.get("kind") is not None and got["kind"] != want["kind"]:
        problems.append(f"data-kind {got['kind']!r}, expected {want['kind']!r}")
    for attr in ("methods", "nodes", "tensors", "violations", "warnings"):
        if not isinstance(got[attr], int):
            problems.append(f"data-{attr} is {got[attr]!r}, not a count")
    if problems:
        return problems
    for attr in ("methods", "violations", "warnings"):
        if want.get(attr) is not None and got[attr] != want[attr]:
            problems.append(f"data-{attr}={got[attr]}, the CLI says {want[attr]}")
    for name in required_sections(want):
        if f"{name}-{k}" not in got["ids"]:
            problems.append(f"no #{name}-{k} inside the section")
    figures = got["figures"]
    if len(figures) != got["methods"]:
        problems.append(f"{len(figures)} figure.graph for data-methods={got['methods']}")
    node_sum = 0
    for f in figures:
        where = f"figure {f['method']!r}"
        if not f["method"]:
            problems.append("a figure.graph without data-method")
        if not isinstance(f["nodes"], int) or not isinstance(f["edges"], int):
            problems.append(f"{where}: data-nodes={f['nodes']!r} data-edges={f['edges']!r} are not counts")
            continue
        node_sum += f["nodes"]
        if not f["svg"]:
            problems.append(f"{where}: no inline <svg>")
        elif f["svgNodes"] != f["nodes"]:
            problems.append(f"{where}: {f['svgNodes']} .node in its svg, data-nodes={f['nodes']}")
    if node_sum != got["nodes"]:
        problems.append(f"figures' data-nodes add up to {node_sum}, section data-nodes={got['nodes']}")
    if got["violationRows"] != got["violations"] or got["warningRows"] != got["warnings"]:
        problems.append(
            f"{got['violationRows']} tr.violation and {got['warningRows']} tr.warning rows, "
            f"data-violations={got['violations']} data-warnings={got['warnings']}"
        )
    if (got["violations"] or got["warnings"]) and got["violationTables"] != 1:
        problems.append(f"{got['violationTables']} table.violations for findings (expected 1)")
    if got["tensorRows"] != got["tensors"]:
        problems.append(f"{got['tensorRows']} tr.tensor rows, data-tensors={got['tensors']}")
    if got["tensors"] and got["tensorTables"] != 1:
        problems.append(f"{got['tensorTables']} table.tensors (expected 1)")
    search = got["search"]
    if search is None:
        problems.append(f"no #search-{k}")
    elif search["type"] != "search" or not search["inside"]:
        problems.append(f"#search-{k} is not an <input type=search> inside the section")
    return problems


def hygiene_problems(run: PageRun) -> list[str]:
    """Requests that left the file, console errors and uncaught exceptions."""
    problems = [f"network request {u}" for u in run.requests if not u.startswith(LOCAL_SCHEMES)]
    problems += [f"console error: {m}" for m in run.console_errors]
    problems += [f"page error: {m}" for m in run.page_errors]
    return problems


# The first node of the file whose label is not empty: its index among the
# file's `.node` elements and the label text (its first <text>, else all text).
FIRST_LABEL_JS = """
(k) => {
  const nodes = document.querySelectorAll('#file-' + k + ' .node');
  for (let i = 0; i < nodes.length; i++) {
    const t = nodes[i].querySelector('text');
    const label = ((t ? t.textContent : nodes[i].textContent) || '').trim();
    if (label) return {index: i, label};
  }
  return null;
}
"""


def search_problems(run: PageRun, k: int, timeout_ms: int = 10_000, shots: Path | None = None) -> list[str]:
    """Typing a node's label highlights that node (class `match`); clearing it un-highlights.

    With `shots`, the highlighted node is scrolled into view and photographed
    (NAME-search-K.png), so a person can see what the highlight looks like.
    """
    page = run.page
    target = page.evaluate(FIRST_LABEL_JS, k)
    if target is None:
        return []
    box = page.locator(f"#search-{k}")
    if box.count() != 1:
        return [f"no #search-{k} to type into"]
    index, label = target["index"], target["label"]
    box.fill(label)
    try:
        page.wait_for_function(
            "([k, i]) => document.querySelectorAll('#file-' + k + ' .node')[i].classList.contains('match')",
            arg=[k, index],
            timeout=timeout_ms,
        )
    except Exception:  # noqa: BLE001 - a timeout is the finding
        return [f"file-{k}: typing {label!r} into #search-{k} did not put class 'match' on that node"]
    matched = page.evaluate("(k) => document.querySelectorAll('#file-' + k + ' .node.match').length", k)
    print(f"  search file-{k}: {label!r} highlights {matched} node(s)")
    if shots is not None:
        node = page.locator(f"#file-{k} .node").nth(index)
        node.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"{run.name}-search-{k}.png"))
    box.fill("")
    try:
        page.wait_for_function(
            "(k) => document.querySelectorAll('#file-' + k + ' .node.match').length === 0",
            arg=k,
            timeout=timeout_ms,
        )
    except Exception:  # noqa: BLE001 - a timeout is the finding
        return [f"file-{k}: clearing #search-{k} left nodes with class 'match'"]
    return []


# Where the drawings' labels are, as the browser lays out their text: each
# treemap label against its rectangle and clip, each edge label against its
# own edge (sampled along the path) and the drawing's bounds. Drawings in a
# closed <details> have no layout (a zero box) and are left out.
LABELS_JS = """
() => {
  const problems = [];
  const name = el => (el.textContent || '').trim();
  document.querySelectorAll('svg.treemap g.part').forEach(part => {
    const rect = part.querySelector(':scope > rect');
    const title = name(part.querySelector(':scope > title') || part);
    const right = rect.x.baseVal.value + rect.width.baseVal.value;
    part.querySelectorAll('text').forEach(t => {
      const b = t.getBBox();
      if (b.width === 0) return;
      if (b.x + b.width > right + 0.5) {
        problems.push(`treemap label ${JSON.stringify(name(t))} ends at ${(b.x + b.width).toFixed(1)}, past its rectangle (${right.toFixed(1)}) (${title})`);
      }
      if (!t.closest('[clip-path]')) problems.push(`treemap label ${JSON.stringify(name(t))} is not clipped (${title})`);
    });
  });
  document.querySelectorAll('figure.graph svg').forEach(svg => {
    const labels = [...svg.querySelectorAll('text.edge-label')];
    if (!labels.length) return;
    const edges = [...svg.querySelectorAll('path.edge')].filter(p => name(p.querySelector('title') || p) !== '');
    if (edges.length !== labels.length) {
      problems.push(`${edges.length} labelled edges, ${labels.length} edge labels`);
      return;
    }
    const width = svg.viewBox.baseVal.width;
    labels.forEach((label, i) => {
      const b = label.getBBox();
      if (b.width === 0) return;
      if (b.x < 0 || b.x + b.width > width + 0.5) {
        problems.push(`edge label ${JSON.stringify(name(label))} leaves the drawing (x ${b.x.toFixed(1)}..${(b.x + b.width).toFixed(1)}, width ${width})`);
      }
      const path = edges[i];
      const length = path.getTotalLength();
      for (let at = 0; at <= length; at += 1) {
        const p = path.getPointAtLength(at);
        if (p.x > b.x + 0.5 && p.x < b.x + b.width - 0.5 && p.y > b.y + 0.5 && p.y < b.y + b.height - 0.5) {
          problems.push(`edge label ${JSON.stringify(name(label))} lies over its own edge at (${p.x.toFixed(1)}, ${p.y.toFixed(1)})`);
          break;
        }
      }
    });
  });
  return problems;
}
"""


def label_problems(run: PageRun) -> list[str]:
    """Treemap labels inside their rectangles (and clipped), edge labels beside their edge."""
    return run.page.evaluate(LABELS_JS)


def paint_ms(run: PageRun) -> float | None:
    paint = run.timing.get("paint") or {}
    return paint.get("first-paint", paint.get("first-contentful-paint"))


def paint_problems(run: PageRun) -> list[str]:
    ms = paint_ms(run)
    if ms is None:
        return ["no paint entry in performance.getEntriesByType('paint')"]
    if ms > PAINT_LIMIT_MS:
        return [f"first paint after {ms:.0f} ms (limit {PAINT_LIMIT_MS} ms)"]
    return []
