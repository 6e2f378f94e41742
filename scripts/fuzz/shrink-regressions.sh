#!/usr/bin/env bash
# Acceptance of `pte shrink` (issue #51): kept crash and exception inputs
# shrunk with the predicate "the same parser fails the same way" (the stock
# runtime's signal, exir's exception type), each twice (the same bytes must
# come out) and once with --bytes-only given the same number of runs.
# Prints the table of docs/fuzzing.md; with KEEP=1, writes each result
# beside its original as NAME.min.pte (when it still has the ET12
# identifier the regression replay reads). Skips cleanly without the venv.
#   scripts/fuzz/shrink-regressions.sh [VENV]   (default ../.venv-executorch)
#   PTE=target/debug/pte scripts/fuzz/shrink-regressions.sh   (no release build)
#   ONLY=exir JOBS=3 ...: only the cases matching a regex, three at a time
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
if [ -z "${PTE:-}" ]; then
  cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
  PTE="$root/target/release/pte"
fi
work=$(mktemp -d)
sock="$work/oracle.sock"
oracle="$root/scripts/fuzz/shrink_oracle.py"
"$venv/bin/python" "$oracle" serve "$sock" "${TIMEOUT:-20}" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
until grep -q READY "$work/server.log" 2>/dev/null; do
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; exit 2; }
  sleep 1
done
py="$venv/bin/python"
# file and parser; the predicate is "fails as it fails on the original".
# A third field keeps the result under that name instead of NAME.min.pte;
# suite/ names a file of `pte conformance export`.
cases=(
  "out-of-bounds/pte-delegate-inline-table-absent.pte et"
  "overflow/pte-exir-offset-past-u32.pte exir"
  "out-of-bounds/pte-root-offset-past-end.pte exir"
  "out-of-bounds/pte-vtable-before-start.pte exir"
  "overflow/pte-segment-base-plus-size-wraps.pte exir"
  "suite/invalid.pte.missing-method-name.pte et out-of-bounds/pte-plan-name-absent-stock-abort.pte"
)
"$PTE" conformance export "$work/suite" >/dev/null || exit 2
one() {
  local rel=$1 mode=$2 keep=${3:-} name
  name=$(basename "$rel" .pte)
  local in="$root/tests/regressions/$rel" d="$work/$name"
  [[ "$rel" == suite/* ]] && in="$work/$rel"
  mkdir -p "$d"
  local want; want=$("$py" "$oracle" what "$sock" "$mode" "$in")
  local pred=(-- "$py" "$oracle" ask "$sock" "$mode" "$want" "{}")
  # the two structural runs at once: most of a run is waiting on the oracle
  "$PTE" shrink "$in" -o "$d/a.pte" "${pred[@]}" >"$d/a.txt" 2>&1 &
  local first=$!
  "$PTE" shrink "$in" -o "$d/b.pte" "${pred[@]}" >"$d/b.txt" 2>&1 || { cat "$d/b.txt"; return 1; }
  wait "$first" || { cat "$d/a.txt"; return 1; }
  local runs; runs=$(sed -n 's/.*, \([0-9]*\) runs, .*/\1/p' "$d/a.txt")
  "$PTE" shrink "$in" -o "$d/c.pte" --bytes-only --max-runs "$runs" "${pred[@]}" >"$d/c.txt" 2>&1 || { cat "$d/c.txt"; return 1; }
  local same=no; cmp -s "$d/a.pte" "$d/b.pte" && same=yes
  local still; still=$("$py" "$oracle" what "$sock" "$mode" "$d/a.pte")
  local before after bytes
  before=$(stat -c %s "$in"); after=$(stat -c %s "$d/a.pte"); bytes=$(stat -c %s "$d/c.pte")
  echo "| \`$rel\` | $mode: $want | $before | $after ($(( (before - after) * 100 / before ))% smaller) | $bytes | $runs | $same | $still |" >"$d/row"
  # the regression replay picks a reader by the identifier: keep what has one
  if [ -n "${KEEP:-}" ] && [ "$(dd if="$d/a.pte" bs=1 skip=4 count=4 2>/dev/null | tr -d "\\0")" = ET12 ]; then
    if [ -n "$keep" ]; then cp "$d/a.pte" "$root/tests/regressions/$keep"; else cp "$d/a.pte" "${in%.pte}.min.pte"; fi
  fi
}
pids=()
for c in "${cases[@]}"; do
  [[ "$c" =~ ${ONLY:-.} ]] || continue
  # shellcheck disable=SC2086
  one $c &
  pids+=($!)
  # two at a time: the machine has few cores
  if [ ${#pids[@]} -ge "${JOBS:-2}" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
# only the cases: a bare wait would wait for the oracle server too
wait "${pids[@]}"
echo "| file | parser: failure | bytes | after structural | after --bytes-only (same runs) | runs | twice the same | result's answer |"
echo "|---|---|---:|---:|---:|---:|---|---|"
for c in "${cases[@]}"; do
  [[ "$c" =~ ${ONLY:-.} ]] || continue
  set -- $c
  cat "$work/$(basename "$1" .pte)/row" 2>/dev/null || echo "| \`$1\` | failed |"
done
