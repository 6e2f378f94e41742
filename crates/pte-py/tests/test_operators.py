"""pytest of Program/Bundle/Package.operators() and pte_rs.selected_operators:
the same answers as `pte ops --json` and `pte ops --yaml`, and the expected
selected-operators files made with ExecuTorch's gen_oplist.py."""

import json
import subprocess

import pytest

import pte_rs
from common import ROOT, CORPUS, REGRESSIONS, cli

CLI_CRATE = ROOT / "crates" / "pte-cli"
EXPECTED = CLI_CRATE / "tests" / "data" / "ops"
PROGRAMS = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".pte", ".bpte", ".ptn"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_operators_equal_the_cli(path):
    out = subprocess.run([cli(), "ops", "--json", str(path)], check=True, capture_output=True, text=True).stdout
    expected = json.loads(out)["files"][0]
    del expected["file"]
    f = pte_rs.open(path)
    assert f.operators() == expected
    assert pte_rs.open(path.read_bytes()).operators() == expected


def test_operators_shape():
    ops = pte_rs.open(CORPUS / "add" / "model.pte").operators()
    assert ops == {"format": "pte", "methods": [{"name": "forward", "delegates": [], "operators": [
        {"name": "aten::add", "overload": "out", "calls": 1, "kernel_keys": ["v1/6;0,1|6;0,1|6;0,1|6;0,1"]}]}]}
    b = pte_rs.open(CORPUS / "bundled" / "model.bpte")
    assert b.operators()["format"] == "bpte"
    assert b.operators()["methods"] == b.program.operators()["methods"]
    x = pte_rs.open(CORPUS / "xnnpack_mlp" / "model.pte").operators()
    assert x["methods"][0]["delegates"] == [{"id": "XnnpackBackend", "calls": 1}]
    n = pte_rs.open(CORPUS / "native_ptn" / "model.ptn").operators()
    assert n["format"] == "ptn"
    assert [(o["name"], o["overload"], o["calls"]) for o in n["methods"][0]["operators"]] == [
        ("aten::linear", "default", 2), ("aten::relu_", "default", 2)]


def test_selected_operators_are_gen_oplists_files(monkeypatch):
    # the expected files name the programs as the CLI's test runs them, from tests/
    monkeypatch.chdir(ROOT / "tests")
    files = sorted(EXPECTED.glob("corpus.*.yaml"))
    assert files
    rels = []
    for f in files:
        _, case, name = f.stem.split(".", 2)
        rel = f"corpus/{case}/{name}"
        rels.append(rel)
        assert pte_rs.selected_operators([rel]) == f.read_text(), rel
    assert pte_rs.selected_operators(rels) == (EXPECTED / "union.yaml").read_text()


def test_selected_operators_equal_the_cli():
    files = [str(p) for p in PROGRAMS if p.suffix != ".ptn"]
    out = subprocess.run([cli(), "ops", "--yaml", *files], check=True, capture_output=True, text=True).stdout
    assert pte_rs.selected_operators(files) == out


def test_files_without_kernels_or_operators_raise():
    with pytest.raises(pte_rs.PteError):
        pte_rs.selected_operators([CORPUS / "native_ptn" / "model.ptn"])
    ptd = pte_rs.open(CORPUS / "external" / "_default_external_constant.ptd")
    # every object answers; a data file's answer is the CLI's refusal
    with pytest.raises(pte_rs.PteError, match="tensor data only"):
        ptd.operators()
    with pytest.raises(pte_rs.PteError):
        pte_rs.selected_operators([CORPUS / "README.md"])


def test_hostile_files_raise_pte_error_or_answer():
    hostile = [p for p in REGRESSIONS.rglob("*") if p.is_file() and p.suffix != ".md"]
    assert hostile
    for p in hostile:
        f = pte_rs.open(p)
        if not hasattr(f, "operators"):
            continue
        try:
            ops = f.operators()
        except pte_rs.PteError:
            continue
        assert isinstance(ops["methods"], list)
