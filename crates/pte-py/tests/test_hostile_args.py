"""Hostile arguments through every public callable (issue #47 item 6): only
PteError, OSError, ValueError and TypeError come out, interrupts raised by a
runner propagate, and bytes paths are paths.

The callables are enumerated from ``__all__`` of pte_rs and its submodules,
and the methods from the classes of the files :func:`pte_rs.open` returns, so
a new entry point is swept without being listed here. Each parameter gets
every hostile value in turn, the other parameters a working value by name
(or the same hostile value when the name is not known here). Callables that
need executorch are swept where it imports (scripts/dev/py-tests.sh runs
without it; the ExecuTorch venv has it)."""

import importlib
import io
import inspect
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

import pte_rs

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "corpus"
REGRESSIONS = ROOT / "tests" / "regressions"
ALLOWED = (pte_rs.PteError, OSError, ValueError, TypeError)

#: Entry points that take over the process's stdin and stdout by design
#: (`python -m pte_rs.runner`): swept by test_runners.py in a subprocess.
TAKES_STDIO = {"pte_rs.runner.main", "pte_rs.runner.claim_stdio"}
#: Entry points that need executorch (and torch) to do anything.
NEEDS_EXECUTORCH = {"pte_rs.runners.ExecuTorch", "pte_rs.exir.deserialize_pte_binary",
                    "pte_rs.exir.serialize_pte_binary"}


def has_executorch():
    try:
        import executorch.runtime  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def public_callables():
    """(qualified name, callable) for every public callable of pte_rs and its
    submodules, each once (``samples.record`` is ``recording.record``)."""
    seen = set()
    for module in [pte_rs] + [importlib.import_module(f"pte_rs.{m}") for m in sorted(pte_rs._SUBMODULES)]:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj) or id(obj) in seen:
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue  # exception classes take any arguments
            seen.add(id(obj))
            yield f"{module.__name__}.{name}", obj


def corrupt_files():
    return sorted(p for p in REGRESSIONS.glob("*/*") if p.is_file())


def hostile_values(tmp):
    """The values every parameter gets in turn. Files are copies in ``tmp``:
    a writer handed one as its output replaces it."""
    corrupt = []
    for i, p in enumerate((corrupt_files()[0], corrupt_files()[-1], CORPUS / "external" / "io.safetensors")):
        corrupt.append(tmp / f"hostile{i}{p.suffix}")
        shutil.copy(p, corrupt[-1])
    return [
        None, True, -1, -(2**70), 2**64, 2**200, math.nan, math.inf, 1.5, "", "x" * 100_000, "\0",
        b"", b"/no/such/file.pte", str(tmp / "missing.pte"), tmp / "missing.pte", tmp, str(tmp),
        str(corrupt[0]), corrupt[1], corrupt[0].read_bytes(), corrupt[2],
        object(), [None], [-1], {"a": 1}, (1, 2, 3), np.float32(np.nan), np.int64(-1),
    ]


class Echo:
    """An engine returning its inputs."""

    name = "echo"

    def methods(self):
        return ["forward"]

    def fresh(self):
        pass

    def call(self, method, inputs):
        return list(inputs)


def working_values(tmp):
    """A value that works, by parameter name; paths are copies in ``tmp``
    (some callables write to them)."""
    program = tmp / "model.pte"
    shutil.copy(CORPUS / "linear" / "model.pte", program)
    package = tmp / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", package)
    data = program.read_bytes()
    return {
        "source": program, "path": program, "program": program, "pte": program, "paths": [program],
        "ptds": [], "ptd": None, "out": tmp / "out.pte", "pte_path": tmp / "e.pte", "ptd_path": tmp / "e.ptd",
        "directory": tmp / "set", "data": data, "data1": data, "data2": data, "program_data": data,
        "max_size": 64, "max_out_size": 64, "seed": 1, "runner": Echo(), "engine": Echo(), "fn": Echo(),
        "method": "forward", "set": "s", "name": "s", "calls": [[(np.zeros(4, np.float32),)]], "sets": [],
        "sample_set": pte_rs.SampleSet("forward", "s", []), "argv": ["true"], "by": None, "top": None,
        "instream": io.BytesIO(b""), "outstream": io.BytesIO(), "module": None, "a": np.zeros(2, np.uint16),
        "words": np.zeros(2, np.uint16),
        "replace": True, "keys": None, "name_constants": None,
        "pte_file": pte_rs.exir.deserialize_pte_binary(data) if has_executorch() else None,
    }


