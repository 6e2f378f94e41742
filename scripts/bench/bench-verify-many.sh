#!/usr/bin/env bash
# Compares one `pte verify DIR` (parallel workers in one process) with one
# `pte verify FILE` process per file, over the same files, ROUNDS times each;
# with COMMAND `info`, the same for `pte info --json` (the batch machinery
# both share).
# Usage: scripts/bench/bench-verify-many.sh [DIR] [ROUNDS] [verify|info]
#        (default tests/corpus, 20, verify)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$root/tests/corpus}"
rounds="${2:-20}"
cmd="${3:-verify}"
case "$cmd" in
  verify) args=(verify) ;;
  info) args=(info --json) ;;
  *) echo "unknown command $cmd (verify or info)" >&2; exit 2 ;;
esac
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml"
pte="$root/target/release/pte"
# the same files the batch checks, from its own JSON lines
mapfile -t files < <("$pte" verify --json "$dir" | python3 -c '
import json, sys
for line in sys.stdin:
    row = json.loads(line)
    if "file" in row:
        print(row["file"])')
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
t=$(date +%s%N)
for _ in $(seq "$rounds"); do "$pte" "${args[@]}" "$dir" >/dev/null || true; done
batch=$(ms "$t")
t=$(date +%s%N)
for _ in $(seq "$rounds"); do
  for f in "${files[@]}"; do "$pte" "${args[@]}" "$f" >/dev/null 2>&1 || true; done
done
each=$(ms "$t")
echo "pte $cmd; files: ${#files[@]}, rounds: $rounds, cores: $(nproc)"
echo "one process, parallel workers: ${batch} ms total, $((batch / rounds)) ms per run"
echo "one process per file:          ${each} ms total, $((each / rounds)) ms per run"
