"""open(), verify() and summary() read a program in place: none of them
decodes the owned model. Measured as the growth of the peak resident set
(ru_maxrss) of a fresh interpreter, since tracemalloc does not see the Rust
heap, on the program-heavy corpus file with its constants moved inline into
the deprecated constant_buffer (`pte mutate --rule program.constant_segment`):
the form whose verification used to decode the whole model.

The file is small (1.6 MB, a 2.8 MB model), so the bound guards against a
read path that copies or decodes far more than the file; the difference the
in-place verification makes on a large program is held by the Rust test
crates/pte-report/tests/views_memory.rs (196 MB of heap before, 8 MB now,
on a million values)."""

import json
import subprocess
import sys

from common import ROOT, cli

DEEP = ROOT / "tests" / "corpus" / "deep_program" / "model.pte"

MEASURE = r"""
import json, resource, sys
import pte_rs

path = sys.argv[1]
with open(path, "rb") as fh:
    fh.read()  # warm the page cache: only the heap should grow below
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
f = pte_rs.open(path)
report = f.verify()
summary = f.summary()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({
    "grew_kib": after - before,
    "ok": report.valid,
    "warnings": [w.rule for w in report.warnings],
    "methods": len(summary["methods"]),
}))
"""


def test_open_verify_summary_of_a_legacy_program_hold_no_model(tmp_path):
    legacy = tmp_path / "legacy.pte"
    subprocess.run([cli(), "mutate", "--rule", "program.constant_segment", str(DEEP), str(legacy)], check=True)
    out = subprocess.run([sys.executable, "-c", MEASURE, str(legacy)], check=True, capture_output=True, text=True)
    m = json.loads(out.stdout)
    assert m["ok"] and m["warnings"] == ["program.constant_segment"]
    assert m["methods"] == 1
    # The file is mapped: reading all of it counts once; the memory-plan
    # walk of the verification holds about 1.5 MB more.
    size_kib = legacy.stat().st_size // 1024
    assert m["grew_kib"] < size_kib + 4096, m
