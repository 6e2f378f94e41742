"""What the test modules share: where the repository's corpus and regression
files are, and the `pte` CLI whose answers the package's must equal."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "corpus"
REGRESSIONS = ROOT / "tests" / "regressions"
# every corpus file of a kind the package opens
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".pte", ".ptd", ".ptn", ".bpte"))
# every regression input, the notes beside them left out
HOSTILE = sorted(p for p in REGRESSIONS.rglob("*") if p.is_file() and p.suffix != ".md")


def cli():
    """The built `pte` (`PTE_BIN`, else the workspace's debug build); the
    test is skipped when there is none."""
    exe = os.environ.get("PTE_BIN") or str(ROOT / "target" / "debug" / "pte")
    if not Path(exe).exists():
        pytest.skip("pte CLI not built (cargo build -p pte-cli, or set PTE_BIN)")
    return exe
