#!/usr/bin/env bash
# Checks .ptn packages written by this project with exir's own reader
# (executorch.exir._serialize._ptn.read_ptn): same keys, dtypes, shapes and
# bytes as `pte info --json` reports, and the same program bytes.
#   scripts/conformance/et-ptn.sh [VENV]   (default ../.venv-executorch; skips without it)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" \
  && cargo build -q --release -p pte-ptn --examples --manifest-path "$root/Cargo.toml" \
  && cargo build -q --release -p pte-samples --examples --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok    $1"; }
bad() { fail=$((fail+1)); echo "FAIL  $1"; }
src="$root/tests/corpus/native_ptn/model.ptn"
"$pte" rewrite "$src" "$out/rewritten.ptn" >/dev/null || bad "pte rewrite"
# A package with aliases, a mutable key, every supported dtype and an extra member.
"$root/target/release/examples/make_ptn" "$src" "$out/built.ptn" || bad "make_ptn"
# The corpus package with a samples sidecar added (every value kind, several calls).
# (written by the library: the set covers every value kind, not the method's
# signature, which `pte samples add` would hold it to)
cp "$src" "$out/with-samples.ptn"
"$root/target/release/examples/make_samples" "$out/set" "$out/with-samples.ptn" || bad "make_samples"
python3 - "$root/docs/samples.schema.json" "$out/set/index.json" <<'PY' && ok "index.json matches docs/samples.schema.json" || bad "index.json does not match the JSON Schema"
import json, sys
try:
    import jsonschema
except ImportError:
    print("jsonschema not installed: schema check skipped"); sys.exit(0)
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
pkgs=("$out/rewritten.ptn" "$out/built.ptn" "$out/with-samples.ptn")
for p in "${pkgs[@]:0:2}"; do
  "$pte" verify "$p" >/dev/null && ok "pte verify $(basename "$p")" || bad "pte verify $(basename "$p")"
done
# The every-kind set does not fit the method's signature on purpose: the
# signature rule is the only one that may fire.
rules=$("$pte" verify --json "$out/with-samples.ptn" | python3 -c 'import json,sys; print(" ".join(sorted({f["rule"] for f in json.load(sys.stdin)["violations"]})))')
[ "$rules" = "ptn.samples.signature" ] && ok "pte verify with-samples.ptn: only the signature rule" || bad "pte verify with-samples.ptn: $rules"
"$venv/bin/python" "$root/scripts/conformance/exir_read_ptn.py" "${pkgs[@]}" > "$out/exir.jsonl" || bad "exir could not read our packages"
for p in "${pkgs[@]}"; do
  # exit 1 is an invalid verdict after a complete summary (the every-kind set)
  "$pte" info --json "$p" > "$out/ours.json"; [ $? -le 1 ] && [ -s "$out/ours.json" ] || { bad "$p: pte info"; continue; }
  unzip -p "$p" program.ptg | sha256sum | cut -d' ' -f1 > "$out/ptg.sha"
  python3 - "$p" "$out/ours.json" "$out/exir.jsonl" "$out/ptg.sha" <<'PY' && ok "exir reads $(basename "$p") identically" || bad "exir reads $(basename "$p") differently"
import json, sys
path, ours, exir = sys.argv[1], json.load(open(sys.argv[2])), [json.loads(l) for l in open(sys.argv[3])]
theirs = next(e for e in exir if e["file"] == path)
names = {"F64": "torch.float64", "F32": "torch.float32", "F16": "torch.float16", "BF16": "torch.bfloat16",
         "I64": "torch.int64", "I32": "torch.int32", "I16": "torch.int16", "I8": "torch.int8", "U8": "torch.uint8",
         "BOOL": "torch.bool", "C64": "torch.complex64", "U16": "torch.uint16", "U32": "torch.uint32", "U64": "torch.uint64"}
mine = {c["key"]: {"dtype": names[c["dtype"]], "shape": c["shape"], "sha256": c["sha256"]} for c in ours["constants"]}
ok = mine == theirs["keys"] and open(sys.argv[4]).read().strip() == theirs["ptg_sha256"]
if not ok:
    print("ours:", json.dumps(mine, sort_keys=True)); print("exir:", json.dumps(theirs["keys"], sort_keys=True))
print(len(mine), "keys")
sys.exit(0 if ok else 1)
PY
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
