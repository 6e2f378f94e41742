"""Load and run programs in the stock ExecuTorch runtime and print what each
did, one line per file, so that two files (an original and its repack) can be
compared by their lines alone. Used by et-writers.sh.

  python et_writers_run.py FILE.pte[=DATA.ptd] ...

For each method: load it, feed inputs made from its metadata (fixed values,
not random, so both files see the same ones), run it, and record the sha256 of
every output's bytes with its dtype and shape. A refusal is recorded with the
runtime's error text instead, so "both refused alike" also compares equal.
Line format: `RESULT <file> <json>`.
"""

import hashlib
import json
import sys

import torch

from executorch.runtime import Runtime, Verification

# executorch ScalarType codes the method metadata reports, for the dtypes a
# small test program uses as inputs
DTYPES = {
    0: torch.uint8,
    1: torch.int8,
    2: torch.int16,
    3: torch.int32,
    4: torch.int64,
    5: torch.float16,
    6: torch.float32,
    7: torch.float64,
    11: torch.bool,
    15: torch.bfloat16,
}


def make_input(info):
    shape = tuple(info.sizes())
    n = 1
    for d in shape:
        n *= d
    dtype = DTYPES.get(info.dtype())
    if dtype is None:
        raise ValueError(f"input dtype code {info.dtype()} not handled")
    base = torch.arange(n, dtype=torch.float64)
    if dtype.is_floating_point:
        t = torch.sin(base * 0.7) * 2.0
    elif dtype == torch.bool:
        t = base.remainder(2)
    else:
        t = base.remainder(7)
    return t.to(dtype).reshape(shape)


def digest(value):
    if isinstance(value, torch.Tensor):
        t = value.contiguous()
        raw = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
        return f"{t.dtype}{list(t.shape)}:{hashlib.sha256(raw).hexdigest()[:16]}"
    return repr(value)


def run_method(prog, name):
    try:
        method = prog.load_method(name)
    except Exception as e:  # noqa: BLE001 - a refusal is a result
        return {"load": " ".join(str(e).split())}
    meta = method.metadata
    try:
        inputs = [make_input(meta.input_tensor_meta(i)) for i in range(meta.num_inputs())]
    except Exception as e:  # noqa: BLE001 - a non-tensor input: loaded, not run
        return {"load": "ok", "run": f"not run: {' '.join(str(e).split())[:80]}"}
    try:
        outs = method.execute(inputs)
    except Exception as e:  # noqa: BLE001
        return {"load": "ok", "run": " ".join(str(e).split())}
    return {"load": "ok", "run": "ok", "outputs": [digest(o) for o in outs]}


def run_file(rt, spec):
    path, _, ptd = spec.partition("=")
    kw = {"verification": Verification.InternalConsistency}
    if ptd:
        kw["data_path"] = ptd
    try:
        prog = rt.load_program(path, **kw)
    except Exception as e:  # noqa: BLE001
        return {"program": " ".join(str(e).split())}
    return {"program": "ok", "methods": {n: run_method(prog, n) for n in sorted(prog.method_names)}}


def main():
    rt = Runtime.get()
    for spec in sys.argv[1:]:
        print(f"RESULT {spec} {json.dumps(run_file(rt, spec), sort_keys=True)}", flush=True)


if __name__ == "__main__":
    main()
