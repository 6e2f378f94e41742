#!/usr/bin/env bash
# Time and peak resident memory of every reading command (and rewrite) on
# resource-hostile inputs (zip bombs, a 100 KB package whose member inflates
# to 96 MiB, 65,536 members, 1M segment entries
# sharing one range, a program of 1M values with its constants in a segment
# and inline in the deprecated constant_buffer), and `pte samples check`
# against hostile runners (pte-runner-demo's switches: a 2^40-byte payload
# claimed, an output declared 2^40 bytes, a million outputs, stderr without
# a newline, a 100 KB error, a runner gone while a child holds its pipes).
# Target: each answered or refused within 2 s and 64 MiB plus twice the
# file size resident (the file is mapped: reading it all counts once, a
# copy of it twice).
#   scripts/bench/hostile-bench.sh            (release build; prints a markdown table)
#   PTE_BIN=/path/to/pte scripts/bench/hostile-bench.sh   (another build of pte, say an older one)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
cargo build -q --release -p pte-cli --example pte-runner-demo --manifest-path "$root/Cargo.toml" || exit 2
cargo build -q --release -p pte-gen --example hostile --manifest-path "$root/Cargo.toml" || exit 2
pte="${PTE_BIN:-$root/target/release/pte}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$root/target/release/examples/hostile" "$work/in" >/dev/null || exit 2
# wall, cpu and rss of the run /usr/bin/time wrote to $work/time
read_time() {
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  cpu=$(awk -F': ' '/User time|System time/ {t += $2} END {printf "%.2f", t}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$work/time")
}
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
  for cmd in info "info --tensors" "info --json" verify "verify --json" dump size graph diff extract memory ops report rewrite; do
    case $cmd in
      rewrite) args=("$f" "$work/out-$name") ;;
      extract) args=("$f" "$work/x-$name") ;;
      diff) args=("$f" "$f") ;;
      report) args=("$f" -o "$work/report-$name.html") ;;
      *) args=("$f") ;;
    esac
    # shellcheck disable=SC2086 # the command's flags split on purpose
    set -- $cmd
    /usr/bin/time -v -o "$work/time" "$pte" "$@" "${args[@]}" >"$work/stdout" 2>"$work/stderr"
    code=$?
    read_time
    answer=$( { head -c 300 "$work/stderr"; [ -s "$work/stderr" ] || head -c 120 "$work/stdout"; } | head -n 1 | sed "s|$work/in/||g; s|$work/||g; s/|/\\\\|/g")
    echo "| $name | $size | $cmd | $code | $wall | $cpu | $rss | ${answer:0:110} |"
    awk -v w="$wall" -v r="$rss" -v s="$size" 'BEGIN { exit !(w > 2 || r > 64 + 2 * s / 1048576) }' && over=$((over+1))
    rm -rf "$work/out-$name" "$work/x-$name" "$work/report-$name.html"
  done
done
# `pte dump --exir` of the 1M-value program: written from the file's views,
# exir's folding applied on the way (no decoded model).
f="$work/in/values-1m.pte"; size=$(stat -c %s "$f")
/usr/bin/time -v -o "$work/time" "$pte" dump --exir "$f" >/dev/null 2>"$work/stderr"
code=$?
read_time
echo "| values-1m.pte | $size | dump --exir | $code | $wall | $cpu | $rss | $(head -c 110 "$work/stderr" | head -n 1) |"
awk -v w="$wall" -v r="$rss" -v s="$size" 'BEGIN { exit !(w > 2 || r > 64 + 2 * s / 1048576) }' && over=$((over+1))
# `pte pack` of an extract folder whose delegate blob grew to 256 MiB (its
# segment's file and the delegate entry are the same file): the input is the
# folder, and each blob file is read once.
"$pte" extract "$root/tests/corpus/xnnpack_mlp/model.pte" "$work/grown" >/dev/null || exit 2
truncate -s 256M "$work/grown/segment-1.bin"
size=$(du -sb --apparent-size "$work/grown" | cut -f1)
/usr/bin/time -v -o "$work/time" "$pte" pack "$work/grown" "$work/grown.pte" >"$work/stdout" 2>"$work/stderr"
code=$?
read_time
answer=$( { head -c 300 "$work/stderr"; [ -s "$work/stderr" ] || head -c 120 "$work/stdout"; } | head -n 1 | sed "s|$work/||g; s/|/\\\\|/g")
echo "| extract folder, delegate blob grown to 256 MiB | $size | pack | $code | $wall | $cpu | $rss | ${answer:0:110} |"
# writing 256 MiB takes the disk's time: memory is the bound here
awk -v r="$rss" -v s="$size" 'BEGIN { exit !(r > 64 + 2 * s / 1048576) }' && over=$((over+1))
rm -rf "$work/grown" "$work/grown.pte"
# A one-call sample set of the demo runner's `forward` (x = [1, 2]).
mkdir -p "$work/sums/forward/sums"
python3 - "$work/sums/forward/sums" <<'PY' || exit 2
import json, struct, sys
d = sys.argv[1]
t = lambda k: {"type": "tensor", "key": k, "dtype": "F32", "shape": [2]}
json.dump({"format": "pte-samples", "version": 1, "method": "forward", "set": "sums",
           "samples": [{"calls": [{"inputs": [t("x")], "outputs": [t("y"), {"type": "int", "value": 1}]}]}]},
          open(d + "/index.json", "w"))
