"""The runner protocol (pte_rs.runner), the ExecuTorch engine (pte_rs.runners)
and recording (pte_rs.recording).

The protocol tests drive the server in-process with an in-memory engine and
need numpy only. The ExecuTorch tests run where ``import executorch`` works and
are skipped otherwise."""

import io
import json
import math
import shutil
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pte_rs
from common import CORPUS, cli
from pte_rs import _protocol as proto
from pte_rs.recording import BF16, bf16, read_set, record, write_set
from pte_rs.runner import Client, RunnerError, serve


def executorch_or_skip():
    try:
        import executorch.runtime  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        pytest.skip(f"executorch not installed: {type(e).__name__}: {e}")


# ---- an in-memory engine ---------------------------------------------------

class Fake:
    """``forward(x)`` returns ``x + calls`` (calls since the last fresh); ``echo`` returns its inputs."""

    name = "fake 1.0"

    def __init__(self):
        self.calls = 0
        self.freshened = 0

    def methods(self):
        return ["forward", "echo", "fail"]

    def fresh(self):
        self.calls = 0
        self.freshened += 1

    def call(self, method, inputs):
        if method == "forward":
            (x,) = inputs
            self.calls += 1
            return [x + np.asarray(self.calls - 1, dtype=x.dtype)]
        if method == "echo":
            return list(inputs)
        if method == "fail":
            raise ValueError("boom")
        raise KeyError(method)


def message(header, payload=b""):
    out = io.BytesIO()
    proto.write_message(out, header, payload)
    return out.getvalue()


def call_message(method, inputs):
    tensors = {}
    values = proto.encode_values(inputs, "in", tensors)
    return message({"op": "call", "method": method, "inputs": values},
                   proto.encode_safetensors(tensors) if tensors else b"")


HELLO = message({"op": "hello", "protocol": "pte-runner", "version": 1})


def run(engine, *requests):
    """Serves the concatenated requests; returns (exit status, [(reply, decoded outputs or payload)])."""
    out = io.BytesIO()
    status = serve(engine, io.BytesIO(b"".join(requests)), out)
    out.seek(0)
    replies = []
    while True:
        m = proto.read_message(out)
        if m is None:
            break
        header, payload = m
        if "outputs" in header:
            replies.append((header, proto.decode_values(header["outputs"], proto.decode_safetensors(payload)
                                                        if payload else {}, "outputs"), payload))
        else:
            replies.append((header, None, payload))
    return status, replies


# ---- the protocol ----------------------------------------------------------

def test_hello_fresh_call_bye():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    e = Fake()
    status, r = run(e, HELLO, call_message("forward", [x]), call_message("forward", [x]),
                    message({"op": "fresh"}), call_message("forward", [x]), message({"op": "bye"}),
                    message({"op": "hello", "protocol": "pte-runner", "version": 1}))
    assert status == 0
    assert r[0][0] == {"ok": True, "protocol": "pte-runner", "version": 1, "runner": "fake 1.0",
                       "methods": ["forward", "echo", "fail"]}
    assert r[1][0]["ok"] and r[1][0]["outputs"] == [{"type": "tensor", "key": "out.0", "dtype": "F32",
                                                      "shape": [2, 3]}]
    assert r[1][0]["data"] == len(r[1][2])
    np.testing.assert_array_equal(r[1][1][0], x)
    np.testing.assert_array_equal(r[2][1][0], x + 1)  # state carried between calls
    assert r[3][0] == {"ok": True}
    np.testing.assert_array_equal(r[4][1][0], x)  # fresh: the initial state again
    assert r[5][0] == {"ok": True}
    assert len(r) == 6  # nothing is read after bye


def test_end_of_input_exits_0():
    assert run(Fake()) == (0, [])
    status, r = run(Fake(), HELLO)
    assert status == 0 and r[0][0]["ok"]


def test_hello_wrong_version_or_protocol():
    status, r = run(Fake(), message({"op": "hello", "protocol": "pte-runner", "version": 2}),
                    message({"op": "hello", "protocol": "other", "version": 1}),
                    message({"op": "hello", "protocol": "pte-runner", "version": True}), HELLO)
    assert status == 0
    for reply, _, _ in r[:3]:
        assert reply["ok"] is False and "pte-runner version 1" in reply["error"]
    assert r[3][0]["ok"] is True


