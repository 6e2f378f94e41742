"""pte_rs.samples.verify: the in-process check gives the CLI's report, field for field."""

import json
import os
import subprocess

import numpy as np
import pytest

import pte_rs
import pte_rs.samples as S

PTE = os.environ.get("PTE_BIN")
# an example of pte-cli, built beside pte (scripts/dev/py-tests.sh builds it)
DEMO = os.path.join(os.path.dirname(PTE), "examples", "pte-runner-demo") if PTE else None


class Sum:
    """What pte-runner-demo computes for ``forward``: the running sum and the call count."""

    name = "py-sum"

    def __init__(self, offset=0.0, forget=False):
        self.offset, self.forget = offset, forget
        self.fresh()

    def methods(self):
        return ["forward", "scale"]

    def fresh(self):
        self.s, self.n = None, 0

    def call(self, method, inputs):
        if self.forget:
            self.fresh()
        x = inputs[0]
        self.s = x.copy() if self.s is None else self.s + x
        self.n += 1
        return [self.s + np.float32(self.offset), self.n]


@pytest.fixture()
def sums(tmp_path):
    steps = [(np.array([1, 2], np.float32),), (np.array([0.5, 0.25], np.float32),),
             (np.array([-1, 4], np.float32),)]
    s = S.record(Sum(), "forward", "sums", [steps, steps], tolerance=[None, None, (1e-3, 0.0)])
    S.write_set(s, tmp_path / "forward" / "sums")
    return tmp_path


def test_a_faithful_runner_passes(sums):
    r = S.verify(sums, Sum())
    assert (r.verdict, r.passed, r.exit_code, r.calls, r.samples, r.runner) == ("passed", True, 0, 6, 2, "py-sum")
    assert [c["level"] for c in r.call_results[:3]] == ["default", "default", "call"]


def test_state_matters_and_mismatches_name_the_element(sums):
    r = S.verify(sums, Sum(forget=True))
    assert r.verdict == "mismatch" and r.exit_code == 1
    assert {(f["sample"], f["call"]) for f in r.failures} == {(0, 1), (0, 2), (1, 1), (1, 2)}
    f = r.failures[0]
    assert (f["output"], f["element"], f["expected"], f["actual"]) == (0, 1, 2.25, 0.25)  # the worst element


def test_a_runner_that_raises_ends_the_check(sums):
    class Broken(Sum):
        def call(self, method, inputs):
            raise ValueError("no kernel for aten::add.out")

    r = S.verify(sums, Broken())
    assert r.verdict == "runner_failed" and r.exit_code == 2 and len(r.failures) == 1
    assert "ValueError: no kernel for aten::add.out" in r.failures[0]["message"]


def test_selection_and_sources_without_samples_raise(sums, tmp_path):
    with pytest.raises(pte_rs.PteError, match="no sample set"):
        S.verify(sums, Sum(), set="other")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(pte_rs.PteError, match="directory with no index.json"):
        S.verify(empty, Sum())


@pytest.mark.skipif(not PTE, reason="PTE_BIN is not set (scripts/dev/py-tests.sh sets it)")
@pytest.mark.parametrize("offset", [0.0, 1e-3])
def test_python_and_cli_reports_agree(sums, offset):
    cli = subprocess.run([PTE, "samples", "check", str(sums), "--json", "--", DEMO, "--offset", str(offset)],
                         capture_output=True, text=True)
    expected = json.loads(cli.stdout)
    got = S.verify(sums, Sum(offset=offset)).to_json()
    assert cli.returncode == S.CheckReport(**got).exit_code
    for report in (expected, got):
        report.pop("runner")
    assert got == expected


def test_several_runners_give_the_matrix(sums):
    m = S.verify(sums, {"old": Sum(), "new": Sum(offset=1.0)})
    assert isinstance(m, S.MatrixReport)
    assert (m.verdict, m.passed, m.exit_code, m.order, m.sets) == ("mismatch", False, 1, ["old", "new"],
                                                                   ["forward/sums"])
    assert list(m.runners) == ["old", "new"]
    assert m.runners["old"].verdict == "passed" and m.runners["new"].verdict == "mismatch"
    rows = {r["runner"]: r for r in m.table}
    assert rows["old"]["status"] == "passed" and rows["old"]["worst"] is None
    worst = rows["new"]["worst"]
    assert rows["new"]["status"] == "mismatch" and rows["new"]["failures"] == len(m.runners["new"].failures)
    assert (worst["set"], worst["output"], worst["expected"] + 1.0) == ("sums", 0, worst["actual"])
    # a list of pairs is the same; one runner alone keeps the one report
    pairs = S.verify(sums, [("old", Sum()), ("new", Sum(offset=1.0))])
    assert pairs.to_json() == m.to_json()
    assert isinstance(S.verify(sums, Sum()), S.CheckReport)


def test_several_runners_need_distinct_names(sums):
    with pytest.raises(ValueError, match="must differ"):
        S.verify(sums, [("a", Sum()), ("a", Sum())])
    with pytest.raises(TypeError, match="non-empty str"):
        S.verify(sums, {1: Sum()})
    with pytest.raises(TypeError, match="pairs"):
        S.verify(sums, [Sum()])


@pytest.mark.skipif(not PTE, reason="PTE_BIN is not set (scripts/dev/py-tests.sh sets it)")
def test_python_and_cli_matrices_agree(sums):
    cli = subprocess.run([PTE, "samples", "check", str(sums), "--json", "--runner", f"old={DEMO}",
                          "--runner", f"new={DEMO} --offset 1"], capture_output=True, text=True)
    expected = json.loads(cli.stdout)
    got = S.verify(sums, {"old": Sum(), "new": Sum(offset=1.0)}).to_json()
    assert cli.returncode == 1
    for report in (expected, got):
        for r in report["runners"].values():
            r.pop("runner")
    assert got == expected
