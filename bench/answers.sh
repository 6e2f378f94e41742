#!/usr/bin/env bash
# What each deployment answer costs beside a full verify of the same file:
# `pte size`, `pte memory`, `pte ops` and `pte report` against `pte verify`
# (wall time, median of 5 runs as processes, and peak RSS), on the 256 MiB
# exporter-shaped file (examples/make_big) and the program-heavy corpus file
# (deep_program). The issue's target: each answer within a full verify plus
# writing its output (the output is sent to /dev/null, so the ratio is the
# answer's own cost).
#   bench/answers.sh [MIB]      default 256
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mib="${1:-256}"
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" && \
  cargo build -q --release -p pte-verify --examples --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
work=$(mktemp -d "${TMPDIR:-/tmp}/pte-answers.XXXXXX"); trap 'rm -rf "$work"' EXIT
"$root/target/release/examples/make_big" "$work/big.pte" "$mib" >/dev/null
runs=5
median() { # command...: the median wall time of $runs runs, seconds
  local ts=() i s e
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    ts+=("$(awk -v a="$e" -v b="$s" 'BEGIN { printf "%.4f", a - b }')")
  done
  printf '%s\n' "${ts[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p"
}
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
echo "machine: $(nproc) cores; $runs runs each, median wall time; peak RSS in KiB"
printf '%-22s %-8s %10s %10s %12s\n' file command seconds ratio peak_rss_kib
for f in "$work/big.pte" "$root/tests/corpus/deep_program/model.pte"; do
  name=$(basename "$(dirname "$f")")/$(basename "$f"); [ "$f" = "$work/big.pte" ] && name="big-${mib}MiB.pte"
  base=$(median "$pte" verify "$f")
  printf '%-22s %-8s %10s %10s %12s\n' "$name" verify "$base" 1.00 "$(peak "$pte" verify "$f")"
  for cmd in "size --json" "memory --json" "ops --json" "report -o $work/r.html"; do
    set -- $cmd
    if ! "$pte" "$1" --help >/dev/null 2>&1; then continue; fi
    t=$(median "$pte" $cmd "$f")
    printf '%-22s %-8s %10s %10s %12s\n' "$name" "$1" "$t" "$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" \
      "$(peak "$pte" $cmd "$f")"
  done
done