def test_engine_without_method_list():
    class Bare:
        def fresh(self):
            pass

        def call(self, method, inputs):
            return inputs

    status, r = run(Bare(), HELLO)
    assert r[0][0]["ok"] and "methods" not in r[0][0] and r[0][0]["runner"] == "python Bare"


@pytest.mark.parametrize("garbage, fragment", [
    (b"not json\n", "not JSON"),
    (b"[1, 2]\n", "not an object"),
    (b"\xff\xfe\n", "not JSON"),
    (message({"op": "dance"}), "unknown op 'dance'"),
    (message({"foo": 1}), "unknown op None"),
    (message({"op": "call", "inputs": []}), "string 'method'"),
    (message({"op": "call", "method": "echo", "inputs": {}}), "'inputs' must be an array"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "tensor", "key": "in.0"}]}),
     "not in the payload"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "tensor", "key": "in.0"}]}, b"garbage!!"),
     "safetensors"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "complex", "value": 1}]}),
     "unknown value type 'complex'"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "int", "value": 1.5}]}), "bad int"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "int", "value": 1 << 63}]}), "bad int"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "float", "value": "nan:0x12"}]}), "bad float"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "bool", "value": 1}]}), "bad bool"),
    (message({"op": "call", "method": "echo", "inputs": [{"type": "int"}]}), "needs a 'value'"),
    (message({"op": "call", "method": "echo", "inputs": [1]}), "object with a 'type'"),
])
def test_garbage_gets_an_error_and_the_runner_goes_on(garbage, fragment):
    status, r = run(Fake(), garbage, HELLO)
    assert status == 0
    assert r[0][0]["ok"] is False and fragment in r[0][0]["error"], r[0][0]
    assert r[1][0]["ok"] is True  # the next request is still answered


def test_declared_dtype_and_shape_must_match_the_payload():
    payload = proto.encode_safetensors({"in.0": np.zeros(3, np.float32)})
    for bad, fragment in [({"dtype": "F64", "shape": [3]}, "dtype 'F64'"), ({"dtype": "F32", "shape": [1, 3]},
                                                                              "shape [1, 3]")]:
        req = message({"op": "call", "method": "echo", "inputs": [{"type": "tensor", "key": "in.0", **bad}]},
                      payload)
        _, r = run(Fake(), req)
        assert r[0][0]["ok"] is False and fragment in r[0][0]["error"]


def test_engine_failure_is_reported_with_its_type():
    _, r = run(Fake(), call_message("fail", []), call_message("nope", []), HELLO)
    assert r[0][0] == {"ok": False, "error": "ValueError: boom"}
    assert r[1][0]["ok"] is False and r[1][0]["error"].startswith("KeyError")
    assert r[2][0]["ok"]


def test_bad_engine_outputs_are_reported():
    class Odd(Fake):
        def call(self, method, inputs):
            return {"echo": 3, "obj": [object()], "mixed": [[np.zeros(1), 1]], "big": [1 << 64]}[method]

    _, r = run(Odd(), call_message("echo", []), call_message("obj", []), call_message("mixed", []),
               call_message("big", []))
    assert "not a list of outputs" in r[0][0]["error"]
    assert "unsupported value of type object" in r[1][0]["error"]
    assert "tensor list" in r[2][0]["error"]
    assert r[3][0]["error"].startswith("OverflowError")


def test_truncated_messages_end_the_runner_with_status_1():
    cut = call_message("echo", [np.zeros(4, np.float32)])[:-3]
    status, r = run(Fake(), HELLO, cut)
    assert status == 1 and r[0][0]["ok"] and r[1][0]["ok"] is False and "3 bytes short" in r[1][0]["error"]
    status, r = run(Fake(), b'{"op": "hello"')
    assert status == 1 and "no newline" in r[0][0]["error"]
    status, r = run(Fake(), b'{"op": "call", "data": -1}\n')
    assert status == 1 and "byte count" in r[0][0]["error"]


