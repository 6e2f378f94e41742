#!/usr/bin/env bash
# Instructions per command, counted by valgrind's callgrind (a figure that
# does not move with the machine's load, so a regression shows as a
# number): `pte verify`, then info, size --json, memory --json, ops --json
# and report on the same file, each with its ratio to verify, and report
# against info plus verify. The targets (issue 48): verify of deep_program
# <= 16 M, each answer <= 1.2x verify, report <= 2x (info + verify).
#   bench/instructions.sh [FILE...]     default: tests/corpus/deep_program/model.pte
# Needs valgrind; prints a line saying so and exits 0 without it.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v valgrind >/dev/null; then
  echo "valgrind is not installed: no instruction counts"
  exit 0
fi
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
work=$(mktemp -d "${TMPDIR:-/tmp}/pte-instructions.XXXXXX"); trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- "$root/tests/corpus/deep_program/model.pte"
count() { # command...: instructions of one run, in all its threads
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -n 1
}
millions() { awk -v a="$1" 'BEGIN { printf "%.1f M", a / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }
for f in "$@"; do
  echo "== $f"
  verify=$(count "$pte" verify "$f")
  printf '  %-14s %10s\n' verify "$(millions "$verify")"
  info=0
  for cmd in info "size --json" "memory --json" "ops --json"; do
    n=$(count "$pte" $cmd "$f")
    [ "$cmd" = info ] && info=$n
    printf '  %-14s %10s  %s of verify\n' "$cmd" "$(millions "$n")" "$(ratio "$n" "$verify")"
  done
  n=$(count "$pte" report -o "$work/r.html" "$f")
  printf '  %-14s %10s  %s of info + verify\n' report "$(millions "$n")" "$(ratio "$n" "$((info + verify))")"
done
