"""Side-by-side timings for docs/performance.md: pte_rs (native API and the
exir-compatible layer) against exir's deserialize_pte_binary, in one process.

Run in an executorch venv with pte_rs importable (scripts/bench/py-bench.sh)."""
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


print("| file | read into bytes | native open+verify | compat deserialize | compat zero_copy | exir deserialize "
      "| exir / native | exir / compat | exir / zero_copy |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for path in sys.argv[1:]:
    runs = 3 if "big" in path else 5
    native(path)  # warm the page cache
    n = median(lambda: native(path), 50)
    r = median(lambda: read(path), runs)
    # The three deserializers take the same bytes object, read once: reading
    # is the caller's and costs the same for all (the "read" column).
    data = read(path)
    c = median(lambda: compat.deserialize_pte_binary(data), runs)
    z = median(lambda: compat.deserialize_pte_binary(data, zero_copy=True), runs)
    e = median(lambda: exir_deserialize(data), runs)
    print(f"| {path.split('/')[-2] + '/' + path.split('/')[-1]} | {r * 1e3:.1f} ms | {n * 1e3:.3f} ms "
          f"| {c * 1e3:.1f} ms | {z * 1e3:.1f} ms | {e * 1e3:.1f} ms "
          f"| {e / n:.0f}x | {e / c:.1f}x | {e / z:.0f}x |")

# Read-then-write round trip: deserialize_pte_binary then serialize_pte_binary
# (the default result for ours: its lazy constants are read by our writer
# without being materialized).
from executorch.exir._serialize._program import serialize_pte_binary as exir_serialize  # noqa: E402

print()
print("| file | compat read+write | exir read+write | exir / compat |")
print("| --- | --- | --- | --- |")
for path in sys.argv[1:]:
    runs = 3
    data = read(path)
    c = median(lambda: bytes(compat.serialize_pte_binary(compat.deserialize_pte_binary(data))), runs)
    e = median(lambda: bytes(exir_serialize(exir_deserialize(data))), runs)
    print(f"| {path.split('/')[-2] + '/' + path.split('/')[-1]} | {c * 1e3:.1f} ms | {e * 1e3:.1f} ms | {e / c:.1f}x |")