ALL_DTYPES = [
    np.array([1.5, -0.0, np.inf, np.nan], np.float64),
    np.array([[1.5, -2.25]], np.float32),
    np.array([0.5, 65504.0], np.float16),
    bf16(np.array([0x3F80, 0xFFFF, 0x7F80], np.uint16)),
    np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max], np.int64),
    np.array([-(1 << 31), 7], np.int32),
    np.array([-32768, 32767], np.int16),
    np.array([-128, 127], np.int8),
    np.array([0, 255], np.uint8),
    np.array([[True, False], [False, True]]),
    np.array([65535], np.uint16),
    np.array([1 << 31], np.uint32),
    np.array([(1 << 64) - 1], np.uint64),
    np.array([1 + 2j, -0.5j], np.complex64),
    np.array(3.25, np.float32),           # 0-dimensional
    np.zeros((0, 3), np.int64),           # empty
]


def test_every_dtype_round_trips_exactly():
    _, r = run(Fake(), call_message("echo", ALL_DTYPES))
    reply, outs, payload = r[0]
    assert reply["ok"]
    codes = [v["dtype"] for v in reply["outputs"]]
    assert codes == ["F64", "F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "BOOL", "U16", "U32", "U64",
                     "C64", "F32", "I64"]
    for sent, got in zip(ALL_DTYPES, outs):
        assert got.dtype == sent.dtype and got.shape == sent.shape
        assert got.tobytes() == sent.tobytes()
        assert proto.is_bf16(got) == proto.is_bf16(sent)
    # The payload is plain safetensors: header keys out.<i>, tensors back to back.
    n = struct.unpack("<Q", payload[:8])[0]
    header = json.loads(payload[8:8 + n])
    assert list(header) == [f"out.{i}" for i in range(len(ALL_DTYPES))]
    ends = [header[k]["data_offsets"] for k in header]
    assert ends[0][0] == 0 and all(a[1] == b[0] for a, b in zip(ends, ends[1:]))
    assert ends[-1][1] == len(payload) - 8 - n