def parameters(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature
        return None
    return [p for p in sig.parameters.values() if p.name != "self"]


def calls_of(fn, work, hostile):
    """(description, args, kwargs): each parameter hostile in turn, the
    required others working; ``**options`` gets the write options."""
    params = parameters(fn)
    if params is None:
        for h in hostile:
            yield f"({h!r:.40})", (h,), {}
        return
    names = [p.name for p in params if p.kind is p.VAR_KEYWORD and p.name == "options"]
    targets = [p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    extra = list(pte_rs._OPTION_KEYS) if names else []
    for target in [p.name for p in targets] + extra:
        for h in hostile:
            kwargs = {}
            for p in targets:
                if p.name == target:
                    kwargs[p.name] = h
                elif p.default is p.empty:
                    kwargs[p.name] = work.get(p.name, h)
            if target in extra:
                kwargs[target] = h
            yield f"{target}={h!r:.40}", (), kwargs


def sweep(name, fn, work, hostile):
    wrong = []
    for what, args, kwargs in calls_of(fn, work, hostile):
        try:
            fn(*args, **kwargs)
        except ALLOWED:
            pass
        except Exception as e:  # noqa: BLE001 - the point of the sweep
            wrong.append(f"{name}({what}): {type(e).__name__}: {e!s:.200}")
    return wrong


CALLABLES = dict(public_callables())


def test_the_sweep_finds_the_entry_points():
    for name in ("pte_rs.open", "pte_rs.fuzz.mutate", "pte_rs.samples.verify", "pte_rs.runners.ExecuTorch",
                 "pte_rs.internalize", "pte_rs.recording.write_set", "pte_rs.runner.serve"):
        assert name in CALLABLES


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_module_callables_raise_only_allowed_errors(name, tmp_path):
    if name in TAKES_STDIO:
        pytest.skip("takes over stdin and stdout")
    if name in NEEDS_EXECUTORCH and not has_executorch():
        pytest.skip("needs executorch")
    wrong = sweep(name, CALLABLES[name], working_values(tmp_path), hostile_values(tmp_path))
    assert not wrong, "\n".join(wrong[:20])


def file_methods(f):
    for name, _ in inspect.getmembers(type(f), callable):
        if not name.startswith("_"):
            yield name, getattr(f, name)


@pytest.mark.parametrize("corpus", ["linear/model.pte", "external/_default_external_constant.ptd",
                                    "native_ptn/model.ptn", "bundled/model.bpte"])
def test_file_methods_raise_only_allowed_errors(corpus, tmp_path):
    source = tmp_path / Path(corpus).name
    shutil.copy(CORPUS / corpus, source)
    f = pte_rs.open(source)
    work = working_values(tmp_path)
    wrong = []
    for name, method in file_methods(f):
        wrong += sweep(f"{type(f).__name__}.{name}", method, work, hostile_values(tmp_path))
    assert not wrong, "\n".join(wrong[:20])


# ---- the findings of issue #47 item 6, one by one ---------------------------

@pytest.mark.parametrize("bad", [-1, 2**64, 2**200])
def test_fuzz_sizes_and_seeds_out_of_range_are_value_errors(bad):
    data = (CORPUS / "add" / "model.pte").read_bytes()
    for call in (lambda: pte_rs.fuzz.mutate(data, bad, 1), lambda: pte_rs.fuzz.mutate(data, 64, bad),
                 lambda: pte_rs.fuzz.cross_over(data, data, bad, 1),
                 lambda: pte_rs.fuzz.cross_over(data, data, 64, bad)):
        with pytest.raises(ValueError, match="out of range"):
            call()
    with pytest.raises(TypeError):
        pte_rs.fuzz.mutate(data, "64", 1)


@pytest.mark.parametrize("bad", [-1, 2**64, 2**200])
def test_size_top_and_write_options_out_of_range_are_value_errors(bad, tmp_path):
    f = pte_rs.open(CORPUS / "linear" / "model.pte")
    with pytest.raises(ValueError, match="out of range"):
        f.size(top=bad)
    for option in ("segment_alignment", "tensor_alignment", "delegate_alignment", "constant_repack"):
        with pytest.raises(ValueError, match="out of range"):
            f.to_bytes(**{option: bad})
        with pytest.raises(ValueError, match="out of range"):
            f.save(tmp_path / "out.pte", **{option: bad})
    assert not (tmp_path / "out.pte").exists()
    assert f.size(top=1)["parts"][-1]["name"] == "other"


def test_a_sample_int_out_of_range_is_a_value_error(tmp_path):
    package = tmp_path / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", package)
    before = package.read_bytes()
    sets = [pte_rs.SampleSet("forward", "big", [pte_rs.Sample([pte_rs.Call([2**70], [0])])])]
    with pytest.raises(ValueError, match="out of range"):
        pte_rs.write_samples(package, sets)
    assert package.read_bytes() == before


def test_verify_without_a_runner_is_a_type_error():
    bpte = CORPUS / "bundled" / "model.bpte"
    for runner in (None, object(), "runner"):
        with pytest.raises(TypeError, match="runner needs a callable"):
            pte_rs.samples.verify(bpte, runner)


class Interrupting(Echo):
    def __init__(self, exc, where):
        self.exc, self.where, self.calls = exc, where, 0

    def fresh(self):
        if self.where == "fresh":
            raise self.exc

    def call(self, method, inputs):
        self.calls += 1
        raise self.exc


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit])
@pytest.mark.parametrize("where", ["fresh", "call"])
def test_interrupts_in_a_runner_propagate(exc, where):
    bpte = CORPUS / "bundled" / "model.bpte"
    runner = Interrupting(exc(), where)
    with pytest.raises(exc):
        pte_rs.samples.verify(bpte, runner)
    assert runner.calls == (0 if where == "fresh" else 1)
    # an Exception is still the runner's failure
    r = pte_rs.samples.verify(bpte, Interrupting(RuntimeError("boom"), where))
    assert r.verdict == "runner_failed" and "RuntimeError: boom" in str(r)


