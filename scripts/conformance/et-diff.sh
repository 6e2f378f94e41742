#!/usr/bin/env bash
# Conformance of `pte diff` and `pte pack` with the stock ExecuTorch:
#   1. two exports of one model with different weights: `pte diff` names the
#      same tensors with the same counts, max and mean absolute differences as
#      exir's devtools/pte_tool/diff_pte.py (scripts/conformance/et_diff_compare.py);
#   2. packed files in the runtime (../shared/tools/et_run.py): an unedited
#      extract packs into a file that runs and matches; a weight edit runs and
#      gives other outputs; an unknown operator and a grown tensor fail to load.
#   scripts/conformance/et-diff.sh [VENV]   (default ../.venv-executorch; skips without it)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
etrun="$root/../shared/tools/et_run.py"
if [ ! -x "$venv/bin/python" ] || [ ! -f "$etrun" ]; then echo "skipped: no ExecuTorch venv at $venv, or no $etrun"; exit 0; fi
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0
"$venv/bin/python" "$root/scripts/conformance/et_diff_compare.py" "$pte" "$out" || fail=1

c="$root/tests/corpus/linear"
"$pte" extract "$c/model.pte" "$out/x" >/dev/null || exit 2
"$pte" pack "$out/x" "$out/same.pte" >/dev/null || exit 2
"$venv/bin/python" - "$out/x" <<'PY'
import json, struct, sys
d = sys.argv[1]
b = bytearray(open(f"{d}/constant-1.bin", "rb").read())
b[0:4] = struct.pack("<f", 100.0)
open(f"{d}/constant-1.bin", "wb").write(b)
p = json.load(open(f"{d}/program.json"))
p["execution_plan"][0]["operators"][2]["name"] = "aten::no_such_op"
json.dump(p, open(f"{d}/op.json", "w"))
p = json.load(open(f"{d}/program.json"))
p["execution_plan"][0]["values"][0]["val"]["sizes"] = [3, 8]
json.dump(p, open(f"{d}/size.json", "w"))
PY
"$pte" pack "$out/x" "$out/weights.pte" >/dev/null || exit 2
"$pte" pack "$out/x/op.json" "$out/op.pte" --segment "$out/x/segment-0.bin" >/dev/null || exit 2
"$pte" pack "$out/x/size.json" "$out/size.pte" --segment "$out/x/segment-0.bin" >/dev/null || exit 2
run() {  # name, expected verdict word, expected verify exit
  local v; v=$("$venv/bin/python" "$etrun" "$out/$1.pte" "$c/io.safetensors" 2>&1 | tail -1)
  "$pte" verify "$out/$1.pte" >/dev/null 2>&1; local vr=$?
  if [[ "$v" == "$2"* && $vr == "$3" ]]; then echo "ok    $1.pte: verify exit $vr, runtime: $v"
  else echo "FAIL  $1.pte: verify exit $vr (want $3), runtime: $v (want $2)"; fail=1; fi
}
run same MATCH 0
run weights MISMATCH 0
run op LOAD-FAIL 0
run size LOAD-FAIL 1
[ $fail = 0 ] && echo "et-diff: all agree" || echo "et-diff: disagreements above"
exit $fail
