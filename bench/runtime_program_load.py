"""Times the stock runtime on a program-heavy file (median of N runs):
_load_program with program_verification=InternalConsistency (Program::load
over the file loader, the flatbuffers verifier on the whole program), then
that program's load_method of its first method. Prints one `name seconds`
line per measurement: `python runtime_program_load.py FILE [RUNS]`."""
import statistics, sys, time

import executorch.extension.pybindings.portable_lib as pl

path, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 11
check = pl.Verification.InternalConsistency

def median(f):
    ts = []
    for _ in range(runs):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)

print(f"runtime_load_program_internal_consistency {median(lambda: pl._load_program(path, program_verification=check)):.6f}")
program = pl._load_program(path, program_verification=check)
name = program.get_method_name(0)
print(f"runtime_load_method {median(lambda: program.load_method(name)):.6f}")
