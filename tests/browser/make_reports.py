"""Write `pte report` pages of corpus files and a manifest of what each must show.

    python tests/browser/make_reports.py PTE_BIN OUT_DIR

The expected counts come from the CLI's own JSON (`pte info --json`,
`pte verify --json`), so the page is judged against the same reader.
OUT_DIR/manifest.json lists the pages for test_report_pages.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"

# (page name, input files, --ptd file or None)
CASES = [
    ("plain", ["multi_method/model.pte"], None),
    ("delegates", ["xnnpack_mlp/model.pte"], None),
    ("deep_program", ["deep_program/model.pte"], None),
    ("ptn", ["native_ptn/model.ptn"], None),
    ("bpte", ["bundled/model.bpte"], None),
    ("ptd", ["external/_default_external_constant.ptd"], None),
    ("pte_with_ptd", ["external/model.pte"], "external/_default_external_constant.ptd"),
    ("comparison", ["linear/model.pte", "add/model.pte"], None),
    # a hostile file: the page must still be written and stay clean
    ("hostile", ["../regressions/overflow/pte-program-size-max.pte"], None),
]

KINDS = {"pte", "ptd", "ptn", "bpte"}


def cli_json(pte: str, *args: str):
    """The command's JSON, or None when it printed none (a refused file)."""
    r = subprocess.run([pte, *args], capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return None


def expected(pte: str, path: Path, ptd: Path | None) -> dict:
    info = cli_json(pte, "info", "--json", str(path))
    verify_args = ["verify", "--json", str(path)] + (["--ptd", str(ptd)] if ptd else [])
    verify = cli_json(pte, *verify_args)
    f: dict = {"file": str(path.relative_to(ROOT)), "ptd": ptd is not None}
    if info is None:
        # the reader refuses the file: only the page's own consistency and
        # the verifier's findings can be checked
        f.update(readable=False, kind=None, methods=None, delegates=False)
    else:
        kind = info.get("format")
        program = info.get("program") if kind == "bpte" else info
        program = program if isinstance(program, dict) else {}
        f.update(
            readable=True,
            kind=kind if kind in KINDS else None,
            methods=len(program.get("methods") or []),
            delegates=bool(program.get("delegates")),
        )
    if verify is None:
        f.update(violations=None, warnings=None)
    else:
        f.update(violations=len(verify.get("violations", [])), warnings=len(verify.get("warnings", [])))
    return f


def main() -> int:
    pte, out = sys.argv[1], Path(sys.argv[2]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    for name, inputs, ptd in CASES:
        paths = [(CORPUS / p).resolve() for p in inputs]
        ptd_path = (CORPUS / ptd).resolve() if ptd else None
        html = out / f"{name}.html"
        html.unlink(missing_ok=True)
        # paths relative to the repository, so the pages (and the screenshots
        # in docs/) name files as a user in a clone would see them
        rel = [str(p.relative_to(ROOT)) for p in paths]
        cmd = [pte, "report", *rel, "-o", str(html)] + (["--ptd", str(ptd_path.relative_to(ROOT))] if ptd_path else [])
        start = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        took = time.monotonic() - start
        # exit 1 is "the file was found wanting": the page is still written
        if r.returncode not in (0, 1) or not html.is_file():
            print(f"pte report failed for {name} (exit {r.returncode}): {' '.join(cmd)}\n{r.stderr}", file=sys.stderr)
            return 1
        size = html.stat().st_size
        print(f"{name}: {size:,} bytes in {took:.2f} s (exit {r.returncode})")
        pages.append(
            {
                "name": name,
                "html": str(html),
                "names": [p.name for p in paths],
                "files": [expected(pte, p, ptd_path) for p in paths],
                "bytes": size,
            }
        )
    largest = max(pages, key=lambda p: p["bytes"])
    largest["largest"] = True
    (out / "manifest.json").write_text(json.dumps({"pages": pages}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
