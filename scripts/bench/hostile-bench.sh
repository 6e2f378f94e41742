#!/usr/bin/env bash
# Time and peak resident memory of every reading command on resource-hostile
# inputs (zip bombs, 65,536 members, 1M segment entries sharing one range).
# Target: each answered or refused within 2 s and 64 MiB resident.
#   scripts/bench/hostile-bench.sh            (release build; prints a markdown table)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
cargo build -q --release -p pte-gen --example hostile --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$root/target/release/examples/hostile" "$work/in" >/dev/null || exit 2
# Resident memory does not depend on the machine's load; wall time does, so
# the load average is printed with the table and CPU time (user + system)
# beside the wall time.
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| input | size | command | exit | wall s | cpu s | max RSS MiB | answer |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
over=0
for f in "$work"/in/*; do
  name=$(basename "$f"); size=$(stat -c %s "$f")
  for cmd in info verify dump rewrite extract; do
    case $cmd in
      rewrite) args=("$f" "$work/out-$name") ;;
      extract) args=("$f" "$work/x-$name") ;;
      *) args=("$f") ;;
    esac
    /usr/bin/time -v -o "$work/time" "$pte" "$cmd" "${args[@]}" >"$work/stdout" 2>"$work/stderr"
    code=$?
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    cpu=$(awk -F': ' '/User time|System time/ {t += $2} END {printf "%.2f", t}' "$work/time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$work/time")
    answer=$( { head -c 300 "$work/stderr"; [ -s "$work/stderr" ] || head -c 120 "$work/stdout"; } | head -n 1 | sed "s|$work/in/||g; s|$work/||g; s/|/\\\\|/g")
    echo "| $name | $size | $cmd | $code | $wall | $cpu | $rss | ${answer:0:110} |"
    awk -v w="$wall" -v r="$rss" 'BEGIN { exit !(w > 2 || r > 64) }' && over=$((over+1))
    rm -rf "$work/out-$name" "$work/x-$name"
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$over run(s) over 2 s or 64 MiB"
