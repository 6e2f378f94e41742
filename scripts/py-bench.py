"""Side-by-side timings for docs/performance.md: pte_rs (native API and the
exir-compatible layer) against exir's deserialize_pte_binary, in one process.

Run in an executorch venv with pte_rs importable (scripts/py-bench.sh)."""
import gc
import statistics
import sys
import time

import pte_rs
import pte_rs.exir as compat
from executorch.exir._serialize._program import deserialize_pte_binary as exir_deserialize


def median(f, runs):
    times = []
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def native(path):
    f = pte_rs.open(path)
    assert f.kind == "pte"
    f.verify()


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


print("| file | native open+verify | compat deserialize | exir deserialize | exir / native | exir / compat |")
print("| --- | --- | --- | --- | --- | --- |")
for path in sys.argv[1:]:
    runs = 3 if "big" in path else 5
    native(path)  # warm the page cache
    n = median(lambda: native(path), 50)
    c = median(lambda: compat.deserialize_pte_binary(read(path)), runs)
    e = median(lambda: exir_deserialize(read(path)), runs)
    print(f"| {path.split('/')[-2] + '/' + path.split('/')[-1]} | {n * 1e3:.3f} ms | {c * 1e3:.1f} ms | {e * 1e3:.1f} ms "
          f"| {e / n:.0f}x | {e / c:.1f}x |")
