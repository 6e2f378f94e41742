#!/usr/bin/env bash
# Models the corpus does not have, exported now by the stock exporter
# (zoo_export.py) and run once in the stock runtime (zoo_record_io.py); then,
# for each: `pte verify` says valid, `pte rewrite` and `pte extract` + `pte
# pack` give back the same bytes, every reading command succeeds, and
# et-conformance.sh's layout variants load in the runtime with bit-identical
# outputs; with pte_rs built for the venv, our exir-compatible reader and
# writer agree with exir's on each. Skips cleanly without the venv.
#   scripts/conformance/et-zoo.sh [VENV] [OUT_DIR]   (default: a temporary folder)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
out=${2:-}
work=$(mktemp -d)
if [ -z "$out" ]; then out="$work/zoo"; mkdir -p "$out"; fi
trap 'rm -rf "$work"' EXIT
here="$root/scripts/conformance"
"$venv/bin/python" "$here/zoo_export.py" "$out" 2>&1 | grep -E '^(ok|FAIL) ' || true
"$venv/bin/python" "$here/zoo_record_io.py" "$out" 2>&1 | grep -E '^(ok|FAIL) ' || true
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
fail=0
for dir in "$out"/*/; do
  case=$(basename "$dir"); f="$dir/model.pte"
  [ -f "$f" ] || continue
  problems=()
  "$pte" verify "$f" >/dev/null 2>&1 || problems+=("verify")
  "$pte" rewrite "$f" "$work/r.pte" >/dev/null 2>&1 && cmp -s "$f" "$work/r.pte" || problems+=("rewrite")
  rm -rf "$work/x"
  { "$pte" extract "$f" "$work/x" && "$pte" pack "$work/x" "$work/p.pte"; } >/dev/null 2>&1 && cmp -s "$f" "$work/p.pte" ||
    problems+=("extract+pack")
  for cmd in "info --json" "info --tensors" dump "dump --exir" "size --json" "memory --json" "ops --json" graph; do
    # shellcheck disable=SC2086
    "$pte" $cmd "$f" >/dev/null 2>&1 || problems+=("$cmd")
  done
  if [ ${#problems[@]} -eq 0 ]; then echo "ok    $case"; else fail=$((fail+1)); echo "FAIL  $case: ${problems[*]}"; fi
done
# our exir-compatible reader and writer against exir's, where the package
# was built for the venv by py-exir-tests.sh
if [ -d "$root/target/py-exir/pte_rs" ]; then
  PYTHONPATH="$root/target/py-exir" "$venv/bin/python" "$here/py-exir-compare.py" --serialize "$out"/*/model.pte \
    >"$work/exir.txt" 2>&1 || fail=$((fail+1))
  grep -E '^(ok|FAIL)' "$work/exir.txt"
else
  echo "exir comparison skipped: no target/py-exir (run scripts/conformance/py-exir-tests.sh once)"
fi
CORPUS="$out" "$here/et-conformance.sh" "$venv" || fail=$((fail+1))
[ "$fail" -eq 0 ]
