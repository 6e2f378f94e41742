"""pte_rs.runners.ExecuTorch across releases, with stand-ins for the runtime of
each (no executorch needed): it loads a program with its .ptd through
whatever the release offers, and says in one line what a release cannot do."""

import sys
import types
from pathlib import Path

import pytest

import pte_rs
from pte_rs.runners import ExecuTorch

EXTERNAL = Path(__file__).resolve().parents[3] / "tests" / "corpus" / "external"
PTE, PTD = str(EXTERNAL / "model.pte"), str(EXTERNAL / "_default_external_constant.ptd")


class _Module:
    """What _load_for_executorch returns: methods by name, run by name."""

    def method_names(self):
        return ["forward"]

    def run_method(self, name, inputs):
        return [len(inputs)]


def fake_release(monkeypatch, version, *, runtime_data_path, bindings_data_path):
    """Installs stand-ins of ``executorch.runtime`` and the bindings; returns the loads they saw."""
    loads = []

    class Program:
        method_names = {"forward"}

    class Runtime:
        @staticmethod
        def get():
            return Runtime()

        if runtime_data_path:
            def load_program(self, data, *, verification=None, data_path=None):
                loads.append(("load_program", data, data_path))
                return Program()
        else:
            def load_program(self, data, *, verification=None):
                loads.append(("load_program", data, None))
                return Program()

    if bindings_data_path:
        def load_for_executorch(program_path, data_path=None, program_verification=None):
            loads.append(("bindings", program_path, data_path))
            return _Module()
    else:
        def load_for_executorch(program_path, program_verification=None):
            raise AssertionError("not called with a data file it cannot take")

    et = types.ModuleType("executorch")
    runtime = types.ModuleType("executorch.runtime")
    runtime.Runtime, runtime.Verification = Runtime, types.SimpleNamespace(InternalConsistency=1, Minimal=0)
    ver = types.ModuleType("executorch.version")
    ver.__version__ = version
    ext, pyb = types.ModuleType("executorch.extension"), types.ModuleType("executorch.extension.pybindings")
    lib = types.ModuleType("executorch.extension.pybindings.portable_lib")
    lib._load_for_executorch = load_for_executorch
    pyb.portable_lib = lib
    for name, mod in [("executorch", et), ("executorch.runtime", runtime), ("executorch.version", ver),
                      ("executorch.extension", ext), ("executorch.extension.pybindings", pyb),
                      ("executorch.extension.pybindings.portable_lib", lib)]:
        monkeypatch.setitem(sys.modules, name, mod)
    if "torch" not in sys.modules:
        monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    return loads


def test_a_release_whose_load_program_takes_no_data_file_loads_it_through_the_bindings(monkeypatch):
    loads = fake_release(monkeypatch, "1.0.0+cpu", runtime_data_path=False, bindings_data_path=True)
    e = ExecuTorch(PTE, ptd=PTD)
    assert loads == [("bindings", PTE, PTD)] and e.methods() == ["forward"] and e.name == "executorch-python 1.0.0+cpu"
    assert e.call("forward", [1.0, 2.0]) == [2]
    e.fresh()  # a fresh state is a new load
    assert loads[1:] == [("bindings", PTE, PTD)]
    # a program alone goes through load_program, without a data_path it would refuse
    loads.clear()
    ExecuTorch(PTE)
    assert loads == [("load_program", PTE, None)]


def test_a_release_that_takes_data_path_gets_it(monkeypatch):
    loads = fake_release(monkeypatch, "1.5.1+cpu", runtime_data_path=True, bindings_data_path=True)
    ExecuTorch(PTE, ptd=PTD)
    assert loads == [("load_program", PTE, PTD)]


def test_a_release_that_cannot_load_a_data_file_says_so_in_one_line(monkeypatch):
    fake_release(monkeypatch, "0.9.0", runtime_data_path=False, bindings_data_path=False)
    with pytest.raises(pte_rs.PteError) as e:
        ExecuTorch(PTE, ptd=PTD)
    text = str(e.value)
    assert "executorch-python 0.9.0 cannot load a .ptd with a program" in text and "\n" not in text
    assert e.value.kind == "runtime"
