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


# ---- in-process runners: the runtime's own execute, no conversion in between ----

from pte_rs.runners import InProcess  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def sum_execute(seen):
    """Sum's state as an ``execute`` function; records what it was handed in ``seen``."""
    state = Sum()

    def execute(method, inputs):
        seen.append(inputs)
        return state.call(method, inputs)

    return state, execute


def test_an_in_process_runner_gets_writable_arrays_of_the_recorded_bytes(sums):
    seen = []
    state, execute = sum_execute(seen)
    r = S.verify(sums, InProcess(execute, state.fresh, methods=["forward"], name="in-proc", tensors="numpy"))
    assert (r.verdict, r.calls, r.runner) == ("passed", 6, "in-proc")
    assert len(seen) == 6
    x = seen[0][0]
    assert isinstance(x, np.ndarray) and x.dtype == np.float32 and x.flags.writeable
    assert x.tolist() == [1.0, 2.0]
    x[:] = 99  # the runner's own copy: writing it changes nothing recorded
    assert S.verify(sums, InProcess(sum_execute([])[1], tensors="numpy")).verdict == "mismatch"  # no fresh: state kept


def test_an_in_process_runner_reports_as_the_call_runner_does(sums):
    state, execute = sum_execute([])
    fast = S.verify(sums, InProcess(execute, state.fresh, name="py-sum", tensors="numpy")).to_json()
    assert fast == S.verify(sums, Sum()).to_json()
    forgetful = Sum(forget=True)
    slow = S.verify(sums, forgetful).to_json()
    fast = S.verify(sums, InProcess(lambda m, i: forgetful.call(m, i), forgetful.fresh, name="py-sum",
                                    tensors="numpy")).to_json()
    assert fast == slow and fast["verdict"] == "mismatch"


def test_an_object_with_in_process_is_driven_through_it(sums):
    class Wrapped:
        """call() would fail: verify must use in_process()."""

        def fresh(self):
            raise AssertionError("not used")

        def call(self, method, inputs):
            raise AssertionError("not used")

        def in_process(self):
            state, execute = sum_execute([])
            return InProcess(execute, state.fresh, name="wrapped", tensors="numpy")

    r = S.verify(sums, Wrapped())
    assert (r.verdict, r.runner) == ("passed", "wrapped")


def test_in_process_arguments_are_checked():
    with pytest.raises(TypeError, match="execute must be callable"):
        InProcess(3)
    with pytest.raises(TypeError, match="fresh must be callable"):
        InProcess(lambda m, i: [], fresh=3)
    with pytest.raises(ValueError, match="tensors must be"):
        InProcess(lambda m, i: [], tensors="jax")


def test_an_in_process_runner_that_raises_ends_the_check(sums):
    def execute(method, inputs):
        raise RuntimeError("kernel missing")

    r = S.verify(sums, InProcess(execute, tensors="numpy"))
    assert r.verdict == "runner_failed" and "RuntimeError: kernel missing" in r.failures[0]["message"]


def executorch_or_skip():
    try:
        import executorch.runtime  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        pytest.skip(f"executorch not installed: {type(e).__name__}: {e}")


def linear_set(tmp_path, calls=3):
    """Calls of the corpus's linear program, outputs from the stock runtime."""
    from pte_rs.runners import ExecuTorch

    program = os.path.join(ROOT, "tests", "corpus", "linear", "model.pte")
    rng = np.random.default_rng(0)
    engine = ExecuTorch(program)
    steps = [(rng.standard_normal((2, 4)).astype(np.float32),) for _ in range(calls)]
    s = S.record(engine, "forward", "linear", [steps], tolerance=(1e-6, 1e-6))
    S.write_set(s, tmp_path / "forward" / "linear")
    return program


def test_the_stock_runtime_in_process_agrees_with_its_call_path(tmp_path):
    executorch_or_skip()
    from executorch.runtime import Runtime

    from pte_rs.runners import ExecuTorch

    program = linear_set(tmp_path)

    class ViaCall:
        """ExecuTorch through call(): numpy in, numpy out."""

        def __init__(self):
            self.e = ExecuTorch(program)
            self.name = self.e.name

        def fresh(self):
            self.e.fresh()

        def call(self, method, inputs):
            return self.e.call(method, inputs)

    slow = S.verify(tmp_path, ViaCall()).to_json()
    fast = S.verify(tmp_path, ExecuTorch(program)).to_json()
    assert slow["verdict"] == "passed" and fast == slow
    # Method.execute of the stock runtime, wrapped as it stands
    method = Runtime.get().load_program(program).load_method("forward")
    bare = S.verify(tmp_path, InProcess(lambda m, inputs: method.execute(inputs), name=slow["runner"])).to_json()
    assert bare == slow
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


def test_a_subclass_that_overrides_call_is_driven_through_it(sums):
    # an engine offering in_process() whose subclass changes what a call does (the
    # forgetful runner: state dropped before each call) must not be run around its call
    from pte_rs.runner import _in_process
    from pte_rs.runners import in_process_of

    class Offering:
        name = "offering"

        def __init__(self):
            self.state, self.execute = sum_execute([])

        def fresh(self):
            self.state.fresh()

        def call(self, method, inputs):
            return self.state.call(method, inputs)

        def in_process(self):
            return InProcess(self.execute, self.state.fresh, name=self.name, tensors="numpy")

    class Forgetting(Offering):
        def call(self, method, inputs):
            self.state.fresh()
            return super().call(method, inputs)

    assert in_process_of(Offering()) is not None
    assert in_process_of(Forgetting()) is None and _in_process(Forgetting()) is None
    assert S.verify(sums, Offering()).verdict == "passed"
    # through its call, the dropped state shows: the check fails as the forgetful runner must
    assert S.verify(sums, Forgetting()).verdict == "mismatch"