def nan_with(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def test_scalars_and_lists_round_trip():
    values = [0, -(1 << 63), (1 << 63) - 1, 1.0, -0.0, 1e-300, math.inf, -math.inf, math.nan,
              nan_with(0x7FF0000000000001), nan_with(0xFFF8000000000000), True, False, "héllo\n\"x\"", None,
              [np.ones(2, np.float32), bf16(np.array([1, 2], np.uint16))], []]
    _, r = run(Fake(), call_message("echo", values))
    reply, outs, _ = r[0]
    assert reply["ok"]
    wire = reply["outputs"]
    assert [v["type"] for v in wire] == ["int"] * 3 + ["float"] * 8 + ["bool"] * 2 + ["string", "none",
                                                                                      "tensor_list", "tensor_list"]
    assert [v["value"] for v in wire[6:11]] == ["inf", "-inf", "nan", "nan:0x7ff0000000000001",
                                               "nan:0xfff8000000000000"]
    assert wire[15]["items"][1] == {"key": "out.15.1", "dtype": "BF16", "shape": [2]}
    assert wire[16] == {"type": "tensor_list", "items": []}
    for sent, got in zip(values, outs):
        if isinstance(sent, float):
            assert struct.pack("<d", sent) == struct.pack("<d", got)  # bit for bit, NaN payloads and -0.0 too
        elif isinstance(sent, list):
            assert len(sent) == len(got) and all(a.tobytes() == b.tobytes() and a.dtype == b.dtype
                                                 for a, b in zip(sent, got))
        else:
            assert got == sent and type(got) is type(sent)


def test_float_encoding():
    assert proto.encode_float(0.1) == 0.1 and json.dumps(proto.encode_float(-0.0)) == "-0.0"
    assert proto.decode_float("nan:0x7ff8000000000001") != proto.decode_float("nan:0x7ff8000000000001")
    for bad in ["nan:0x7FF8000000000001", "nan:0x0000000000000001", "nan:0x+ff8000000000001", "nan:0x7ff8_00000000001",
                "NaN", True, "1.0"]:
        with pytest.raises(proto.ProtocolError):
            proto.decode_float(bad)


def test_bf16_tag_survives_array_operations():
    a = bf16(np.array([[1, 2], [3, 4]], np.uint16))
    for b in (a.copy(), a.reshape(4), a[:1], np.ascontiguousarray(a.T)):
        assert proto.is_bf16(b) and proto.dtype_code(b) == "BF16"
    assert proto.dtype_code(np.array([1], np.uint16)) == "U16"
    assert a.dtype == np.uint16 and BF16 == np.uint16


# ---- claim_stdio and the Client, in a subprocess ---------------------------

FAKE_RUNNER = textwrap.dedent("""
    import os, sys
    from pte_rs.runner import claim_stdio, serve
    instream, outstream = claim_stdio()
    print("a library printing to stdout")
    os.write(1, b"and one writing to fd 1\\n")
    sys.path.insert(0, {here!r})
    from test_runners import Fake
    sys.exit(serve(Fake(), instream, outstream))
""")


def test_client_and_claimed_stdout(tmp_path):
    script = tmp_path / "fake_runner.py"
    script.write_text(FAKE_RUNNER.format(here=str(Path(__file__).parent)))
    x = np.arange(4, dtype=np.int32)
    with Client([sys.executable, str(script)], stderr=subprocess.PIPE) as c:
        assert c.hello()["runner"] == "fake 1.0"
        assert np.array_equal(c.call("forward", [x])[0], x)
        assert np.array_equal(c.call("forward", [x])[0], x + 1)
        c.fresh()
        assert np.array_equal(c.call("forward", [x])[0], x)
        with pytest.raises(RunnerError, match="ValueError: boom"):
            c.call("fail", [])
        out = c.call("echo", ALL_DTYPES)
        assert [a.tobytes() for a in out] == [a.tobytes() for a in ALL_DTYPES]
    assert c.process.returncode == 0
    err = c.process.stderr.read().decode()
    assert "a library printing to stdout" in err and "and one writing to fd 1" in err


def test_module_runner_without_executorch_says_how_to_get_it(tmp_path):
    try:
        import executorch.runtime  # noqa: F401
        pytest.skip("executorch is installed here")
    except ImportError:
        pass
    p = subprocess.run([sys.executable, "-m", "pte_rs.runner", str(CORPUS / "add" / "model.pte")], input=HELLO,
                       capture_output=True)
    assert p.returncode == 2
    reply = json.loads(p.stdout.decode().splitlines()[0])
    assert reply["ok"] is False and "pip install executorch" in reply["error"]
    assert b"pip install executorch" in p.stderr
    # the stderr tail `pte samples check` shows opens with the runner's own words
    assert p.stderr.startswith(b"pte_rs.runner: cannot start"), p.stderr


def test_executorch_engine_missing_raises_a_clear_error(monkeypatch):
    from pte_rs.runners import ExecuTorch, ExecuTorchNotInstalled

    monkeypatch.setitem(sys.modules, "executorch.runtime", None)
    with pytest.raises(ExecuTorchNotInstalled, match="pip install executorch") as e:
        ExecuTorch(CORPUS / "add" / "model.pte")
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, ImportError)


# ---- recording -------------------------------------------------------------

class Counter:
    """A stateful callable: adds its call count to x (numpy only)."""

    def __init__(self):
        self.n = 0

    def __call__(self, x, scale):
        self.n += 1
        return x * scale + self.n, float(self.n)


def test_record_samples_tolerances_and_fresh():
    c = Counter()
    x = np.ones(3, np.float32)
    s = record(c, "forward", "s", [[(x, 2)], [(x, 2), (x, 3)]], tolerance=[[None], [(1e-4, 0), None]],
               fresh=lambda: setattr(c, "n", 0))
    assert isinstance(s, pte_rs.SampleSet) and (s.method, s.name, s.tolerance) == ("forward", "s", None)
    assert [len(smp.calls) for smp in s.samples] == [1, 2]
    a, b = s.samples[1].calls
    assert a.inputs[1] == 2 and np.array_equal(a.outputs[0], x * 2 + 1) and a.outputs[1] == 1.0
    assert np.array_equal(b.outputs[0], x * 3 + 2) and b.outputs[1] == 2.0
    assert np.array_equal(s.samples[0].calls[0].outputs[0], x * 2 + 1)  # fresh before each sample
    assert (a.tolerance, b.tolerance) == ((1e-4, 0.0), None)
    # A flat list of input tuples is one sample; a pair is the set's tolerance.
    one = record(Counter(), "forward", "flat", [(x, 1), (x, 1)], tolerance=(1e-6, 1e-5))
    assert len(one.samples) == 1 and len(one.samples[0].calls) == 2 and one.tolerance == (1e-6, 1e-5)
    # Per-call tolerances apply to each sample; named samples from a dict.
    named = record(Counter(), "forward", "named", {"a": [(x, 1)], "b": [(x, 1)]}, tolerance=[(0.0, 1e-3)])
    assert [smp.name for smp in named.samples] == ["a", "b"]
    assert all(smp.calls[0].tolerance == (0.0, 1e-3) for smp in named.samples)
    with pytest.raises(ValueError, match="per-call tolerances"):
        record(Counter(), "forward", "x", [(x, 1), (x, 1)], tolerance=[None])
    with pytest.raises(ValueError, match="finite"):
        record(Counter(), "forward", "x", [(x, 1)], tolerance=(-1.0, 0))


