#!/usr/bin/env bash
# Checks .bpte files written by this project against the stock ExecuTorch:
# exir's deserializer (executorch.devtools.bundled_program.serialize) reads
# them with the recorded values, and the runtime's own bundled-program check
# (pybindings _load_bundled_program_from_buffer +
# verify_result_with_bundled_expected_output, rtol 1e-5 atol 1e-8) passes
# every case; a bundle with one expected value changed must fail it.
#   scripts/conformance/et-bpte.sh [VENV]   (default ../.venv-executorch; skips without it)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok    $1"; }
bad() { fail=$((fail+1)); echo "FAIL  $1"; }
corpus="$root/tests/corpus"
# 1. The linear program with its recorded I/O (one case).
"$pte" samples import-io "$corpus/linear/io.safetensors" forward recorded "$out/linear-set" >/dev/null || bad "import-io"
"$pte" bpte bundle "$corpus/linear/model.pte" "$out/linear-set" "$out/linear.bpte" >/dev/null || bad "bundle linear"
# 2. The corpus bundle taken apart and put together again (three cases).
"$pte" bpte export-samples "$corpus/bundled/model.bpte" "$out/bundled-sets" >/dev/null || bad "export-samples"
"$pte" bpte unbundle "$corpus/bundled/model.bpte" "$out/unbundled.pte" >/dev/null || bad "unbundle"
cmp -s "$out/unbundled.pte" "$corpus/bundled/model.pte" && ok "unbundle gives the plain model.pte byte for byte" || bad "unbundle differs from model.pte"
"$pte" bpte bundle "$out/unbundled.pte" "$out/bundled-sets" "$out/rebundled.bpte" 2>/dev/null >/dev/null || bad "rebundle"
# 3. A negative control: the first expected element changed by 1.0.
cp -r "$out/linear-set" "$out/wrong-set"
python3 - "$out/wrong-set/data.safetensors" <<'PY'
import json, struct, sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
n = struct.unpack("<Q", b[:8])[0]; h = json.loads(b[8:8 + n])
start = 8 + n + h["0.0.out.0"]["data_offsets"][0]
struct.pack_into("<f", b, start, struct.unpack_from("<f", b, start)[0] + 1.0)
open(p, "wb").write(b)
PY
"$pte" bpte bundle "$corpus/linear/model.pte" "$out/wrong-set" "$out/wrong.bpte" >/dev/null || bad "bundle wrong"
for f in linear rebundled wrong; do
  "$pte" verify "$out/$f.bpte" >/dev/null && ok "pte verify $f.bpte" || bad "pte verify $f.bpte"
done
"$venv/bin/python" - "$out" "$corpus/linear/io.safetensors" 2>&1 <<'PY' | grep -v -e W1203 -e cpuinfo_utils
import json, struct, sys
import executorch.extension.pybindings.portable_lib as pl
from executorch.devtools.bundled_program.serialize import deserialize_from_flatbuffer_to_bundled_program
out, io = sys.argv[1], sys.argv[2]
def safetensors(path):
    b = open(path, "rb").read(); n = struct.unpack("<Q", b[:8])[0]; h = json.loads(b[8:8 + n])
    return {k: b[8 + n + v["data_offsets"][0]: 8 + n + v["data_offsets"][1]] for k, v in h.items() if k != "__metadata__"}
results = []
def check(name, cond):
    results.append(cond); print(("ok    " if cond else "FAIL  ") + name)
recorded = safetensors(io)
for f, cases in [("linear", 1), ("rebundled", 3), ("wrong", 1)]:
    data = open(f"{out}/{f}.bpte", "rb").read()
    try:
        bp = deserialize_from_flatbuffer_to_bundled_program(data)
        suite = bp.method_test_suites[0]
        good = bp.version == 2 and suite.method_name == "forward" and len(suite.test_cases) == cases
        if f == "linear":
            case = suite.test_cases[0]
            good = good and bytes(case.inputs[0].val.data) == recorded["input.0"] \
                and bytes(case.expected_outputs[0].val.data) == recorded["output.0"] \
                and list(case.inputs[0].val.sizes) == [2, 4]
        check(f"exir deserializes {f}.bpte with the recorded values", good)
    except Exception as e:
        check(f"exir deserializes {f}.bpte ({e})", False)
    bundle = pl._load_bundled_program_from_buffer(data)
    for i in range(cases):
        try:
            bundle.verify_result_with_bundled_expected_output("forward", i)
            passed = True
        except Exception:
            passed = False
        want = f != "wrong"
        check(f"runtime bundled check of {f}.bpte case {i} {'passes' if want else 'fails as it must'}", passed == want)
sys.exit(0 if all(results) else 1)
PY
[ "${PIPESTATUS[0]}" = 0 ] && ok "runtime and exir checks" || bad "runtime and exir checks"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
