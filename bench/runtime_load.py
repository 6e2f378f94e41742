"""Times the stock runtime loading a program from a path (median of N runs):
the pybindings' _load_program (Program::load over the file loader, the
InternalConsistency verifier on) and _load_for_executorch (Module-style load
with every method). Prints one `name seconds` line per measurement."""
import statistics, sys, time

import executorch.extension.pybindings.portable_lib as pl

path, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5

def median(f):
    ts = []
    for _ in range(runs):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)

print(f"runtime_load_program {median(lambda: pl._load_program(path)):.6f}")
print(f"runtime_load_for_executorch {median(lambda: pl._load_for_executorch(path)):.6f}")