def test_record_copies_inputs_before_and_outputs_after():
    state = np.zeros(2, np.float32)

    def fn(x):
        out = state  # returns its own buffer, then mutates its input and the buffer
        state[:] += x
        x[:] = -1
        return out

    x = np.ones(2, np.float32)
    s = record(fn, "forward", "copies", [(x.copy(),), (x.copy(),)])
    c0, c1 = s.samples[0].calls
    assert np.array_equal(c0.inputs[0], [1, 1]) and np.array_equal(c0.outputs[0], [1, 1])
    assert np.array_equal(c1.outputs[0], [2, 2])


def test_record_an_engine():
    e = Fake()
    x = np.arange(3, dtype=np.float64)
    s = record(e, "forward", "engine", [[(x,), (x,)], [(x,)]])
    assert e.freshened == 2  # before each sample
    assert [np.asarray(c.outputs[0]).tolist() for smp in s.samples for c in smp.calls] == \
        [[0, 1, 2], [1, 2, 3], [0, 1, 2]]


def test_write_set_and_read_set_round_trip(tmp_path):
    values = [np.arange(6, dtype=np.float32).reshape(2, 3), bf16(np.array([0x3F80], np.uint16)), 7, 2.5, math.nan,
              True, "s", None, [np.zeros(2, np.int8)]]
    s = pte_rs.SampleSet("forward", "all", [pte_rs.Sample([pte_rs.Call(values, values[:2], (1e-6, 0.0))], "one",
                                                          (1e-5, 1e-5))], (1e-4, 1e-4))
    write_set(s, tmp_path / "set")
    index = json.loads((tmp_path / "set" / "index.json").read_text())
    assert index["format"] == "pte-samples" and index["version"] == 1 and index["set"] == "all"
    assert index["samples"][0]["calls"][0]["inputs"][1] == {"type": "tensor", "key": "0.0.in.1", "dtype": "BF16",
                                                          "shape": [1]}
    back = read_set(tmp_path / "set")
    assert (back.method, back.name, back.tolerance) == ("forward", "all", (1e-4, 1e-4))
    smp = back.samples[0]
    assert (smp.name, smp.tolerance, smp.calls[0].tolerance) == ("one", (1e-5, 1e-5), (1e-6, 0.0))
    got = smp.calls[0].inputs
    assert proto.is_bf16(got[1]) and got[1].tobytes() == values[1].tobytes()
    assert got[2:4] == [7, 2.5] and math.isnan(got[4]) and got[5:8] == [True, "s", None]
    assert got[8][0].dtype == np.int8


def test_write_set_is_what_pte_samples_add_reads(tmp_path):
    pte = cli()
    ptn = tmp_path / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", ptn)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 16)).astype(np.float32)
    y = rng.standard_normal((2, 8)).astype(np.float32)
    s = record(lambda a: y, "forward", "recorded", [(x,)], tolerance=(1e-6, 1e-5))
    write_set(s, tmp_path / "set")
    subprocess.run([pte, "samples", "add", str(ptn), str(tmp_path / "set")], check=True, capture_output=True)
    (got,) = pte_rs.read_samples(ptn)
    assert (got.method, got.name, got.tolerance) == ("forward", "recorded", (1e-6, 1e-5))
    call = got.samples[0].calls[0]
    assert np.array_equal(call.inputs[0], x) and np.array_equal(call.outputs[0], y)
    subprocess.run([pte, "samples", "export", str(ptn), "forward", "recorded", str(tmp_path / "exported")],
                   check=True, capture_output=True)
    assert (tmp_path / "exported" / "data.safetensors").read_bytes() == (tmp_path / "set" / "data.safetensors"
                                                                        ).read_bytes()
    assert json.loads((tmp_path / "exported" / "index.json").read_text()) == \
        json.loads((tmp_path / "set" / "index.json").read_text())


