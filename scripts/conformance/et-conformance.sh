#!/usr/bin/env bash
# Rewrites every corpus program with pte (default options, and with the
# layout-changing options) and checks that the stock ExecuTorch runtime loads
# each result with full verification and computes bit-identical outputs.
#
#   scripts/conformance/et-conformance.sh [VENV]    (default VENV: ../.venv-executorch,
#                                        made by ../shared/tools/setup-executorch.sh)
#   CORPUS=DIR scripts/conformance/et-conformance.sh   (other cases laid out like
#                                        tests/corpus: DIR/CASE/model.pte, io*.safetensors, *.ptd)
# Exit status 0 when every run says MATCH; skips (exit 0) when no venv exists.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
et_run="$root/../shared/tools/et_run.py"
if [ ! -x "$venv/bin/python" ] || [ ! -f "$et_run" ]; then
  echo "skipped: no ExecuTorch venv at $venv (run ../shared/tools/setup-executorch.sh)"; exit 0
fi
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
pass=0; fail=0
check() { # label file io [method] [ptd]
  local label=$1 file=$2 io=$3 method=${4:-forward} ptd=${5:-}
  local args=("$file" "$io" --method "$method"); [ -n "$ptd" ] && args+=(--ptd "$ptd")
  local line; line=$("$venv/bin/python" "$et_run" "${args[@]}" 2>/dev/null | tail -n 1)
  case "$line" in MATCH*) pass=$((pass+1)); echo "ok    $label";; *) fail=$((fail+1)); echo "FAIL  $label: $line";; esac
}
for dir in "${CORPUS:-$root/tests/corpus}"/*/; do
  case=$(basename "$dir"); pte_in="$dir/model.pte"
  [ -f "$pte_in" ] || continue
  ptd=$(ls "$dir"/*.ptd 2>/dev/null | head -n 1)
  for variant in keep repack inline segment align64 constseg; do
    f="$out/$case-$variant.pte"
    case $variant in
      keep)    "$pte" rewrite "$pte_in" "$f" >/dev/null ;;
      repack)  "$pte" rewrite "$pte_in" "$f" --segment-alignment 4096 --constant-alignment 64 >/dev/null ;;
      inline)  "$pte" rewrite "$pte_in" "$f" --delegates inline >/dev/null ;;
      segment) "$pte" rewrite "$pte_in" "$f" --delegates segment >/dev/null ;;
      align64) "$pte" rewrite "$pte_in" "$f" --delegate-alignment 64 --segment-alignment 96 >/dev/null ;;
      constseg) "$pte" rewrite "$pte_in" "$f" --constants segment >/dev/null ;;
    esac || { fail=$((fail+1)); echo "FAIL  $case/$variant: pte rewrite failed"; continue; }
    for io in "$dir"/io*.safetensors; do
      [ -f "$io" ] || continue
      m=$(basename "$io" .safetensors); m=${m#io}; m=${m#_}; [ -z "$m" ] && m=forward
      check "$case/$variant/$m" "$f" "$io" "$m" "$ptd"
    done
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
