"""pytest of Program/Bundle.memory(): the same plan as `pte memory --json`,
arena 0 left out, and a clear error for files that have no plan."""

import json
import subprocess

import pytest

import pte_rs
from common import CORPUS, cli

PROGRAMS = sorted(CORPUS.rglob("*.pte"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_memory_equals_the_cli(path):
    out = subprocess.run([cli(), "memory", "--json", str(path)], capture_output=True, check=True)
    expected = json.loads(out.stdout)
    assert pte_rs.open(path).memory() == expected
    assert pte_rs.open(path.read_bytes()).memory() == expected


def test_memory_shape_and_arena_zero_left_out():
    plan = pte_rs.open(CORPUS / "add" / "model.pte").memory()
    (m,) = plan["methods"]
    assert m["name"] == "forward"
    assert m["arenas"], "the add program plans its activations"
    assert all(a["id"] >= 1 for a in m["arenas"])
    for t in m["tensors"]:
        assert t["arena"] >= 1
        assert t["offset"] + t["size"] <= next(a["size"] for a in m["arenas"] if a["id"] == t["arena"])


def test_memory_one_method():
    p = pte_rs.open(CORPUS / "add" / "model.pte")
    assert p.memory("forward") == p.memory()
    with pytest.raises(pte_rs.PteError, match="no method \"nope\""):
        p.memory("nope")


def test_bundle_memory_is_its_program():
    bundles = sorted(CORPUS.rglob("*.bpte"))
    if not bundles:
        pytest.skip("no .bpte in the corpus")
    b = pte_rs.open(bundles[0])
    assert b.memory() == b.program.memory()


def test_data_file_has_no_memory_plan():
    ptds = sorted(CORPUS.rglob("*.ptd"))
    if not ptds:
        pytest.skip("no .ptd in the corpus")
    f = pte_rs.open(ptds[0])
    with pytest.raises(pte_rs.PteError, match="no memory plan"):
        f.memory()
