#!/usr/bin/env bash
# Generated programs against our verifier and the stock runtime: COUNT files
# from `pte gen` (seeds FIRST..FIRST+COUNT) must all pass `pte verify`; each is
# then loaded (program and every method) in Minimal and InternalConsistency
# modes through et_mutants.py's restartable workers. docs/fuzzing.md records a run.
#   scripts/conformance/et-gen.sh [COUNT] [FIRST] [VENV]   (defaults 10000, 0, ../.venv-executorch)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
count="${1:-10000}"; first="${2:-0}"
venv="${3:-$root/../.venv-executorch}"
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$pte" gen --seed "$first" --count "$count" "$out" || exit 2
bad=0
: >"$out/verdicts.jsonl"
for ((s = first; s < first + count; s++)); do
  f="gen-$s.pte"
  if "$pte" verify --deny-warnings "$out/$f" >/dev/null 2>&1; then valid=true; else valid=false; bad=$((bad + 1)); echo "REJECTED $f"; fi
  printf '{"file":"%s","source":"gen","mutation":"seed %s","region":"whole-file","external":false,"valid":%s,"warnings":[],"rules":[]}\n' \
    "$f" "$s" "$valid" >>"$out/verdicts.jsonl"
done
echo "pte verify: $((count - bad)) of $count pass"
if [ ! -x "$venv/bin/python" ]; then echo "skipped the runtime: no ExecuTorch venv at $venv"; exit $((bad > 0)); fi
"$venv/bin/python" "$root/scripts/conformance/et_mutants.py" "$out" --workers "$(nproc)" 2>&1 | grep -v -e W1203 -e cpuinfo_utils
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$out/verdicts.jsonl" "$out/runtime.jsonl" "$KEEP/"; fi
exit $((bad > 0))
