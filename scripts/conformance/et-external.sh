#!/usr/bin/env bash
# Externalizes corpus programs with pte, then checks with the stock ExecuTorch:
#  1. each program + .ptd pair loads in the runtime and gives bit-identical outputs;
#  2. internalizing back gives a program that does the same;
#  3. exir's own FlatTensorSerializer reads every .ptd we wrote with the same
#     keys, bytes and layouts that `pte info --json` reports.
#   scripts/conformance/et-external.sh [VENV]   (default ../.venv-executorch; skips without it)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
et_run="$root/../shared/tools/et_run.py"
if [ ! -x "$venv/bin/python" ] || [ ! -f "$et_run" ]; then echo "skipped: no ExecuTorch venv at $venv, or no $et_run"; exit 0; fi
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok    $1"; }
bad() { fail=$((fail+1)); echo "FAIL  $1"; }
run() { local line; line=$("$venv/bin/python" "$et_run" "$@" 2>/dev/null | tail -n 1); [[ $line == MATCH* ]]; }
# a stock program's constants carry no name: externalizing it must fail (exit 2)
"$pte" externalize "$root/tests/corpus/linear/model.pte" "$out/x.pte" "$out/x.ptd" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$out/x.ptd" ] && ok "linear: nothing to move is exit 2" || bad "linear: nothing to move is exit 2"
# ... unless its constants are named on the way (--name-constants)
ptds=()
cases=("xnnpack_mlp:$root/tests/corpus/xnnpack_mlp/model.pte" "named_linear:$root/tests/corpus/linear/model.pte")
for c in "${cases[@]}"; do
  name=${c%%:*}; src=${c#*:}; io="$root/tests/corpus/${name#named_}/io.safetensors"
  name_opt=(); [[ $name == named_* ]] && name_opt=(--name-constants constant.)
  "$pte" externalize "${name_opt[@]}" "$src" "$out/$name.pte" "$out/$name.ptd" >/dev/null 2>&1 || { bad "$name: externalize"; continue; }
  ptds+=("$out/$name.ptd")
  "$pte" verify "$out/$name.pte" --ptd "$out/$name.ptd" >/dev/null && ok "$name: pte verify pair" || bad "$name: pte verify pair"
  run "$out/$name.pte" "$io" --ptd "$out/$name.ptd" && ok "$name: runtime with .ptd" || bad "$name: runtime with .ptd"
  "$pte" internalize "$out/$name.pte" "$out/$name.ptd" "$out/$name.back.pte" >/dev/null || { bad "$name: internalize"; continue; }
  run "$out/$name.back.pte" "$io" && ok "$name: runtime after internalize" || bad "$name: runtime after internalize"
done
# a .ptd missing one key the XNNPACK payload needs: we name the key, the runtime fails too
if [ -e "$out/xnnpack_mlp.pte" ]; then
  "$pte" externalize "$root/tests/corpus/xnnpack_mlp/model.pte" "$out/other.pte" "$out/three.ptd" --keys '*[0-9]' >/dev/null 2>&1
  missing=$("$pte" verify --json "$out/xnnpack_mlp.pte" --ptd "$out/three.ptd" 2>/dev/null | python3 -c 'import json,sys; v=json.load(sys.stdin)["violations"]; print(" ".join(x["message"].split("\"")[1] for x in v if x["rule"].startswith("link.payload")))' 2>/dev/null)
  [ -n "$missing" ] && ok "xnnpack_mlp: pte verify names the missing key ${missing:0:16}..." || bad "xnnpack_mlp: pte verify names the missing key"
  run "$out/xnnpack_mlp.pte" "$root/tests/corpus/xnnpack_mlp/io.safetensors" --ptd "$out/three.ptd" && bad "xnnpack_mlp: runtime refuses the .ptd missing a key" || ok "xnnpack_mlp: runtime refuses the .ptd missing a key"
fi
ptds+=("$root/tests/corpus/external/_default_external_constant.ptd")
"$venv/bin/python" "$root/scripts/conformance/exir_read_ptd.py" "${ptds[@]}" > "$out/exir.jsonl" 2>/dev/null || bad "exir could not read our .ptd files"
for p in "${ptds[@]}"; do
  "$pte" info --json "$p" > "$out/ours.json" || { bad "$p: pte info"; continue; }
  python3 - "$p" "$out/ours.json" "$out/exir.jsonl" <<'PY' && ok "exir reads $(basename "$p") identically" || bad "exir reads $(basename "$p") differently"
import json, sys
path, ours, exir = sys.argv[1], json.load(open(sys.argv[2])), [json.loads(l) for l in open(sys.argv[3])]
theirs = next(e for e in exir if e["file"] == path)["keys"]
mine = {k["key"]: k for k in ours["keys"]}
assert set(mine) == set(theirs), (set(mine), set(theirs))
for k, t in theirs.items():
    m = mine[k]
    assert m["sha256"] == t["sha256"] and m["size"] == t["size"], k
    if t["layout"] is None:
        assert m["layout"] is None, k
    else:
        assert m["layout"]["sizes"] == t["layout"]["sizes"] and m["layout"]["dim_order"] == t["layout"]["dim_order"], k
PY
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