# ---- the stock ExecuTorch runtime ------------------------------------------

def corpus_io(case, name="io.safetensors"):
    return proto.decode_safetensors((CORPUS / case / name).read_bytes())


IO_CASES = sorted(p.parent.name for p in CORPUS.glob("*/io.safetensors") if p.parent.name != "deep_program")


@pytest.mark.parametrize("case", IO_CASES)
def test_executorch_engine_matches_the_recorded_outputs(case):
    executorch_or_skip()
    from pte_rs.runners import ExecuTorch

    ptds = sorted((CORPUS / case).glob("*.ptd"))
    e = ExecuTorch(CORPUS / case / "model.pte", ptd=ptds or None)
    assert e.name.startswith("executorch-python ") and "forward" in e.methods()
    t = corpus_io(case)
    inputs = [t[f"input.{i}"] for i in range(sum(k.startswith("input.") for k in t))]
    outputs = e.call("forward", inputs)
    expected = [t[f"output.{i}"] for i in range(sum(k.startswith("output.") for k in t))]
    assert len(outputs) == len(expected)
    for a, b in zip(outputs, expected):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_fresh_gives_the_initial_state_of_a_mutable_buffer():
    """Two samples in a row, each from the initial state: the first call of each
    equals the stock runtime's output from a freshly loaded program, and the
    second call of each (which sees the mutated buffer) differs from it."""
    executorch_or_skip()
    from pte_rs.runners import ExecuTorch

    t = corpus_io("mutable_buffer")
    x, first = t["input.0"], t["output.0"]
    e = ExecuTorch(CORPUS / "mutable_buffer" / "model.pte")
    s = record(e, "forward", "two", [[(x,), (x,)], [(x,), (x,)]])
    assert e.loads == 2  # one reload: before the second sample (the first ran on the fresh load)
    (a1, a2), (b1, b2) = [[c.outputs[0] for c in smp.calls] for smp in s.samples]
    assert a1.tobytes() == first.tobytes() and b1.tobytes() == first.tobytes()
    assert a2.tobytes() == b2.tobytes() and a2.tobytes() != first.tobytes()
    # The same through the protocol server, in-process.
    status, r = run(e, HELLO, message({"op": "fresh"}), call_message("forward", [x]), call_message("forward", [x]),
                    message({"op": "fresh"}), call_message("forward", [x]), call_message("forward", [x]),
                    message({"op": "fresh"}), message({"op": "fresh"}), call_message("forward", [x]))
    assert status == 0 and all(reply["ok"] for reply, _, _ in r)
    outs = [o[0].tobytes() for _, o, _ in r if o is not None]
    assert outs == [first.tobytes(), a2.tobytes(), first.tobytes(), a2.tobytes(), first.tobytes()]


def test_module_runner_serves_executorch():
    executorch_or_skip()
    t = corpus_io("mutable_buffer")
    x, first = t["input.0"], t["output.0"]
    with Client([sys.executable, "-m", "pte_rs.runner", str(CORPUS / "mutable_buffer" / "model.pte")],
                stderr=subprocess.DEVNULL) as c:
        info = c.hello()
        assert info["methods"] == ["forward"] and info["runner"].startswith("executorch-python")
        one = c.call("forward", [x])[0]
        two = c.call("forward", [x])[0]
        c.fresh()
        again = c.call("forward", [x])[0]
        assert one.tobytes() == first.tobytes() == again.tobytes() != two.tobytes()
        with pytest.raises(RunnerError, match="no method 'nope'"):
            c.call("nope", [x])
        with pytest.raises(RunnerError, match="RuntimeError"):
            c.call("forward", [np.zeros(3, np.float32)])  # a static shape refused by the runtime
    assert c.process.returncode == 0


