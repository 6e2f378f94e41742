#!/usr/bin/env bash
# Runs each cargo-fuzz target for RUNS executions or SECONDS of wall time,
# whichever ends first, under the limits docs/fuzzing.md names, and prints one
# summary line per target (executions, seconds, cov, ft, result).
# Usage: scripts/fuzz/fuzz-campaign.sh [--runs N] [--seconds S] TARGET...
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=20000000
seconds=3600
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(headers differential program_structure ptd samples native safetensors structured pte ptn bpte xnnpack native_payload)
work=${FUZZ_WORK:-$root/target/fuzz-campaign}
mkdir -p "$work"

copy() {
  for f in tests/corpus/*/*."$1"; do cp "$f" "$2/$(basename "$(dirname "$f")").$1"; done
}

seed() {
  local target=$1 dir=$work/corpus/$1
  mkdir -p "$dir"
  case $target in
    pte|differential|program_structure) copy pte "$dir" ;;
    headers) copy pte "$dir"; copy ptd "$dir" ;;
    ptd) copy ptd "$dir" ;;
    bpte) copy bpte "$dir" ;;
    ptn) copy ptn "$dir" ;;
    native|native_payload) for f in tests/corpus/*/*.ptn; do unzip -p "$f" program.ptg >"$dir/$(basename "$(dirname "$f")").ptg"; done ;;
    xnnpack) for c in xnnpack_mlp inline_delegate; do
        # the payload: from its XH00 header to the end of its constant data
        python3 - "tests/corpus/$c/model.pte" "$dir/$c.xnn" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
at = b.index(b"XH00") - 4
co, cs = struct.unpack_from("<IQ", b, at + 18)
open(sys.argv[2], "wb").write(b[at:at + co + cs])
PY
      done ;;
    safetensors) for f in tests/corpus/*/*.ptn; do
        for m in $(unzip -Z1 "$f" | grep '\.safetensors$'); do
          unzip -p "$f" "$m" >"$dir/$(basename "$(dirname "$f")")-$(echo "$m" | tr / _)"; done; done ;;
    samples|structured) : ;;
  esac
  echo "$dir"
}

cd fuzz
for t in "${targets[@]}"; do
  dir=$(cd "$root" && seed "$t")
  log=$work/$t.log
  start=$(date +%s)
  set +e
  cargo +nightly fuzz run "$t" "$dir" -- -dict=dict/magic.dict \
    -rss_limit_mb=1024 -malloc_limit_mb=64 -timeout=5 \
    -runs="$runs" -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  end=$(date +%s)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || echo '?')
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || echo '?')
  result=ok
  [ $rc -eq 0 ] || result="FAILED (exit $rc, see $log)"
  echo "$t execs=$execs seconds=$((end - start)) cov=$cov ft=$ft result=$result"
done
