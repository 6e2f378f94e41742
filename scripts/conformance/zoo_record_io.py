"""Runs every zoo model (zoo_export.py's folders) once in the stock runtime
and writes io.safetensors beside it: input.<i> and the runtime's output.<i>
for method forward, the form scripts/conformance/et-conformance.sh compares
with.

    python zoo_record_io.py OUT_DIR [CASE]
"""
import sys, os, glob, torch
from safetensors.torch import save_file
from executorch.runtime import Runtime
rt = Runtime.get()
for d in sorted(glob.glob(sys.argv[1] + "/*/") if len(sys.argv) < 3 else [sys.argv[1] + "/" + sys.argv[2] + "/"]):
    name = os.path.basename(d.rstrip("/"))
    try:
        inputs = torch.load(d + "inputs.pt")
        ptds = glob.glob(d + "*.ptd")
        prog = rt.load_program(d + "model.pte", data_path=ptds[0]) if ptds else rt.load_program(open(d + "model.pte", "rb").read())
        m = prog.load_method("forward")
        outs = m.execute(list(inputs))
        t = {f"input.{i}": x.contiguous() for i, x in enumerate(inputs)}
        for i, o in enumerate(outs):
            if isinstance(o, torch.Tensor): t[f"output.{i}"] = o.contiguous()
        save_file(t, d + "io.safetensors")
        print("ok", name, len(outs))
    except Exception as e:
        print("FAIL", name, type(e).__name__, str(e)[:200])