head = json.dumps({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                   "y": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}).encode()
head += b" " * (-len(head) % 8)
open(d + "/data.safetensors", "wb").write(struct.pack("<Q", len(head)) + head + struct.pack("<4f", 1, 2, 1, 2))
PY
demo="$root/target/release/examples/pte-runner-demo"
size=$(du -sb "$work/sums" | cut -f1)
for mode in "--huge-data-at 1" "--huge-shape-at 1" "--many-outputs-at 1" "--stderr-flood-at 1" "--ugly-error-at 1" "--exit-leaving-child-at 1"; do
  # shellcheck disable=SC2086 # the switch and its number split on purpose
  /usr/bin/time -v -o "$work/time" "$pte" samples check "$work/sums" --timeout 3 -- "$demo" $mode >"$work/stdout" 2>"$work/stderr"
  code=$?
  read_time
  answer=$(head -c 300 "$work/stderr" | head -n 1 | sed "s|$work/||g; s/|/\\\\|/g")
  echo "| runner $mode | $size | samples check | $code | $wall | $cpu | $rss | ${answer:0:110} |"
  # the stderr flood runs until the 3 s timeout by design: memory is the bound there
  awk -v w="$wall" -v r="$rss" -v s="$size" -v m="$mode" 'BEGIN { exit !((w > 2 && m !~ /stderr-flood/) || r > 64 + 2 * s / 1048576) }' && over=$((over+1))
done
# An honest reply of 64 MiB: `scale` of a 16M-element F32 tensor by 1 (a
# set of 128 MiB, input and output). /usr/bin/time reports the larger of pte
# and the runner, so pte's own peak is read from /proc (VmHWM) while it runs.
mkdir -p "$work/big/scale/big"
python3 - "$work/big/scale/big" <<'PY' || exit 2
import json, struct, sys
d, n = sys.argv[1], 16 << 20
t = lambda k: {"type": "tensor", "key": k, "dtype": "F32", "shape": [n]}
json.dump({"format": "pte-samples", "version": 1, "method": "scale", "set": "big",
           "samples": [{"calls": [{"inputs": [t("x"), {"type": "float", "value": 1.0}], "outputs": [t("y")]}]}]},
          open(d + "/index.json", "w"))
head = json.dumps({"x": {"dtype": "F32", "shape": [n], "data_offsets": [0, 4 * n]},
                   "y": {"dtype": "F32", "shape": [n], "data_offsets": [4 * n, 8 * n]}}).encode()
head += b" " * (-len(head) % 8)
with open(d + "/data.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(head)) + head)
    block = struct.pack("<4f", 1, 2, 3, 4) * (1 << 16)
    for _ in range(8 * n // len(block)):
        f.write(block)
PY
size=$(du -sb "$work/big" | cut -f1)
start=$(date +%s.%N)
"$pte" samples check "$work/big" -- "$demo" >"$work/stdout" 2>"$work/stderr" & pid=$!
hwm=0
while kill -0 "$pid" 2>/dev/null; do
  v=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null)
  [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
  sleep 0.005
done
wait "$pid"; code=$?
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
rss=$(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }')
answer=$(head -c 300 "$work/stderr" | head -n 1 | sed "s|$work/||g; s/|/\\\\|/g")
echo "| honest runner, a 64 MiB output | $size | samples check | $code | $wall | - | $rss (pte alone) | ${answer:0:110} |"
# the wall time is mostly the runner's (128 MiB through pipes, its own
# copies): memory is the bound here (1.3-1.8 s unloaded, 2.2 s at load 9)
awk -v r="$rss" -v s="$size" 'BEGIN { exit !(r > 64 + 2 * s / 1048576) }' && over=$((over+1))
rm -rf "$work/big"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$over run(s) over 2 s or 64 MiB plus twice the file size"
