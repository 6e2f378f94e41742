"""File.size(): the object `pte size --json` prints, as plain data, for every
corpus file; groupings keep the sum; hostile files give a report or PteError."""

import json
import subprocess

import pytest

import pte_rs
from common import CORPUS, REGRESSIONS, FILES, HOSTILE, cli


def total(report):
    return sum(p["bytes"] for p in report["parts"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_size_equals_cli_and_adds_up(path):
    f = pte_rs.open(path)
    r = f.size()
    out = subprocess.run([cli(), "size", "--json", str(path)], check=True, capture_output=True, text=True).stdout
    assert r == json.loads(out)
    assert r["file_size"] == path.stat().st_size == total(r)
    assert all(p["bytes"] > 0 for p in r["parts"])
    assert r["notes"] == []
    for by in ("kind", "tensor", "operator", "delegate"):
        g = f.size(by=by, top=3)
        assert g["by"] == by
        assert total(g) == r["file_size"]
        assert len(g["parts"]) <= 4


def test_size_names_constants_and_xnnpack_weights():
    r = pte_rs.open(CORPUS / "linear" / "model.pte").size()
    parts = {p["name"]: p for p in r["parts"]}
    assert parts["constant[1]"]["kind"] == "constant" and parts["constant[1]"]["bytes"] == 48
    x = pte_rs.open(CORPUS / "xnnpack_mlp" / "model.pte").size(by="operator")
    fc = next(p for p in x["parts"] if p["name"] == "XnnpackBackend:XNNFullyConnected")
    assert (fc["bytes"], fc["count"]) == (3232, 4)


def test_size_of_bytes_and_bad_arguments():
    data = (CORPUS / "native_ptn" / "model.ptn").read_bytes()
    r = pte_rs.open(data).size(top=1)
    assert [p["name"] for p in r["parts"]][-1] == "other"
    assert total(r) == len(data)
    with pytest.raises(pte_rs.PteError):
        pte_rs.open(data).size(by="colour")


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: str(p.relative_to(REGRESSIONS)))
def test_hostile_files_get_a_report_or_a_typed_error(path):
    data = path.read_bytes()
    try:
        f = pte_rs.open(data)
        r = f.size()
    except pte_rs.PteError:
        return
    assert total(r) == len(data)
