#!/usr/bin/env python3
"""What `pte samples check SOURCE -- RUNNER` costs on top of the runtime's execute time.

Target (issue "runners"): the check's own cost (protocol, comparison, reading
samples) is at most 20% on top of the runtime's execute time, measured in one
run over 1,000 calls of a small method.

Run with the ExecuTorch venv's python (skips with exit 0 without executorch):

    /work/.venv-executorch/bin/python bench/runner_overhead.py [--calls 1000] [--reps 5]
        [--models linear,xnnpack_mlp,deep_program] [--sweep] [--json OUT.json] [--keep DIR]

For each method (a corpus program, its inputs from the `io.safetensors` beside
it; plus `examples/llm/out/model.pte` when it exists, and with `--sweep` MLPs
exported here at growing sizes) it runs the runtime once to get the exact
outputs and writes three sample sets (`<dir>/forward/bench/index.json` +
`data.safetensors`): one call (`c1`), one sample of N calls (`cN`) and N
one-call samples (`sN`, a `fresh` before each: the runners reload the program).
Then, each measurement repeated `--reps` times, median:

* runtime alone: N `method.execute(inputs)` calls in one process, only the
  execute calls timed: the Python runtime (`executorch.runtime`) and the C++
  `Module` (a small program compiled here against the wheel's runtime, as
  `scripts/runners/build-cpp-runner.sh` does; skipped without g++);
* C++ runner: `pte samples check DIR -- pte_runner PROGRAM.pte` end to end
  for `c1`, `cN`, `sN`; per-call check cost `(T_cN - T_c1) / (N - 1)`, per
  fresh sample `(T_sN - T_c1) / (N - 1)`;
* Python runner: its ~5 s of imports vary by 0.1 to 1 s from run to run, more
  than 1,000 small calls take, so the per-call cost is timed inside the
  runner: `pte samples check DIR -- python runner_overhead.py --serve et
  PROGRAM.pte` (exactly `python -m pte_rs.runner`: `claim_stdio`, the
  `ExecuTorch` engine, `pte_rs.runner.serve`, with clocks around the engine
  and the streams) gives the window from the first to the last call, the time
  in the engine and the time the runner is busy with requests; per-call check
  cost = window / N + pte's reading and comparing per call (the `--actual`
  slope below, an upper bound of the part outside the window). The stock
  command end to end (`--e2e-reps`, with its noise) is printed too;
* in process (no runner process): `pte_rs.samples.verify(DIR, ExecuTorch(PROGRAM))`
  timed in this process for `c1` and `cN`, per call `(T_cN - T_c1) / (N - 1)` (the
  `in_process()` path of `pte_rs.runners.ExecuTorch`: `Method.execute` handed torch
  tensors made from the recorded bytes); and `pte_runner --replay PACKAGE.ptn PROGRAM.pte`
  (the C++ runner reading the package with libpte, no checker) end to end for `c1` and `cN`
  on a small Linear exported here as `.pte` and `.ptn` (`--replay` needs a package);
* overhead = per-call check cost / per-call execute time - 1, each runner
  against its own runtime;
* where the time goes: the Python runner serving a no-op engine (canned
  outputs, same protocol code); the Python runner's request handling in
  process (`pte_rs.runner._handle` and the framing, no pipes);
  `pte samples check --actual` (reading the samples and comparing, no
  runner); `pte-runner-demo` (a trivial Rust runner of another method: the
  protocol floor; an example of pte-cli, `cargo build --release -p pte-cli
  --example pte-runner-demo`).

Runners: `python -m pte_rs.runner PROGRAM.pte` (venv python) and
`examples/cpp-runner/build/pte_runner PROGRAM.pte` (build it with
`scripts/runners/build-cpp-runner.sh`; skipped when absent).

Internal modes (this file is also the no-op and the timed runner):
`--serve noop OUTPUTS.safetensors WINDOW.json`, `--serve et PROGRAM.pte WINDOW.json`.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import platform
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODES = {np.dtype("<f4"): "F32", np.dtype("<f8"): "F64", np.dtype("<i8"): "I64", np.dtype("<i4"): "I32",
         np.dtype("u1"): "U8", np.dtype("?"): "BOOL", np.dtype("<f2"): "F16"}
DTYPES = {v: k for k, v in CODES.items()}


# ---- safetensors and sample sets (docs/samples.md) --------------------------

def st_bytes(tensors):
    header, blobs, at = {}, [], 0
    for key, a in tensors.items():
        b = np.ascontiguousarray(a).tobytes()
        header[key] = {"dtype": CODES[a.dtype], "shape": list(a.shape), "data_offsets": [at, at + len(b)]}
        blobs.append(b)
        at += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + b"".join(blobs)


def st_read(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for k, v in header.items():
        if k == "__metadata__":
            continue
        b, e = v["data_offsets"]
        out[k] = np.frombuffer(data[8 + n + b:8 + n + e], dtype=DTYPES[v["dtype"]]).reshape(v["shape"]).copy()
    return out


def write_set(directory, method, name, samples, tolerance=None):
    """samples: list of samples, each a list of (inputs, outputs); values are arrays or floats.
    Writes directory/<method>/<name>/{index.json,data.safetensors}; returns the output tensors by key."""
    tensors, outs, js = {}, {}, []

    def value(v, key, into):
        if isinstance(v, float):
            return {"type": "float", "value": v}
        tensors[key] = v
        if into is not None:
            into[key] = v
        return {"type": "tensor", "key": key, "dtype": CODES[v.dtype], "shape": list(v.shape)}

    for s, calls in enumerate(samples):
        js.append({"calls": [{"inputs": [value(v, f"{s}.{c}.in.{i}", None) for i, v in enumerate(ins)],
                              "outputs": [value(v, f"{s}.{c}.out.{i}", outs) for i, v in enumerate(o)]}
                             for c, (ins, o) in enumerate(calls)]})
    index = {"format": "pte-samples", "version": 1, "method": method, "set": name}
    if tolerance:
        index["tolerance"] = {"atol": tolerance[0], "rtol": tolerance[1]}
    index["samples"] = js
    d = os.path.join(directory, method, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "data.safetensors"), "wb") as f:
        f.write(st_bytes(tensors))
    with open(os.path.join(d, "index.json"), "w") as f:
        json.dump(index, f)
    return outs


# ---- the runner modes of this file ------------------------------------------

class Canned:
    """A no-op engine: every call returns the same stored outputs (out.0, out.1, ...)."""

    name = "canned outputs (runner_overhead.py)"

    def __init__(self, path):
        t = st_read(path)
        self.outputs = [t[f"out.{i}"] for i in range(len(t))]

    def methods(self):
        return None

    def fresh(self):
        pass

    def call(self, method, inputs):
        return self.outputs


class Timed:
    """Wraps an engine and the runner's streams: the window from the first fresh/call to the
    end of the last call, the time spent inside the engine's calls, and the time the runner is
    busy with a request (from its header line read to its reply flushed)."""

    def __init__(self, engine, instream, outstream):
        self.engine, self.name = engine, engine.name
        self.first = self.last = self.started = None
        self.calls = self.freshes = 0
        self.in_engine = self.busy = 0.0
        self._in, self._out = instream, outstream
        timed = self

        class In:
            def readline(self, *a):
                line = timed._in.readline(*a)
                timed.started = time.perf_counter()
                return line

            def read(self, *a):
                return timed._in.read(*a)

            def readinto(self, b):
                return timed._in.readinto(b)

        class Out:
            def write(self, b):
                return timed._out.write(b)

            def flush(self):
                timed._out.flush()
                if timed.started is not None and timed.first is not None:
                    timed.busy += time.perf_counter() - timed.started

        self.instream, self.outstream = In(), Out()

    def methods(self):
        return self.engine.methods()

    def fresh(self):
        if self.first is None:
            self.first = time.perf_counter()
            self.busy = 0.0
        self.freshes += 1
        self.engine.fresh()

    def call(self, method, inputs):
        return self._timed(self.engine.call, method, inputs)

    def _timed(self, f, method, inputs):
        t = time.perf_counter()
        if self.first is None:
            self.first = t
            self.busy = 0.0
        out = f(method, inputs)
        self.last = time.perf_counter()
        self.in_engine += self.last - t
        self.calls += 1
        return out

    def __getattr__(self, name):
        # the engine's in-process form (pte_rs.runners.InProcess), timed the same way, when it has one
        if name != "in_process" or not hasattr(self.engine, "in_process"):
            raise AttributeError(name)
        from pte_rs.runners import InProcess

        def in_process():
            fast = self.engine.in_process()
            return InProcess(lambda m, i: self._timed(fast.execute, m, i), self.fresh, methods=fast.methods,
                             name=fast.name, tensors=fast.tensors)
        return in_process


def serve_mode(kind, arg, window_path):
    from pte_rs.runner import claim_stdio, serve
    instream, outstream = claim_stdio()
    if kind == "et":
        from pte_rs.runners import ExecuTorch
        engine = ExecuTorch(arg)
    else:
        engine = Canned(arg)
    timed = Timed(engine, instream, outstream)
    rc = serve(timed, timed.instream, timed.outstream)
    with open(window_path, "w") as f:
        json.dump({"calls": timed.calls, "freshes": timed.freshes,
                   "window": (timed.last - timed.first) if timed.calls else None,
                   "in_engine": timed.in_engine, "busy": timed.busy}, f)
    return rc


# ---- measuring --------------------------------------------------------------

def median_runs(f, reps):
    return statistics.median(f() for _ in range(reps))


#: CPU seconds (user + system) of the last run_check's processes, pte and the runner: on a shared
#: machine the wall time also holds the time other processes had the cores.
LAST_CPU = [0.0]


def children_cpu():
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_check(pte, source, runner, extra=()):
    t, c = time.perf_counter(), children_cpu()
    p = subprocess.run([pte, "samples", "check", source, *extra, "--", *runner], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    dt = time.perf_counter() - t
    LAST_CPU[0] = children_cpu() - c
    if p.returncode != 0:
        raise RuntimeError(f"pte samples check {source} -- {' '.join(runner)}: exit {p.returncode}\n"
                           f"{p.stdout.decode()[-2000:]}{p.stderr.decode()[-2000:]}")
    return dt


def run_actual(pte, source, actual):
    t = time.perf_counter()
    p = subprocess.run([pte, "samples", "check", source, "--actual", actual], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise RuntimeError(f"pte samples check {source} --actual: exit {p.returncode}\n{p.stderr.decode()}")
    return dt


def check_costs(pte, sets, runner, n, reps, variants=("c1", "cN", "sN")):
    """Median end-to-end times of the variants (interleaved), per-call and per-fresh-sample costs."""
    times = {v: [] for v in variants}
    cpu = {v: [] for v in variants}
    for _ in range(reps):
        for v in variants:
            times[v].append(run_check(pte, sets[v], runner))
            cpu[v].append(LAST_CPU[0])
    med = {v: statistics.median(ts) for v, ts in times.items()}
    r = {f"t_{v}": med[v] for v in variants}
    r["cpu_per_call"] = (statistics.median(cpu["cN"]) - statistics.median(cpu["c1"])) / (n - 1)
    r["spread_c1"] = max(times["c1"]) - min(times["c1"])
    r["per_call"] = (med["cN"] - med["c1"]) / (n - 1)
    if "sN" in med:
        r["per_fresh_call"] = (med["sN"] - med["c1"]) / (n - 1)
    return r


def window_cost(pte, source, runner, window_path, calls, reps):
    """Medians, per call, of what the timed runner saw: window, time in the engine, time busy."""
    ws = {"window": [], "in_engine": [], "busy": []}
    for _ in range(reps):
        run_check(pte, source, runner)
        with open(window_path) as f:
            w = json.load(f)
        if w["calls"] != calls:
            raise RuntimeError(f"the timed runner saw {w['calls']} calls, not {calls}")
        for k in ws:
            ws[k].append(w[k] / calls)
    return {k: statistics.median(v) for k, v in ws.items()}


def python_runtime(program, inputs, n, reps):
    """Per-call seconds of method.execute alone, and the exact outputs (numpy)."""
    import torch
    from executorch.runtime import Runtime
    m = Runtime.get().load_program(program).load_method("forward")
    ins = [torch.from_numpy(a.copy()) for a in inputs]
    outs = [o.detach().numpy().copy() for o in m.execute(ins)]

    def one():
        t = time.perf_counter()
        for _ in range(n):
            m.execute(ins)
        return (time.perf_counter() - t) / n
    return median_runs(one, reps), outs


def verify_in_process(program, sets, n, reps):
    """Per-call cost of pte_rs.samples.verify(DIR, ExecuTorch(program)) in this process."""
    from pte_rs.runners import ExecuTorch
    from pte_rs.samples import verify
    runner = ExecuTorch(program)

    def timed(v):
        t = time.perf_counter()
        report = verify(sets[v], runner)
        dt = time.perf_counter() - t
        if not report.passed:
            raise RuntimeError(f"verify {sets[v]}: {report}")
        return dt
    times = {"c1": [], "cN": []}
    for _ in range(reps):
        for v in times:
            times[v].append(timed(v))
    return (statistics.median(times["cN"]) - statistics.median(times["c1"])) / (n - 1)


def export_linear_package(work):
    """A Linear(4, 4) on a [2, 4] input, exported here as model.pte and model.ptn (for --replay)."""
    import torch
    from executorch.exir import to_edge
    from executorch.exir.native import to_native
    torch.manual_seed(0)
    m = torch.nn.Linear(4, 4).eval()
    x = torch.randn(2, 4)
    ep = torch.export.export(m, (x,))
    pte, ptn = os.path.join(work, "replay_linear.pte"), os.path.join(work, "replay_linear.ptn")
    with open(pte, "wb") as f:
        f.write(to_edge(ep).to_executorch().buffer)
    to_native(ep).save(ptn)
    return pte, ptn, [x.numpy()]


def cpp_replay(args, cpp_runner, cpp_bench, work, n, reps):
    """pte_runner --replay on c1 and cN packages of an exported Linear, against its C++ execute."""
    program, ptn, inputs = export_linear_package(work)
    _, outputs = python_runtime(program, inputs, 10, 1)
    call = (inputs, outputs)
    packages = {}
    for v, samples in (("c1", [[call]]), ("cN", [[call] * n])):
        d = os.path.join(work, "replay", v)
        write_set(d, "forward", "bench", samples, (1e-4, 1e-4))
        packages[v] = os.path.join(work, f"replay_{v}.ptn")
        shutil.copy(ptn, packages[v])
        p = subprocess.run([args.pte, "samples", "add", packages[v], os.path.join(d, "forward", "bench")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError(f"pte samples add: {p.stderr.decode()[-1000:]}")

    def run(v):
        t, c = time.perf_counter(), children_cpu()
        p = subprocess.run([cpp_runner, "--replay", packages[v], program], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        dt = time.perf_counter() - t
        LAST_CPU[0] = children_cpu() - c
        if p.returncode != 0:
            raise RuntimeError(f"pte_runner --replay: exit {p.returncode}\n{p.stdout.decode()[-1000:]}")
        return dt
    times = {"c1": [], "cN": []}
    cpu = {"c1": [], "cN": []}
    for _ in range(reps):
        for v in times:
            times[v].append(run(v))
            cpu[v].append(LAST_CPU[0])
    r = {"per_call": (statistics.median(times["cN"]) - statistics.median(times["c1"])) / (n - 1),
         "cpu_per_call": (statistics.median(cpu["cN"]) - statistics.median(cpu["c1"])) / (n - 1)}
    if cpp_bench:
        r["exec_cpp"] = cpp_runtime(cpp_bench, program, inputs, n, reps, work)
    return r


def python_inprocess(program, inputs, outputs_file, n, reps):
    """The Python runner's request handling without pipes: pte_rs.runner._handle on a call
    request (decode, engine call, encode) with the ExecuTorch engine and the no-op one, and
    the framing (write_message + read_message through memory)."""
    from pte_rs._protocol import encode_safetensors, encode_values, read_message, write_message
    from pte_rs.runner import _handle
    from pte_rs.runners import ExecuTorch
    tensors = {}
    values = encode_values(list(inputs), "in", tensors)
    header = {"op": "call", "method": "forward", "inputs": values}
    payload = encode_safetensors(tensors)
    res = {}
    for name, engine in (("et", ExecuTorch(program)), ("noop", Canned(outputs_file))):
        def one():
            t = time.perf_counter()
            for _ in range(n):
                _handle(engine, header, payload)
            return (time.perf_counter() - t) / n
        res[f"handle_{name}"] = median_runs(one, reps)
    reply, data = _handle(Canned(outputs_file), header, payload)

    def framing():
        buf = io.BytesIO()
        t = time.perf_counter()
        for _ in range(n):
            buf.seek(0)
            buf.truncate()
            write_message(buf, header, payload)  # the request
            buf.seek(0)
            read_message(buf)
            buf.seek(0)
            buf.truncate()
            write_message(buf, reply, data)  # the reply
        return (time.perf_counter() - t) / n
    res["framing"] = median_runs(framing, reps)
    return res


CPP_BENCH = r"""
// N executes of "forward" through extension::Module, inputs fixed; prints seconds per call per rep.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
using executorch::aten::ScalarType;
using executorch::extension::Module;
using executorch::runtime::EValue;
int main(int argc, char** argv) {
  // PTE N REPS [DTYPE SHAPE(a,b,..) FILE]...
  Module m(argv[1]);
  if (m.load() != executorch::runtime::Error::Ok) { std::fprintf(stderr, "load failed\n"); return 2; }
  int n = std::atoi(argv[2]), reps = std::atoi(argv[3]);
  std::vector<std::vector<char>> bufs;
  std::vector<executorch::extension::TensorPtr> ts;
  std::vector<EValue> ins;
  bufs.reserve(argc);
  for (int i = 4; i + 2 < argc; i += 3) {
    std::string code = argv[i];
    ScalarType st = code == "F32" ? ScalarType::Float : code == "F64" ? ScalarType::Double
                  : code == "I64" ? ScalarType::Long : code == "I32" ? ScalarType::Int
                  : code == "BOOL" ? ScalarType::Bool : ScalarType::Byte;
    std::vector<executorch::aten::SizesType> sizes;
    std::stringstream ss(argv[i + 1]);
    for (std::string d; std::getline(ss, d, ',');) if (!d.empty()) sizes.push_back(std::atoi(d.c_str()));
    std::ifstream f(argv[i + 2], std::ios::binary);
    bufs.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    ts.push_back(executorch::extension::make_tensor_ptr(sizes, bufs.back().data(), st));
    ins.emplace_back(ts.back());
  }
  if (!m.execute("forward", ins).ok()) { std::fprintf(stderr, "execute failed\n"); return 3; }
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < n; ++k) m.execute("forward", ins);
    std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    std::printf("%.9f\n", dt.count() / n);
  }
  return 0;
}
"""


def build_cpp_bench():
    """Compiles CPP_BENCH like scripts/runners/build-cpp-runner.sh builds the runner; None if it cannot."""
    import importlib.util
    et = list(importlib.util.find_spec("executorch").submodule_search_locations)[0]
    lib = os.path.join(et, "lib")
    cxx = os.environ.get("CXX", "g++")
    if not shutil.which(cxx) or not os.path.exists(os.path.join(lib, "libexecutorch.so")):
        return None, "no g++ or no libexecutorch.so in the wheel"
    cache = os.path.join(tempfile.gettempdir(), "pte-runner-overhead")
    os.makedirs(cache, exist_ok=True)
    exe = os.path.join(cache, "cpp_exec_bench_" + hashlib.sha256((CPP_BENCH + et).encode()).hexdigest()[:12])
    if os.path.exists(exe):
        return exe, None
    src = exe + ".cpp"
    with open(src, "w") as f:
        f.write(CPP_BENCH)
    regs = [os.path.join(lib, f"libexecutorch_{n}.so") for n in
            ("kernels_optimized", "kernels_quantized", "backend_xnnpack", "threadpool")]
    regs = [r for r in regs if os.path.exists(r)]
    defs = ["-DC10_USING_CUSTOM_GENERATED_MACROS", "-DET_EVENT_TRACER_ENABLED"]
    if os.path.exists(os.path.join(lib, "libexecutorch_threadpool.so")):
        defs.append("-DET_USE_THREADPOOL")
    cmd = [cxx, "-std=c++17", "-O2", *defs, "-isystem", os.path.join(et, "include"), "-isystem",
           os.path.join(et, "include/executorch/runtime/core/portable_type/c10"), src, "-o", exe,
           os.path.join(lib, "libexecutorch.so"), "-Wl,--push-state,--no-as-needed", *regs, "-Wl,--pop-state",
           f"-Wl,--enable-new-dtags,-rpath,{lib}"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        return None, "compiling the C++ execute benchmark failed:\n" + p.stdout.decode()[-1500:]
    return exe, None


def cpp_runtime(exe, program, inputs, n, reps, work):
    args = [exe, program, str(n), str(reps)]
    for i, a in enumerate(inputs):
        path = os.path.join(work, f"cpp_in.{i}.bin")
        with open(path, "wb") as f:
            f.write(np.ascontiguousarray(a).tobytes())
        args += [CODES[a.dtype], ",".join(map(str, a.shape)), path]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.decode()[-1000:])
    return statistics.median(float(x) for x in p.stdout.split())


# ---- methods ----------------------------------------------------------------

def export_mlp(path, batch, width, depth):
    """An MLP of `depth` Linear(width, width)+ReLU on a [batch, width] input, stock exporter."""
    import torch
    from executorch.exir import to_edge
    torch.manual_seed(0)
    layers = []
    for _ in range(depth):
        layers += [torch.nn.Linear(width, width), torch.nn.ReLU()]
    m = torch.nn.Sequential(*layers).eval()
    x = torch.randn(batch, width)
    prog = to_edge(torch.export.export(m, (x,))).to_executorch()
    with open(path, "wb") as f:
        f.write(prog.buffer)
    return [x.numpy()]


#: --sweep: (batch, width, depth) of exported MLPs, about 15 us to 4 ms per call in the portable kernels.
SWEEP = [(1, 64, 1), (1, 128, 1), (1, 256, 1), (1, 256, 2), (1, 256, 4), (16, 256, 4)]


def methods_to_bench(args, work):
    out = []
    for name in args.models.split(","):
        d = os.path.join(ROOT, "tests/corpus", name)
        if not os.path.exists(os.path.join(d, "model.pte")):
            print(f"note: no tests/corpus/{name}/model.pte, skipped")
            continue
        io_ = st_read(os.path.join(d, "io.safetensors"))
        ins = [io_[f"input.{i}"] for i in range(sum(k.startswith("input.") for k in io_))]
        out.append((name, os.path.join(d, "model.pte"), ins))
    llm = os.path.join(ROOT, "examples/llm/out/model.pte")
    if os.path.exists(llm):
        ins = [np.array([[1, 2, 3, 4, 5]], dtype=np.int64), np.arange(5, dtype=np.int64)]
        out.append(("llm prefill (5 tokens, fresh per sample)", llm, ins))
    if args.sweep or args.sizes:
        sizes = [tuple(int(x) for x in size.split(",")) for size in args.sizes.split(";")] if args.sizes else SWEEP
        for batch, width, depth in sizes:
            path = os.path.join(work, f"mlp_{batch}_{width}_{depth}.pte")
            ins = export_mlp(path, batch, width, depth)
            out.append((f"mlp {depth}x{width}, batch {batch}", path, ins))
    return out


# ---- main -------------------------------------------------------------------

def us(x):
    return "-" if x is None else f"{x * 1e6:,.1f}"


def pct(x):
    return "-" if x is None else f"{x * 100:+,.0f}%"


def bench_method(args, label, program, inputs, work, results, cpp_bench, cpp_runner, demo, me, py, n, reps):
    slug = "".join(c if c.isalnum() else "_" for c in label)[:40]
    w = os.path.join(work, slug)
    os.makedirs(w, exist_ok=True)
    rt_py, outputs = python_runtime(program, inputs, n, reps)
    r = {"method": label, "program": os.path.relpath(program, ROOT) if program.startswith(ROOT) else program,
         "inputs": [f"{CODES[a.dtype]}{list(a.shape)}" for a in inputs], "exec_py": rt_py}
    print(f"\n== {label}: Python runtime execute {us(rt_py)} us/call")
    if cpp_bench:
        try:
            r["exec_cpp"] = cpp_runtime(cpp_bench, program, inputs, n, reps, w)
            print(f"   C++ Module execute {us(r['exec_cpp'])} us/call")
        except RuntimeError as e:
            print(f"   C++ Module timing failed: {e}")
    call = (inputs, outputs)
    tol = (1e-4, 1e-4)  # the C++ runtime's kernels may round differently from the Python one's
    sets = {"c1": os.path.join(w, "c1"), "cN": os.path.join(w, "cN"), "sN": os.path.join(w, "sN")}
    write_set(sets["c1"], "forward", "bench", [[call]], tol)
    outs = write_set(sets["cN"], "forward", "bench", [[call] * n], tol)
    write_set(sets["sN"], "forward", "bench", [[call]] * n, tol)
    actual = os.path.join(w, "actual.safetensors")
    with open(actual, "wb") as f:
        f.write(st_bytes(outs))
    actual1 = os.path.join(w, "actual1.safetensors")
    with open(actual1, "wb") as f:
        f.write(st_bytes({k: v for k, v in outs.items() if k.startswith("0.0.")}))
    canned = os.path.join(w, "canned.safetensors")
    with open(canned, "wb") as f:
        f.write(st_bytes({f"out.{i}": o for i, o in enumerate(outputs)}))

    t1 = median_runs(lambda: run_actual(args.pte, sets["c1"], actual1), reps)
    tn = median_runs(lambda: run_actual(args.pte, sets["cN"], actual), reps)
    r["read_compare"] = (tn - t1) / (n - 1)
    print(f"   pte reading + comparing (--actual): {us(r['read_compare'])} us/call")

    if not args.no_verify:
        r["py_verify"] = verify_in_process(program, sets, n, reps)
        print(f"   pte_rs.samples.verify in process: {us(r['py_verify'])} us/call "
              f"(+{us(r['py_verify'] - rt_py)} over execute)")
    r["py_inprocess"] = python_inprocess(program, inputs, canned, n, reps)
    print("   Python runner in process: handle(ET) {} handle(no-op) {} framing {} us/call".format(
        *(us(r["py_inprocess"][k]) for k in ("handle_et", "handle_noop", "framing"))))

    if not args.no_python_runner:
        # Python's startup (~5 s of imports, +-0.1 to 1 s on a busy machine) drowns 1,000 small
        # calls end to end, so the per-call cost is timed inside the runner: this file's
        # `--serve et` is `python -m pte_rs.runner` (claim_stdio, the ExecuTorch engine,
        # pte_rs.runner.serve) with clocks around the engine and the streams.
        wpath = os.path.join(w, "window.json")
        timed = [py, me, "--serve", "et", program, wpath]
        r["py_win"] = window_cost(args.pte, sets["cN"], timed, wpath, n, reps)
        r["py_win_fresh"] = window_cost(args.pte, sets["sN"], timed, wpath, n, reps)
        per_call = r["py_win"]["window"] + r["read_compare"]
        r["py"] = {"per_call": per_call, "overhead": per_call / rt_py - 1,
                   "per_fresh_call": r["py_win_fresh"]["window"] + r["read_compare"]}
        print(f"   check -- python -m pte_rs.runner, timed inside: {us(r['py_win']['window'])} us/call "
              f"(in the engine {us(r['py_win']['in_engine'])}, runner busy {us(r['py_win']['busy'])}); "
              f"+ reading -> {us(per_call)} ({pct(r['py']['overhead'])}); fresh sample "
              f"{us(r['py']['per_fresh_call'])}")
        noop = [py, me, "--serve", "noop", canned, wpath]
        r["py_noop"] = window_cost(args.pte, sets["cN"], noop, wpath, n, reps)
        print(f"   check -- no-op Python engine, timed inside: {us(r['py_noop']['window'])} us/call "
              f"(runner busy {us(r['py_noop']['busy'])})")
        if args.e2e_reps:
            stock = [py, "-m", "pte_rs.runner", program]
            e = check_costs(args.pte, sets, stock, n, args.e2e_reps, ("c1", "cN"))
            r["py_e2e"] = e
            print(f"   check -- python -m pte_rs.runner end to end: c1 {e['t_c1']:.3f}s cN {e['t_cN']:.3f}s -> "
                  f"{us(e['per_call'])} us/call (c1 spread {e['spread_c1']:.3f}s = "
                  f"{us(e['spread_c1'] / (n - 1))} us/call of noise)")
    if cpp_runner:
        r["cpp"] = check_costs(args.pte, sets, [cpp_runner, program], n, reps)
        base = r.get("exec_cpp", rt_py)
        r["cpp"]["overhead"] = r["cpp"]["per_call"] / base - 1
        print(f"   check -- pte_runner (C++): c1 {r['cpp']['t_c1']:.3f}s cN {r['cpp']['t_cN']:.3f}s "
              f"sN {r['cpp']['t_sN']:.3f}s -> {us(r['cpp']['per_call'])} us/call (CPU {us(r['cpp']['cpu_per_call'])}) "
              f"({pct(r['cpp']['overhead'])}), fresh sample {us(r['cpp']['per_fresh_call'])} us")
    results["methods"].append(r)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        return serve_mode(*sys.argv[2:5])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--models", default="linear,xnnpack_mlp,deep_program",
                    help="tests/corpus programs (comma-separated)")
    ap.add_argument("--sweep", action="store_true", help="also MLPs exported here, growing execute time")
    ap.add_argument("--sizes", help="instead of the whole sweep, these MLPs: BATCH,WIDTH,DEPTH[;...]")
    ap.add_argument("--pte", default=os.path.join(ROOT, "target/release/pte"))
    ap.add_argument("--cpp-runner", default=os.path.join(ROOT, "examples/cpp-runner/build/pte_runner"))
    ap.add_argument("--no-python-runner", action="store_true")
    ap.add_argument("--no-verify", action="store_true", help="skip pte_rs.samples.verify in process")
    ap.add_argument("--e2e-reps", type=int, default=3,
                    help="runs of `pte samples check -- python -m pte_rs.runner` end to end (0: none)")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--keep", help="build the sets in this directory (kept) instead of a temporary one")
    args = ap.parse_args()
    try:
        import executorch.runtime  # noqa: F401
        import pte_rs.runner  # noqa: F401
    except ImportError as e:
        print(f"skipped: needs executorch and pte_rs in this python ({sys.executable}): {e}")
        return 0
    if not os.path.exists(args.pte):
        print(f"error: no {args.pte}; cargo build --release -p pte-cli", file=sys.stderr)
        return 2
    n, reps = args.calls, args.reps
    work = args.keep or tempfile.mkdtemp(prefix="runner-overhead-")
    os.makedirs(work, exist_ok=True)
    py = sys.executable
    me = os.path.abspath(__file__)
    demo = os.path.join(os.path.dirname(args.pte), "examples", "pte-runner-demo")
    cpp_runner = args.cpp_runner if os.path.exists(args.cpp_runner) else None
    if cpp_runner is None:
        print(f"note: no {args.cpp_runner} (scripts/runners/build-cpp-runner.sh): C++ runner skipped")
    cpp_bench, why = build_cpp_bench()
    if cpp_bench is None:
        print(f"note: C++ runtime timing skipped: {why}")
    results = {"calls": n, "reps": reps, "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                                                     "python": platform.python_version(),
                                                     "load_before": os.getloadavg()}, "methods": []}
    try:
        from executorch.version import __version__ as etv
        results["machine"]["executorch"] = etv
    except ImportError:
        pass

    # the protocol floor: pte-runner-demo, method scale(x F32[8], 2.0) -> x * 2
    if os.path.exists(demo):
        x = np.arange(8, dtype=np.float32)
        sets = {}
        for v, samples in (("c1", [[([x, 2.0], [x * 2])]]), ("cN", [[([x, 2.0], [x * 2])] * n])):
            sets[v] = os.path.join(work, "demo", v)
            write_set(sets[v], "scale", "bench", samples)
        r = check_costs(args.pte, sets, [demo], n, reps, ("c1", "cN"))
        results["demo"] = r
        print(f"protocol floor (pte + pte-runner-demo, Rust): {us(r['per_call'])} us/call "
              f"(CPU {us(r['cpu_per_call'])})")

    if cpp_runner:
        try:
            rr = cpp_replay(args, cpp_runner, cpp_bench, work, n, reps)
            results["replay"] = rr
            print(f"C++ pte_runner --replay (Linear 4x4, batch 2): {us(rr['per_call'])} us/call "
                  f"(CPU {us(rr['cpu_per_call'])}), execute {us(rr.get('exec_cpp'))} us/call")
        except Exception as e:  # no exporter for .ptn, or the replay failed: report, go on
            print(f"C++ --replay skipped: {e}")

    for label, program, inputs in methods_to_bench(args, work):
        try:
            bench_method(args, label, program, inputs, work, results, cpp_bench, cpp_runner, demo, me, py, n, reps)
        except Exception as e:  # a method the runtime or a runner cannot run: report, go on
            print(f"   {label}: failed: {e}")


    results["machine"]["load_after"] = os.getloadavg()
    print(f"\n{n} calls, median of {reps}; {os.cpu_count()} cores; load {results['machine']['load_before'][0]:.2f} "
          f"-> {results['machine']['load_after'][0]:.2f}. Times in us per call; overhead = check / execute - 1.")
    if "demo" in results:
        print(f"protocol floor, pte + pte-runner-demo (Rust, trivial method): {us(results['demo']['per_call'])}")
    hdr = ("method", "exec py", "check py", "in engine", "busy", "ovh py", "fresh py", "no-op py", "e2e py",
           "verify py", "exec C++", "check C++", "ovh C++", "fresh C++", "read+cmp")
    rows = []
    for r in results["methods"]:
        p, c, w = r.get("py", {}), r.get("cpp", {}), r.get("py_win", {})
        rows.append((r["method"], us(r["exec_py"]), us(p.get("per_call")), us(w.get("in_engine")), us(w.get("busy")),
                     pct(p.get("overhead")), us(p.get("per_fresh_call")), us(r.get("py_noop", {}).get("window")),
                     us(r.get("py_e2e", {}).get("per_call")), us(r.get("py_verify")), us(r.get("exec_cpp")),
                     us(c.get("per_call")),
                     pct(c.get("overhead")), us(c.get("per_fresh_call")), us(r["read_compare"])))
    widths = [max(len(str(x[i])) for x in (hdr, *rows)) for i in range(len(hdr))]
    for row in (hdr, *rows):
        print("  ".join(str(c).rjust(wd) if i else str(c).ljust(wd) for i, (c, wd) in enumerate(zip(row, widths))))
    # the fixed cost per call (check - execute) and where the 20% target is met
    for key, ex, name in (("py", "exec_py", "python -m pte_rs.runner"), ("cpp", "exec_cpp", "C++ pte_runner")):
        ms = sorted((r for r in results["methods"] if key in r), key=lambda r: r.get(ex, r["exec_py"]))
        if not ms:
            continue
        fixed = ", ".join(f"{r['method']} {us(r[key]['per_call'] - r.get(ex, r['exec_py']))}" for r in ms)
        met = [r["method"] for r in ms if r[key]["overhead"] <= 0.2]
        print(f"{name}: fixed cost per call (check - execute), us: {fixed}; 20% met for: {', '.join(met) or 'none'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