def test_pte_samples_check_with_the_runner(tmp_path):
    """``pte samples check FILE.bpte -- python -m pte_rs.runner FILE.pte`` (once the CLI has runners)."""
    executorch_or_skip()
    pte = cli()
    helptext = subprocess.run([pte, "samples", "check", "--help"], capture_output=True, text=True).stdout
    if "runner" not in helptext.lower():
        pytest.skip("this pte CLI has no `samples check -- CMD` yet")
    case = CORPUS / "mutable_buffer"
    subprocess.run([pte, "samples", "import-io", str(case / "io.safetensors"), "forward", "io", str(tmp_path / "io")],
                   check=True, capture_output=True)
    subprocess.run([pte, "bpte", "bundle", str(case / "model.pte"), str(tmp_path / "io"), str(tmp_path / "m.bpte")],
                   check=True, capture_output=True)
    runner = ["--", sys.executable, "-m", "pte_rs.runner", str(case / "model.pte")]
    ok = subprocess.run([pte, "samples", "check", str(tmp_path / "m.bpte")] + runner, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    # A wrong expected value fails the check.
    s = read_set(tmp_path / "io")
    s.samples[0].calls[0].outputs[0] = s.samples[0].calls[0].outputs[0] + np.float32(1)
    write_set(s, tmp_path / "wrong")
    subprocess.run([pte, "bpte", "bundle", str(case / "model.pte"), str(tmp_path / "wrong"),
                    str(tmp_path / "w.bpte")], check=True, capture_output=True)
    bad = subprocess.run([pte, "samples", "check", str(tmp_path / "w.bpte")] + runner, capture_output=True, text=True)
    assert bad.returncode == 1, bad.stdout + bad.stderr


# ---- torch -----------------------------------------------------------------

def torch_or_skip():
    try:
        import torch
    except ImportError as e:
        pytest.skip(f"torch not installed: {e}")
    return torch


def test_torch_conversion_is_exact():
    torch = torch_or_skip()
    for a in ALL_DTYPES:
        t = proto.to_torch(a)
        assert list(t.shape) == list(a.shape)
        back = proto.to_numpy(t)
        assert back.dtype == a.dtype and back.shape == a.shape and back.tobytes() == a.tobytes()
        assert proto.is_bf16(back) == proto.is_bf16(a)
    t = proto.to_torch(bf16(np.array([0x3F80, 0xC000], np.uint16)))
    assert t.dtype == torch.bfloat16 and t.tolist() == [1.0, -2.0]
    # Non-contiguous and conjugated tensors come out dense with their values.
    m = torch.arange(6, dtype=torch.float32).reshape(2, 3).t()
    assert proto.to_numpy(m).tolist() == m.tolist()
    z = torch.tensor([1 + 2j], dtype=torch.complex64).conj()
    assert proto.to_numpy(z).tolist() == [1 - 2j]


def test_record_a_torch_module_with_buffers():
    torch = torch_or_skip()

    class Acc(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("total", torch.zeros(2))
            self.register_buffer("steps", torch.zeros((), dtype=torch.int64), persistent=False)

        def forward(self, x):
            self.total.add_(x)
            self.steps.add_(1)
            return self.total, self.steps.to(torch.bfloat16), [x, x * 2]

    m = Acc()
    x = np.ones(2, np.float32)
    s = record(m, "forward", "acc", [[(x,), (x,)], [(x,)]], fresh=True)  # numpy inputs handed over as torch
    (c0, c1), (d0,) = [smp.calls for smp in s.samples]
    assert c0.outputs[0].tolist() == [1, 1] and c1.outputs[0].tolist() == [2, 2]
    assert d0.outputs[0].tolist() == [1, 1]  # restored, the non-persistent buffer too:
    assert proto.is_bf16(d0.outputs[1]) and proto.to_torch(d0.outputs[1]).item() == 1.0
    assert isinstance(d0.outputs[2], list) and d0.outputs[2][1].tolist() == [2, 2]
    with pytest.warns(UserWarning, match="no `fresh`"):
        record(Acc(), "forward", "x", [[(x,)], [(x,)]])