def test_bytes_paths_are_paths(tmp_path):
    bpte = CORPUS / "bundled" / "model.bpte"
    r = pte_rs.samples.verify(bytes(bpte), Echo())
    assert r.runner == "echo" and r.samples >= 1
    program = bytes(CORPUS / "linear" / "model.pte")
    assert pte_rs.selected_operators([program]) == pte_rs.selected_operators([CORPUS / "linear" / "model.pte"])
    f = pte_rs.open(CORPUS / "linear" / "model.pte")
    out = tmp_path / "out.pte"
    assert f.save(bytes(out)) == out.stat().st_size
    assert pte_rs.internalize(program, [], bytes(tmp_path / "in.pte")) == (tmp_path / "in.pte").stat().st_size


# ---- the ExecuTorch engine ---------------------------------------------------

def test_executorch_refuses_in_pte_errors(tmp_path):
    if not has_executorch():
        pytest.skip("needs executorch")
    from pte_rs.runners import ExecuTorch

    with pytest.raises(pte_rs.PteError) as e:
        ExecuTorch(tmp_path / "missing.pte")
    assert e.value.kind == "io"
    with pytest.raises(pte_rs.PteError) as e:
        ExecuTorch(CORPUS / "native_ptn" / "model.ptn")
    assert e.value.kind == "invalid_use" and "not a .pte" in str(e.value)
    with pytest.raises(pte_rs.PteError) as e:
        ExecuTorch(CORPUS / "external" / "io.safetensors")
    assert e.value.kind == "invalid_use" and "safetensors" in str(e.value)
    text = tmp_path / "notes.txt"
    text.write_text("not a program")
    with pytest.raises(pte_rs.PteError):
        ExecuTorch(text)
    truncated = tmp_path / "cut.pte"
    truncated.write_bytes((CORPUS / "linear" / "model.pte").read_bytes()[:200])
    with pytest.raises(pte_rs.PteError):
        ExecuTorch(truncated)
    engine = ExecuTorch(CORPUS / "linear" / "model.pte")
    with pytest.raises(pte_rs.PteError) as e:
        engine.call("nope", [])
    assert e.value.kind == "invalid_use" and "no method 'nope'" in str(e.value)
    with pytest.raises(pte_rs.PteError) as e:
        engine.call("forward", [np.zeros(3, np.float32)])
    assert e.value.kind == "runtime" and "refused the call" in str(e.value)


def test_executorch_takes_a_bytes_path_as_a_path():
    if not has_executorch():
        pytest.skip("needs executorch")
    from pte_rs.runners import ExecuTorch

    path = CORPUS / "linear" / "model.pte"
    engine = ExecuTorch(bytes(path))
    assert engine.path == str(path) and engine.methods() == ["forward"]
    # the program's bytes are no path: refused, not loaded as the program
    with pytest.raises(pte_rs.PteError) as e:
        ExecuTorch(path.read_bytes())
    assert e.value.kind == "io"
