#!/usr/bin/env bash
# Re-serializes every corpus program through pte_rs.exir (our
# deserialize_pte_binary, then our serialize_pte_binary with exir's options:
# defaults, extract_delegate_segments, and changed alignments) and checks that
# the stock ExecuTorch runtime loads each result and computes bit-identical
# outputs.
#
#   scripts/conformance/py-exir-runtime.sh [VENV] [CASE...]
#       (default VENV: ../.venv-executorch, made by
#       ../shared/tools/setup-executorch.sh; CASEs: corpus folder names, all
#       when none are given)
# Exit status 0 when every run says MATCH; skips (exit 0) when no venv exists.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
shift || true
cases=" $* "
et_run="$root/../shared/tools/et_run.py"
if [ ! -x "$venv/bin/python" ] || [ ! -f "$et_run" ]; then
  echo "skipped: no ExecuTorch venv at $venv (run ../shared/tools/setup-executorch.sh)"; exit 0
fi
"$venv/bin/python" -m pip install --quiet --no-deps --upgrade --target "$root/target/py-exir" "$root/crates/pte-py" || exit 2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
pass=0; fail=0
for dir in "$root"/tests/corpus/*/; do
  case=$(basename "$dir"); pte_in="$dir/model.pte"
  [ -f "$pte_in" ] || continue
  [ "$cases" = "  " ] || [[ "$cases" == *" $case "* ]] || continue
  ptd=$(ls "$dir"/*.ptd 2>/dev/null | head -n 1)
  for variant in default delegates aligned; do
    f="$out/$case-$variant.pte"
    PYTHONPATH="$root/target/py-exir" "$venv/bin/python" - "$pte_in" "$f" "$variant" <<'PY' 2>/dev/null
import sys
import pte_rs.exir as ours
src, dst, variant = sys.argv[1:]
kw = {"default": {}, "delegates": {"extract_delegate_segments": True},
      "aligned": {"segment_alignment": 4096, "constant_tensor_alignment": 64, "delegate_alignment": 32}}[variant]
pte = ours.deserialize_pte_binary(open(src, "rb").read())
open(dst, "wb").write(bytes(ours.serialize_pte_binary(pte, **kw)))
PY
    [ $? -eq 0 ] || { fail=$((fail+1)); echo "FAIL  $case/$variant: re-serialization failed"; continue; }
    for io in "$dir"/io*.safetensors; do
      [ -f "$io" ] || continue
      m=$(basename "$io" .safetensors); m=${m#io}; m=${m#_}; [ -z "$m" ] && m=forward
      args=("$f" "$io" --method "$m"); [ -n "$ptd" ] && args+=(--ptd "$ptd")
      line=$("$venv/bin/python" "$et_run" "${args[@]}" 2>/dev/null | tail -n 1)
      case "$line" in MATCH*) pass=$((pass+1)); echo "ok    $case/$variant/$m";; *) fail=$((fail+1)); echo "FAIL  $case/$variant/$m: $line";; esac
    done
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
