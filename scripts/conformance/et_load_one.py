"""Loads one .pte in the stock runtime, with full verification
(InternalConsistency): the program, then every method. Exit 0 when it
loads, 1 when the runtime refuses it; a crash of the runtime kills the
process with its signal. For `pte conformance run` (external-parsers.sh).
    python et_load_one.py FILE.pte"""

import sys

from executorch.runtime import Runtime, Verification

try:
    prog = Runtime.get().load_program(open(sys.argv[1], "rb").read(), verification=Verification.InternalConsistency)
    for name in sorted(prog.method_names):
        prog.load_method(name)
except Exception as e:  # noqa: BLE001 - every runtime refusal is a refusal
    print(" ".join(str(e).split())[:200] or type(e).__name__, file=sys.stderr)
    sys.exit(1)
