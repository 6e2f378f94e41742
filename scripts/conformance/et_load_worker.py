"""Worker for et_mutants.py: reads `MODE PATH` lines on stdin and loads each
file in the stock runtime (the program, then every method), printing
`RESULT <status> <detail>` per line. A crash of the runtime kills this
process; the driver notices and restarts it."""

import sys

from executorch.runtime import Runtime, Verification

rt = Runtime.get()
modes = {"minimal": Verification.Minimal, "internal": Verification.InternalConsistency}
print("READY", flush=True)
for line in sys.stdin:
    mode, path = line.rstrip("\n").split(" ", 1)
    try:
        data = open(path, "rb").read()
        prog = rt.load_program(data, verification=modes[mode])
        for name in sorted(prog.method_names):
            prog.load_method(name)
        print("RESULT loaded -", flush=True)
    except Exception as e:  # noqa: BLE001 - every runtime refusal is a result
        detail = " ".join(str(e).split())[:160] or type(e).__name__
        print(f"RESULT error {detail}", flush=True)
